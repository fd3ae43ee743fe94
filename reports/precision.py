"""The implementations page's precision section: every implementation's fingerprint in each dtype
(checks.implementations.dtype_fingerprint), one table and one envelope chart per capability and dtype."""

from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup

from checks.figures import lines
from checks.numerics.tolerances import BFLOAT16, FLOAT16, FLOAT32, FLOAT64
from checks.results.records import DtypeFingerprint
from reports.figures import FigureError, render
from reports.model import Site

SMALLEST = 1e-20
"""Errors below this (an exact answer) are drawn at it: a log axis has no 0."""


@dataclass(frozen=True)
class PrecisionView:
    """One capability in one dtype: each implementation's fingerprint there, and their envelopes drawn."""

    capability: str
    dtype: str
    rows: list[tuple[str, str, DtypeFingerprint]]
    """(the implementation's name, its label: the name, with the machine when several results files are read, its
    fingerprint)."""
    chart: Markup | None
    problem: str
    """Why the chart could not be drawn ("" when it was)."""


def precision_views(site: Site) -> list[PrecisionView]:
    """Per capability and dtype (coarsest first), the fingerprints of every implementation that has one."""
    found: dict[tuple[str, str], list[tuple[str, str, DtypeFingerprint]]] = {}
    several = len(site.sources) > 1
    for source, record in site.implementations:
        label = f"{record.name} ({source.machine})" if several else record.name
        for fingerprint in record.precision:
            if not site.shows(fingerprint.capability):
                continue
            found.setdefault((fingerprint.capability, fingerprint.dtype), []).append((record.name, label, fingerprint))
    order = {dtype: n for n, dtype in enumerate((BFLOAT16, FLOAT16, FLOAT32, FLOAT64))}
    keys = sorted(found, key=lambda key: (key[0], order.get(key[1], len(order))))
    return [_view(capability, dtype, found[(capability, dtype)]) for capability, dtype in keys]


def _view(capability: str, dtype: str, rows: list[tuple[str, str, DtypeFingerprint]]) -> PrecisionView:
    series = {label: _envelope(fingerprint) for _, label, fingerprint in rows}
    figure = lines(
        f"envelope-{capability}-{dtype}",
        f"{capability} in {dtype}: the largest error up to each position",
        f"Log-log chart of the largest error against the float64 reference up to each power of two, for each "
        f"{capability} implementation in {dtype}; a line that stops has values that are not finite beyond.",
        {name: points for name, points in series.items() if points[0]},
        x_label="position (up to)",
        y_label="largest |error|",
        log_x=True,
        log_y=True,
    )
    try:
        return PrecisionView(capability, dtype, rows, render(figure), "")
    except FigureError as error:
        return PrecisionView(capability, dtype, rows, None, str(error))


def _envelope(fingerprint: DtypeFingerprint) -> tuple[list[float], list[float]]:
    """The envelope's finite points with a position ≥ 1 (a log axis), errors of 0 drawn at SMALLEST."""
    points = [(at, max(error, SMALLEST)) for at, error in fingerprint.envelope if at >= 1 and math.isfinite(error)]
    return [at for at, _ in points], [error for _, error in points]
