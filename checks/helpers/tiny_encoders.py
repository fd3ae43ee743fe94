"""Tiny Transformer encoders and synthetic tasks for experiments: CPU-sized, seeded, one positional scheme each.

Schemes: "none" (no position), "integer" (the raw index pos added to every dimension, document 000's first
attempt), "normalized" (pos / (n − 1), its second), "sinusoidal" (the documents' table), "learned" (an
nn.Embedding per position), "rope" (nothing added; queries and keys rotated by their positions inside attention,
interleaved pairs, base 10000).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import torch
from torch import nn

from checks.evidence.experiment import Design
from checks.numerics.backends import NumpyBackend
from checks.numerics.reference_implementations import Reference

SCHEMES = ("none", "integer", "normalized", "sinusoidal", "learned", "rope")
Batch = tuple[torch.Tensor, torch.Tensor]
"""(tokens (b, n) int64, labels (b,) int64, or (b, n) for a per-position task with IGNORED where none applies)."""
IGNORED = -100
"""The label of a position a per-position task does not score (CrossEntropyLoss's ignore_index)."""


def positions_for(scheme: str, length: int, d_model: int, learned: nn.Embedding | None) -> torch.Tensor | None:
    """The (n, d_model) rows added to the embeddings, or None for "none"."""
    index = torch.arange(length, dtype=torch.float32)
    if scheme in ("none", "rope"):
        return None
    if scheme == "integer":
        return index[:, None].expand(length, d_model)
    if scheme == "normalized":
        return (index / max(length - 1, 1))[:, None].expand(length, d_model)
    if scheme == "sinusoidal":
        table = Reference(NumpyBackend("float64")).sinusoidal(np.arange(length), d_model)
        return torch.as_tensor(table, dtype=torch.float32)
    if scheme == "learned" and learned is not None:
        return learned.weight[:length]
    raise ValueError(f"scheme {scheme!r} is not one of {SCHEMES}")


class ExplicitEncoderLayer(nn.Module):
    """A post-LN encoder layer that forms its n × n attention scores as the formula writes them (no fused kernel);
    ``rotary``: it rotates each head's queries and keys by their positions first (RoPE). Its parameters are those of
    nn.TransformerEncoderLayer(d_model, heads, 2 · d_model)."""

    def __init__(self, d_model: int, heads: int, rotary: bool = True) -> None:
        super().__init__()
        self.heads, self.width, self.rotary = heads, d_model // heads, rotary
        self.qkv, self.out = nn.Linear(d_model, 3 * d_model), nn.Linear(d_model, d_model)
        self.feed = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.first, self.second = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def rotate(self, x: torch.Tensor) -> torch.Tensor:
        """(b, heads, n, width) rotated pairwise by position · 10000^(−2i/width)."""
        n = x.shape[-2]
        inverse = 10000.0 ** (-torch.arange(0, self.width, 2, dtype=torch.float32) / self.width)
        angles = torch.arange(n, dtype=torch.float32)[:, None] * inverse[None, :]
        cos, sin = torch.cos(angles), torch.sin(angles)
        even, odd = x[..., 0::2], x[..., 1::2]
        return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, self.width).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        if self.rotary:
            q, k = self.rotate(q), self.rotate(k)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.width)
        mixed = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, n, d)
        x = self.first(x + self.out(mixed))
        return self.second(x + self.feed(x))


