"""Finding an implementation's RoPE pairing by probing it, and the envelope of its low-precision path."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from checks.helpers.backends import BACKENDS
from checks.helpers.precision import ErrorFunction, exact_pairs, frequencies_of, rope_vectors
from checks.implementations.base import backend_name


def probe_permutation(adapter: Any, d_model: int) -> np.ndarray:
    """The permutation p with x_interleaved = x[p], read off the adapter itself.

    Each basis vector e_j rotated at position 1 in float64 moves into exactly two
    dimensions: j (cos) and its partner (sin). The dimension whose partner receives +sin
    comes first; pairs are ordered by their angle (the frequency), fastest first.
    """
    xp = BACKENDS[backend_name(adapter)]("float64")
    rotated = xp.to_float64(adapter.rope(xp.array(np.eye(d_model)), np.ones(d_model, dtype=np.int64)))
    pairs: dict[tuple[int, int], float] = {}
    for j in range(d_model):
        partner = int(np.argmax(np.abs(np.delete(rotated[j], j))))
        partner += partner >= j
        if rotated[j, partner] > 0:
            pairs[(j, partner)] = float(np.arctan2(rotated[j, partner], rotated[j, j]))
    ordered = sorted(pairs, key=lambda pair: -pairs[pair])
    return np.array([index for pair in ordered for index in pair])


def adapter_score_errors(adapter: Any, dtype: str, d_model: int, distance: int) -> ErrorFunction:
    """|(R(mθ)q)·(R(nθ)k) − qᵀR((n−m)θ)k| at m = pos, n = pos + distance, rotations by the adapter in the dtype.

    q and k are the envelope's fixed vectors in the adapter's own pairing, rounded to the dtype.
    """
    low = getattr(torch, dtype)
    q, key = rope_vectors(d_model)
    order = probe_permutation(adapter, d_model)
    gap = torch.full((1, 1), float(distance), dtype=torch.float64)
    sin, cos = exact_pairs(gap, frequencies_of(d_model))
    q_rounded, key_rounded = q.to(low).double(), key.to(low).double()
    qi, ki = q_rounded[order], key_rounded[order]
    exact = float((qi[0::2] * (cos * ki[0::2] - sin * ki[1::2]) + qi[1::2] * (sin * ki[0::2] + cos * ki[1::2])).sum())

    def errors(positions: torch.Tensor) -> torch.Tensor:
        rows = positions.long().numpy()
        queries = adapter.rope(q.to(low).expand(len(rows), -1).contiguous(), rows).double()
        keys = adapter.rope(key.to(low).expand(len(rows), -1).contiguous(), rows + distance).double()
        return ((queries * keys).sum(dim=1) - exact).abs()

    return errors
