"""Where to look for a point that refutes an inequality: its structure first, then a local descent.

False inequalities just past their bound fail in a narrow window that random points rarely hit all at once, but
most fail where every free real sits at a corner: all at 0 or at π, all equal to one multiple of π/12 (where sin and
cos are exact), alternating in sign. A descent from the lowest point found follows the difference downhill in
floating point; its end is rounded to rationals and confirmed exactly or at 50 and 80 digits by the caller.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import sympy as sp

from checks.symbolic.witness import sample

STEPS = tuple(sp.pi * sp.Rational(k, 12) for k in range(-12, 13))
"""Every multiple of π/12 from −π to π."""
CORNERS = 6
"""Up to this many free reals, every choice of 0 or π for each is tried (2⁶ = 64 points)."""
DESCENT_ROUNDS, DESCENT_START, DENOMINATOR = 60, 0.5, 10**6


def free_reals(expr: sp.Expr) -> list[sp.Symbol]:
    """The unconstrained real symbols (angles and free coefficients), by name."""
    labels = {b.label for b in expr.atoms(sp.IndexedBase)}
    chosen = (
        s
        for s in expr.free_symbols
        if isinstance(s, sp.Symbol) and s not in labels and not (s.is_integer or s.is_positive or s.is_nonnegative)
    )
    return sorted(chosen, key=sp.default_sort_key)


def structured_points(expr: sp.Expr, rng: random.Random) -> list[dict[sp.Expr, sp.Expr]]:
    """Assignments at the structure's corners; the other symbols (integers, positives, indexed) as ``sample`` draws
    them."""
    reals = free_reals(expr)
    if not reals:
        return []
    base = sample(expr, rng)
    points = [dict(base, **{}) | dict.fromkeys(reals, step) for step in STEPS]
    points += [base | {r: (step if n % 2 == 0 else -step) for n, r in enumerate(reals)} for step in STEPS[13:]]
    if len(reals) <= CORNERS:
        points += [
            base | dict(zip(reals, corner, strict=True)) for corner in itertools.product((0, sp.pi), repeat=len(reals))
        ]
    return points


def descend(expr: sp.Expr, start: dict[sp.Expr, sp.Expr]) -> dict[sp.Expr, sp.Expr] | None:
    """A pattern search over the free reals from ``start`` towards a lower value, rounded to rationals; None when
    the expression cannot be evaluated in floating point or nothing moves."""
    reals = [r for r in free_reals(expr) if r in start]
    if not reals:
        return None
    fixed = {k: v for k, v in start.items() if k not in reals}
    try:
        function = sp.lambdify(reals, expr.xreplace(fixed), modules="math")
        point = np.array([float(start[r]) for r in reals])
        value = float(function(*point))
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    step = DESCENT_START
    for _ in range(DESCENT_ROUNDS):
        moved = False
        for index, sign in itertools.product(range(len(reals)), (1.0, -1.0)):
            trial = point.copy()
            trial[index] += sign * step
            try:
                candidate = float(function(*trial))
            except (ValueError, ZeroDivisionError, OverflowError):
                continue
            if math.isfinite(candidate) and candidate < value:
                point, value, moved = trial, candidate, True
        if not moved:
            step /= 2
    return fixed | {r: sp.Rational(round(v * DENOMINATOR), DENOMINATOR) for r, v in zip(reals, point, strict=True)}
