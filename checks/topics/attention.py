"""Scaled dot-product self-attention as a topic (Vaswani et al., 2017, §3.2.1): softmax(x W_Q (x W_K)ᵀ / √d_k) x W_V,
one head, no mask, no position."""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.helpers.attention_layers import self_attention
from checks.helpers.attention_rounding import close_attention, close_pooled, rounding_scale
from checks.implementations.base import Implementation
from checks.implementations.builtin import TorchSdpaAttention, array_backend
from checks.implementations.mutants import ATTENTION_MUTANTS
from checks.implementations.topic_records import SEED, Expected, Topic
from checks.numerics.backends import Backend


def _inputs(
    tokens: int, d_model: int, d_k: int, d_v: int, score_scale: float = 1.0, seed: int = SEED
) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, (tokens, d_model))
    w_q, w_k = (score_scale * rng.uniform(-1.0, 1.0, (d_model, d_k)) for _ in range(2))
    return x, w_q, w_k, rng.uniform(-1.0, 1.0, (d_model, d_v))


def _drawn(rng: np.random.Generator, d_model: int) -> tuple[np.ndarray, ...]:
    """16 tokens, W_Q and W_K at 1/√d_model as initialised weights are: scores of order 1, as attention meets them.
    Unscaled, the scores grow as d_model^1.5 and bfloat16's rounding bound covers the output's whole range from
    d_model = 8 on (scaled: up to 32 resolves; float16 every size up to 64)."""
    return _inputs(16, d_model, d_model, d_model, 1 / np.sqrt(d_model), seed=int(rng.integers(2**32)))


def _call(implementation: Implementation, d_model: int, length: int) -> Any:
    rng = np.random.default_rng(SEED)
    tokens = min(length, 16)
    x, *weights = (rng.uniform(-1.0, 1.0, shape) for shape in ((tokens, d_model), *([(d_model, d_model)] * 3)))
    return implementation.call("attention", *(implementation.xp.array(a) for a in (x, *weights)))


def _reference(backend: str) -> Any:
    def attention(x: Any, w_q: Any, w_k: Any, w_v: Any) -> Any:
        return self_attention(array_backend(backend, x), x, w_q, w_k, w_v)

    return attention


def _output(xp: Backend, arguments: tuple[Any, ...]) -> Expected:
    x, w_v = arguments[0], arguments[3]
    return Expected((int(x.shape[0]), int(w_v.shape[-1])), *_dtype_device(x))


def _dtype_device(value: Any) -> tuple[str, str]:
    device = "cpu" if isinstance(value, np.ndarray) else value.device.type
    return str(value.dtype).removeprefix("torch."), device


ATTENTION = Topic(
    name="attention",
    summary="softmax(x W_Q (x W_K)ᵀ / √d_k) x W_V: one head, no mask, no position",
    arguments=("x", "w_q", "w_k", "w_v"),
    inputs=_drawn,
    cite="Vaswani et al. 2017, Attention Is All You Need, §3.2.1",
    references={backend: _reference(backend) for backend in ("numpy", "torch")},
    expected=_output,
    call=_call,
    value_cases={
        "d_model 8, d_k 4, d_v 6": lambda: _inputs(5, 8, 4, 6),
        "scores up to about 25 (exp overflows float16 without the row maximum subtracted)": lambda: _inputs(
            5, 8, 4, 6, 3.7
        ),
    },
    rounding_scale=rounding_scale,
    comparators=(close_attention, close_pooled),
    implementations=(TorchSdpaAttention(),),
    mutants=ATTENTION_MUTANTS,
)
"""Single-head self-attention: ``attention(x, w_q, w_k, w_v)`` → one output row per token."""

TOPICS = (ATTENTION,)
"""This module's topics, as checks.topics loads them."""

__all__ = [
    "ATTENTION",
    "TOPICS",
]
