"""Figures a probe records, built from arrays: ``r.figure(lines(name, title, alt, {"label": (x, y)}, ...))``.

Part of the public face for claim files (docs/writing-claims.md). A figure holds measured data only; the report
draws it as inline SVG. Arrays (NumPy, torch, lists) become plain floats here, so a probe never converts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict, Unpack

from checks.results.records import Figure, FigureKind, Series

Points = tuple[Iterable[Any], Iterable[Any]] | Iterable[Any]
"""(x, y) of one series, or y alone (x is then 0, 1, 2, …)."""


class Axes(TypedDict, total=False):
    """How a lines or scatter figure is laid out."""

    x_label: str
    y_label: str
    marks: Mapping[str, float]
    """Labelled vertical lines (a boundary, say)."""
    log_x: bool
    log_y: bool


def lines(name: str, title: str, alt: str, series: Mapping[str, Points], **axes: Unpack[Axes]) -> Figure:
    """Labelled lines: ``series`` maps a label to its (x, y) points, or to y alone."""
    return _plotted("lines", name, title, alt, series, axes)


def scatter(name: str, title: str, alt: str, series: Mapping[str, Points], **axes: Unpack[Axes]) -> Figure:
    """Labelled sets of points, drawn unjoined."""
    return _plotted("scatter", name, title, alt, series, axes)


def heatmap(
    name: str, title: str, alt: str, matrix: Iterable[Iterable[Any]], *, x_label: str = "", y_label: str = ""
) -> Figure:
    """A matrix of values, one row per line of the picture."""
    rows = [floats(row) for row in matrix]
    return Figure(name, "heatmap", title, alt, x_label=x_label, y_label=y_label, matrix=rows)


def intervals(
    name: str,
    title: str,
    alt: str,
    rows: Mapping[str, tuple[Any, Any, Any, Iterable[Any]]],
    *,
    x_label: str = "",
    marks: Mapping[str, float] | None = None,
) -> Figure:
    """One row per name, top to bottom: ``(low, middle, high, values)`` drawn as a bar with its middle and the
    single values as dots (an effect's interval and each seed's effect, say); ``marks`` are vertical lines."""
    series = {
        str(label): Series(x=floats(values), y=[float(low), float(middle), float(high)])
        for label, (low, middle, high, values) in rows.items()
    }
    lines = {str(label): float(at) for label, at in (marks or {}).items()}
    return Figure(name, "intervals", title, alt, x_label=x_label, series=series, marks=lines)


def floats(values: Iterable[Any]) -> list[float]:
    """Plain floats of an array, a tensor or any iterable of numbers."""
    if hasattr(values, "detach"):
        values = values.detach().cpu()
    if hasattr(values, "tolist"):
        values = values.tolist()
    return [float(value) for value in values]


def _plotted(kind: FigureKind, name: str, title: str, alt: str, series: Mapping[str, Points], axes: Axes) -> Figure:
    drawn = {str(label): _series(points) for label, points in series.items()}
    marks = {str(label): float(at) for label, at in axes.get("marks", {}).items()}
    return Figure(
        name,
        kind,
        title,
        alt,
        x_label=axes.get("x_label", ""),
        y_label=axes.get("y_label", ""),
        series=drawn,
        marks=marks,
        log_x=axes.get("log_x", False),
        log_y=axes.get("log_y", False),
    )


def _series(points: Points) -> Series:
    if isinstance(points, tuple) and len(points) == 2:
        x, y = points
        return Series(y=floats(y), x=floats(x))
    return Series(y=floats(points))


__all__ = ["Figure", "heatmap", "intervals", "lines", "scatter"]
