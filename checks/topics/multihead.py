"""Multi-head self-attention as a topic (Vaswani et al., 2017, §3.2.2).

``multihead_attention(x, w_q, w_k, w_v, w_o, heads)`` → Concat(head_1, …, head_h) W_O with
head_i = softmax(Q_i K_iᵀ / √(d/h)) V_i, where Q_i, K_i, V_i are the i-th block of d/h columns of x W_Q, x W_K,
x W_V (no bias, no mask, no position). The implementations are PyTorch's ``torch.nn.MultiheadAttention`` and
``scaled_dot_product_attention`` on h heads. The fingerprint (checks.implementations.heads_fingerprint) measures how
an implementation splits the heads, what it scales the scores by and whether it applies W_O.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from checks.helpers.attention_rounding import rounding_scale as head_scale
from checks.implementations.heads_fingerprint import FINGERPRINT, heads_for
from checks.implementations.topic_records import Topic
from checks.numerics.tolerances import LOW_PRECISION
from checks.settings.extras import optional

torch = optional("torch")

TOKENS = 8
"""Rows of a drawn input."""


def _drawn(rng: np.random.Generator, d_model: int) -> tuple[Any, ...]:
    x = rng.uniform(-1.0, 1.0, (TOKENS, d_model))
    weights = (rng.uniform(-1.0, 1.0, (d_model, d_model)) / math.sqrt(d_model) for _ in range(4))
    return (x, *weights, heads_for(d_model))


def _split(lib: Any, a: Any, heads: int) -> Any:
    """(n, d) → (h, n, d/h): head i takes the i-th block of d/h columns."""
    n, d = a.shape
    blocks = a.reshape(n, heads, d // heads)
    return np.swapaxes(blocks, 0, 1) if lib is np else blocks.transpose(0, 1)


def _softmax(lib: Any, s: Any) -> Any:
    if lib is np:
        e = np.exp(s - s.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    return torch.softmax(s, dim=-1)


def multihead_reference(x: Any, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
    """Concat(head_1, …, head_h) W_O in the array's own library and dtype."""
    lib = np if isinstance(x, np.ndarray) else torch
    q, k, v = (_split(lib, x @ w, heads) for w in (w_q, w_k, w_v))
    keys = np.swapaxes(k, -1, -2) if lib is np else k.transpose(-1, -2)
    out = _softmax(lib, q @ keys / math.sqrt(x.shape[-1] // heads)) @ v
    joined = np.swapaxes(out, 0, 1) if lib is np else out.transpose(0, 1)
    return joined.reshape(x.shape[0], -1) @ w_o


def multihead_scale(
    dtype: str, x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, w_o: np.ndarray, heads: Any
) -> float:
    """B with |multi-head attention in ``dtype`` − exact| ≤ u · B to first order: each head's bound
    (checks.helpers.attention_rounding.rounding_scale, on its own d/h columns), carried through W_O (times the largest
    absolute column sum of W_O), plus the output projection's own sum (a · max |concat| |W_O|) and its rounding."""
    h = int(np.asarray(heads))
    width = x.shape[-1] // h
    blocks = [slice(i * width, (i + 1) * width) for i in range(h)]
    per_head = max(head_scale(dtype, x, w_q[:, b], w_k[:, b], w_v[:, b]) for b in blocks)
    joined = np.concatenate(
        [multihead_reference(x, w_q[:, b], w_k[:, b], w_v[:, b], np.eye(width), 1) for b in blocks], -1
    )
    a = 1 if dtype in LOW_PRECISION else x.shape[-1]
    carried = per_head * float(np.max(np.abs(w_o).sum(0)))
    return carried + a * float(np.max(np.abs(joined) @ np.abs(w_o))) + float(np.max(np.abs(joined @ w_o)))


def close_multihead(
    t: Any, actual: object, expected: object, inputs: tuple[Any, ...], label: str = "multi-head attention"
) -> None:
    """Multi-head attention outputs of ``inputs`` (x, W_Q, W_K, W_V, W_O, heads): the tolerance at
    ``multihead_scale``, the first-order rounding bound of the computation in the run's dtype."""
    floats = [t.xp.to_float64(a) for a in inputs[:5]]
    t.close(actual, expected, scale=multihead_scale(t.dtype, *floats, inputs[5]), label=label)


class TorchMultiheadAttention:
    """torch.nn.MultiheadAttention(d, heads, bias=False, batch_first=True), built once per size, heads, dtype and
    device and kept as a model keeps it; its in_proj and out_proj weights set to the call's."""

    name = "torch-multihead-attention"

    def __init__(self) -> None:
        self.modules: dict[tuple[int, int, str, str], torch.nn.MultiheadAttention] = {}

    def multihead_attention(self, x: torch.Tensor, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
        key = (int(x.shape[-1]), int(heads), str(x.dtype), x.device.type)
        if key not in self.modules:
            module = torch.nn.MultiheadAttention(key[0], key[1], bias=False, batch_first=True)
            self.modules[key] = module.to(x.device, x.dtype).eval()
        module = self.modules[key]
        with torch.no_grad():
            module.in_proj_weight.copy_(torch.cat([w_q.T, w_k.T, w_v.T]))
            module.out_proj.weight.copy_(w_o.T)
            return module(x[None], x[None], x[None], need_weights=False)[0][0]


@dataclass(frozen=True)
class SdpaHeads:
    """The three projections, h heads of d/h columns, torch.nn.functional.scaled_dot_product_attention, W_O."""

    name: str = "torch-sdpa-heads"
    bug: str = ""
    scale_width: bool = False
    """A mutant's bug: the scores divided by √d instead of √(d/h)."""

    def multihead_attention(self, x: torch.Tensor, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
        q, k, v = (_split(torch, x @ w, heads) for w in (w_q, w_k, w_v))
        scale = 1 / math.sqrt(x.shape[-1]) if self.scale_width else None
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)
        return out.transpose(0, 1).reshape(x.shape[0], -1) @ w_o


MULTIHEAD_ATTENTION = Topic(
    name="multihead_attention",
    summary="Concat(head_1, …, head_h) W_O, head_i = softmax(Q_i K_iᵀ / √(d/h)) V_i on the i-th d/h columns",
    arguments=("x", "w_q", "w_k", "w_v", "w_o", "heads"),
    inputs=_drawn,
    cite="Vaswani et al. 2017, Attention Is All You Need, §3.2.2",
    references={"numpy": multihead_reference, "torch": multihead_reference},
    value_cases={"d_model 12, 3 heads of 4": lambda: (*_drawn(np.random.default_rng(11), 12)[:5], 3)},
    rounding_scale=multihead_scale,
    comparators=(close_multihead,),
    fingerprint=FINGERPRINT,
    implementations=(TorchMultiheadAttention(), SdpaHeads()),
    mutants=(SdpaHeads("multihead-scale-by-d", "scores divided by √d, not √(d/h)", scale_width=True),),
)
"""Multi-head self-attention with h heads of width d/h and an output projection."""

TOPICS = (MULTIHEAD_ATTENTION,)
"""This module's topics, as checks.topics loads them."""

__all__ = [
    "MULTIHEAD_ATTENTION",
    "TOPICS",
    "close_multihead",
    "multihead_reference",
]
