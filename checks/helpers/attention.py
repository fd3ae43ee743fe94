"""Self-attention and a simple RNN written once for any backend, and what the attention claims share.

Row-vector convention throughout: a sentence is X (n × d, one token per row), Q = X W_Q,
K = X W_K, V = X W_V, Attention = softmax(Q Kᵀ / √d_k) V row by row, and the RNN state is
h_t = tanh(x_t W_x + h_{t−1} W_h) (the column form W_x x_t + W_h h_{t−1}, transposed).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import sympy as sp

from checks.numerics.backends import Array, Backend, NumpyBackend, TorchBackend
from checks.numerics.reference import Reference
from checks.numerics.tolerances import LOW_PRECISION, UNIT_ROUNDOFF
from checks.settings.extras import optional

torch = optional("torch")


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """torch on one CPU thread (a context manager and a decorator).

    Matrices of a few rows gain nothing from more threads and stall for milliseconds per op when
    the cores are shared; the number of threads is restored afterwards.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


# --- the layers ------------------------------------------------------------------------------


def self_attention(xp: Backend, x: Array, w_q: Array, w_k: Array, w_v: Array, causal: bool = False) -> Array:
    """softmax(Q Kᵀ / √d_k) V for every query at once: one head, no mask unless ``causal``."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = (q @ k.T) / math.sqrt(k.shape[-1])
    if causal:
        size = scores.shape[0]
        scores = scores + xp.array(np.triu(np.full((size, size), -np.inf), 1))
    return xp.softmax(scores, axis=-1) @ v


def attention_per_query(xp: Backend, x: Array, w_q: Array, w_k: Array, w_v: Array) -> Array:
    """The same layer one query at a time: q_i = x_i W_Q, weights softmax(q_i Kᵀ / √d_k), output weights · V."""
    k, v = x @ w_k, x @ w_v
    rows = []
    for i in range(x.shape[0]):
        q_i = x[i] @ w_q
        rows.append(xp.softmax((q_i @ k.T) / math.sqrt(k.shape[-1]), axis=-1) @ v)
    return xp.stack(rows)


def rnn_layer(xp: Backend, x: Array, w_x: Array, w_h: Array) -> Array:
    """Every state h_t = tanh(x_t W_x + h_{t−1} W_h), h_0 = 0: n steps, each waiting for the last.

    Rows are kept 1 × d so that each product is a matrix product (what a FLOP counter sees).
    """
    h = xp.zeros(1, w_h.shape[0])
    states = []
    for t in range(x.shape[0]):
        h = tanh(xp, x[t : t + 1] @ w_x + h @ w_h)
        states.append(h[0])
    return xp.stack(states)


def tanh(xp: Backend, z: Array) -> Array:
    """tanh z = 1 − 2 / (e^{2z} + 1), from the backend's exp (saturates to ±1 when e^{2z} overflows)."""
    return 1 - 2 / (xp.exp(2 * z) + 1)


# --- sentences and weights -------------------------------------------------------------------


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


# --- tolerance -------------------------------------------------------------------------------


def rounding_scale(dtype: str, x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray) -> float:
    """B with |attention computed in ``dtype`` − exact| ≤ u · B to first order (u: unit roundoff).

    Inputs are the dtype's values, in float64. Each stored intermediate is rounded once
    (relative error ≤ u) after its sum; a sum of m terms accumulated in the dtype itself
    (float32, float64) adds up to m · u of its absolute terms, one accumulated in float32
    (bfloat16, float16: torch and NumPy both widen) adds nothing at first order. So with
    a = acc(max(d, d_k)) (sums over d for the projections, over d_k for the scores), b = acc(n), V̄ = |X||W_V|,
    S̄ = |X||W_Q| (|X||W_K|)ᵀ / √d_k, s the scores:

    - V:               δv ≤ u a V̄
    - scores:          δs ≤ u (3 a S̄ + 3 max|s|)       (Q, K, their product; the 1/√d; the shift by the row max)
    - softmax average: ‖Σ_j a_j (δs_j − Σ a δs) v_j‖ ≤ 2 max δs · max|v|
    - weights:         exp, their sum, the division: (2 + b) u relative; A V and its rounding: b u

    B = a max V̄ + 2 max|v| (3 a max S̄ + 3 max|s|) + (2 + 2b) max|v|.
    torch.testing's rtol is at least 2u in every dtype (float16 2.05u, bfloat16 4.1u), so
    rtol · B covers the difference of two such computations.
    """
    length, width = x.shape
    acc_d, acc_n = (1, 1) if dtype in LOW_PRECISION else (max(width, w_k.shape[-1]), length)
    magnitude = np.abs(x)
    q_bar, k_bar, v_bar = magnitude @ np.abs(w_q), magnitude @ np.abs(w_k), magnitude @ np.abs(w_v)
    v = x @ w_v
    scale = math.sqrt(w_k.shape[-1])  # √d_k, which is √d_model where the two are equal
    scores = (x @ w_q) @ (x @ w_k).T / scale
    s_bar = float(np.max(q_bar @ k_bar.T)) / scale
    v_max = float(np.max(np.abs(v)))
    score_error = 3 * acc_d * s_bar + 3 * float(np.max(np.abs(scores)))
    return acc_d * float(np.max(v_bar)) + 2 * v_max * score_error + (2 + 2 * acc_n) * v_max


