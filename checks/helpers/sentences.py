"""Sentence fixtures for attention: weights as torch.nn.Linear draws them, word embeddings, sentences and their
reorderings, and the permutation identities a proof decides."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import sympy as sp

from checks.helpers.attention_layers import self_attention
from checks.numerics.backends import NumpyBackend
from checks.settings.extras import optional

torch = optional("torch")


def layer_weights(
    d: int, rng: np.random.Generator, count: int = 3, widths: Sequence[int] = ()
) -> tuple[np.ndarray, ...]:
    """``count`` d × width matrices drawn as torch.nn.Linear(d, width) initialises them: U(−1/√d, 1/√d); each
    width is d unless ``widths`` gives it."""
    bound = 1 / math.sqrt(d)
    sizes = [*widths, *[d] * count][:count]
    return tuple(rng.uniform(-bound, bound, (d, size)) for size in sizes)


def word_vectors(words: Sequence[str], d: int, seed: int) -> np.ndarray:
    """One embedding row per word, in [−1, 1] (document 000: "단어 임베딩 벡터의 값은 보통 -1 ~ 1 범위").

    A word gets the same vector in every sentence: vectors are drawn per vocabulary entry (sorted).
    """
    vocabulary = sorted(set(words))
    table = np.random.default_rng(seed).uniform(-1.0, 1.0, (len(vocabulary), d))
    return table[[vocabulary.index(w) for w in words]]


def embedded(sentences: Sequence[str], d: int, seed: int) -> list[np.ndarray]:
    """Each sentence's embeddings X (one row per word, float64), from one ``word_vectors`` vocabulary of all their
    words: a word gets the same vector in every sentence."""
    vocabulary = sorted({w for s in sentences for w in s.split()})
    vectors = dict(zip(vocabulary, word_vectors(vocabulary, d, seed), strict=True))
    return [np.stack([vectors[w] for w in s.split()]) for s in sentences]


@dataclass(frozen=True)
class Sentence:
    """n tokens (word ids, repeats allowed) in d dimensions, a layer's weights, and a reordering.

    Everything random comes from ``seed``: a vocabulary of n embeddings in [−1, 1]^d, then
    W_Q, W_K (d × d_k) and W_V (d × d_v) as torch.nn.Linear initialises them, W_Q and W_K times ``sharpness`` (4:
    scores up to about 16 · d / √d_k, past where exp overflows float16 without the row maximum subtracted).
    ``order`` is a permutation π; the reordered sentence puts word π(i) at position i (P X with P[i, π(i)] = 1).
    """

    d: int
    words: tuple[int, ...]
    order: tuple[int, ...]
    seed: int
    d_k: int = 0
    """The width of queries and keys (0: d)."""
    d_v: int = 0
    """The width of values (0: d)."""
    sharpness: float = 1.0
    """W_Q and W_K times this (1: as torch.nn.Linear initialises them)."""

    @property
    def n(self) -> int:
        return len(self.words)

    @cached_property
    def _draws(self) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        rng = np.random.default_rng(self.seed)
        vocabulary = rng.uniform(-1.0, 1.0, (self.n, self.d))
        w_q, w_k, w_v = layer_weights(self.d, rng, widths=(self.d_k or self.d, self.d_k or self.d, self.d_v or self.d))
        return vocabulary[list(self.words)], (self.sharpness * w_q, self.sharpness * w_k, w_v)

    @property
    def tokens(self) -> np.ndarray:
        """X, one embedding per row (float64)."""
        return self._draws[0]

    @property
    def weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """W_Q, W_K, W_V (float64)."""
        w_q, w_k, w_v = self._draws[1]
        return w_q, w_k, w_v

    @property
    def reordered_tokens(self) -> np.ndarray:
        """P X: row i is the token at position π(i)."""
        return self.tokens[list(self.order)]

    @property
    def moves(self) -> bool:
        """Whether the reordering changes the sentence (not just swaps equal words)."""
        return any(self.words[j] != w for j, w in zip(self.order, self.words, strict=True))


def random_reorderings(count: int, seed: int = 0) -> list[Sentence]:
    """Demo-sized sentences: d = 6, 2 … 8 distinct words, a reordering that moves some word."""
    rng = np.random.default_rng(seed)
    drawn = []
    while len(drawn) < count:
        n = int(rng.integers(2, 9))
        sentence = Sentence(6, tuple(range(n)), tuple(int(i) for i in rng.permutation(n)), int(rng.integers(2**32)))
        if sentence.moves:
            drawn.append(sentence)
    return drawn


def reordering_differences(words: Sequence[str], d: int, seed: int, causal: bool = False) -> dict[str, float]:
    """For every order of ``words`` (embeddings ``word_vectors(words, d, seed)``, weights ``layer_weights(d, seed)``,
    float64, ``causal``: with a causal mask): the largest difference of a word's output from its output in the
    original order, by the reordered sentence."""
    xp, weights, embeddings = (
        NumpyBackend("float64"),
        layer_weights(d, np.random.default_rng(seed)),
        word_vectors(words, d, seed),
    )
    original, differences = self_attention(xp, embeddings, *weights, causal=causal), {}
    for order in itertools.permutations(range(len(words))):
        output = self_attention(xp, embeddings[list(order)], *weights, causal=causal)
        differences[" ".join(words[i] for i in order)] = float(np.max(np.abs(output - original[list(order)])))
    return differences


def permutation_matrix(order: Sequence[int]) -> sp.Matrix:
    """P with P[i, π(i)] = 1: (P X) row i is X row π(i)."""
    size = len(order)
    return sp.Matrix(size, size, lambda i, j: 1 if order[i] == j else 0)


def _column(name: str, size: int) -> sp.Matrix:
    return sp.Matrix(size, 1, lambda i, _: sp.Symbol(f"{name}{i}", real=True))


def _row_normalised(weights: sp.Matrix) -> sp.Matrix:
    """Entry (i, j) over its row's sum: the softmax once each entry is exp(score)."""
    sums = [sum(weights.row(i)) for i in range(weights.rows)]
    return sp.Matrix(weights.rows, weights.cols, lambda i, j: weights[i, j] / sums[i])


