"""How far attention computed in a dtype may fall from the exact one (first-order rounding bounds), and the
comparisons and changes measured against it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from checks.helpers.attention_layers import self_attention
from checks.helpers.sentences import Sentence
from checks.numerics.backends import Array, Backend, NumpyBackend
from checks.numerics.reference_implementations import Reference
from checks.numerics.tolerances import LOW_PRECISION, UNIT_ROUNDOFF
from checks.settings.extras import optional

torch = optional("torch")


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