def rounding_bound(dtype: str, scale: float) -> float:
    """2 u · B: how far rounding alone can set apart two attention outputs computed in ``dtype``.

    Each is within u · B of its exact value to first order (B = ``rounding_scale``), so a difference beyond
    2 u · B is a change of the exact outputs. This is the threshold for "changed by more than
    rounding"; torch.testing's tolerance answers a different question (may two implementations
    be called equal) and in float64 is 10⁹ times wider (rtol 1e-7, atol 1e-7 against u ≈ 1.1e-16).
    """
    return 2 * UNIT_ROUNDOFF[dtype] * scale


def output_range(x: np.ndarray, w_v: np.ndarray) -> float:
    """Each output row is a convex combination of the rows of V: its entries span at most 2 max|V|."""
    return 2 * float(np.max(np.abs(x @ w_v)))


def close_attention(t: Any, actual: Array, expected: Array, x: Array, weights: Sequence[Array], label: str) -> None:
    """t.close for two attention outputs on inputs ``x`` and (W_Q, W_K, W_V), at ``rounding_scale``.

    An example whose outputs all lie within this dtype's rounding (found by the thorough profile: float32, d = 1,
    one word, seed 17318, outputs under 3.3e-6 against an atol of 1e-5; in bfloat16, most d_model ≥ 8) could not
    fail any comparison, so it is not counted (``t.within_resolution``: in ``t.each`` only that row) rather than
    reported as VacuousTolerance; a cell where every input is so is skipped, saying why."""
    x64, (w_q, w_k, w_v) = t.xp.to_float64(x), (t.xp.to_float64(w) for w in weights)
    scale, bound = rounding_scale(t.dtype, x64, w_q, w_k, w_v), output_range(x64, w_v)
    t.within_resolution(expected, scale=scale, bound=bound)
    t.close(actual, expected, scale=scale, bound=bound, label=label)


def word_changes(
    xp: Backend, sentence: Sentence, weights: tuple[np.ndarray, ...] | None = None
) -> tuple[np.ndarray, float, float]:
    """Per word, max |output in the original order − output after reordering|; the rounding bound; the output range.

    Both sentences get PE(0 … n−1) added; the bound is ``rounding_bound`` at the larger rounding scale of the two: a
    change beyond it is not rounding. ``weights``: (W_Q, W_K, W_V) in place of the sentence's own.
    """
    w_q, w_k, w_v = (xp.array(w) for w in (weights or sentence.weights))
    encoding = Reference(xp).sinusoidal(list(range(sentence.n)), sentence.d)
    before = xp.array(sentence.tokens) + encoding
    after = xp.array(sentence.reordered_tokens) + encoding
    outputs = [xp.to_float64(self_attention(xp, x, w_q, w_k, w_v)) for x in (before, after)]
    where = np.argsort(sentence.order)  # the word at original position i now stands at where[i]
    changes = np.max(np.abs(outputs[0] - outputs[1][where]), axis=1)
    weights64 = [xp.to_float64(w) for w in (w_q, w_k, w_v)]
    scale = max(rounding_scale(xp.dtype, xp.to_float64(x), *weights64) for x in (before, after))
    return changes, rounding_bound(xp.dtype, scale), output_range(xp.to_float64(before), weights64[2])


