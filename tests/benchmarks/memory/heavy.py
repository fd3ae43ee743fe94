"""A researcher's topic of heavy inputs, ALiBi-like: heads × 512 × 512 float64 logits (16 MiB at 8 heads) plus a
bias per head and distance; a correct torch adapter and one off by 1e-3 (its cells fail, and Hypothesis shrinks)."""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.settings.extras import optional
from checks.topics import Topic

torch = optional("torch")
LENGTH = 512
HEADS = 8


def drawn(rng: np.random.Generator, heads: int) -> tuple[np.ndarray]:
    return (rng.normal(0.0, 1.0, (heads, LENGTH, LENGTH)),)


def biased(logits: Any) -> Any:
    """logits + m_h · (j − i), m_h = 2^(−8h/H), in the array's own library and dtype."""
    heads = logits.shape[0]
    slopes = 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    bias = slopes[:, None, None] * (np.arange(LENGTH)[None, :] - np.arange(LENGTH)[:, None])
    if isinstance(logits, np.ndarray):
        return logits + bias.astype(logits.dtype)
    return logits + torch.as_tensor(bias, dtype=logits.dtype, device=logits.device)


class TorchBiased:
    name = "torch-biased"

    def biased_logits(self, logits: Any) -> Any:
        return biased(logits)


class OffBiased:
    name = "off-biased"

    def biased_logits(self, logits: Any) -> Any:
        return biased(logits) + 1e-3


TOPIC = Topic(
    name="biased_logits",
    summary="logits + m_h · (j − i)",
    arguments=("logits",),
    inputs=drawn,
    references={"numpy": biased, "torch": biased},
    size=lambda arguments: int(arguments[0].shape[0]),
    size_name="heads",
    size_families=("powers of 2",),
    probe_sizes=(8, 4, 2),
    implementations=(TorchBiased(), OffBiased()),
)
