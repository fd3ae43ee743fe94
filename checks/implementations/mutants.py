"""Mutants of the reference implementations, run as external adapters through ``--impl``.

Each implementation is a small pipeline of stages; a mutant replaces one stage with a plausible
bug (sin and cos swapped, base 1000, a missing 1/√d_k, ...). A mutant is killed when at least one
check that runs it fails. ``python -m checks.engine.mutation`` runs them all and prints the score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

import numpy as np

from checks.settings.extras import optional

torch = optional("torch")


Stage: TypeAlias = "Callable[..., torch.Tensor]"


def _frequencies(d_model: int, base: float = 10000.0, step: int = 2, shift: int = 0) -> torch.Tensor:
    pairs = torch.arange(0, (d_model + 1) // 2, dtype=torch.float64)
    return base ** (-(step * pairs + shift) / d_model)


def _interleave(first: torch.Tensor, second: torch.Tensor, d_model: int) -> torch.Tensor:
    return torch.stack([first, second], dim=-1).flatten(-2)[..., :d_model]


def _blocks(first: torch.Tensor, second: torch.Tensor, d_model: int) -> torch.Tensor:
    return torch.cat([first, second], dim=-1)[..., :d_model]


@dataclass(frozen=True)
class SinusoidalPipeline:
    """positions → angles pos·ω_i → (sin, cos) → columns (2i, 2i+1), in the run's dtype."""

    name: str
    bug: str = "none"
    positions: Stage = lambda pos, dtype: pos.to(dtype)
    frequencies: Callable[[int], torch.Tensor] = _frequencies
    pair: Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]] = lambda a: (torch.sin(a), torch.cos(a))
    columns: Callable[[torch.Tensor, torch.Tensor, int], torch.Tensor] = _interleave
    """How sines and cosines become columns (not ``layout``: that is the adapter's declaration)."""

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        low = getattr(torch, dtype)
        pos = self.positions(torch.as_tensor(positions, dtype=torch.float64, device=device), low)
        angles = pos[:, None] * self.frequencies(d_model).to(device, low)[None, :]
        return self.columns(*self.pair(angles), d_model)


def _rotate(even: torch.Tensor, odd: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple[torch.Tensor, ...]:
    return even * cos - odd * sin, even * sin + odd * cos


@dataclass(frozen=True)
class RopePipeline:
    """angles m·θ_i (float32) → rotate each interleaved pair (2i, 2i+1) by R(m·θ_i)."""

    name: str
    bug: str = "none"
    pairing = "interleaved"
    angles: Callable[[np.ndarray, int], torch.Tensor] = lambda m, d: (
        torch.as_tensor(m, dtype=torch.float32)[:, None] * _frequencies(d).float()[None, :]
    )
    rotate: Callable[..., tuple[torch.Tensor, ...]] = _rotate
    pairs: Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]] = lambda x: (x[..., 0::2], x[..., 1::2])

    def rope(self, x: torch.Tensor, positions: np.ndarray) -> torch.Tensor:
        """As the reference: for an odd d the last dimension is left as it is."""
        paired = x.shape[-1] - x.shape[-1] % 2
        angles = self.angles(positions, x.shape[-1])[:, : paired // 2].to(x.device)
        cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)
        turned = torch.stack(self.rotate(*self.pairs(x[..., :paired]), cos, sin), dim=-1).flatten(-2)
        return torch.cat([turned, x[..., paired:]], dim=-1)


@dataclass(frozen=True)
class AttentionPipeline:
    """scores Q Kᵀ → scaled by 1/√d_k → softmax over keys → weights · V."""

    name: str
    bug: str = "none"
    scores: Callable[..., torch.Tensor] = lambda q, k: q @ k.T
    scale: Callable[[int], float] = lambda d: 1 / math.sqrt(d)
    normalize: Callable[[torch.Tensor], torch.Tensor] = lambda s: torch.softmax(s, dim=-1)
    values: Callable[..., torch.Tensor] = lambda x, w_k, w_v: x @ w_v

    def attention(self, x: torch.Tensor, w_q: torch.Tensor, w_k: torch.Tensor, w_v: torch.Tensor) -> torch.Tensor:
        q, k = x @ w_q, x @ w_k
        weights = self.normalize(self.scores(q, k) * self.scale(k.shape[-1]))
        return weights @ self.values(x, w_k, w_v)


def _causal(scores: torch.Tensor) -> torch.Tensor:
    mask = torch.triu(torch.ones_like(scores, dtype=torch.bool), 1)
    return torch.softmax(scores.masked_fill(mask, -math.inf), dim=-1)


PE, ROPE, ATTENTION = SinusoidalPipeline("pe"), RopePipeline("rope"), AttentionPipeline("attention")

