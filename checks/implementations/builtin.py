"""Built-in adapters: the project's references (every topic's), a half-split RoPE, PyTorch's SDPA, Meta-style RoPE."""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.pairing import HALF_SPLIT, INTERLEAVED
from checks.settings.extras import optional

torch = optional("torch")


class ReferenceAdapter:
    """The project's own implementations on one backend: every topic's reference for that backend
    (checks.topics.Topic.references)."""

    reference = True
    pairing = INTERLEAVED

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.name = f"reference-{backend}"

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("_"):
            from checks.implementations.topic_records import topics

            for topic in topics():
                if topic.name == name and self.backend in topic.references:
                    return topic.references[self.backend]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def array_backend(backend: str, x: Any) -> Backend:
    """The ``backend`` ("numpy" or "torch") in the dtype and on the device of the array ``x``."""
    dtype = str(x.dtype).removeprefix("torch.")
    device = "cpu" if isinstance(x, np.ndarray) else x.device.type
    return BACKENDS[backend](dtype, device)


def _angles(positions: np.ndarray, d_model: int, like: torch.Tensor) -> torch.Tensor:
    """pos · θ_i in float32 as Llama-style code forms them: 1 / 10000^(2i/d) in float32, then an outer product."""
    inverse = 1.0 / (10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float32, device=like.device) / d_model))
    return torch.as_tensor(positions, dtype=torch.float32, device=like.device)[:, None] * inverse[None, :]


class HalfSplitRope:
    """RoPE with pairs (i, i + d/2): x·cos + rotate_half(x)·sin, the layout of GPT-NeoX and Llama in transformers."""

    name = "half-split-rope"
    pairing = HALF_SPLIT
    d_models = range(2, 4097, 2)
    """An even head size, as in the models it follows (their code needs pairs)."""

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        angles = _angles(positions, x.shape[-1], x)
        cos, sin = (torch.cat([f(angles)] * 2, dim=-1).to(x.dtype) for f in (torch.cos, torch.sin))
        half = x.shape[-1] // 2
        rotated_half = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * cos + rotated_half * sin


class MetaComplexRope:
    """Meta's Llama reference: precompute_freqs_cis with torch.polar, then a complex multiply (interleaved)."""

    name = "meta-complex-rope"
    d_models = range(2, 4097, 2)
    """An even head size: d/2 complex numbers."""
    pairing = INTERLEAVED

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        angles = _angles(positions, x.shape[-1], x)
        freqs_cis = torch.polar(torch.ones_like(angles), angles)
        as_complex = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(as_complex * freqs_cis).flatten(-2).type_as(x)


class TorchSdpaAttention:
    """torch.nn.functional.scaled_dot_product_attention after the three projections."""

    name = "torch-sdpa"

    def attention(self, x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor) -> torch.Tensor:
        q, k, v = ((x @ w)[None] for w in (w_q, w_k, w_v))
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)[0]
