"""Inequalities with a known answer, for ``decide(lhs, rhs, relation)``: true ones, false ones, and a seeded generator.

Each entry is (lhs, relation, rhs). The false ones fail somewhere, some only in a narrow window (sin + cos ≤ 7/5
fails only near π/4) or only at one point (a strict inequality whose two sides touch).
"""

from __future__ import annotations

import random

import sympy as sp

t, u = sp.symbols("t u", real=True)
x, y = sp.symbols("x y", real=True)
w, pos, k = sp.symbols("omega pos k", real=True)
s, c = sp.sin(t), sp.cos(t)
half = sp.Rational(1, 2)

Inequality = tuple[sp.Expr, str, sp.Expr]

TRUE: list[Inequality] = [
    (s, "<=", 1),
    (s, ">=", -1),
    (c, "<=", 1),
    (s**2, "<=", 1),
    (s * c, "<=", half),
    (s * c, ">=", -half),
    (s + c, "<=", sp.Rational(3, 2)),
    (s + c, ">=", -sp.Rational(3, 2)),
    (s * sp.sin(u) + c * sp.cos(u), "<=", 1),
    ((x * s + y * c) ** 2, "<=", x**2 + y**2),
    (x**2 + 1, ">", 0),
    (x**2 - 2 * x + 1, ">=", 0),
    (sp.cos(2 * t), "<=", 1),
    (sp.sin(3 * t), "<=", 1),
    (s**4 + c**4, ">=", half),
    (s**4 + c**4, "<=", 1),
    (3 * s + 4 * c, "<=", 5),
    (3 * s + 4 * c, ">=", -5),
    (x * s, "<=", (x**2 + 1) / 2),
    (s * sp.sin(u), "<=", 1),
    (2 + s, ">", 0),
    (1 + c, ">=", 0),
    ((s - c) ** 2, "<=", 2),
    (s**2 * c**2, "<=", sp.Rational(1, 4)),
    (x**2 + y**2, ">=", 2 * x * y),
    (sp.sin(t + u), "<=", 1),
    (c * sp.cos(u), "<=", 1),
    (1 - c, ">=", 0),
    (s**2 + sp.sin(u) ** 2, "<=", 2),
    ((s + sp.sin(u)) ** 2, "<=", 4),
    (sp.sin(2 * t), "<=", 1),
    (x**2 + s**2, ">", -1),
    (c**2 - s**2, "<=", 1),
    (sp.sin(w * pos) ** 2 + sp.cos(w * pos) ** 2, "<=", 1),
    (sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k)), "<=", 1),
    (x**4 + y**4, ">=", 2 * x**2 * y**2),
    (x**2 * s**2, "<=", x**2),
    (sp.cos(t / 2) ** 2, "<=", 1),
]

FALSE: list[Inequality] = [
    (s, "<=", sp.Rational(9, 10)),
    (s, ">=", 0),
    (c, ">=", -sp.Rational(9, 10)),
    (s**2, "<", 1),
    (s * c, "<=", sp.Rational(2, 5)),
    (s + c, "<=", 1),
    (s + c, "<=", sp.Rational(7, 5)),
    (x**2 - x, ">=", 0),
    (x * s, "<=", x**2 / 2),
    (3 * s + 4 * c, "<=", sp.Rational(49, 10)),
    (sp.cos(2 * t), ">=", 0),
    (sp.sin(3 * t), "<=", sp.Rational(99, 100)),
    (s**4 + c**4, ">=", sp.Rational(3, 5)),
    ((x * s + y * c) ** 2, "<=", x**2),
    (x**2 + y**2, ">=", 3 * x * y),
    (1 + c, ">", 0),
    (sp.sin(t + u), "<=", s + sp.sin(u)),
    (c * sp.cos(u), "<=", half),
    (x**3, ">=", 0),
    (s * x, ">=", -1),
    (s**2 * c**2, "<=", sp.Rational(1, 5)),
    (c, "<=", sp.cos(2 * t)),
    (s, "<=", sp.sin(2 * t)),
    (x**2, "<=", 10),
    (2 * s * c, ">=", s),
    ((s - c) ** 2, "<=", 1),
    (s + sp.sin(u), "<=", sp.Rational(19, 10)),
    (sp.cos(t - u), ">=", 0),
    (x**4 - x**2, ">=", 0),
    (s**2, "<=", c**2),
    (sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k)), ">=", 0),
    (x**2 + s, ">", 0),
    (s**2 + c**2, "<", 1),
]


def generated(count: int, seed: int) -> tuple[list[Inequality], list[Inequality]]:
    """``count`` true and ``count`` false inequalities: f = Σ ℓ_i² (ℓ_i random small linear forms in 1, sin t,
    cos t, sin u, x; expanded, and sin t·cos t written as sin 2t / 2) is ≥ 0; f ≤ v fails at a random point P
    for the rational v = ⌊10·f(P)⌋/10 − 1/10 < f(P)."""
    rng = random.Random(seed)
    true, false = [], []
    basis = [sp.Integer(1), s, c, sp.sin(u), x]
    for _ in range(count):
        forms = [sum(rng.randint(-2, 2) * b for b in basis) for _ in range(rng.randint(1, 3))]
        if all(form == 0 for form in forms):
            forms = [s - half]
        f = sp.expand(sum(form**2 for form in forms)).subs(s * c, sp.sin(2 * t) / 2)
        true.append((f, ">=", 0))
        point = {t: sp.Rational(rng.randint(-300, 300), 100), u: sp.Rational(rng.randint(-300, 300), 100)}
        point[x] = sp.Rational(rng.randint(-30, 30), 10)
        below = sp.floor(10 * f.xreplace(point)) / 10 - sp.Rational(1, 10)
        false.append((f, "<=", below))
    return true, false
