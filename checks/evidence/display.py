"""Presentation MathML of a proof's expressions, broken into lines that fit a printed page.

MathML in browsers does not break long formulas by itself, so a long one is laid out here as a
table of lines: broken before "=" and before each "+" or "−" between terms (inside parentheses
too), and between the factors of a product; a matrix still too wide is drawn at a smaller size.
Widths are estimated by the length of SymPy's text, which is never narrower than the drawing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

LINE = 56
"""Characters of SymPy's text per line: an A4 column holds about 75 at the report's formula size."""
INDENT = '<mspace width="2em"></mspace>'
NUMBER_TIMES_NUMBER = re.compile(r"(</mn>|</mn></msup>)<mo>&InvisibleTimes;</mo>(?=<mn>|<msup><mn>)")
"""SymPy's invisible times between two numbers (10000·10000^x would read 1000010000^x): shown as a dot."""
RELATIONS = {"==": "=", "<=": "≤", ">=": "≥", "<": "&lt;", ">": "&gt;", "!=": "≠"}


@dataclass(frozen=True)
class Piece:
    """A run of MathML that stays on one line, and its estimated width in characters."""

    markup: str
    width: int
    starts_line: bool = False
    """A relation sign: when the formula needs more than one line, it begins one."""


def presentation(expr: Any, line: int = LINE) -> str:
    """MathML of ``expr`` (without the <math> element): one line when it fits in ``line`` characters, else an
    <mtable> with one row per line, continuation lines indented; "" where SymPy's printer cannot draw it."""
    try:
        lines = _fill(_pieces(expr, line), line)
    except Exception:
        return ""
    if len(lines) == 1:
        return "".join(p.markup for p in lines[0])
    rows = "".join(
        f"<mtr><mtd><mrow>{INDENT if n else ''}{''.join(p.markup for p in pieces)}</mrow></mtd></mtr>"
        for n, pieces in enumerate(lines)
    )
    return f'<mtable columnalign="left">{rows}</mtable>'


def _markup(expr: Any) -> str:
    from sympy.printing.mathml import mathml

    return NUMBER_TIMES_NUMBER.sub(r"\1<mo>&#xB7;</mo>", mathml(expr, printer="presentation"))


def _width(expr: Any) -> int:
    import sympy as sp

    return len(sp.sstr(expr))


def _pieces(expr: Any, line: int) -> list[Piece]:
    """``expr`` cut where a line may break; a part that fits, or that cannot be cut, is one piece."""
    import sympy as sp

    width = _width(expr)
    if width <= line:
        return [Piece(_markup(expr), width)]
    if isinstance(expr, sp.core.relational.Relational) and expr.rel_op in RELATIONS:
        first, *rest = _prefixed(f"<mo>{RELATIONS[expr.rel_op]}</mo>", _pieces(expr.rhs, line))
        return [*_pieces(expr.lhs, line), Piece(first.markup, first.width, starts_line=True), *rest]
    if isinstance(expr, sp.Add):
        return _sum(expr, line)
    if isinstance(expr, sp.Mul) and sp.fraction(expr)[1] == 1:
        return _product(expr, line)
    if isinstance(expr, sp.Sum):
        return _big_sum(expr, line)
    if isinstance(expr, sp.MatrixBase):
        return [Piece(f'<mstyle scriptlevel="1">{_markup(expr)}</mstyle>', width * 7 // 10)]
    return [Piece(_markup(expr), width)]


def _sum(expr: Any, line: int) -> list[Piece]:
    pieces: list[Piece] = []
    for n, term in enumerate(expr.as_ordered_terms()):
        if n == 0:
            pieces += _pieces(term, line)
        elif term.could_extract_minus_sign():
            pieces += _prefixed("<mo>\u2212</mo>", _pieces(-term, line))
        else:
            pieces += _prefixed("<mo>+</mo>", _pieces(term, line))
    return pieces


def _product(expr: Any, line: int) -> list[Piece]:
    import sympy as sp

    coefficient, factors = expr.as_coeff_mul()
    pieces: list[Piece] = []
    if coefficient == -1:
        pieces.append(Piece("<mo>\u2212</mo>", 1))
    elif coefficient != 1:
        pieces.append(Piece(_markup(coefficient), _width(coefficient)))
    for factor in factors:
        inner = _pieces(factor, line)
        if isinstance(factor, sp.Add):
            inner = _prefixed("<mo>(</mo>", inner)
            inner[-1] = Piece(inner[-1].markup + "<mo>)</mo>", inner[-1].width + 1)
        pieces += inner
    return pieces


def _big_sum(expr: Any, line: int) -> list[Piece]:
    (index, lower, upper), *more = expr.limits
    if more:
        return [Piece(_markup(expr), _width(expr))]
    sign = f"<munderover><mo>∑</mo><mrow>{_markup(index)}<mo>=</mo>{_markup(lower)}</mrow>{_markup(upper)}</munderover>"
    body = _prefixed("<mo>(</mo>", _pieces(expr.function, line))
    body[-1] = Piece(body[-1].markup + "<mo>)</mo>", body[-1].width + 1)
    return _prefixed(sign, body, width=4)


def _prefixed(markup: str, pieces: list[Piece], width: int = 2) -> list[Piece]:
    """``pieces`` with ``markup`` (an operator, a parenthesis) joined to the first, so no line starts after it."""
    first, *rest = pieces
    return [Piece(markup + first.markup, first.width + width, first.starts_line), *rest]


def _fill(pieces: list[Piece], line: int) -> list[list[Piece]]:
    """Pieces into lines, greedily: a line takes the next piece while the sum of widths stays within ``line``
    and the piece is not a relation sign that must begin a line."""
    lines: list[list[Piece]] = [[]]
    used = 0
    for piece in pieces:
        if lines[-1] and (used + piece.width > line or piece.starts_line):
            lines.append([])
            used = 0
        lines[-1].append(piece)
        used += piece.width
    return lines
