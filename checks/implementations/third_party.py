"""Adapters for RoPE as libraries ship it: torchtune and Hugging Face transformers (optional extras).

Without the package, an adapter says so through ``missing()`` and its matrix cells read "not installed".
"""

from __future__ import annotations

import importlib.util
from functools import cache
from typing import Any

import numpy as np
import torch

from checks.implementations.pairing import HALF_SPLIT, INTERLEAVED

MAX_POSITION = 2**16 - 1
"""The rotary caches are built up to this position (torchtune indexes a table of max_seq_len rows)."""


def _absent(package: str) -> str | None:
    if importlib.util.find_spec(package) is None:
        return f"not installed: {package} (tox -e implementations installs it)"
    return None


class TorchtuneRope:
    """torchtune.modules.RotaryPositionalEmbeddings (interleaved pairs, cache in float32)."""

    name = "torchtune"
    pairing = INTERLEAVED
    max_position = MAX_POSITION

    def missing(self) -> str | None:
        return _absent("torchtune")

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        module = _torchtune_module(x.shape[-1], x.device.type)
        rows = x[None, :, None, :]
        input_pos = torch.as_tensor(positions, device=x.device)[None, :]
        return module(rows, input_pos=input_pos)[0, :, 0, :]


@cache
def _torchtune_module(d_model: int, device: str) -> Any:
    from torchtune.modules import RotaryPositionalEmbeddings

    return RotaryPositionalEmbeddings(d_model, max_seq_len=MAX_POSITION + 1, base=10000).to(device)


class HuggingFaceLlamaRope:
    """transformers' LlamaRotaryEmbedding with apply_rotary_pos_emb (half-split pairs, rotate_half)."""

    name = "hf-llama"
    pairing = HALF_SPLIT
    max_position = MAX_POSITION

    def missing(self) -> str | None:
        return _absent("transformers")

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

        rotary = _llama_rotary(x.shape[-1], x.device.type)
        rows = x[None, None, :, :]
        cos, sin = rotary(rows, torch.as_tensor(positions, device=x.device)[None, :])
        rotated, _ = apply_rotary_pos_emb(rows, rows, cos, sin)
        return rotated[0, 0]


@cache
def _llama_rotary(d_model: int, device: str) -> Any:
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(hidden_size=d_model, num_attention_heads=1, max_position_embeddings=MAX_POSITION + 1)
    return LlamaRotaryEmbedding(config).to(device)
