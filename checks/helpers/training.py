"""Tiny Transformer encoders and synthetic tasks for experiments: CPU-sized, seeded, one positional scheme each.

Schemes: "none" (no position), "integer" (the raw index pos added to every dimension, document 000's first
attempt), "normalized" (pos / (n − 1), its second), "sinusoidal" (the documents' table), "learned" (an
nn.Embedding per position), "rope" (nothing added; queries and keys rotated by their positions inside attention,
interleaved pairs, base 10000).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from checks.helpers.backends import NumpyBackend
from checks.implementations.references import Reference

SCHEMES = ("none", "integer", "normalized", "sinusoidal", "learned", "rope")
Batch = tuple[torch.Tensor, torch.Tensor]
"""(tokens (b, n) int64, labels (b,) int64)."""


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


class RopeEncoderLayer(nn.Module):
    """A post-LN encoder layer whose attention rotates each head's queries and keys by their positions (RoPE)."""

    def __init__(self, d_model: int, heads: int) -> None:
        super().__init__()
        self.heads, self.width = heads, d_model // heads
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
        scores = self.rotate(q) @ self.rotate(k).transpose(-1, -2) / math.sqrt(self.width)
        mixed = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, n, d)
        x = self.first(x + self.out(mixed))
        return self.second(x + self.feed(x))


class TinyEncoder(nn.Module):
    """Token embedding + positions → one post-LN Transformer encoder layer → mean pool → class logits."""

    def __init__(self, scheme: str, vocab: int, classes: int, d_model: int = 32, heads: int = 2, max_len: int = 64):
        super().__init__()
        self.scheme, self.d_model = scheme, d_model
        self.embed = nn.Embedding(vocab, d_model)
        self.learned = nn.Embedding(max_len, d_model) if scheme == "learned" else None
        self.layer = (
            RopeEncoderLayer(d_model, heads)
            if scheme == "rope"
            else nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, dropout=0.0, batch_first=True)
        )
        self.head = nn.Linear(d_model, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        added = positions_for(self.scheme, tokens.shape[1], self.d_model, self.learned)
        if added is not None:
            x = x + added
        return self.head(self.layer(x).mean(dim=1))


MODEL = "TinyEncoder: d_model 32, 2 heads, one post-LN encoder layer, mean pooling, linear head"
"""How a design names the model (one per positional scheme)."""
SEEDS = {"ci": 3, "dev": 3, "thorough": 10}
"""Seeds per profile of the training experiments."""
ACCURACY = "held-out accuracy (4 fresh batches of 256)"
"""The metric ``train`` returns."""


@dataclass(frozen=True)
class Budget:
    steps: int
    batch: int = 64
    learning_rate: float = 3e-3

    def __str__(self) -> str:
        return f"{self.steps} Adam steps, batch {self.batch}, learning rate {self.learning_rate}, no clipping"


def train(
    model: nn.Module,
    task: Callable[[torch.Generator, int], Batch],
    budget: Budget,
    seed: int,
    log: object,
    evaluate: Callable[[torch.Generator, int], Batch] | None = None,
) -> float:
    """Adam on ``task`` batches; logs (loss, gradient norm) per step; returns held-out accuracy on ``evaluate``
    (default: the task itself; 4 fresh batches of 256, a task that varies its length draws one per batch)."""
    data = torch.Generator().manual_seed(10_000 + seed)
    optimizer = torch.optim.Adam(model.parameters(), lr=budget.learning_rate)
    loss_of = nn.CrossEntropyLoss()
    for _ in range(budget.steps):
        tokens, labels = task(data, budget.batch)
        loss = loss_of(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), math.inf))
        log.step(loss.item(), norm)  # type: ignore[attr-defined]
        if not math.isfinite(loss.item()):
            break
        optimizer.step()
    held_out = torch.Generator().manual_seed(20_000 + seed)
    correct = 0.0
    with torch.no_grad():
        for _ in range(4):
            tokens, labels = (evaluate or task)(held_out, 256)
            correct += float((model(tokens).argmax(dim=-1) == labels).float().mean())
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