class TinyEncoder(nn.Module):
    """Token embedding + positions → one post-LN Transformer encoder layer → mean pool → class logits
    (``per_position``: no pooling, logits at every position)."""

    def __init__(
        self,
        scheme: str,
        vocab: int,
        classes: int,
        d_model: int = 32,
        heads: int = 2,
        max_len: int = 64,
        per_position: bool = False,
    ):
        super().__init__()
        self.scheme, self.d_model, self.per_position = scheme, d_model, per_position
        self.embed = nn.Embedding(vocab, d_model)
        self.learned = nn.Embedding(max_len, d_model) if scheme == "learned" else None
        self.layer = (
            ExplicitEncoderLayer(d_model, heads)
            if scheme == "rope"
            else nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, dropout=0.0, batch_first=True)
        )
        self.head = nn.Linear(d_model, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        added = positions_for(self.scheme, tokens.shape[1], self.d_model, self.learned)
        if added is not None:
            x = x + added
        hidden = self.layer(x)
        return self.head(hidden if self.per_position else hidden.mean(dim=1))


def learned_table_step(positions: int, width: int, seed: int = 0) -> tuple[int, float]:
    """A learned position table nn.Embedding(positions, width) (torch seed ``seed``): its trainable parameters, and the
    largest change of an entry after one SGD step (learning rate 0.1) on the mean square of rows 0 … 7."""
    torch.manual_seed(seed)
    table = nn.Embedding(positions, width)
    trainable = sum(p.numel() for p in table.parameters() if p.requires_grad)
    before = table.weight.detach().clone()
    optimizer = torch.optim.SGD(table.parameters(), lr=0.1)
    table(torch.arange(8)).pow(2).mean().backward()
    optimizer.step()
    return trainable, float((table.weight.detach() - before).abs().max())


MODEL = "TinyEncoder: d_model 32, 2 heads, one post-LN encoder layer, mean pooling, linear head"
"""How a design names the model (one per positional scheme)."""
SEEDS = {"ci": 3, "dev": 3, "thorough": 10}
"""Seeds per profile of the training experiments."""
ACCURACY = "held-out accuracy (4 fresh batches of 256)"
"""The metric ``train`` returns."""
REGIME_ACCURACY = "held-out accuracy over the regime's positions (4 fresh batches of 256)"
"""The metric of a per-position task scored only at the regime's positions."""


@dataclass(frozen=True)
class Budget:
    """How long a model trains: ``steps`` Adam steps of ``batch`` examples at ``learning_rate``, no clipping."""

    steps: int
    batch: int = 64
    learning_rate: float = 3e-3

    def __str__(self) -> str:
        return f"{self.steps} Adam steps, batch {self.batch}, learning rate {self.learning_rate}, no clipping"


def encoder_design(
    *,
    hypothesis: str,
    task: str,
    treatment: str,
    control: str,
    threshold: float,
    budget: Budget | str,
    metric: str = ACCURACY,
    models: str = MODEL,
    better: Literal["lower", "higher"] = "higher",
    seeds: dict[str, int] = SEEDS,
    regimes: Iterable[str] = ("all",),
    timed: bool = False,
) -> Design:
    """The Design of an experiment on these models, with what they share filled in: the model (MODEL), the seeds
    (SEEDS), higher is better, the held-out accuracy as the metric, one regime "all"; a Budget is shown as its text."""
    return Design(
        hypothesis=hypothesis,
        task=task,
        models=models,
        budget=str(budget),
        metric=metric,
        better=better,
        treatment=treatment,
        control=control,
        threshold=threshold,
        seeds=dict(seeds),
        regimes=list(regimes),
        timed=timed,
    )


def train(
    model: nn.Module,
    task: Callable[[torch.Generator, int], Batch],
    budget: Budget,
    seed: int,
    log: object,
    evaluate: Callable[[torch.Generator, int], Batch] | None = None,
) -> float:
    """``fit`` on ``task``, then the held-out accuracy on ``evaluate`` (default: the task itself)."""
    fit(model, task, budget, seed, log)
    return accuracy(model, evaluate or task, seed)


def fit(
    model: nn.Module, task: Callable[[torch.Generator, int], Batch], budget: Budget, seed: int, log: object
) -> None:
    """Adam on ``task`` batches drawn from a generator seeded by ``seed``; logs (loss, gradient norm) per step."""
    data = torch.Generator().manual_seed(10_000 + seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=budget.learning_rate)
    loss_of = nn.CrossEntropyLoss(ignore_index=IGNORED)
    for _ in range(budget.steps):
        tokens, labels = task(data, budget.batch)
        loss = loss_of(model(tokens).reshape(labels.numel(), -1), labels.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), math.inf))
        log.step(loss.item(), norm)  # type: ignore[attr-defined]
        if not math.isfinite(loss.item()):
            break
        optimizer.step()


def accuracy(model: nn.Module, evaluate: Callable[[torch.Generator, int], Batch], seed: int) -> float:
    """Held-out accuracy over the scored labels of 4 fresh batches of 256 (a task that varies its length draws one
    per batch)."""
    held_out = torch.Generator().manual_seed(20_000 + seed)
    correct = 0.0
    with torch.no_grad():
        for _ in range(4):
            tokens, labels = evaluate(held_out, 256)
            scored = labels != IGNORED
            correct += float((model(tokens).argmax(dim=-1) == labels)[scored].float().mean())
    return correct / 4


def token_at(index: int, vocab: int, length: int) -> Callable[[torch.Generator, int], Batch]:
    """Random tokens; the label is the token at ``index`` (needs absolute position)."""

    def task(generator: torch.Generator, size: int) -> Batch:
        tokens = torch.randint(0, vocab, (size, length), generator=generator)
        return tokens, tokens[:, index].clone()

    return task


def token_at_any_length(index: int, vocab: int, lengths: range) -> Callable[[torch.Generator, int], Batch]:
    """Like ``token_at``, but every batch has its own length drawn from ``lengths`` (the index is absolute)."""

    def task(generator: torch.Generator, size: int) -> Batch:
        pick = int(torch.randint(0, len(lengths), (1,), generator=generator))
        return token_at(index, vocab, lengths[pick])(generator, size)

    return task


def token_back(offset: int, vocab: int, length: int, scored: range | None = None) -> Callable[..., Batch]:
    """Random tokens; at every position j ≥ ``offset`` (and in ``scored``, when given) the label is the token at
    j − offset: the same relative step everywhere, whatever the absolute position."""

    def task(generator: torch.Generator, size: int) -> Batch:
        tokens = torch.randint(0, vocab, (size, length), generator=generator)
        labels = torch.full_like(tokens, IGNORED)
        labels[:, offset:] = tokens[:, :-offset]
        if scored is not None:
            outside = torch.ones(length, dtype=torch.bool)
            outside[scored.start : scored.stop] = False
            labels[:, outside] = IGNORED
        return tokens, labels

    return task


