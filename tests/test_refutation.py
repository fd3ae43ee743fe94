"""Refutation that searches the structure (checks.symbolic.refutation): false inequalities just past their bound,
which random points rarely hit, fail at a corner (every angle 0 or π, all equal, alternating) or after a descent."""

from __future__ import annotations

import pytest
import sympy as sp

import checks.symbolic.inequality as inequality
from checks.symbolic import decide

a, b, c, x = sp.symbols("a b c x", real=True)
R = sp.Rational
JUST_PAST = [
    (sp.cos(a) + sp.cos(b), "<=", R(199, 100)),
    (sp.sin(a) + sp.sin(b), "<=", R(1999, 1000)),
    (sp.cos(a) + sp.cos(2 * a) + sp.cos(4 * a), "<=", R(299, 100)),
    (sp.cos(a) * sp.cos(b), ">=", R(-999, 1000)),
    (sp.cos(a) + sp.cos(b) + sp.cos(c), ">=", R(-299, 100)),
    (sp.sin(a) * sp.sin(b) + sp.cos(a) * sp.cos(b), ">=", R(-99, 100)),
    (sp.cos(a - b) + sp.cos(b - c), "<=", R(199, 100)),
    (x * sp.sin(a) - x**2, "<=", R(24, 100)),
    (sp.sin(a) + sp.cos(b), "<=", R(1999, 1000)),
    (3 * sp.sin(a) + 4 * sp.cos(a), "<=", R(4999, 1000)),
]
"""Each fails only near its maximum (or minimum): within 0.01 of it, or 0.001."""


def _refuted(cases) -> int:
    return sum(decide(lhs, rhs, relation=relation).status == "refuted" for lhs, relation, rhs in cases)


@pytest.mark.parametrize(("lhs", "relation", "rhs"), JUST_PAST)
def test_an_inequality_just_past_its_bound_is_refuted_at_a_confirmed_point(lhs, relation, rhs):
    decision = decide(lhs, rhs, relation=relation)
    assert decision.status == "refuted", decision.reason
    assert decision.witness["difference"].startswith("-"), decision.witness  # confirmed at 50 and 80 digits


@pytest.mark.needs("sos")
def test_random_points_alone_miss_most_of_them(monkeypatch):
    """The measure of the gain: the search before this one (random points, a third at multiples of π/12)."""
    monkeypatch.setattr(inequality, "structured_points", lambda expr, rng: [])
    monkeypatch.setattr(inequality, "descend", lambda expr, start: None)
    assert _refuted(JUST_PAST) <= len(JUST_PAST) // 2
