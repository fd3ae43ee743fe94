"""Figures (checks.results.Figure) drawn as small inline SVG (no plotting library, no XML prolog).

Text and axes use ``currentColor`` so a figure follows the page's light or dark scheme;
series take their colour from classes s0…s7 (Okabe–Ito, lighter in the dark scheme; see
style.css). A y (or x) axis whose positive values span four decades or more is drawn on a
log scale, and says so in its label.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from markupsafe import Markup

from checks.results import Figure
from checks.results.records import Series

SERIES_CLASSES = 8
LARGEST = 1e300
"""Values beyond this magnitude are refused: the axes' arithmetic would overflow."""
LEVELS = 48
"""Shades a heatmap quantises its values to."""
WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, BOTTOM, TOP = 72, 20, 48, 14
DIVERGING = ((0.0, (213, 94, 0)), (0.5, (247, 247, 247)), (1.0, (0, 114, 178)))
SEQUENTIAL = (
    (0.0, (68, 1, 84)),
    (0.25, (59, 82, 139)),
    (0.5, (33, 145, 140)),
    (0.75, (94, 201, 98)),
    (1.0, (253, 231, 37)),
)


class FigureError(ValueError):
    """Figure data the report cannot draw."""


@dataclass(frozen=True)
class Axis:
    low: float
    high: float
    start: float
    end: float
    log: bool

    def __call__(self, value: float) -> float:
        v = math.log10(value) if self.log else value
        return self.start + (v - self.low) / (self.high - self.low) * (self.end - self.start)

    def ticks(self) -> list[tuple[float, str]]:
        if self.log:
            first, last = math.ceil(self.low), math.floor(self.high)
            step = max(1, math.ceil((last - first + 1) / 7))
            return [(10.0**e, f"1e{e}") for e in range(first, last + 1, step)]
        step = _nice_step((self.high - self.low) / 5)
        first = math.ceil(self.low / step) * step
        count = math.floor((self.high - first) / step + 1e-9) + 1
        return [(first + i * step, _number(first + i * step, step)) for i in range(count)]


def render(figure: Figure) -> Markup:
    """The figure as an <svg> element; FigureError if its data cannot be drawn."""
    kind = figure.kind
    draw: dict[str, Callable[[Figure], list[str]]] = {
        "lines": _lines,
        "scatter": _lines,
        "heatmap": _heatmap,
        "intervals": _intervals,
    }
    if kind not in draw:
        raise FigureError(f"unknown figure kind {kind!r}")
    alt = figure.alt or figure.title or figure.name or "figure"
    largest = max((abs(v) for v in _values(figure) if math.isfinite(v)), default=0.0)
    if largest > LARGEST:
        raise FigureError(f"a value of magnitude {largest:.3g} is too large to draw (at most {LARGEST:.0e})")
    try:
        body = draw[kind](figure)
    except ArithmeticError as error:  # a range too wide for floating point, past the check above
        raise FigureError(f"these values cannot be drawn ({type(error).__name__}: {error})") from None
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(alt)}" class="figure" font-size="12" fill="currentColor">'
        f"<title>{escape(alt)}</title>"
    )
    return Markup(head + "".join(body) + "</svg>")


def _values(figure: Figure) -> list[float]:
    """Every number the figure would place."""
    points = [v for s in figure.series.values() for v in (*s.x, *s.y)]
    return [*points, *(v for row in figure.matrix for v in row), *figure.marks.values()]


def _lines(figure: Figure) -> list[str]:
    series = figure.series
    if not series:
        raise FigureError("a lines or scatter figure needs series")
    log_x, log_y = figure.log_x, figure.log_y
    points = {
        str(label): [(a, b) for a, b in _points(data) if (a > 0 or not log_x) and (b > 0 or not log_y)]
        for label, data in series.items()
    }
    points = {label: ps for label, ps in points.items() if ps}  # a log axis leaves out zeros
    marks = {k: v for k, v in figure.marks.items() if _finite(v) and (v > 0 or not log_x)}
    xs = [x for ps in points.values() for x, _ in ps] + [float(v) for v in marks.values()]
    ys = [y for ps in points.values() for _, y in ps]
    if not xs or not ys:
        raise FigureError("no finite points to draw")
    legend_rows = _legend_rows(list(points))
    top = TOP + 18 * legend_rows
    x = _axis(xs, LEFT, WIDTH - RIGHT, log_x)
    y = _axis(ys, HEIGHT - BOTTOM, top, log_y)
    out = _frame(x, y, figure.x_label, figure.y_label, top)
    out += _legend(list(points))
    scatter = figure.kind == "scatter"
    for n, (label, ps) in enumerate(points.items()):
        css = f"s{n % SERIES_CLASSES}"
        if scatter:
            dots = "".join(f'<circle cx="{x(a):.1f}" cy="{y(b):.1f}" r="2.6"/>' for a, b in ps)
            out.append(
                f'<g class="{css}" fill="currentColor" fill-opacity="0.85"><title>{escape(label)}</title>{dots}</g>'
            )
        else:
            coords = " ".join(f"{x(a):.1f},{y(b):.1f}" for a, b in ps)
            out.append(
                f'<polyline class="{css}" points="{coords}" fill="none" stroke="currentColor" stroke-width="1.8" '
                f'stroke-linejoin="round"><title>{escape(label)}</title></polyline>'
            )
    return out + _marks(x, marks, top)


