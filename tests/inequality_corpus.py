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


# Families of this project's own (#31): sums over 2–8 pairs as positional encodings have them, RoPE bounds with
# free real coefficients, then products, chords, multiple angles and real polynomials. A false entry sits just past
# its bound; the docstring of each family names the point where it fails.

PAIRS = range(2, 9)
a = sp.symbols("a1:10", real=True)
b = sp.symbols("b1:10", real=True)
omega = sp.symbols("w1:9", real=True)
p, q_pos = sp.symbols("p q", real=True)
margin = sp.Rational(1, 100)


def _dot(n: int, first: sp.Expr, second: sp.Expr) -> sp.Expr:
    """Σ_i sin(ω_i·first)·sin(ω_i·second) + cos(ω_i·first)·cos(ω_i·second): two PE rows' dot product."""
    return sum(
        (
            sp.sin(omega[i] * first) * sp.sin(omega[i] * second) + sp.cos(omega[i] * first) * sp.cos(omega[i] * second)
            for i in range(n)
        ),
        sp.Integer(0),
    )


def _weights(n: int) -> list[sp.Rational]:
    return [sp.Rational((-1) ** i * (i + 2), i + 1) for i in range(n)]


def _sum_families() -> tuple[list[Inequality], list[Inequality]]:
    """Over n = 2…8 pairs; each false one fails at every angle 0 (or −π/2, π/4, p = q, p = 0, as its bound says)."""
    true, false = [], []
    for n in PAIRS:
        cosines, sines = sum(sp.cos(v) for v in a[:n]), sum(sp.sin(v) for v in a[:n])
        weighted = sum((w * sp.cos(v) for w, v in zip(_weights(n), a, strict=False)), sp.Integer(0))
        total = sum(abs(w) for w in _weights(n))
        pe_distance = _dot(n, p, p + k)
        pairs = sum(sp.sin(v) + sp.cos(v) for v in a[:n])
        true += [
            (cosines, "<=", n),
            (sines, ">=", -n),
            (_dot(n, p, q_pos), "<=", n),
            (pe_distance, ">=", -n),
            (cosines**2, "<=", n**2),
            (weighted, "<=", total),
            (pairs, "<=", sp.Rational(3, 2) * n),
        ]
        false += [
            (cosines, "<=", n - margin),
            (sines, ">=", -n + margin),
            (_dot(n, p, q_pos), "<=", n - margin),
            (pe_distance, ">=", -n + margin),
            (cosines**2, "<=", n**2 - sp.Rational(1, 10)),
            (weighted, "<=", total - margin),
            (pairs, "<=", sp.Rational(7, 5) * n),
        ]
    return true, false


def _rotated(qs: tuple[sp.Expr, ...], angles: tuple[sp.Expr, ...]) -> list[sp.Expr]:
    """R_θ q: the pairs (q_2i, q_2i+1) turned by θ_i."""
    out = []
    for i, angle in enumerate(angles):
        first, second = qs[2 * i], qs[2 * i + 1]
        out += [sp.cos(angle) * first - sp.sin(angle) * second, sp.sin(angle) * first + sp.cos(angle) * second]
    return out


def _rope_families() -> tuple[list[Inequality], list[Inequality]]:
    """RoPE scores q·R_θ k with free real q, k over 1–3 pairs; each false one fails at q = k = e_1, θ = 0 (or π)."""
    qs, ks = sp.symbols("q1:7", real=True), sp.symbols("k1:7", real=True)
    true, false = [], []
    for pairs in (1, 2, 3):
        q, kk, angles = qs[: 2 * pairs], ks[: 2 * pairs], a[:pairs]
        score = sum((x * y for x, y in zip(q, _rotated(kk, angles), strict=True)), sp.Integer(0))
        self_score = sum((x * y for x, y in zip(q, _rotated(q, angles), strict=True)), sp.Integer(0))
        q2, k2 = sum(x**2 for x in q), sum(x**2 for x in kk)
        turned = sum(x**2 for x in _rotated(q, angles))
        true += [(score, "<=", (q2 + k2) / 2), (turned, "<=", q2), (self_score, "<=", q2)]
        false += [(score, "<=", (q2 + k2) / 3), (turned, "<=", q2 * (1 - margin)), (self_score, ">=", 0)]
        if pairs <= 2:
            true += [(score**2, "<=", q2 * k2), (score, "<=", q2 + k2 / 4), (score, ">=", -(3 * q2 + k2 / 3) / 2)]
            false += [
                (score**2, "<=", q2 * k2 * (1 - margin)),
                (score, "<=", q2 / 2 + k2 / 4),
                (score, ">=", -(q2 + k2) / 3),
            ]
    return true, false