def which_first(vocab: int, length: int) -> Callable[[torch.Generator, int], Batch]:
    """Tokens 2 … vocab−1 with one 0 and one 1 placed at random: the label is 1 when 0 comes before 1 (order only)."""

    def task(generator: torch.Generator, size: int) -> Batch:
        tokens = torch.randint(2, vocab, (size, length), generator=generator)
        order = torch.argsort(torch.rand(size, length, generator=generator), dim=1)[:, :2]
        rows = torch.arange(size)
        tokens[rows, order[:, 0]] = 0
        tokens[rows, order[:, 1]] = 1
        return tokens, (order[:, 0] < order[:, 1]).long()

    return task


TRAINED, AT_TRAINED = 12, "at the training length"
"""Length-generalization experiments train on the order-only task at n = 12 and test at n = 12 or longer."""


def longer_length(regime: str) -> int:
    """The test length a regime names: "2L (n = 24)" → 24."""
    return int(regime.rsplit("n = ", 1)[1].rstrip(")"))


def length_trial(scheme: str, budget: Budget) -> Callable[[str, str, int, object], float]:
    """A trial that trains ``scheme`` on which_first at n = 12 and tests at 12 (arm AT_TRAINED) or at the regime's
    longer length (any other arm): the same seed trains the same model for both arms."""

    def trial(arm: str, regime: str, seed: int, log: object) -> float:
        length = TRAINED if arm == AT_TRAINED else longer_length(regime)
        model = TinyEncoder(scheme, 10, classes=2)
        return train(model, which_first(10, TRAINED), budget, seed, log, evaluate=which_first(10, length))

    trial.__name__ = f"{scheme}_trained_at_{TRAINED}"
    return trial


OFFSET = 3
"""Relative-offset experiments: at every position j the label is the token OFFSET back, trained at n = TRAINED."""
SEEN = f"positions {OFFSET} … {TRAINED - 1} (seen in training, n = {TRAINED})"
UNSEEN = f"positions {TRAINED} … {2 * TRAINED - 1} (not seen in training; tested at n = {2 * TRAINED})"
OFFSET_TASK = (
    f"token_back: {TRAINED} random tokens from 0 … 9; at every position j ≥ {OFFSET} the label is the token at "
    f"j − {OFFSET} (trained at n = {TRAINED}; tested on fresh sequences, scoring the regime's positions)"
)
PER_POSITION_MODEL = MODEL.replace("mean pooling, linear head", "a linear head at every position (no pooling)")
"""How a design names the model of a per-position task (MODEL with a head at every position)."""


@dataclass
class StepLog:
    """(loss, gradient norm) per step, kept to replay into an experiment's log."""

    steps: list[tuple[float, float]] = field(default_factory=list)

    def step(self, loss: float, grad_norm: float = 0.0) -> None:
        self.steps.append((loss, grad_norm))


@functools.lru_cache(maxsize=32)
def fitted_offset_model(scheme: str, seed: int, budget: Budget) -> tuple[TinyEncoder, StepLog]:
    """The arm's model trained on token_back at n = TRAINED: trained once per process and shared by the regimes
    and claims that score it (seeded here, so the same arguments give the same model whoever asks first)."""
    torch.manual_seed(seed)
    model, log = TinyEncoder(scheme, 10, classes=10, per_position=True), StepLog()
    fit(model, token_back(OFFSET, 10, TRAINED), budget, seed, log)
    return model, log


def offset_design(
    *, hypothesis: str, treatment: str, control: str, threshold: float, budget: Budget, models: str = PER_POSITION_MODEL
) -> Design:
    """The design of a relative-offset experiment (``offset_trial``): OFFSET_TASK, per-position models, the accuracy
    over the regime's positions, in the regimes SEEN and UNSEEN."""
    return encoder_design(
        hypothesis=hypothesis,
        task=OFFSET_TASK,
        models=models,
        metric=REGIME_ACCURACY,
        treatment=treatment,
        control=control,
        threshold=threshold,
        budget=budget,
        regimes=[SEEN, UNSEEN],
    )


def offset_trial(budget: Budget) -> Callable[[str, str, int, object], float]:
    """A trial that scores the arm's model trained on token_back at n = TRAINED (``fitted_offset_model``) on the
    regime's positions (SEEN at n = TRAINED, UNSEEN at 2·TRAINED), replaying its training log."""

    def trial(arm: str, regime: str, seed: int, log: object) -> float:
        length, scored = (
            (TRAINED, range(OFFSET, TRAINED)) if regime == SEEN else (2 * TRAINED, range(TRAINED, 2 * TRAINED))
        )
        model, steps = fitted_offset_model(arm, seed, budget)
        for loss, grad_norm in steps.steps:
            log.step(loss, grad_norm)  # type: ignore[attr-defined]
        return accuracy(model, token_back(OFFSET, 10, length, scored), seed)

    trial.__name__ = f"token_{OFFSET}_back"
    return trial