@functools.cache
def _entries(size: int) -> tuple[sp.Matrix, ...]:
    """x (n × 2), w (one column of a weight matrix), q, k, v (one column of Q, K, V), e = exp(scores)."""
    x = sp.Matrix(size, 2, lambda i, j: sp.Symbol(f"x{i}{j}", real=True))
    e = sp.Matrix(size, size, lambda i, j: sp.Symbol(f"e{i}{j}", positive=True))
    return x, _column("w", 2), _column("q", size), _column("k", size), _column("v", size), e


def permutation_identities(size: int, order: tuple[int, ...]) -> dict[str, tuple[sp.Matrix, sp.Matrix]]:
    """Both sides of each step of Attn(P X) = P Attn(X) for one permutation, with symbolic entries.

    A score q_i · k_j sums one such product per column, and the columns of W_Q, W_K, W_V
    act alike, so one column of each stands for all. exp(s_ij) is a fresh symbol e_ij:
    exp acts on each score alone, so an identity that holds for an arbitrary function of
    the score holds for exp.
    """
    P = permutation_matrix(order)
    x, w, q, k, v, e = _entries(size)
    exponent = {q[i] * k[j]: e[i, j] for i in range(size) for j in range(size)}

    def exp_of(scores: sp.Matrix) -> sp.Matrix:
        return scores.applyfunc(lambda score: exponent.get(score, sp.exp(score)))

    return {
        "(P X) W = P (X W)": (sp.expand(P * x * w), P * sp.expand(x * w)),
        "(P Q)(P K)ᵀ = P (Q Kᵀ) Pᵀ": ((P * q) * (P * k).T, P * (q * k.T) * P.T),
        "row softmax(P E Pᵀ) = P row softmax(E) Pᵀ": (_row_normalised(P * e * P.T), P * _row_normalised(e) * P.T),
        "P Pᵀ = I": (P * P.T, sp.eye(size)),
        "Attn(P X) = P Attn(X)": (
            _row_normalised(exp_of((P * q) * (P * k).T)) * (P * v),
            P * (_row_normalised(exp_of(q * k.T)) * v),
        ),
    }