def unencoded_changes(xp: Backend, sentence: Sentence) -> np.ndarray:
    """``word_changes`` without the encoding: per word, max |Attn(X) − Attn(P X) put back in the original order|."""
    outputs = [self_attention(xp, x, *sentence.weights) for x in (sentence.tokens, sentence.reordered_tokens)]
    return np.max(np.abs(outputs[0] - outputs[1][np.argsort(sentence.order)]), axis=1)


def rounding_visibility(
    sentences: Sequence[Sentence], backends: dict[str, Backend]
) -> tuple[dict[str, float], dict[str, float], list[float]]:
    """Per dtype (computed on ``backends[dtype]``), the share of reorderings whose every word moves beyond the rounding
    bound and the median rounding bound / output range; per reordering, the smallest change / output range in
    float64."""
    relative, bound_share, visible = [], {dtype: [] for dtype in backends}, dict.fromkeys(backends, 0)
    for sentence in sentences:
        for dtype, xp in backends.items():
            changes, allowed, span = word_changes(xp, sentence)
            visible[dtype] += bool(np.min(changes) > allowed)
            bound_share[dtype].append(allowed / span)
            if dtype == "float64":
                relative.append(float(np.min(changes) / span))
    fractions = {dtype: count / len(sentences) for dtype, count in visible.items()}
    return fractions, {dtype: float(np.median(values)) for dtype, values in bound_share.items()}, relative


def median_change(sentences: Sequence[Sentence], factor: float) -> float:
    """The median over ``sentences`` of the smallest change / output range (float64) with W_Q and W_K scaled by
    ``factor``: sharper or flatter attention weights."""
    xp, changes = NumpyBackend("float64"), []
    for sentence in sentences:
        w_q, w_k, w_v = sentence.weights
        found, _, span = word_changes(xp, sentence, (factor * w_q, factor * w_k, w_v))
        changes.append(float(np.min(found) / span))
    return float(np.median(changes))


def uniform_change(sentence: Sentence) -> float:
    """The largest change / float64 rounding bound with W_Q = 0: uniform attention weights."""
    _, w_k, w_v = sentence.weights
    found, allowed, _ = word_changes(NumpyBackend("float64"), sentence, (np.zeros_like(w_k), w_k, w_v))
    return float(np.max(found) / allowed)


def close_pooled(t: Any, actual: Array, expected: Array, x: Array, weights: Sequence[Array], label: str) -> None:
    """t.close for the means of two attention outputs (mean pooling) on inputs ``x`` and (W_Q, W_K, W_V): the outputs'
    rounding scale, plus n max|v| for summing n rows and dividing by n.

    Found by the thorough profile (bfloat16, d = 2, one word, seed 19953): rounding can span the whole output range,
    so no comparison there could fail; such an example says nothing in this dtype and is not counted
    (``t.within_resolution``)."""
    x64, (w_q, w_k, w_v) = t.xp.to_float64(x), (t.xp.to_float64(w) for w in weights)
    count = x64.shape[0]
    scale = rounding_scale(t.dtype, x64, w_q, w_k, w_v) + count * output_range(x64, w_v) / 2
    pooled = [t.xp.sum(y, axis=0) / count for y in (actual, expected)]
    t.within_resolution(pooled[1], scale=scale, bound=output_range(x64, w_v))
    t.close(*pooled, scale=scale, bound=output_range(x64, w_v), label=label)


# --- FLOP formulas (what torch.utils.flop_counter counts: matrix products) ---------------------

n, d, gates = sp.symbols("n d g", positive=True, integer=True)
"""The symbols of the FLOP formulas: sequence length n, model width d, gate blocks g of a recurrent cell (RNN 1,
GRU 3, LSTM 4); positive integers. The formulas take them as arguments with these as defaults."""


def matmul_flops(rows: sp.Expr, inner: sp.Expr, cols: sp.Expr) -> sp.Expr:
    """(rows × inner) @ (inner × cols): one multiply and one add per term, 2 · rows · inner · cols."""
    return 2 * rows * inner * cols


def attention_products(length: sp.Expr = n, width: sp.Expr = d) -> dict[str, tuple[sp.Expr, sp.Expr, sp.Expr]]:
    """The matrix products of ``self_attention``, by name: (rows, inner, cols)."""
    projection = (length, width, width)
    return {
        "X W_Q": projection,
        "X W_K": projection,
        "X W_V": projection,
        "Q Kᵀ": (length, width, length),
        "A V": (length, length, width),
    }


