"""An implementation's low-precision RoPE path, measured: the score error as a function of position."""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.helpers.precision_envelopes import ErrorFunction, rope_vectors
from checks.implementations.base import Implementation
from checks.implementations.fingerprint import layout_of
from checks.numerics.backends import NumpyBackend, TorchBackend
from checks.numerics.reference_implementations import Reference
from checks.settings.extras import optional

torch = optional("torch")


def adapter_score_errors(adapter: Any, dtype: str, d_model: int, distance: int) -> ErrorFunction:
    """|(R(mθ)q)·(R(nθ)k) − qᵀR((n−m)θ)k| at m = pos, n = pos + distance, rotations by the adapter in the dtype.

    q and k are the envelope's fixed vectors, rounded to the dtype; the exact score places the rotation
    as the implementation does (its pairs, the dimensions it rotates: fingerprint.layout_of).
    Every call goes through Implementation, so a failure names the adapter and its input.
    """
    implementation = Implementation(adapter, TorchBackend(dtype))
    q, key = (v.to(getattr(torch, dtype)).double().numpy() for v in rope_vectors(d_model))
    layout = layout_of(implementation, d_model)
    exact_rope = Reference(NumpyBackend("float64")).rope
    exact = float(q @ layout.apply(key, lambda part: exact_rope(part[None, :], [distance])[0]))

    def errors(positions: torch.Tensor) -> torch.Tensor:
        rows = positions.long().numpy()
        queries, keys = (
            implementation.rope(implementation.xp.array(np.broadcast_to(v, (len(rows), d_model)).copy()), at).double()
            for v, at in ((q, rows), (key, rows + distance))
        )
        return ((queries * keys).sum(dim=1) - exact).abs()

    return errors
