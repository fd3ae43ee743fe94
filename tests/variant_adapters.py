"""Variants of RoPE and of the sinusoidal table as libraries write them (issue 46), each of this project's own making.

Each is written the way the library it imitates computes (frequencies and angles in float32 where the library
does so), so that what the engine reports about it is what a user of that library would meet.
"""

from __future__ import annotations

import math

import numpy as np
import torch


def llama3_frequencies(count: int, width: int) -> torch.Tensor:
    """Llama 3's scaling of 10000^(−2i/d) (factor 8, low 1, high 4, 64 original positions): fast pairs kept, slow
    ones divided by 8, a ramp linear in the frequency between (computed in float32, as transformers does)."""
    inverse = 1.0 / (10000.0 ** (torch.arange(0, 2 * count, 2, dtype=torch.float32) / width))
    wavelength = 2 * math.pi / inverse
    factor, low, high, original = 8.0, 1.0, 4.0, 64.0
    smooth = (original / wavelength - low) / (high - low)
    ramped = (1 - smooth) * inverse / factor + smooth * inverse
    scaled = torch.where(wavelength > original / low, inverse / factor, inverse)
    middle = (wavelength >= original / high) & (wavelength <= original / low)
    return torch.where(middle, ramped, scaled)


def turn(x: torch.Tensor, angles: torch.Tensor, factor: float = 1.0) -> torch.Tensor:
    """Interleaved pairs of x rotated by ``angles`` (n, d/2), cos and sin times ``factor``, in x's dtype."""
    cos, sin = ((factor * f(angles.double())).to(x.dtype) for f in (torch.cos, torch.sin))
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class Llama3Rope:
    """Piecewise frequencies (kept, divided by 8, a ramp), angles formed in float32 as in transformers."""

    name, pairing = "llama3-scaled-rope", "interleaved"
    d_models = range(2, 4097, 2)

    def rope(self, x, positions):
        inverse = llama3_frequencies(x.shape[-1] // 2, x.shape[-1])
        angles = torch.as_tensor(positions, dtype=torch.float32)[:, None] * inverse[None, :]
        return turn(x, angles)


class DynamicNtkRope:
    """Its base grows with the call's largest position past 2048 (transformers' "dynamic" NTK scaling, factor 2),
    angles formed in float64: its frequencies depend on the call."""

    name, pairing = "dynamic-ntk-rope", "interleaved"
    d_models = range(4, 4097, 2)

    def rope(self, x, positions):
        d, length = x.shape[-1], int(np.max(positions)) + 1
        base = 10000.0
        if length > 2048:
            base *= (2.0 * length / 2048 - 1.0) ** (d / (d - 2))
        inverse = base ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
        return turn(x, torch.as_tensor(positions, dtype=torch.float64)[:, None] * inverse[None, :])


class BaseAndOddPadRope:
    """Base 500000, and at an odd d a zero pad rotated with the last dimension and dropped: two differences."""

    name, pairing = "base-and-odd-pad-rope", "interleaved"

    def rope(self, x, positions):
        d = x.shape[-1]
        if d % 2:
            x = torch.cat([x, torch.zeros_like(x[..., :1])], dim=-1)
        width = x.shape[-1]
        inverse = 500000.0 ** (-torch.arange(0, width, 2, dtype=torch.float64) / width)
        return turn(x, torch.as_tensor(positions, dtype=torch.float64)[:, None] * inverse[None, :])[..., :d]


class AttentionFactorRope:
    """Positions scaled by 1/4 and cos and sin times 1.1386 (YaRN's attention factor 0.1 ln 4 + 1): declared."""

    name, pairing = "declared-scale-rope", "interleaved"
    position_scale, attention_factor = 0.25, 1.1386
    d_models = range(2, 4097, 2)

    def rope(self, x, positions):
        d = x.shape[-1]
        inverse = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)
        angles = 0.25 * torch.as_tensor(positions, dtype=torch.float64)[:, None] * inverse[None, :]
        return turn(x, angles, 1.1386)


class FalselyDeclaredRope(AttentionFactorRope):
    """Declares base 500000 and no position scale, and computes the one above."""

    name = "falsely-declared-rope"
    base, position_scale = 500000.0, 1.0


class ExtraRoundingRope:
    """The reference's own arithmetic in the input's dtype, and the product x·cos rounded once more through
    bfloat16 in half precision (an extra rounding step)."""

    name, pairing = "extra-rounding-rope", "interleaved"
    d_models = range(2, 4097, 2)

    def rope(self, x, positions):
        d = x.shape[-1]
        inverse = (10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)).to(x.dtype)
        angles = torch.as_tensor(positions, dtype=torch.float64).to(x.dtype)[:, None] * inverse[None, :]
        cos, sin = torch.cos(angles), torch.sin(angles)
        even, odd = x[..., 0::2], x[..., 1::2]
        if x.dtype in (torch.float16, torch.bfloat16):
            cos, sin = cos.to(torch.bfloat16).to(x.dtype), sin.to(torch.bfloat16).to(x.dtype)
        return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class Float32TableSinusoidal:
    """The documents' table computed in float32 whatever dtype is asked, then cast: float64 asks get float32."""

    name = "float32-table-sinusoidal"

    def sinusoidal(self, positions, d_model, dtype, device):
        angles = torch.as_tensor(positions, dtype=torch.float32)[:, None] * (
            10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float32) / d_model)
        )
        rows = torch.zeros(len(positions), d_model, dtype=torch.float32)
        rows[:, 0::2], rows[:, 1::2] = torch.sin(angles), torch.cos(angles)[:, : d_model // 2]
        return rows.to(getattr(torch, dtype))


class CosFirstSinusoidal:
    """Diffusion models' timestep table (flip_sin_to_cos): all cosines, then all sines, and a zero column at an
    odd d_model; declared as such."""

    name, layout, odd = "cos-first-sinusoidal", "concatenated, cos first", "zero pad"

    def sinusoidal(self, positions, d_model, dtype, device):
        half = d_model // 2
        angles = torch.as_tensor(positions, dtype=torch.float64)[:, None] * (
            10000.0 ** (-torch.arange(0, 2 * half, 2, dtype=torch.float64) / (2 * half))
        )
        rows = torch.cat([torch.cos(angles), torch.sin(angles)], dim=-1)
        if d_model % 2:
            rows = torch.cat([rows, torch.zeros_like(rows[:, :1])], dim=-1)
        return rows.to(getattr(torch, dtype))


VARIANTS = (
    Llama3Rope,
    DynamicNtkRope,
    BaseAndOddPadRope,
    AttentionFactorRope,
    FalselyDeclaredRope,
    ExtraRoundingRope,
    Float32TableSinusoidal,
    CosFirstSinusoidal,
)
