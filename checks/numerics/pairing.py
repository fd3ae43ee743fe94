"""Layouts: which two dimensions of a query/key rotate together (RoPE), where sin and cos sit (sinusoidal)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

INTERLEAVED, HALF_SPLIT, CONCATENATED = "interleaved", "half-split", "concatenated"
"""Layouts: pairs (2i, 2i + 1); RoPE pairs (i, i + d/2); a table's sines, then its cosines."""
PAIRINGS = (INTERLEAVED, HALF_SPLIT)
"""RoPE: pairs (2i, 2i + 1), or pairs (i, i + d/2)."""
INTERLEAVED_COS_FIRST, CONCATENATED_COS_FIRST = "interleaved, cos first", "concatenated, cos first"
LAYOUTS = (INTERLEAVED, CONCATENATED, INTERLEAVED_COS_FIRST, CONCATENATED_COS_FIRST)
"""Sinusoidal: sin(pos·ω_i) at 2i and cos at 2i + 1 (the documents'), all sines then all cosines, or either with
cos and sin swapped (cos(pos·ω_i) at 2i; all cosines, then all sines: diffusion models' flip_sin_to_cos).

At an odd d_model every layout has (d + 1)/2 sines and (d − 1)/2 cosines, the last sine alone (document 000's
table): "concatenated" puts the (d + 1)/2 sines first; "concatenated, cos first" the (d − 1)/2 cosines first, then
the sines; "interleaved, cos first" pairs (cos, sin) and ends on the lone sine."""


def to_interleaved(d_model: int, pairing: str) -> np.ndarray:
    """Index array p with x_interleaved = x[p]: half-split pair (i, i + d/2) becomes (2i, 2i + 1)."""
    if pairing == INTERLEAVED:
        return np.arange(d_model)
    if pairing == HALF_SPLIT:
        half = d_model // 2
        return np.stack([np.arange(half), np.arange(half) + half], axis=1).reshape(-1)
    raise ValueError(f"pairing {pairing!r} is not one of {PAIRINGS}")


def to_document_layout(d_model: int, layout: str) -> np.ndarray:
    """Index array p with row_documents = row[p] (an odd d_model's last sine stays last)."""
    if layout == INTERLEAVED:
        return np.arange(d_model)
    sines, cosines = (d_model + 1) // 2, d_model // 2
    order = np.empty(d_model, dtype=np.int64)
    if layout == CONCATENATED:
        order[0::2], order[1::2] = np.arange(sines), sines + np.arange(cosines)
        return order
    if layout == CONCATENATED_COS_FIRST:
        order[0::2], order[1::2] = cosines + np.arange(sines), np.arange(cosines)
        return order
    if layout == INTERLEAVED_COS_FIRST:
        order[0::2] = np.minimum(np.arange(sines) * 2 + 1, d_model - 1)
        order[1::2] = np.arange(cosines) * 2
        return order
    raise ValueError(f"layout {layout!r} is not one of {LAYOUTS}")


@dataclass(frozen=True)
class RopeLayout:
    """Where a RoPE rotation acts: ``order`` puts the rotated dimensions first, in (2i, 2i + 1) pairs, then the rest.

    ``rotated`` dimensions rotate (all of them, or a first part of each head: partial rotation, whose
    frequencies are those of a rotation of ``rotated`` dimensions); the others are left as they are.
    """

    order: np.ndarray
    rotated: int

    @property
    def partial(self) -> bool:
        return self.rotated < len(self.order)

    def apply(self, x: np.ndarray, rotate: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``rotate`` (an interleaved rotation of ``rotated`` dimensions) placed in this layout; the rest kept."""
        inner = np.asarray(x)[..., self.order]
        moved = np.concatenate([rotate(inner[..., : self.rotated]), inner[..., self.rotated :]], axis=-1)
        return moved[..., np.argsort(self.order)]


def rope_layout(d_model: int, pairing: str, rotated: int | None = None) -> RopeLayout:
    """The layout of a rotation with ``pairing`` of the first ``rotated`` dimensions (all when None)."""
    count = d_model if rotated is None else rotated
    return RopeLayout(np.concatenate([to_interleaved(count, pairing), np.arange(count, d_model)]), count)
