"""RoPE pairings: which two dimensions of a query/key rotate together."""

from __future__ import annotations

import numpy as np

INTERLEAVED, HALF_SPLIT = "interleaved", "half-split"
PAIRINGS = (INTERLEAVED, HALF_SPLIT)


def to_interleaved(d_model: int, pairing: str) -> np.ndarray:
    """Index array p with x_interleaved = x[p]: half-split pair (i, i + d/2) becomes (2i, 2i + 1)."""
    if pairing == INTERLEAVED:
        return np.arange(d_model)
    if pairing == HALF_SPLIT:
        half = d_model // 2
        return np.stack([np.arange(half), np.arange(half) + half], axis=1).reshape(-1)
    raise ValueError(f"pairing {pairing!r} is not one of {PAIRINGS}")