def attention_flops(length: sp.Expr = n, width: sp.Expr = d) -> sp.Expr:
    """Σ over attention's products: 6 n d² + 4 n² d."""
    return sp.expand(sum(matmul_flops(*shape) for shape in attention_products(length, width).values()))


def rnn_flops(length: sp.Expr = n, width: sp.Expr = d, gate_blocks: sp.Expr = 1) -> sp.Expr:
    """n steps of x_t W_x and h_{t−1} W_h, each (1 × d) @ (d × g d): 4 g n d²."""
    return sp.expand(length * 2 * matmul_flops(1, width, gate_blocks * width))


RECURRENT_CELLS = {"rnn": ("RNN", 1), "gru": ("GRU", 3), "lstm": ("LSTM", 4)}
"""torch's recurrent layers (their names in torch.nn) and their gate blocks g, by cell name (lower case; the functions
taking a name accept either case: ``recurrent_cell``)."""


def recurrent_cell(name: str) -> str:
    """The RECURRENT_CELLS key of ``name`` in either case ("LSTM" → "lstm"); a ValueError naming the known cells for
    any other name."""
    key = name.lower()
    if key not in RECURRENT_CELLS:
        raise ValueError(f"unknown recurrent cell {name!r}: the cells are {', '.join(RECURRENT_CELLS)} (either case)")
    return key


def crossover_formula(width: sp.Expr = d, gate_blocks: sp.Expr = gates) -> sp.Expr:
    """The sequence length n ≠ 0 where attention and a g-gate recurrent layer cost the same, solved by SymPy:
    (2g − 3) d / 2, with ``width`` for d and ``gate_blocks`` for g (by default this module's symbols d and g)."""
    return _crossover().subs({d: width, gates: gate_blocks}, simultaneous=True)


@functools.cache
def _crossover() -> sp.Expr:
    (root,) = sp.solve(sp.Eq(attention_flops(), rnn_flops(n, d, gates)), n)
    return root


def crossover(gate_blocks: int, width: sp.Expr = d) -> sp.Expr | None:
    """The crossover n for g = ``gate_blocks`` at d = ``width`` (a number, or by default this module's symbol d:
    pass your own ``Symbol("d")`` to get it in yours), or None when it is not positive (attention always costs
    more)."""
    value = _crossover().subs(gates, gate_blocks)
    return value.subs(d, width) if value.is_positive else None


# --- counting what torch runs ----------------------------------------------------------------


def counted_flops(function: Callable[..., Any], *args: Any) -> int:
    """FLOPs torch.utils.flop_counter.FlopCounterMode counts while ``function(*args)`` runs."""
    from torch.utils.flop_counter import FlopCounterMode

    with FlopCounterMode(display=False) as counter:
        function(*args)
    return int(counter.get_total_flops())


def counted_attention(length: int, width: int, device: str = "cpu") -> int:
    """FLOPs FlopCounterMode counts for ``self_attention`` (float32) over ``length`` zero tokens of ``width``
    (on the meta device, shapes only: nothing is computed)."""
    xp = TorchBackend("float32", device)
    return counted_flops(self_attention, xp, xp.zeros(length, width), *(xp.zeros(width, width) for _ in range(3)))


def counted_recurrent(name: str, length: int, width: int) -> int:
    """FLOPs FlopCounterMode counts for one torch recurrent layer (a RECURRENT_CELLS name) over ``length`` tokens.

    oneDNN is switched off: its fused LSTM kernel (aten.mkldnn_rnn_layer) has no FLOP formula and counts 0.
    """
    module, _ = RECURRENT_CELLS[recurrent_cell(name)]
    layer = getattr(torch.nn, module)(width, width)
    x = torch.zeros(length, width)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # oneDNN's TF32 notice when its flags change
        with torch.backends.mkldnn.flags(enabled=False):
            return counted_flops(layer, x)


def crossover_ratios(name: str, width: int) -> dict[str, object]:
    """The crossover n of a RECURRENT_CELLS layer at d = ``width``, and the counted attention / recurrent FLOPs one
    below and one above it (without a crossover: the ratio 3/2 + 1/d at n = 1)."""
    boundary = crossover(RECURRENT_CELLS[recurrent_cell(name)][1], width)
    if boundary is None:
        return {"crossover n": "none (attention always costs more)", "ratio at n = 1": 1.5 + 1 / width}
    at = float(boundary)
    ratios = {m: counted_attention(m, width) / counted_recurrent(name, m, width) for m in (int(at) - 1, int(at) + 1)}
    return {"crossover n": at, **{f"n={m}: attention / {name}": ratio for m, ratio in ratios.items()}}


