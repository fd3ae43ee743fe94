"""Numeric witnesses for refutations, confirmed at high precision with mpmath."""

from __future__ import annotations

import random

import sympy as sp

PRECISION = 50
CONFIRM_PRECISION = 80
ZERO = sp.Float("1e-30", PRECISION)
DEFAULT_TRIES = 24


def find_witness(difference: sp.Expr, tries: int = DEFAULT_TRIES, seed: int = 0) -> dict[str, str] | None:
    """An assignment at which ``difference`` is confirmed nonzero, or None.

    Values respect each symbol's assumptions (even, integer, positive, ...).
    The value is computed at 50 digits and confirmed at 80 digits.
    """
    rng = random.Random(seed)
    for _ in range(tries):
        assignment = sample(difference, rng)
        value = evaluate(difference, assignment, PRECISION)
        if value is None or abs(value) <= ZERO:
            continue
        confirmed = evaluate(difference, assignment, CONFIRM_PRECISION)
        if confirmed is None or abs(confirmed - value) > abs(value) / 10**20:
            continue
        witness = {str(k): str(v) for k, v in assignment.items()}
        witness["difference"] = sp.N(value, 20).__str__()
        return witness
    return None


def sample(expr: sp.Expr, rng: random.Random, special_angles: bool = False) -> dict[sp.Expr, sp.Expr]:
    """A value for every symbol and indexed entry of ``expr``; with ``special_angles`` the unconstrained real
    symbols take multiples of π/12, where sin and cos have exact values."""
    labels = {b.label for b in expr.atoms(sp.IndexedBase)}
    symbols = sorted(
        (s for s in expr.free_symbols if isinstance(s, sp.Symbol) and s not in labels),
        key=sp.default_sort_key,
    )
    assignment: dict[sp.Expr, sp.Expr] = {s: sample_value(s, rng) for s in symbols}
    if special_angles:
        for symbol in symbols:
            if not (symbol.is_integer or symbol.is_positive or symbol.is_nonnegative):
                assignment[symbol] = sp.pi * sp.Rational(rng.randint(-24, 24), 12)
    indexed = expr.xreplace(assignment).atoms(sp.Indexed) if expr.has(sp.Indexed) else set()
    for entry in sorted(indexed, key=sp.default_sort_key):
        assignment[entry] = sp.Rational(rng.randint(-40, 40), 10)
    return assignment


def sample_value(symbol: sp.Symbol, rng: random.Random) -> sp.Expr:
    """A value consistent with the symbol's assumptions."""
    if symbol.is_even:
        return sp.Integer(2 * rng.randint(1, 8))
    if symbol.is_odd:
        return sp.Integer(2 * rng.randint(0, 7) + 1)
    if symbol.is_integer:
        low = 1 if symbol.is_positive else 0 if symbol.is_nonnegative else -12
        return sp.Integer(rng.randint(low, 12))
    if symbol.is_positive or symbol.is_nonnegative:
        return sp.Rational(rng.randint(1, 400), 100)
    return sp.Rational(rng.randint(-400, 400), 100)


def evaluate(expr: sp.Expr, assignment: dict, digits: int) -> sp.Expr | None:
    """``expr`` at ``assignment`` to ``digits`` digits (None where it is not a real number)."""
    concrete = expr.xreplace(assignment)
    concrete = concrete.xreplace({e: assignment.get(e, e) for e in concrete.atoms(sp.Indexed)})
    if concrete.has(sp.Sum):
        concrete = concrete.doit()
    value = sp.N(concrete, digits)
    if not value.is_number or value.has(sp.zoo, sp.nan, sp.oo) or not value.is_real:
        return None
    return value
