"""Adapters that go wrong the ways real ones did (issue 15), each in one way only.

Each is a correct RoPE (interleaved, base 10000, angles in float64) or a correct sinusoidal table but
for its one fault, so that whatever the engine reports about it is that fault.
"""

from __future__ import annotations

import time

import numpy as np
import torch


def rotate(x: torch.Tensor, positions: np.ndarray, rotated: int | None = None) -> torch.Tensor:
    """Interleaved RoPE of the first ``rotated`` dimensions (all by default; an odd d's last one stays as it is, as
    in the reference), angles formed in float64."""
    count = x.shape[-1] - x.shape[-1] % 2 if rotated is None else rotated
    inverse = 1.0 / (10000.0 ** (torch.arange(0, count, 2, dtype=torch.float64) / count))
    angles = torch.as_tensor(positions, dtype=torch.float64)[:, None] * inverse[None, :]
    cos, sin = (f(angles).to(x.dtype).to(x.device) for f in (torch.cos, torch.sin))
    even, odd = x[..., 0:count:2], x[..., 1:count:2]
    turned = torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
    return torch.cat([turned, x[..., count:]], dim=-1)


def table(positions: np.ndarray, d_model: int, dtype: torch.dtype) -> torch.Tensor:
    """The documents' PE rows, computed in ``dtype``."""
    angles = torch.as_tensor(positions, dtype=dtype)[:, None] * (
        1.0 / (10000.0 ** (torch.arange(0, d_model, 2, dtype=dtype) / d_model))
    )
    rows = torch.zeros(len(positions), d_model, dtype=dtype)
    rows[:, 0::2], rows[:, 1::2] = torch.sin(angles), torch.cos(angles)[:, : d_model // 2]
    return rows


class RaisesRope:
    name, pairing = "faulty-raises", "interleaved"

    def rope(self, x, positions):
        raise RuntimeError("The size of tensor a (32) must match the size of tensor b (16)")


class WrongShapeRope:
    name, pairing = "faulty-wrong-shape", "interleaved"

    def rope(self, x, positions):
        return rotate(x, positions)[..., : x.shape[-1] // 2]


class NanRope:
    name, pairing = "faulty-nan", "interleaved"

    def rope(self, x, positions):
        return torch.full_like(x, float("nan"))


class NoneRope:
    name, pairing = "faulty-none", "interleaved"

    def rope(self, x, positions):
        return None


class FarNoneRope:
    """Returns None past position 1000 only: the contract's calls (positions 0 … 319) pass, the checks' do not."""

    name, pairing = "faulty-far-none", "interleaved"

    def rope(self, x, positions):
        return None if positions.max() > 1000 else rotate(x, positions)


class ListRope:
    name, pairing = "faulty-list", "interleaved"

    def rope(self, x, positions):
        return rotate(x, positions).tolist()


class NumpyForTorchRope:
    name, pairing = "faulty-numpy", "interleaved"

    def rope(self, x, positions):
        return rotate(x, positions).numpy()


class MutatingRope:
    """Writes the rotation into x and returns x."""

    name, pairing = "faulty-mutates", "interleaved"

    def rope(self, x, positions):
        x.copy_(rotate(x, positions))
        return x


class SmallHeadCrashRope:
    """Raises at head dimension 2 only, as a library that divides by (d/2 − 1) would."""

    name, pairing = "faulty-small-head", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] == 2:
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


class PartialRope:
    """Rotates the first half of each head only (frequencies over the rotated half), as partial rotary does."""

    name, pairing, min_d_model = "faulty-partial", "interleaved", 4
    d_models = range(4, 4097, 4)

    def rope(self, x, positions):
        return rotate(x, positions, x.shape[-1] // 2)


class PairOfPairsRope:
    """When the pair count d/2 is odd (d ≡ 2 mod 4), turns the pair left over after pairs of pairs by the square
    of the position: a kernel that rotates pairs of pairs and indexes the remainder wrongly."""

    name, pairing = "faulty-pair-of-pairs", "interleaved"

    def rope(self, x, positions):
        width = x.shape[-1]
        if width % 4 != 2:
            return rotate(x, positions)
        rest = rotate(x[..., -2:], np.asarray(positions, dtype=np.float64) ** 2)
        return torch.cat([rotate(x[..., :-2], positions), rest], dim=-1)


class PartialPairOfPairsRope:
    """Rotates the first half of each head (as faulty-partial) with faulty-pair-of-pairs' fault inside it: wrong
    when the rotated pair count d/4 is odd (d ≡ 4 mod 8)."""

    name, pairing = "faulty-partial-pair-of-pairs", "interleaved"
    d_models = range(4, 4097, 4)

    def rope(self, x, positions):
        half = x.shape[-1] // 2
        return torch.cat([PairOfPairsRope().rope(x[..., :half], positions), x[..., half:]], dim=-1)


class WrongDtypeSinusoidal:
    """Returns float64 whatever dtype is asked for."""

    name = "faulty-wrong-dtype"

    def sinusoidal(self, positions, d_model, dtype, device):
        return table(positions, d_model, torch.float64)


class StaleCacheSinusoidal:
    """Keeps the last table it built, keyed without the dtype: the same call in another dtype gets that table,
    computed in the earlier dtype (as positional-encodings' cache, keyed by shape, does)."""

    name = "faulty-stale-cache"

    def __init__(self) -> None:
        self.key: tuple = ()
        self.cached = torch.zeros(0)

    def sinusoidal(self, positions, d_model, dtype, device):
        wanted = getattr(torch, dtype)
        if self.key != (tuple(positions.tolist()), d_model):
            self.key, self.cached = (tuple(positions.tolist()), d_model), table(positions, d_model, wanted)
        return self.cached.to(wanted)


class StaleDtypeSinusoidal(StaleCacheSinusoidal):
    """The same cache, returned as it was kept: the same call in another dtype gets the earlier call's dtype."""

    name = "faulty-stale-dtype"

    def sinusoidal(self, positions, d_model, dtype, device):
        super().sinusoidal(positions, d_model, dtype, device)
        return self.cached


class SharedRowsSinusoidal:
    """Builds the table over the distinct positions and scatters it back by first occurrence: a row whose position
    came earlier in the call gets zeros (a dedup that forgot the repeats)."""

    name = "faulty-shared-rows"

    def sinusoidal(self, positions, d_model, dtype, device):
        distinct, first = np.unique(positions, return_index=True)
        rows = torch.zeros(len(positions), d_model, dtype=getattr(torch, dtype))
        rows[torch.as_tensor(first)] = table(distinct, d_model, getattr(torch, dtype))
        return rows


class ScaledByWidthAttention:
    """Divides the scores by √d_model instead of √d_k (they are equal only when d_k = d_model)."""

    name = "faulty-scaled-by-width"

    def attention(self, x, w_q, w_k, w_v):
        scores = (x @ w_q) @ (x @ w_k).T / x.shape[-1] ** 0.5
        return torch.softmax(scores, dim=-1) @ (x @ w_v)


class NaiveSoftmaxAttention:
    """exp(scores) / Σ exp(scores) in the input's dtype, without subtracting the row's maximum first."""

    name = "faulty-naive-softmax"

    def attention(self, x, w_q, w_k, w_v):
        scores = (x @ w_q) @ (x @ w_k).T / w_k.shape[-1] ** 0.5
        weights = torch.exp(scores)
        return (weights / weights.sum(dim=-1, keepdim=True)) @ (x @ w_v)


class InDtypeTableSinusoidal:
    """Forms positions and angles in the compute dtype (as x-transformers' sinusoidal layer does): in bfloat16 two
    neighbouring positions past 256 round to one, in float16 positions from 65520 round to inf."""

    name = "faulty-in-dtype-table"

    def sinusoidal(self, positions, d_model, dtype, device):
        return table(positions, d_model, getattr(torch, dtype))


class Bfloat16AnglesRope:
    """Forms positions and angles in bfloat16 whatever dtype it is asked for (then cos and sin in float64)."""

    name, pairing = "faulty-bfloat16-angles", "interleaved"

    def rope(self, x, positions):
        d_model = x.shape[-1]
        inverse = (1.0 / (10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model))).bfloat16()
        angles = (torch.as_tensor(positions, dtype=torch.bfloat16)[:, None] * inverse[None, :]).double()
        cos, sin = (f(angles).to(x.dtype) for f in (torch.cos, torch.sin))
        even, odd = x[..., 0::2], x[..., 1::2]
        return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class RoundedCosSinRope:
    """Rounds cos and sin to the input's dtype, then multiplies and adds in it: several roundings per value."""

    name, pairing = "faulty-rounded-cos-sin", "interleaved"

    def rope(self, x, positions):
        return rotate(x, positions)


class RoundOnceRope:
    """Not faulty: the whole rotation in float64, rounded once to the input's dtype (what the one above is not)."""

    name, pairing = "round-once-rope", "interleaved"

    def rope(self, x, positions):
        return rotate(x.double(), positions).to(x.dtype)


class RoundsOddUpSinusoidal:
    """For an odd d_model builds the table of d_model + 1 and drops its last column: every frequency then follows
    d_model + 1, not d_model (even sizes are right)."""

    name = "faulty-rounds-odd-up"

    def sinusoidal(self, positions, d_model, dtype, device):
        return table(positions, d_model + d_model % 2, torch.float64)[:, :d_model].to(getattr(torch, dtype))


class OddHeadRope:
    """For an odd head size pads a zero, rotates d + 1 dimensions and drops the last: no error, but the last
    dimension's rotated half is lost (not a rotation: the norm shrinks). Even sizes are right."""

    name, pairing = "faulty-odd-head", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] % 2 == 0:
            return rotate(x, positions)
        padded = torch.cat([x, torch.zeros_like(x[..., :1])], dim=-1)
        return rotate(padded, positions, x.shape[-1] + 1)[..., :-1]


