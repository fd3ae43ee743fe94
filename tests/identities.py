"""A corpus of true identities and near-miss false ones for the prover."""

from __future__ import annotations

import sympy as sp

from checks.symbolic.document_formulas import omega, pairs_sum, rotation, shift_block

x, y, z, a, b = sp.symbols("x y z a b", real=True)
pos, k, w, m, n = sp.symbols("pos k omega m n", real=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
d = sp.Symbol("d_model", integer=True, positive=True, even=True)
sin, cos = sp.sin, sp.cos


def _pair(angle: sp.Expr) -> sp.Matrix:
    return sp.Matrix([sin(angle), cos(angle)])


TRUE: list[tuple[str, object, object]] = [
    ("pythagoras", sin(x) ** 2 + cos(x) ** 2, 1),
    ("sin addition", sin(x + y), sin(x) * cos(y) + cos(x) * sin(y)),
    ("cos addition", cos(x + y), cos(x) * cos(y) - sin(x) * sin(y)),
    ("cos difference", cos(a - b), cos(a) * cos(b) + sin(a) * sin(b)),
    ("sin difference", sin(a - b), sin(a) * cos(b) - cos(a) * sin(b)),
    ("double sin", sin(2 * x), 2 * sin(x) * cos(x)),
    ("double cos", cos(2 * x), 1 - 2 * sin(x) ** 2),
    ("double cos squares", cos(2 * x), cos(x) ** 2 - sin(x) ** 2),
    ("triple sin", sin(3 * x), 3 * sin(x) - 4 * sin(x) ** 3),
    ("triple cos", cos(3 * x), 4 * cos(x) ** 3 - 3 * cos(x)),
    ("half angle", sin(x / 2) ** 2, (1 - cos(x)) / 2),
    ("half angle cos", cos(x / 3) ** 2, (1 + cos(2 * x / 3)) / 2),
    ("product to sum", 2 * sin(x) * sin(y), cos(x - y) - cos(x + y)),
    ("product to sum cos", 2 * cos(x) * cos(y), cos(x - y) + cos(x + y)),
    ("sum to product", sin(x) + sin(y), 2 * sin((x + y) / 2) * cos((x - y) / 2)),
    ("fourth powers", sin(x) ** 4 - cos(x) ** 4, sin(x) ** 2 - cos(x) ** 2),
    ("quarter turn", sin(x + sp.pi / 2), cos(x)),
    ("half turn", cos(x + sp.pi), -cos(x)),
    (
        "three angles",
        sin(x + y + z),
        sin(x) * cos(y) * cos(z) + cos(x) * sin(y) * cos(z) + cos(x) * cos(y) * sin(z) - sin(x) * sin(y) * sin(z),
    ),
    ("shift rotation", shift_block(w * k) * _pair(w * pos), _pair(w * (pos + k))),
    ("rotation composition", rotation(a) * rotation(b), rotation(a + b)),
    ("rotation transpose", rotation(a).T, rotation(-a)),
    ("rotation orthogonal", rotation(a).T * rotation(a), sp.eye(2)),
    ("rope 2x2", (rotation(m * w).T * rotation(n * w))[0, 0], rotation((n - m) * w)[0, 0]),
    ("dot product distance", sin(w * pos) * sin(w * (pos + k)) + cos(w * pos) * cos(w * (pos + k)), cos(w * k)),
    ("norm of pe pair", sin(omega() * pos) ** 2 + cos(omega() * pos) ** 2, 1),
    ("sum norm", pairs_sum(sin(omega() * pos) ** 2 + cos(omega() * pos) ** 2), d / 2),
    (
        "sum dot",
        pairs_sum(sin(omega() * pos) * sin(omega() * (pos + k)) + cos(omega() * pos) * cos(omega() * (pos + k))),
        pairs_sum(cos(omega() * k)),
    ),
    ("polynomial coefficients", (a * sin(x) + b * cos(x)) ** 2 + (a * cos(x) - b * sin(x)) ** 2, a**2 + b**2),
    ("rational function", sin(x) ** 2 / (1 + a**2), (1 - cos(x) ** 2) / (1 + a**2)),
]

FALSE: list[tuple[str, object, object]] = [
    ("sin squared as 1 - cos", sin(x) ** 2, 1 - cos(x)),
    ("pythagoras off by one", sin(x) ** 2 + cos(x) ** 2, 2),
    ("cos difference with minus", cos(a - b), cos(a) * cos(b) - sin(a) * sin(b)),
    ("cos addition with plus", cos(a + b), cos(a) * cos(b) + sin(a) * sin(b)),
    ("sin addition sign", sin(x + y), sin(x) * cos(y) - cos(x) * sin(y)),
    ("double sin missing 2", sin(2 * x), sin(x) * cos(x)),
    ("double cos sign", cos(2 * x), 1 + 2 * sin(x) ** 2),
    ("triple sin coefficient", sin(3 * x), 3 * sin(x) - 3 * sin(x) ** 3),
    ("half angle wrong", sin(x / 2) ** 2, (1 + cos(x)) / 2),
    ("sin is linear", sin(x + y), sin(x) + sin(y)),
    ("sin of double", sin(2 * x), 2 * sin(x)),
    (
        "rotation sign flipped",
        sp.Matrix([[cos(w * k), -sin(w * k)], [-sin(w * k), cos(w * k)]]) * _pair(w * pos),
        _pair(w * (pos + k)),
    ),
    ("rotation transposed", shift_block(w * k).T * _pair(w * pos), _pair(w * (pos + k))),
    ("shift by 2k", shift_block(w * k) * _pair(w * pos), _pair(w * (pos + 2 * k))),
    (
        "base 1000",
        sin(omega() * pos) * sin(omega() * (pos + k)) + cos(omega() * pos) * cos(omega() * (pos + k)),
        cos(omega(base=1000) * k),
    ),
    ("base 1000 in a sum", pairs_sum(cos(omega() * k)), pairs_sum(cos(omega(base=1000) * k))),
    ("norm d not d/2", pairs_sum(sin(omega() * pos) ** 2 + cos(omega() * pos) ** 2), d),
    ("rope sum of angles", (rotation(m * w).T * rotation(n * w))[0, 0], rotation((n + m) * w)[0, 0]),
    ("rotation composition minus", rotation(a) * rotation(b), rotation(a - b)),
    ("quarter turn wrong", sin(x + sp.pi / 2), -cos(x)),
    ("sin only dot product", sin(w * pos) * sin(w * (pos + k)), cos(w * k)),
    ("dot product sign", sin(w * pos) * sin(w * (pos + k)) - cos(w * pos) * cos(w * (pos + k)), cos(w * k)),
    ("coefficient squared", (a * sin(x) + b * cos(x)) ** 2, a**2 + b**2),
    ("product to sum sign", 2 * sin(x) * sin(y), cos(x + y) - cos(x - y)),
    ("tiny perturbation", sin(x) ** 2 + cos(x) ** 2, 1 + sp.Rational(1, 10**12)),
    ("fourth powers sign", sin(x) ** 4 - cos(x) ** 4, cos(x) ** 2 - sin(x) ** 2),
    (
        "three angles missing term",
        sin(x + y + z),
        sin(x) * cos(y) * cos(z) + cos(x) * sin(y) * cos(z) + cos(x) * cos(y) * sin(z),
    ),
]

UNKNOWN: list[tuple[str, object, object]] = [
    ("tan identity", sp.tan(x), sin(x) / cos(x)),
    ("exp outside", sp.exp(x) * sin(x) ** 2, sp.exp(x) * (1 - cos(x) ** 2)),
    ("nested trig", sin(sin(x)) ** 2 + cos(sin(x)) ** 2, 1),
    ("absolute value", sp.Abs(sin(x)) * sin(x), sin(x) ** 2),
]
