"""Adapters for RoPE and sinusoidal encodings as libraries ship them (optional packages, each installed by pip):
torchtune, Hugging Face transformers, rotary-embedding-torch, x-transformers and positional-encodings.

Each calls the library the way its own README or model code does, and changes nothing it computes.
Without the package, an adapter says so through ``missing()`` and its matrix cells read "not installed".
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache
from typing import Any

import numpy as np

from checks.numerics.pairing import CONCATENATED, HALF_SPLIT, INTERLEAVED
from checks.settings.extras import optional

torch = optional("torch")

MAX_POSITION = 2**16 - 1
"""The rotary caches are built up to this position (torchtune indexes a table of max_seq_len rows)."""


THIRD_PARTY_ENV = "THEORY_CLAIMS_THIRD_PARTY"
"""Set to 0 to leave the third-party libraries' adapters out even where a library is installed (the tests and
libraries are installed for other reasons, as for the library claims)."""


def _absent(package: str) -> str | None:
    if os.environ.get(THIRD_PARTY_ENV) == "0":
        return f"left out here ({THIRD_PARTY_ENV}=0)"
    if importlib.util.find_spec(package) is None:
        return f"not installed: {package} (pip install {package.replace('_', '-')})"
    return None


class TorchtuneRope:
    """torchtune.modules.RotaryPositionalEmbeddings (interleaved pairs, cache in float32)."""

    name = "torchtune"
    pairing = INTERLEAVED
    min_position, max_position = 0, MAX_POSITION
    d_models = range(2, 4097, 2)
    """An even head size: the library raises for an odd one (RoPE needs pairs)."""

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
    min_position, max_position = 0, MAX_POSITION
    d_models = range(2, 4097, 2)
    """An even head size: the library raises for an odd one (RoPE needs pairs)."""

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


class RotaryEmbeddingTorch:
    """rotary-embedding-torch's RotaryEmbedding (interleaved pairs, its default 'lang' frequencies).

    Contiguous positions go through ``rotate_queries_or_keys`` (the README's call, its cache included); any
    other positions through ``forward`` and ``apply_rotary_emb``, formed in x's dtype as ``get_seq_pos`` does.
    """

    name = "rotary-embedding-torch"
    pairing = INTERLEAVED
    min_position, max_position = 0, MAX_POSITION
    d_models = range(2, 4097, 2)

    def missing(self) -> str | None:
        return _absent("rotary_embedding_torch")

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        from rotary_embedding_torch import apply_rotary_emb

        rotary = _lucidrains_rotary(x.shape[-1], x.device.type)
        start = int(positions[0])
        with torch.no_grad():
            if np.array_equal(positions, np.arange(start, start + len(positions))):
                return rotary.rotate_queries_or_keys(x[None], offset=start)[0]
            freqs = rotary(torch.as_tensor(positions, device=x.device).to(x.dtype))
            return apply_rotary_emb(freqs, x)


@cache
def _lucidrains_rotary(d_model: int, device: str) -> Any:
    from rotary_embedding_torch import RotaryEmbedding

    return RotaryEmbedding(d_model).to(device)


class XTransformersRope:
    """x-transformers' RotaryEmbedding as its Attention builds it: rotary_emb_dim = dim_head // 2 (a partial
    rotation of the first half of each head), interleaved pairs, applied by apply_rotary_pos_emb."""

    name = "x-transformers-rope"
    pairing = INTERLEAVED
    d_models = range(4, 4097, 4)
    """The rotated half must itself be an even number of dimensions."""

    def missing(self) -> str | None:
        return _absent("x_transformers")

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        from x_transformers.x_transformers import apply_rotary_pos_emb

        rotary = _x_rotary(x.shape[-1] // 2, x.device.type)
        with torch.no_grad():
            freqs, scale = rotary(torch.as_tensor(positions, device=x.device))
            return apply_rotary_pos_emb(x[None], freqs, scale)[0]


@cache
def _x_rotary(rotated: int, device: str) -> Any:
    from x_transformers.x_transformers import RotaryEmbedding

    return RotaryEmbedding(rotated).to(device)


class XTransformersSinusoidal:
    """x-transformers' ScaledSinusoidalEmbedding: all sines, then all cosines, times a learned scale that starts
    at d^(−1/2); cast with ``.to(dtype)`` as a model is."""

    name = "x-transformers-sinusoidal"
    layout = CONCATENATED
    d_models = range(2, 4097, 2)

    def missing(self) -> str | None:
        return _absent("x_transformers")

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        module = _x_sinusoidal(d_model, device, dtype)
        rows = torch.zeros(1, len(positions), d_model, device=device, dtype=getattr(torch, dtype))
        with torch.no_grad():
            return module(rows, pos=torch.as_tensor(positions, device=device))


@cache
def _x_sinusoidal(d_model: int, device: str, dtype: str) -> Any:
    from x_transformers.x_transformers import ScaledSinusoidalEmbedding

    return ScaledSinusoidalEmbedding(d_model).to(device, getattr(torch, dtype))


class PositionalEncodings:
    """positional-encodings' PositionalEncoding1D (sin at 2i, cos at 2i + 1), one module per d_model as a model
    keeps it, called on a (1, max position + 1, d_model) tensor of the dtype; rows picked by position."""

    name = "positional-encodings"
    min_position, max_position = 0, MAX_POSITION

    def missing(self) -> str | None:
        return _absent("positional_encodings")

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        module = _positional_encoding(d_model, device)
        length = int(positions.max(initial=0)) + 1
        with torch.no_grad():
            table = module(torch.zeros(1, length, d_model, device=device, dtype=getattr(torch, dtype)))
        return table[0][torch.as_tensor(positions, device=device)]


@cache
def _positional_encoding(d_model: int, device: str) -> Any:
    from positional_encodings.torch_encodings import PositionalEncoding1D

    return PositionalEncoding1D(d_model).to(device)
