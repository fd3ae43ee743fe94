"""A proof's long formulas are laid out as lines that fit a printed page."""

from __future__ import annotations

import re

import sympy as sp

from checks.evidence.display import LINE, presentation

x, y, m, n = sp.symbols("x y m n", real=True)


def _rows(markup: str) -> list[str]:
    return re.findall(r"<mtr>(.*?)</mtr>", markup)


def test_a_short_formula_stays_one_line():
    markup = presentation(sp.Eq(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1))
    assert "<mtable" not in markup and "<mo>=</mo>" in markup


def test_a_long_sum_breaks_into_lines_each_within_the_width():
    terms = [sp.Symbol(f"a{k}") * sp.sin(k * x) * sp.cos(k * y) for k in range(1, 13)]
    markup = presentation(sp.Add(*terms))
    rows = _rows(markup)
    assert markup.startswith('<mtable columnalign="left">') and len(rows) >= 3
    assert all(row.count("<mi>sin</mi>") <= LINE // 10 for row in rows)
    assert sum(row.count("<mi>sin</mi>") for row in rows) == 12, "every term is drawn once"
    assert all("<mspace" in row for row in rows[1:]) and "<mspace" not in rows[0], "continuation lines indent"


def test_an_equation_breaks_before_its_equals_sign():
    left = sp.Add(*[sp.Symbol(f"p{k}") * sp.sin(k * m) for k in range(1, 7)])
    right = sp.Add(*[sp.Symbol(f"q{k}") * sp.cos(k * n) for k in range(1, 7)])
    rows = _rows(presentation(sp.Eq(left, right)))
    starts = [row for row in rows if re.search(r"</mspace>(<mrow>)*<mo>=</mo>", row)]
    assert len(starts) == 1, "one line begins with the equals sign"
    assert not any(row.removesuffix("</mrow></mtd>").endswith("<mo>=</mo>") for row in rows), "no line ends on it"


def test_a_wide_matrix_is_drawn_smaller_and_a_narrow_one_is_not():
    wide = sp.Matrix(2, 8, lambda i, j: sp.cos((i + j + 1) * x) + sp.sin((i + 2 * j + 1) * y))
    narrow = sp.Matrix([[sp.cos(x), -sp.sin(x)], [sp.sin(x), sp.cos(x)]])
    assert 'scriptlevel="1"' in presentation(wide)
    assert 'scriptlevel="1"' not in presentation(narrow)


def test_numbers_side_by_side_keep_a_visible_dot():
    product = sp.Mul(10000, sp.Pow(10000, x, evaluate=False), evaluate=False)
    assert "<mn>10000</mn><mo>&#xB7;</mo><msup><mn>10000</mn>" in presentation(product)
    assert "&InvisibleTimes;" in presentation(2 * x), "a number times a symbol stays 2x"


def test_what_the_printer_cannot_draw_is_empty_not_a_crash():
    class Unprintable(sp.Expr):
        def _sympystr(self, printer):
            raise RuntimeError("no text")

    assert presentation(Unprintable()) == ""
