"""Helpers for the RoPE, additive-PE and misconception claims.

- attention scores with RoPE (rotate q and k by their positions) and with additive PE
  ((x + PE(m))ᵀ W_Qᵀ W_K (y + PE(n))), computed in the backend of a check;
- Hypothesis strategies for query/key pairs and for a common shift s of two positions;
- ``misconception_verdict``: the verdict of a "this is a misconception" claim, taken from the
  outcomes of the claims that decide it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks.helpers.variable_strategies import (
    UNIT,
    Batch,
    as_batch,
    d_models,
    position_bound,
    position_pair_batches,
)
from checks.numerics.current import current_run
from checks.numerics.reference_implementations import Reference, frequency_values
from checks.verdicts import Verdict, most_severe

if TYPE_CHECKING:
    from checks.evidence.base import Dependency
    from checks.evidence.probe import Recorder


def _rope_width(draw: st.DrawFn, high: int, odd: bool = False) -> int:
    """An even d ≤ ``high`` (any d from 1 when ``odd``: an odd d's last dimension has no partner and stays as it
    is), inside the implementation's declared d_model when it declares one."""
    run = current_run()
    if run is not None and run.domain.restricts_d_model:
        return draw(d_models(even=None if odd else True, low=1 if odd else 2, high=high))
    return draw(st.integers(1, high)) if odd else 2 * draw(st.integers(1, high // 2))


@st.composite
def query_key_pairs(draw: st.DrawFn, high: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """(q, k): two float64 vectors with entries in [−1, 1] of one even length d ≤ ``high`` (inside the
    implementation's declared d_model, when it declares one)."""
    both = draw(arrays(np.float64, (2, _rope_width(draw, high)), elements=UNIT))
    return both[0], both[1]


@st.composite
def query_key_batches(
    draw: st.DrawFn,
    high: int = 16,
    maximum: int | None = None,
    exact: bool = False,
    shifted: bool = False,
    odd: bool = False,
    dtype: str | None = None,
) -> tuple[Batch, Batch, Batch]:
    """(q, k, at) for a batched check: rows of queries and keys as ``query_key_pairs(high)`` draws them (one d per
    batch; odd ones too when ``odd``, for a property that holds with an odd d's last dimension left as it is), each
    with its positions: (m, n) from ``position_pair_batches(maximum, exact=exact)``, or (m, n, s) from
    ``common_shift_batches()`` when ``shifted``. ``dtype``: by default the check's."""
    at = draw(common_shift_batches(dtype) if shifted else position_pair_batches(maximum, exact=exact, dtype=dtype))
    both = draw(arrays(np.float64, (2, len(at), _rope_width(draw, high, odd)), elements=UNIT))
    return as_batch(both[0]), as_batch(both[1]), at


@st.composite
def common_shift_batches(draw: st.DrawFn, dtype: str | None = None) -> Batch:
    """Rows (m, n, s): m, n from ``position_pair_batches()`` and a shift s that keeps m + s and n + s within the
    run's positions (checks.helpers.variable_strategies.position_bound). ``dtype``: by default the check's."""
    limit, run = position_bound(dtype=dtype), current_run()
    lowest = run.domain.min_position if run is not None and run.domain.min_position is not None else 0
    m, n = np.asarray(draw(position_pair_batches(dtype=dtype))).T
    low, high = lowest - np.minimum(m, n), limit - np.maximum(m, n)
    raw = draw(arrays(np.int64, len(m), elements=st.integers(0, 2 * limit)))
    return as_batch(np.stack([m, n, low + raw % (high - low + 1)], axis=1))


@st.composite
def attention_input_batches(
    draw: st.DrawFn, high: int = 8, dtype: str | None = None
) -> tuple[Batch, Batch, Batch, Batch]:
    """Rows (content x and y, W_Q, W_K, (m, n, s)) for additive PE's score: entries in [−1, 1], one even d ≤ ``high``
    per batch, and a common shift from ``common_shift_batches()``. ``dtype``: by default the check's."""
    shifts = draw(common_shift_batches(dtype))
    d = 2 * draw(st.integers(1, high // 2))
    content = draw(arrays(np.float64, (len(shifts), 2, d), elements=UNIT))
    w_q, w_k = draw(arrays(np.float64, (2, len(shifts), d, d), elements=UNIT))
    return as_batch(content), as_batch(w_q), as_batch(w_k), shifts


def rope_rows(impl: Reference, rows: np.ndarray, at: list[int] | np.ndarray) -> np.ndarray:
    """RoPE applied in the implementation's backend and dtype to each row at its position (a list or an array of
    integer positions: an implementation is handed a list of ints), returned as float64."""
    return impl.xp.to_float64(impl.rope(impl.xp.array(rows), np.asarray(at).tolist()))


def rope_score_rows(impl: Reference, q: np.ndarray, key: np.ndarray, m: np.ndarray, n: np.ndarray) -> np.ndarray:
    """(R(m_j θ)q_j)·(R(n_j θ)k_j) for each row j, all rotations in one backend call; dot products in float64."""
    rows = np.stack([q, key], axis=1).reshape(-1, q.shape[-1])
    rotated = rope_rows(impl, rows, np.stack([m, n], axis=1).reshape(-1))
    return np.sum(rotated[0::2] * rotated[1::2], axis=-1)


def rope_scores(impl: Reference, q: np.ndarray, key: np.ndarray, pairs: list[tuple[int, int]]) -> list[float]:
    """(R(mθ)q)·(R(nθ)k) for each (m, n) (rope_score_rows with one q and k)."""
    m, n = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    return rope_score_rows(impl, np.tile(q, (len(m), 1)), np.tile(key, (len(m), 1)), m, n).tolist()


def additive_score_rows(
    impl: Reference, content: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, m: np.ndarray, n: np.ndarray
) -> np.ndarray:
    """(x_j + PE(m_j))ᵀ W_Q,jᵀ W_K,j (y_j + PE(n_j)) for each row j; content[j] = (x_j, y_j).

    The sum x + PE, the sinusoidal PE and both projections run in the implementation's
    backend and dtype (projections as broadcast products summed in the dtype: torch's CPU
    matmul in float16/bfloat16 takes milliseconds per tiny call); the final dot product of
    the projected query and key is taken in float64.
    """
    xp, d = impl.xp, content.shape[-1]
    query_in, key_in = (xp.array(content[:, j]) + impl.sinusoidal(at, d) for j, at in enumerate((m, n)))
    queries = xp.to_float64(xp.sum(query_in[:, None, :] * xp.array(w_q), axis=-1))
    keys = xp.to_float64(xp.sum(key_in[:, None, :] * xp.array(w_k), axis=-1))
    return np.sum(queries * keys, axis=-1)


def additive_scores(
    impl: Reference, content: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, pairs: list[tuple[int, int]]
) -> list[float]:
    """(x + PE(m))ᵀ W_Qᵀ W_K (y + PE(n)) for each (m, n); content = (x, y) (additive_score_rows, one x, y, W)."""
    m, n = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    rows = len(m)
    return additive_score_rows(
        impl, np.tile(content, (rows, 1, 1)), np.tile(w_q, (rows, 1, 1)), np.tile(w_k, (rows, 1, 1)), m, n
    ).tolist()


def score_scale(q: np.ndarray, key: np.ndarray, at: list[int] | list[np.ndarray]) -> float | np.ndarray:
    """‖q‖‖k‖ · (1 + Σ|position|): a score's size times the angles its computation rounds (one per row for rows
    of q and k with arrays of positions)."""
    size = np.linalg.norm(q, axis=-1) * np.linalg.norm(key, axis=-1)
    return size * (1 + sum(np.abs(p) for p in at))


MEANING: dict[Verdict, str] = {
    Verdict.PROVED: "proved: the belief is false, shown symbolically and numerically",
    Verdict.HOLDS: "holds: the belief is false, shown by numeric or structural evidence",
    Verdict.QUALIFIED: "qualified: the belief is false only under a condition the document does not state",
    Verdict.REFUTED: "refuted: a deciding claim fails, so the belief may not be a misconception",
    Verdict.OUT_OF_SCOPE: "out-of-scope: a deciding claim cannot be checked by computation",
    Verdict.BROKEN: "broken: a deciding claim crashed, nothing is shown",
}
"""What each verdict of a misconception claim means for the belief it states."""


def misconception_verdict(r: Recorder, dependencies: dict[str, Dependency]) -> Verdict:
    """The verdict of "the document is right that this belief is a misconception".

    Each deciding claim states a fact that contradicts the belief (attention is
    permutation-equivariant, PE is not learned, ...). So the document's claim "this is a
    misconception" is as strong as the weakest of them (checks.verdicts.SEVERITY): all proved →
    proved; any merely numeric → holds; any qualified → qualified; any refuted → refuted (the
    belief may be right after all); a deciding claim out of scope or broken leaves it so. The
    conditions and counterexamples of a qualified or refuted deciding claim are repeated here, so
    that the reader sees why.
    """
    weakest = most_severe([dependency.verdict for dependency in dependencies.values()])
    r.measure("what the deciding claims show", MEANING[weakest])
    for claim_id, dependency in dependencies.items():
        if dependency.verdict in (Verdict.QUALIFIED, Verdict.REFUTED):
            for finding in dependency.findings:
                if finding.kind in ("condition", "counterexample"):
                    getattr(r, finding.kind)(f"from {claim_id}: {finding.text}", **finding.data)
    return weakest


def qualified_where(claim_id: str, condition: str) -> Callable[[Recorder, dict[str, Dependency]], Verdict]:
    """A derived verdict for a sentence that overreaches where the claim ``claim_id`` establishes a fact it leaves
    out: qualified with ``condition`` where that claim is proved or holds, holds where it is refuted (the fact
    fails, the sentence stands), and that claim's verdict otherwise (out of scope, broken)."""

    def derived(r: Recorder, dependencies: dict[str, Dependency]) -> Verdict:
        found = dependencies[claim_id]
        r.measure(claim_id, found.verdict.value)
        if found.verdict in (Verdict.PROVED, Verdict.HOLDS):
            r.condition(condition)
            return Verdict.QUALIFIED
        return Verdict.HOLDS if found.verdict == Verdict.REFUTED else found.verdict

    return derived


def relative_score(q: np.ndarray, key: np.ndarray, distance: np.ndarray | int) -> np.ndarray:
    """qᵀ R(distance · θ) k in float64 for interleaved pairs (row by row for rows of q and k with one distance each)."""
    angles = np.multiply.outer(distance, frequency_values(q.shape[-1]))
    c, s = np.cos(angles), np.sin(angles)
    q0, q1, k0, k1 = q[..., 0::2], q[..., 1::2], key[..., 0::2], key[..., 1::2]
    return np.sum(q0 * (c * k0 - s * k1) + q1 * (s * k0 + c * k1), axis=-1)