def _other_families() -> tuple[list[Inequality], list[Inequality]]:
    """Products, chords, multiple angles and real polynomials; each false one fails at its family's corner."""
    z = sp.Symbol("z", real=True)
    true: list[Inequality] = []
    false: list[Inequality] = []
    for n in (2, 3, 4):
        product = sp.Mul(*(sp.cos(v) for v in a[:n]))
        chain = sum(2 - 2 * sp.cos(a[i] - a[i + 1]) for i in range(n))
        true += [(product, "<=", 1), (product, ">=", -1), (chain, "<=", 4 * n)]
        false += [(product, "<=", 1 - margin), (product, ">=", -1 + margin), (chain, "<=", 4 * n - margin)]
    for n in (2, 3):
        product = sp.Mul(*(sp.sin(v) for v in a[:n]))
        true += [(product, ">=", -1)]
        false += [(product, ">=", -1 + margin)]
    for n in range(2, 7):
        true += [(sp.cos(n * t), "<=", 1), (sp.sin(n * t) * sp.cos(n * t), "<=", half)]
        false += [(sp.cos(n * t), ">=", -1 + margin), (sp.sin(n * t) * sp.cos(n * t), "<=", sp.Rational(49, 100))]
    clocks = [
        (sp.cos(t) + sp.cos(2 * t) + sp.cos(4 * t), 3),
        (sp.cos(t) + sp.cos(2 * t), 2),
        (sp.cos(t) + sp.cos(3 * t), 2),
        (sp.sin(t) + sp.sin(5 * t), 2),
        (sp.cos(t) * sp.cos(2 * t), 1),
        (sp.sin(a[0]) + sp.sin(a[1]), 2),
        ((s - sp.sin(u)) ** 2 + (c - sp.cos(u)) ** 2, 4),
        ((s + sp.sin(u)) * (c + sp.cos(u)), 2),
    ]
    true += [(f, "<=", bound) for f, bound in clocks]
    false += [(f, "<=", bound - margin) for f, bound in clocks]
    triangle = sp.cos(a[0] - a[1]) + sp.cos(a[1] - a[2]) + sp.cos(a[2] - a[0])
    true += [
        (triangle, ">=", -sp.Rational(3, 2)),
        (x**2 + y**2 + z**2, ">=", x * y + y * z + z * x),
        ((x + y) ** 2, "<=", 2 * (x**2 + y**2)),
        (x**4 + y**4, ">=", x**3 * y + x * y**3),
        (x**2 * s**2 + y**2 * c**2, "<=", x**2 + y**2),
        (x * s + y * c, "<=", (x**2 + y**2 + 1) / 2),
        ((x * c + y * s) ** 2 + (y * c - x * s) ** 2, "<=", x**2 + y**2),
        (sp.cos(t - u) * x * y, "<=", (x**2 + y**2) / 2),
        (x**2 * c + y**2, ">=", -(x**2)),
    ]
    false += [
        (triangle, ">=", -sp.Rational(7, 5)),
        (x**2 + y**2 + z**2, ">=", 2 * (x * y + y * z + z * x)),
        ((x + y) ** 2, "<=", x**2 + y**2),
        (x**4 + y**4, ">=", 2 * x**3 * y),
        (x**2 * s**2 + y**2 * c**2, "<=", x**2),
        (x * s + y * c, "<=", (x**2 + y**2) / 2),
        ((x * c + y * s) ** 2, "<=", x**2),
        (sp.cos(t - u) * x * y, "<=", (x**2 + y**2) / 3),
        (x**2 * c + y**2, ">=", 0),
    ]
    return true, false


def family_groups() -> dict[str, tuple[list[Inequality], list[Inequality]]]:
    """The families by kind: (true ones, false ones) of each."""
    return {"sums over 2–8 pairs": _sum_families(), "RoPE bounds": _rope_families(), "others": _other_families()}


def families() -> tuple[list[Inequality], list[Inequality]]:
    """Every family above: (true ones, false ones)."""
    groups = family_groups().values()
    return [e for true, _ in groups for e in true], [e for _, false in groups for e in false]


def generated_sums(count: int, seed: int) -> tuple[list[Inequality], list[Inequality]]:
    """``count`` true and ``count`` false weighted sums over 2–8 pairs: Σ λ_i·g_i ≤ Σ |λ_i| with g_i = cos a_i,
    sin a_i or cos(a_i − b_i) (a PE dot product's term), and the same bound lowered by δ ∈ {1/100, 1/10, 1/2}."""
    rng = random.Random(seed)
    true, false = [], []
    steps = [sp.Rational(v, 2) for v in (-4, -3, -2, -1, 1, 2, 3, 4)]
    for _ in range(count):
        n = rng.randint(2, 8)
        weights = [rng.choice(steps) for _ in range(n)]
        kind = rng.choice(("cos", "sin", "dot"))
        terms = {
            "cos": [sp.cos(v) for v in a[:n]],
            "sin": [sp.sin(v) for v in a[:n]],
            "dot": [sp.cos(v - w) for v, w in zip(a[:n], b[:n], strict=True)],
        }[kind]
        f = sum((w * g for w, g in zip(weights, terms, strict=True)), sp.Integer(0))
        bound = sum(abs(w) for w in weights)
        true.append((f, "<=", bound))
        false.append((f, "<=", bound - rng.choice((margin, sp.Rational(1, 10), half))))
    return true, false
