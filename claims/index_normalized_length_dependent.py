"""Normalized positions pos/(n−1) give the same position different values in sentences of different lengths."""

from fractions import Fraction

import numpy as np
import sympy as sp
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks import LOW_PRECISION, Claim, given
from checks.figures import lines
from checks.precision import normalized_collisions
from checks.strategies import Batch, as_batch, batch_size
from claims.catalog.works import LESSON_000

SECTION = "시도 2: 정규화 (0~1로 맞추기)"
claim = Claim(
    id="index.normalized-length-dependent",
    title="Normalized positions depend on the sentence length",
    statement=(
        "Scaling positions to [0, 1] as pos/(n−1) gives the word at index j the value j/(n−1): for j ≥ 1 it differs "
        "between sentences of different lengths n ≠ m by j(m−n)/((n−1)(m−1)). The document's lists are pos/(n−1) "
        "(10 words: 1/9, 2/9, 3/9 rounded to two decimals), and its '2nd position' is index 1 (0.25 and 0.11)."
    ),
    sources=[
        LESSON_000.quote(SECTION, "5단어 문장: [0.0, 0.25, 0.5, 0.75, 1.0] 10단어 문장: [0.0, 0.11, 0.22, 0.33, ...]"),
        LESSON_000.quote(SECTION, '같은 "2번째 위치"가 문장 길이에 따라 다른 값을 가짐'),
        LESSON_000.quote(SECTION, "5단어 문장의 2번째: 0.25"),
        LESSON_000.quote(SECTION, "10단어 문장의 2번째: 0.11"),
    ],
    expect="proved",
)

DOCUMENT_LISTS = {5: (0.0, 0.25, 0.5, 0.75, 1.0), 10: (0.0, 0.11, 0.22, 0.33)}
"""The values the document prints, by sentence length (the 10-word list goes on with '...')."""
SECOND = {5: 0.25, 10: 0.11}
"""The document's '2번째' (2nd) position, by sentence length."""


@claim.proof
def _(p):
    j = sp.Symbol("j", integer=True, nonnegative=True)
    n, m = sp.symbols("n m", integer=True, positive=True)
    p.decide(j / (n - 1) - j / (m - 1), j * (m - n) / ((n - 1) * (m - 1)), label="j/(n−1) − j/(m−1)")
    p.step("so the values differ unless j = 0 or n = m (n, m ≥ 2)", sp.Ne(j * (m - n), 0))
    p.refute(j / (n - 1), j / (m - 1), label="one index, one value for every length (expected false)")
    five = sp.Matrix([sp.Rational(index, 4) for index in range(5)])
    printed = sp.Matrix([sp.Rational(value).limit_denominator(100) for value in DOCUMENT_LISTS[5]])
    p.decide(five, printed, label="the 5-word list is exactly j/4")


@claim.check
@given(n=st.sampled_from(sorted(DOCUMENT_LISTS)))
def document_lists(t, n):
    """arange(n)/(n−1) in the dtype, rounded to two decimals, is the document's list; its index 1 is '2번째'."""
    values = t.xp.to_float64(t.xp.arange(n) / (n - 1))
    printed = DOCUMENT_LISTS[n]
    t.close_pe(np.round(values[: len(printed)], 2), np.asarray(printed), 1.0, label=f"{n}-word list")
    t.close_pe(np.round(values[1], 2), SECOND[n], 1.0, label=f"index 1 of {n} words")


@st.composite
def two_lengths_and_an_index(draw: st.DrawFn) -> Batch:
    """Rows (n, m, j) for a batched check: lengths n (distinct in the batch) and m in 2 … 4096, j in 1 … 4095."""
    n = draw(arrays(np.int64, batch_size(), elements=st.integers(2, 4096), unique=True))
    m = draw(arrays(np.int64, len(n), elements=st.integers(2, 4096)))
    j = draw(arrays(np.int64, len(n), elements=st.integers(1, 4095)))
    return as_batch(np.stack([n, m, j], axis=1))


@claim.check(batched=True)
@given(rows=two_lengths_and_an_index())
def same_index_differs(t, rows):
    """j/(n−1) and j/(m−1) stored in the dtype differ by j(m−n)/((n−1)(m−1)) (1 ≤ j < n, m)."""
    n, m, j = rows.T
    j = 1 + j % (np.minimum(n, m) - 1)
    first, second = t.xp.array(j / (n - 1)), t.xp.array(j / (m - 1))
    # numerator and denominator are integers below 2⁵³, so one float64 division rounds the exact quotient once
    exact = (j * (m - n)).astype(np.float64) / ((n - 1) * (m - 1)).astype(np.float64)
    t.close_pe(first - second, exact, np.maximum(j / (n - 1), j / (m - 1)), label="difference")


@claim.probe
def document_numbers(r):
    """The document's lists, its '2nd position', and values shared by different positions."""
    exact = {n: [Fraction(j, n - 1) for j in range(len(printed))] for n, printed in DOCUMENT_LISTS.items()}
    r.measure("exact values pos/(n−1)", {n: [str(v) for v in values] for n, values in exact.items()})
    r.measure(
        "document minus exact (the 10-word list is rounded to 2 decimals)",
        {n: [round(p - float(v), 6) for p, v in zip(DOCUMENT_LISTS[n], exact[n], strict=True)] for n in exact},
    )
    r.measure(
        "'2번째' read as index 1 (ordinal, first word = pos 0) vs index 2",
        {n: {"index 1": float(Fraction(1, n - 1)), "index 2": float(Fraction(2, n - 1))} for n in DOCUMENT_LISTS},
    )
    shared = {
        str(value): [
            f"index {value * (n - 1)} of {n} words" for n in range(2, 13) if (value * (n - 1)).denominator == 1
        ]
        for value in (Fraction(1, 4), Fraction(1, 2), Fraction(1))
    }
    r.measure("one value, different positions (n ≤ 12)", shared)
    r.measure(
        "first lengths n, n + 1 whose index-1 values round to the same number",
        normalized_collisions((*LOW_PRECISION, "float32")),
    )
    r.figure(
        lines(
            "normalized-positions",
            "Normalized position pos/(n−1) by sentence length",
            "Three lines from 0 to 1: for 5, 10 and 20 words the value at the same index shrinks as the sentence "
            "grows (index 1: 0.25, 0.11, 0.053).",
            {f"n = {n}": (range(n), [j / (n - 1) for j in range(n)]) for n in (5, 10, 20)},
            x_label="index pos",
            y_label="pos/(n−1)",
        )
    )