def dispatched_ops(function: Callable[..., Any], *args: Any) -> Counter[str]:
    """The aten operators ``function(*args)`` dispatches, by name (each one kernel launch or more)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpRecorder(TorchDispatchMode):
        """Counts every aten operator dispatched while it is active."""

        def __init__(self) -> None:
            super().__init__()
            self.ops: Counter[str] = Counter()

        def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
            self.ops[func.overloadpacket.__name__] += 1
            return func(*args, **(kwargs or {}))

    with OpRecorder() as recorder:
        function(*args)
    return recorder.ops


def dependency_depth(output: torch.Tensor) -> int:
    """The longest chain of autograd nodes from ``output`` to its inputs: steps that must run in order."""
    order: list[Any] = []
    seen: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(output.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if node is None or (not expanded and node in seen):
            continue
        if expanded:
            order.append(node)
            continue
        seen.add(node)
        stack.append((node, True))
        stack += [(child, False) for child, _ in node.next_functions if child is not None and child not in seen]
    depth: dict[Any, int] = {}
    for node in order:
        children = [depth[c] for c, _ in node.next_functions if c is not None and c in depth]
        depth[node] = 1 + max(children, default=0)
    return depth.get(output.grad_fn, 0)


REFERENCE_LAYERS: dict[str, Callable[..., torch.Tensor]] = {
    "attention": lambda xp, x, weights: self_attention(xp, x, *weights),
    "rnn": lambda xp, x, weights: rnn_layer(xp, x, *weights[:2]),
}
"""The reference layers, both written as the formulas say: ``REFERENCE_LAYERS[name](xp, x, (W_1, W_2, W_3))``."""


def graph_structure(layer: str, backend: Backend, length: int, width: int) -> tuple[int, int]:
    """(dependency depth of the autograd graph, dispatched aten ops) of a reference layer over ``length`` zero tokens
    of ``width``, with zero weights (torch backends: the tensors require gradients)."""
    x = backend.zeros(length, width).requires_grad_()
    weights = [backend.zeros(width, width).requires_grad_() for _ in range(3)]
    run = functools.partial(REFERENCE_LAYERS[layer], backend, x, weights)
    return dependency_depth(run()), sum(dispatched_ops(run).values())


# --- what the speed measurements run ---------------------------------------------------------


def timed_layers(length: int, width: int, device: str = "cpu", train: bool = False) -> dict[str, Callable[[], Any]]:
    """One pass over one random sentence (n × d, float32) through the attention layer and through torch.nn.RNN.

    Both run the library's own kernels: attention as three projections, Q Kᵀ, softmax and A V
    (``self_attention`` on torch), the RNN as torch's tanh recurrent layer, which loops over the
    n steps inside. ``train``: forward and backward (gradients for every weight), as a training step does.
    """
    generator = torch.Generator().manual_seed(0)
    x = torch.rand(length, width, generator=generator).to(device)
    bound = 1 / math.sqrt(width)
    weights = [
        ((torch.rand(width, width, generator=generator) * 2 - 1) * bound).to(device).requires_grad_(train)
        for _ in range(3)
    ]
    rnn = torch.nn.RNN(width, width).to(device).requires_grad_(train)
    backend = TorchBackend("float32", device)
    forward = {"attention": lambda: self_attention(backend, x, *weights), "rnn": lambda: rnn(x)[0]}
    if not train:
        return forward
    return {name: (lambda run=run: run().sum().backward()) for name, run in forward.items()}


def shipped_rnn_structure(lengths: Sequence[int], width: int) -> dict[int, dict[str, int]]:
    """torch.nn.RNN(width, width) as shipped, over zero inputs of each length: autograd depth and dispatched ops."""
    rnn, table = torch.nn.RNN(width, width), {}
    for length in lengths:
        x = torch.zeros(length, width)
        table[length] = {"depth": dependency_depth(rnn(x)[0]), "ops": sum(dispatched_ops(rnn, x).values())}
    return table
