"""The documents' formulas as SymPy objects, shared by claim proofs."""

from __future__ import annotations

import sympy as sp

pos, k = sp.symbols("pos k", real=True)
"""A position pos and a shift k (real symbols: a proof over them holds for every integer position too)."""
w = sp.Symbol("omega", positive=True)
"""A frequency ω (ω_i of one pair); in a sweep's tolerance, the grid's ω_i."""
i = sp.Symbol("i", integer=True, nonnegative=True)
"""The index i of a (sin, cos) pair: 0 … d_model/2 − 1."""
d_model = sp.Symbol("d_model", integer=True, positive=True, even=True)
"""The embedding size d_model (a positive even integer)."""
BASE = sp.Integer(10000)
"""The base of the sinusoidal frequencies, ω_i = 1 / BASE^(2i/d_model)."""


def omega(pair: sp.Expr = i, d: sp.Expr = d_model, base: sp.Expr = BASE) -> sp.Expr:
    """ω_i = 1 / base^(2i/d_model)."""
    return base ** (sp.Integer(-2) * pair / d)


def pair(angle: sp.Expr) -> sp.Matrix:
    """One PE pair (sin θ, cos θ) as a column."""
    return sp.Matrix([sp.sin(angle), sp.cos(angle)])


def shift_block(angle: sp.Expr) -> sp.Matrix:
    """M_k's 2×2 block as printed in document 002 §5: [[cos, sin], [−sin, cos]]."""
    return sp.Matrix([[sp.cos(angle), sp.sin(angle)], [-sp.sin(angle), sp.cos(angle)]])


def rotation(angle: sp.Expr) -> sp.Matrix:
    """R(φ) = [[cos φ, −sin φ], [sin φ, cos φ]], the RoPE rotation."""
    return sp.Matrix([[sp.cos(angle), -sp.sin(angle)], [sp.sin(angle), sp.cos(angle)]])


def pairs_sum(summand: sp.Expr, d: sp.Expr = d_model) -> sp.Sum:
    """Σ over the d_model/2 pairs i = 0 … d_model/2 − 1."""
    return sp.Sum(summand, (i, 0, d / 2 - 1))
