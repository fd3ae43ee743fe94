"""Sinusoidal tables in a chosen dtype and the geometry of one (sin, cos) clock hand.

Shared by the claims on the encoding's values (bounded, unique, on the unit circle,
turned by a shift). Tables come back as float64 NumPy arrays holding the dtype's values.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from checks.numerics.backends import Array, NumpyBackend, TorchBackend
from checks.numerics.reference_implementations import Reference
from checks.settings.extras import optional

torch = optional("torch")

EXACT = Reference(NumpyBackend("float64"))
"""The project's reference on float64 NumPy: the exact values a claim compares against or measures."""


def rounded(values: object, dtype: str) -> np.ndarray:
    """Float64 values rounded once to ``dtype`` (through torch, which has bfloat16), back in float64."""
    exact = torch.as_tensor(np.asarray(values, dtype=np.float64))
    return exact.to(getattr(torch, dtype)).double().numpy()


def table_in(dtype: str, positions: Sequence[float] | np.ndarray, d_model: int) -> np.ndarray:
    """PE rows with every step in ``dtype``: positions, ω_i, pos · ω_i and sin/cos.

    NumPy where it has the dtype (fast for whole tables), torch on the CPU for bfloat16.
    """
    backend = TorchBackend(dtype) if NumpyBackend.unsupported("cpu", dtype) else NumpyBackend(dtype)
    rows = Reference(backend).sinusoidal(np.asarray(positions, dtype=np.float64), d_model)
    return backend.to_float64(rows)


def table_rounded(dtype: str, positions: Sequence[float] | np.ndarray, d_model: int) -> np.ndarray:
    """PE rows computed in float64, then rounded once to ``dtype`` (a table cast at the end)."""
    return rounded(table_in("float64", positions, d_model), dtype)


def shifted_rows(reference: Reference, rows: Array, shifts: np.ndarray) -> Array:
    """M_k PE for each row of PE with its own shift k, in the reference's backend and dtype (M_k: shift_matrix)."""
    matrices = reference.xp.stack([reference.shift_matrix(k, rows.shape[-1]) for k in shifts.tolist()])
    return (matrices @ rows[:, :, None])[:, :, 0]


def clockwise_turn(before: Array, after: Array) -> tuple[Array, Array]:
    """(cos φ, sin φ) of the clockwise angle φ from each hand in ``before`` to the one in ``after``.

    Rows are PE vectors; columns 2i, 2i+1 hold one hand (x = sin θ, y = cos θ), so a hand at
    θ turned clockwise by φ sits at θ + φ: cos φ = x₀x₁ + y₀y₁ and sin φ = x₁y₀ − y₁x₀.
    """
    x0, y0, x1, y1 = before[..., 0::2], before[..., 1::2], after[..., 0::2], after[..., 1::2]
    return x0 * x1 + y0 * y1, x1 * y0 - y1 * x0


def pair_chords(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """How far each hand moved from ``before`` to ``after`` (float64 PE rows): |Δ| of each pair (2i, 2i+1)."""
    delta = np.asarray(after, dtype=np.float64) - np.asarray(before, dtype=np.float64)
    return np.hypot(delta[..., 0::2], delta[..., 1::2])


def chord_lengths(omega: np.ndarray | float, distance: np.ndarray | float) -> np.ndarray:
    """2·|sin(ω·Δ/2)|: the chord between two hands ω·Δ apart on the unit circle."""
    return 2 * np.abs(np.sin(np.asarray(omega) * np.asarray(distance) / 2))
