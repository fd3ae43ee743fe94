"""Reference implementations under test, written once for any backend.

Angles are formed in the backend's dtype (ω_i rounded to the dtype, then
pos · ω_i in the dtype), the way a straightforward implementation does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from checks.numerics.backends import Array, Backend
from checks.numerics.pairing import INTERLEAVED, to_interleaved

BASE = 10000.0


def frequency_values(d_model: int, base: float = BASE) -> np.ndarray:
    """ω_i = 1 / base^(2i/d_model) in float64 for every pair i (ceil(d_model/2) of them)."""
    pairs = np.arange(0, d_model, 2, dtype=np.float64)
    return base ** (-pairs / d_model)


@dataclass(frozen=True)
class Reference:
    """The project's own implementations, bound to one backend."""

    xp: Backend
    name = "reference"
    pairing = INTERLEAVED

    def to_interleaved(self, d_model: int) -> np.ndarray:
        """RoPE pairs are already (2i, 2i + 1) here: the identity permutation."""
        return to_interleaved(d_model, self.pairing)

    def frequencies(self, d_model: int) -> Array:
        return self.xp.array(frequency_values(d_model))

    def angles(self, positions: Sequence[float] | int, d_model: int) -> Array:
        """pos · ω_i, shape (len(positions), ceil(d_model/2))."""
        pos = self.xp.array(np.atleast_1d(np.asarray(positions, dtype=np.float64)))
        return pos[:, None] * self.frequencies(d_model)[None, :]

    def sinusoidal(self, positions: Sequence[float] | int, d_model: int) -> Array:
        """PE rows: column 2i = sin(pos ω_i), column 2i+1 = cos(pos ω_i).

        For odd d_model the last column is a lone sin, as in document 000's code.
        """
        angles = self.angles(positions, d_model)
        interleaved = self.xp.stack([self.xp.sin(angles), self.xp.cos(angles)], axis=-1)
        return interleaved.reshape(angles.shape[0], -1)[:, :d_model]

    def shift_matrix(self, k: float, d_model: int) -> Array:
        """Block-diagonal M_k with [[cos ω_i k, sin ω_i k], [−sin ω_i k, cos ω_i k]] blocks."""
        if d_model % 2:
            raise ValueError(f"M_k needs an even d_model (a sin needs its cos partner), got {d_model}")
        angle = self.xp.array(k) * self.frequencies(d_model)
        c, s = (self.xp.to_float64(f(angle)) for f in (self.xp.cos, self.xp.sin))
        matrix = np.zeros((d_model, d_model))
        pairs = np.arange(0, d_model, 2)
        matrix[pairs, pairs], matrix[pairs, pairs + 1] = c, s
        matrix[pairs + 1, pairs], matrix[pairs + 1, pairs + 1] = -s, c
        return self.xp.array(matrix)

    def rope(self, x: Array, positions: Sequence[float], base: float = BASE) -> Array:
        """Rotate each interleaved pair (2i, 2i+1) of x[j] by positions[j] · θ_i.

        R(φ) = [[cos φ, −sin φ], [sin φ, cos φ]], θ_i = base^(−2i/d). For an odd d the last dimension has no
        partner and is left as it is (the rotation of the d − 1 others keeps θ_i = base^(−2i/d)).
        """
        d_model = x.shape[-1]
        paired = d_model - d_model % 2
        pos = self.xp.array(np.asarray(positions, dtype=np.float64))
        angles = pos[:, None] * self.xp.array(frequency_values(d_model, base)[: paired // 2])[None, :]
        c, s = self.xp.cos(angles), self.xp.sin(angles)
        even, odd = x[..., 0:paired:2], x[..., 1:paired:2]
        rotated = self.xp.stack([even * c - odd * s, even * s + odd * c], axis=-1).reshape((*x.shape[:-1], paired))
        if paired == d_model:
            return rotated
        return self.xp.stack([*(rotated[..., i] for i in range(paired)), x[..., paired]], axis=-1)
