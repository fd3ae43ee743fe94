"""Dot products between PE vectors: the float64 similarity curve, sin-only vectors, tolerance scales."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from checks.numerics.backends import Array
from checks.numerics.reference_implementations import Reference, frequency_values


def similarity_curve(d_model: int, distances: Sequence[float] | np.ndarray) -> np.ndarray:
    """PE(pos) · PE(pos + k) = Σ_i cos(ω_i k) in float64, one value per distance k (even d_model)."""
    k = np.asarray(distances, dtype=np.float64)
    return np.cos(np.multiply.outer(k, frequency_values(d_model))).sum(axis=-1)


def sin_only(reference: Reference, positions: Sequence[float] | np.ndarray, d_model: int) -> Array:
    """PE with the cos partners dropped: rows (sin(pos ω_i)) for i = 0 … d_model/2 − 1, in the backend's dtype."""
    return reference.xp.sin(reference.angles(positions, d_model))


def dot(reference: Reference, a: Array, b: Array) -> Array:
    """a · b, row by row (the last axis), summed in the backend's dtype."""
    return reference.xp.sum(a * b, axis=-1)


def dot_scale(d_model: int, *positions: float | np.ndarray) -> float | np.ndarray:
    """Tolerance scale for a dot product of PE rows at ``positions``.

    Each entry rounds its angle pos · ω_i (error ∝ Σ_i ω_i · |pos| per row) and the
    d_model products are rounded and summed (error ∝ d_model, each term at most 1).
    Arrays of positions (a batch) give one scale per row.
    """
    angles = float(np.sum(frequency_values(d_model))) * sum(abs(p) for p in positions)
    return angles + d_model


def first_increase(values: Sequence[float] | np.ndarray) -> int | None:
    """The first index j with values[j] > values[j − 1], or None when the sequence never rises."""
    rises = np.nonzero(np.diff(np.asarray(values, dtype=np.float64)) > 0)[0]
    return int(rises[0]) + 1 if len(rises) else None