def _marks(x: Axis, marks: dict[str, float], top: float) -> list[str]:
    """Labelled dashed vertical lines, labels in rows so that none overlaps the next."""
    out = []
    placed = sorted(((x(float(value)), label) for label, value in marks.items()), key=lambda item: item[0])
    for (at, label), row in zip(placed, _label_rows([(at, label) for at, label in placed]), strict=True):
        out.append(
            f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{top}" y2="{HEIGHT - BOTTOM}" stroke="currentColor" '
            f'stroke-dasharray="5 4" stroke-opacity="0.8"/>'
            f'<text x="{_label_span(at, label)[0]:.1f}" y="{top + 12 + MARK_ROW * row}" font-size="11">'
            f"{escape(label)}</text>"
        )
    return out


NAME_WIDTH, NAME_CHARACTER = 290, 6.8
"""The widest row name of an intervals figure and the width of one of its characters at font size 12 (pixels);
a longer name is cut with "…"."""


def _intervals(figure: Figure) -> list[str]:
    """One row per series: the interval ``y`` = [low, middle, high] as a bar with its middle, ``x`` as dots."""
    rows = [(str(label), data) for label, data in figure.series.items()]
    if not rows or any(len(data.y) != 3 or not all(_finite(v) for v in data.y) for _, data in rows):
        raise FigureError("an intervals figure needs rows of [low, middle, high]")
    marks = {k: float(v) for k, v in figure.marks.items() if _finite(v)}
    xs = [float(v) for _, data in rows for v in (*data.y, *data.x) if _finite(v)] + list(marks.values())
    longest = max(len(name) for name, _ in rows) * NAME_CHARACTER
    left = 16 + min(NAME_WIDTH, longest)
    top = TOP + (16 + MARK_ROW * len(marks) if marks else 0)
    x = _axis(xs, left, WIDTH - RIGHT)
    names = [(len(rows) - 1 - n, _cut(name, NAME_WIDTH)) for n, (name, _) in enumerate(rows)]
    y = Named(-0.5, len(rows) - 0.5, HEIGHT - BOTTOM, top, False, tuple(names))
    out = _frame(x, y, figure.x_label, figure.y_label, top)
    for (at, _), (name, data) in zip(names, rows, strict=True):
        low, middle, high = (x(float(v)) for v in data.y)
        row = y(at)
        dots = "".join(f'<circle cx="{x(float(v)):.1f}" cy="{row:.1f}" r="2.4"/>' for v in data.x if _finite(v))
        out.append(
            f'<g class="s0" fill="currentColor" stroke="currentColor"><title>{escape(name)}</title>'
            f'<line x1="{low:.1f}" x2="{high:.1f}" y1="{row:.1f}" y2="{row:.1f}" stroke-width="2.2"/>'
            f'<circle cx="{middle:.1f}" cy="{row:.1f}" r="4.5"/>'
            f'<g fill-opacity="0.45" stroke="none">{dots}</g></g>'
        )
    return out + _marks(x, marks, TOP)