class SlowRope:
    """Not faulty: a correct RoPE that computes for ``delay`` seconds of CPU a call, as a slow library does (the time
    limits count CPU time: a sleep would cost them nothing)."""

    name, pairing = "slow-rope", "interleaved"

    def __init__(self, delay: float = 0.07) -> None:
        self.delay = delay

    def rope(self, x, positions):
        burn(self.delay)
        return rotate(x, positions)


def burn(seconds: float) -> None:
    """Compute, doing nothing useful, for ``seconds`` of this process's CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


PRECISION = (InDtypeTableSinusoidal, Bfloat16AnglesRope, RoundedCosSinRope, RoundOnceRope)
"""Adapters whose fingerprints per dtype tell them apart (tests/test_dtype_fingerprints.py)."""


FAULTY = (
    RaisesRope,
    WrongShapeRope,
    NanRope,
    NoneRope,
    FarNoneRope,
    ListRope,
    NumpyForTorchRope,
    MutatingRope,
    SmallHeadCrashRope,
    PartialRope,
    PairOfPairsRope,
    PartialPairOfPairsRope,
    WrongDtypeSinusoidal,
    StaleCacheSinusoidal,
    StaleDtypeSinusoidal,
    SharedRowsSinusoidal,
    ScaledByWidthAttention,
    NaiveSoftmaxAttention,
    RoundsOddUpSinusoidal,
    OddHeadRope,
)