MUTANTS: tuple[SinusoidalPipeline | RopePipeline | AttentionPipeline, ...] = (
    replace(
        PE,
        name="pe-sin-cos-swapped",
        bug="cos in even columns, sin in odd",
        pair=lambda a: (torch.cos(a), torch.sin(a)),
    ),
    replace(PE, name="pe-base-1000", bug="base 1000 for 10000", frequencies=lambda d: _frequencies(d, base=1000.0)),
    replace(
        PE,
        name="pe-exponent-next-pair",
        bug="exponent 2(i+1)/d: off by one pair",
        frequencies=lambda d: _frequencies(d, shift=2),
    ),
    replace(
        PE,
        name="pe-exponent-i-over-d",
        bug="exponent i/d: the 2 dropped",
        frequencies=lambda d: _frequencies(d, step=1),
    ),
    replace(
        PE,
        name="pe-pairs-reversed",
        bug="pairs mixed up: slowest frequency first",
        frequencies=lambda d: _frequencies(d).flip(0),
    ),
    replace(
        PE, name="pe-positions-float16", bug="positions cast to float16", positions=lambda p, dtype: p.half().to(dtype)
    ),
    replace(
        PE, name="pe-position-plus-one", bug="positions counted from 1", positions=lambda p, dtype: (p + 1).to(dtype)
    ),
    replace(PE, name="pe-cos-negated", bug="a sign flipped: −cos", pair=lambda a: (torch.sin(a), -torch.cos(a))),
    replace(PE, name="pe-half-split-layout", bug="all sines, then all cosines", columns=_blocks),
    replace(
        PE,
        name="pe-last-pair-zero",
        bug="the last pair left at zero",
        columns=lambda s, c, d: _interleave(s, c, d).index_fill(-1, torch.tensor([d - 2, d - 1]), 0.0),
    ),
    replace(
        PE,
        name="pe-angle-in-degrees",
        bug="angle converted as if degrees",
        pair=lambda a: (torch.sin(a * math.pi / 180), torch.cos(a * math.pi / 180)),
    ),
    replace(
        ROPE, name="rope-angle-negated", bug="rotation by −mθ (a sign flipped)", angles=lambda m, d: -ROPE.angles(m, d)
    ),
    replace(
        ROPE,
        name="rope-base-1000",
        bug="base 1000 for 10000",
        angles=lambda m, d: torch.as_tensor(m, dtype=torch.float32)[:, None] * _frequencies(d, base=1000.0).float(),
    ),
    replace(
        ROPE,
        name="rope-position-plus-one",
        bug="positions counted from 1",
        angles=lambda m, d: ROPE.angles(np.asarray(m) + 1, d),
    ),
    replace(ROPE, name="rope-double-angle", bug="angle 2mθ", angles=lambda m, d: 2 * ROPE.angles(m, d)),
    replace(
        ROPE,
        name="rope-half-split-pairs",
        bug="rotates (i, i + d/2) but declares interleaved",
        pairs=lambda x: (x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]),
    ),
    replace(
        ROPE,
        name="rope-sin-sign",
        bug="R(φ) with the sines' signs swapped (a sign flipped in the rotation)",
        rotate=lambda e, o, c, s: (e * c + o * s, -e * s + o * c),
    ),
    replace(
        ROPE, name="rope-cos-sin-swapped", bug="cos and sin swapped", rotate=lambda e, o, c, s: _rotate(e, o, s, c)
    ),
    replace(
        ROPE,
        name="rope-positions-float16",
        bug="positions cast to float16",
        angles=lambda m, d: ROPE.angles(np.asarray(m, dtype=np.float16).astype(np.float64), d),
    ),
    replace(
        ROPE,
        name="rope-last-pair-frozen",
        bug="the last pair not rotated",
        angles=lambda m, d: ROPE.angles(m, d).index_fill(-1, torch.tensor([d // 2 - 1]), 0.0),
    ),
    replace(ATTENTION, name="attention-no-scale", bug="the 1/√d_k missing", scale=lambda d: 1.0),
    replace(ATTENTION, name="attention-scale-by-d", bug="1/d_k for 1/√d_k", scale=lambda d: 1.0 / d),
    replace(
        ATTENTION,
        name="attention-softmax-over-queries",
        bug="softmax over the wrong axis",
        normalize=lambda s: torch.softmax(s, dim=0),
    ),
    replace(ATTENTION, name="attention-causal-mask", bug="a causal mask where none belongs", normalize=_causal),
    replace(ATTENTION, name="attention-keys-as-values", bug="V = X W_K", values=lambda x, w_k, w_v: x @ w_k),
    replace(ATTENTION, name="attention-transposed-scores", bug="K Qᵀ for Q Kᵀ", scores=lambda q, k: k @ q.T),
    replace(ATTENTION, name="attention-no-softmax", bug="raw scores as weights", normalize=lambda s: s),
)
"""The mutants of the positional-encoding and attention topics (checks.topics), each with its bug in words."""
PE_MUTANTS = tuple(m for m in MUTANTS if isinstance(m, SinusoidalPipeline))
ROPE_MUTANTS = tuple(m for m in MUTANTS if isinstance(m, RopePipeline))
ATTENTION_MUTANTS = tuple(m for m in MUTANTS if isinstance(m, AttentionPipeline))


def python_name(name: str) -> str:
    """The attribute ``--impl checks.implementations.mutants:<python name>`` loads (hyphens become underscores)."""
    return name.replace("-", "_")


def every_mutant(used: Collection[str] | None = None) -> list[Any]:
    """Every topic's mutants (checks.topics.Topic.mutants), the package's and the repository's, each once (a mutant
    two topics list is one mutant, under its name); ``used``: only those offering one of these topics."""
    from checks.implementations.topic_records import capabilities, topics

    found: dict[str, Any] = {}
    for mutant in (mutant for topic in topics() for mutant in topic.mutants):
        found.setdefault(mutant.name, mutant)
    return [mutant for mutant in found.values() if used is None or capabilities(mutant) & set(used)]


def __getattr__(attribute: str) -> Any:
    """``--impl checks.implementations.mutants:<python name>`` loads any topic's mutant."""
    if attribute.startswith("_"):
        raise AttributeError(attribute)
    for mutant in every_mutant():
        if python_name(mutant.name) == attribute:
            return mutant
    raise AttributeError(f"module 'checks.implementations.mutants' has no mutant {attribute!r}")