def _cut(name: str, width: float) -> str:
    fits = int(width // NAME_CHARACTER)
    return name if len(name) <= fits else name[: fits - 1] + "…"


MARK_ROW, CHARACTER = 13, 6.2
"""A mark label's row height and the width of one of its characters at font size 11 (pixels)."""


def _label_span(at: float, label: str) -> tuple[float, float]:
    """Where a mark's label runs: right of its line, or left of it where it would pass the figure's right edge."""
    width = CHARACTER * len(label)
    return (at + 4, at + 4 + width) if at + 4 + width <= WIDTH else (at - 4 - width, at - 4)


def _label_rows(placed: list[tuple[float, str]]) -> list[int]:
    """For marks sorted by x, the row of each label: the first row where it does not overlap the label before."""
    ends: list[float] = []
    rows = []
    for at, label in placed:
        start, end = _label_span(at, label)
        row = next((n for n, taken in enumerate(ends) if start > taken + 4), len(ends))
        if row == len(ends):
            ends.append(end)
        else:
            ends[row] = end
        rows.append(row)
    return rows


def _heatmap(figure: Figure) -> list[str]:
    rows = [[_float(v) for v in row] for row in figure.matrix]
    columns = max((len(r) for r in rows), default=0)
    values = [v for row in rows for v in row if v is not None]
    if not rows or not columns or not values:
        raise FigureError("a heatmap needs a non-empty matrix")
    low, high = min(values), max(values)
    diverging = low < 0 < high
    if diverging:
        low, high = -max(-low, high), max(-low, high)
    if high == low:
        high = low + 1.0
    stops = DIVERGING if diverging else SEQUENTIAL
    right = WIDTH - RIGHT - 70
    cell_w, cell_h = (right - LEFT) / columns, (HEIGHT - BOTTOM - TOP) / len(rows)
    x = Axis(-0.5, columns - 0.5, LEFT, right, False)  # integer i lands on the centre of cell i
    y = Axis(-0.5, len(rows) - 0.5, TOP, HEIGHT - BOTTOM, False)
    out = _frame(x, y, figure.x_label, figure.y_label, TOP, grid=False)
    out.insert(0, _cells(rows, stops, low, high, cell_w, cell_h))
    out += _colour_bar(stops, low, high, right + 24)
    return out


def _cells(rows: list[list[float | None]], stops: tuple, low: float, high: float, w: float, h: float) -> str:
    """The cells as one path per colour (LEVELS shades), equal neighbours in a row merged: small markup."""
    paths: dict[int, list[str]] = {}
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            value = row[c]
            if value is None:
                c += 1
                continue
            level = round((value - low) / (high - low) * LEVELS)
            end = c + 1
            while end < len(row) and row[end] is not None and round((row[end] - low) / (high - low) * LEVELS) == level:
                end += 1
            x, y = LEFT + c * w, TOP + r * h
            paths.setdefault(level, []).append(f"M{x:.1f} {y:.1f}h{(end - c) * w + 0.3:.1f}v{h + 0.3:.1f}H{x:.1f}z")
            c = end
    return "".join(
        f'<path fill="{_colour(stops, level / LEVELS)}" d="{"".join(parts)}"/>'
        for level, parts in sorted(paths.items())
    )


def _frame(x: Axis, y: Axis, x_label: str, y_label: str, top: float, grid: bool = True) -> list[str]:
    """Axes, ticks, grid and labels."""
    bottom = HEIGHT - BOTTOM
    out = [
        f'<g stroke="currentColor" stroke-opacity="0.55"><line x1="{x.start}" x2="{x.end}" y1="{bottom}" '
        f'y2="{bottom}"/><line x1="{x.start}" x2="{x.start}" y1="{top}" y2="{bottom}"/></g>'
    ]
    ticks = []
    for value, text in x.ticks():
        at = x(value)
        if grid:
            ticks.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{top}" y2="{bottom}" stroke-opacity="0.12"/>')
        ticks.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{bottom}" y2="{bottom + 4}"/>')
        out.append(f'<text x="{at:.1f}" y="{bottom + 16}" text-anchor="middle">{escape(text)}</text>')
    for value, text in y.ticks():
        at = y(value)
        if grid:
            ticks.append(f'<line x1="{x.start}" x2="{x.end}" y1="{at:.1f}" y2="{at:.1f}" stroke-opacity="0.12"/>')
        ticks.append(f'<line x1="{x.start - 4}" x2="{x.start}" y1="{at:.1f}" y2="{at:.1f}"/>')
        out.append(f'<text x="{x.start - 7}" y="{at + 4:.1f}" text-anchor="end">{escape(text)}</text>')
    out.insert(0, f'<g stroke="currentColor">{"".join(ticks)}</g>')
    if x.log:
        x_label = f"{x_label} (log scale)".strip()
    if y.log:
        y_label = f"{y_label} (log scale)".strip()
    middle = (top + bottom) / 2
    out.append(f'<text x="{(x.start + x.end) / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle">{escape(x_label)}</text>')
    out.append(
        f'<text transform="translate(16 {middle:.1f}) rotate(-90)" text-anchor="middle">{escape(y_label)}</text>'
    )
    return out


def _legend_rows(labels: list[str]) -> int:
    return 0 if len(labels) < 2 else _legend_layout(labels)[-1][1] + 1


def _legend_layout(labels: list[str]) -> list[tuple[float, int]]:
    """(x, row) of each legend entry, wrapped to the plot width."""
    placed, at, row = [], float(LEFT), 0
    for label in labels:
        width = 22 + 7 * len(label) + 14
        if at + width > WIDTH - RIGHT and at > LEFT:
            at, row = float(LEFT), row + 1
        placed.append((at, row))
        at += width
    return placed


def _legend(labels: list[str]) -> list[str]:
    if len(labels) < 2:
        return []
    out = []
    for n, (label, (at, row)) in enumerate(zip(labels, _legend_layout(labels), strict=True)):
        y = TOP + 18 * row + 4
        out.append(
            f'<rect class="s{n % SERIES_CLASSES}" x="{at:.0f}" y="{y - 5}" width="16" height="4" fill="currentColor"/>'
            f'<text x="{at + 21:.0f}" y="{y}">{escape(label)}</text>'
        )
    return out


def _colour_bar(stops: tuple, low: float, high: float, left: float) -> list[str]:
    steps = 32
    height = (HEIGHT - BOTTOM - TOP) / steps
    out = [
        f'<rect x="{left}" y="{TOP + i * height:.2f}" width="14" height="{height + 0.3:.2f}" '
        f'fill="{_colour(stops, 1 - i / (steps - 1))}"/>'
        for i in range(steps)
    ]
    for fraction, value in ((0.0, high), (0.5, (low + high) / 2), (1.0, low)):
        y = TOP + fraction * (HEIGHT - BOTTOM - TOP)
        out.append(f'<text x="{left + 18}" y="{y + 4:.1f}">{escape(_number(value, abs(high - low) / 10))}</text>')
    return out


def _colour(stops: tuple, t: float) -> str:
    t = min(1.0, max(0.0, t))
    for (a, ca), (b, cb) in itertools.pairwise(stops):
        if t <= b:
            f = (t - a) / (b - a)
            return "#" + "".join(f"{round(p + (q - p) * f):02x}" for p, q in zip(ca, cb, strict=True))
    return "#" + "".join(f"{p:02x}" for p in stops[-1][1])


@dataclass(frozen=True)
class Named(Axis):
    """An axis of named rows: value n is row n, labelled by its name instead of a number."""

    names: tuple[tuple[float, str], ...] = ()

    def ticks(self) -> list[tuple[float, str]]:
        return list(self.names)


def _axis(values: list[float], start: float, end: float, requested_log: bool = False) -> Axis:
    """A log axis when the figure asks for one (on its positive values) or the values span four decades."""
    positive = [v for v in values if v > 0]
    log = bool(positive) and (requested_log or (len(positive) == len(values) and max(values) / min(values) >= 1e4))
    if log:
        low, high = math.log10(min(positive)), math.log10(max(positive))
        low, high = math.floor(low), math.ceil(high)
        return Axis(low, high if high > low else low + 1, start, end, True)
    low, high = min(values), max(values)
    if high == low:
        pad = abs(low) * 0.5 or 1.0
        low, high = low - pad, high + pad
    pad = (high - low) * 0.04
    return Axis(low - pad, high + pad, start, end, False)


def _points(data: Series) -> list[tuple[float, float]]:
    xs, ys = data.x, data.y
    if not xs:
        xs = list(range(len(ys)))
    pairs = [(_float(a), _float(b)) for a, b in zip(xs, ys, strict=False)]
    return [(a, b) for a, b in pairs if a is not None and b is not None]


def _float(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _finite(value: Any) -> bool:
    return _float(value) is not None


def _nice_step(raw: float) -> float:
    if raw <= 0 or not math.isfinite(raw):
        return 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _number(value: float, step: float) -> str:
    if abs(value) < step * 1e-6:
        return "0"
    if abs(value) >= 1e5 or abs(value) < 1e-3:
        text = f"{value:.2g}"
        return text.replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")
    digits = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return f"{value:.{digits}f}"
