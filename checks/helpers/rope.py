"""Helpers for the RoPE, additive-PE and misconception claims.

- attention scores with RoPE (rotate q and k by their positions) and with additive PE
  ((x + PE(m))ᵀ W_Qᵀ W_K (y + PE(n))), computed in the backend of a check;
- Hypothesis strategies for query/key pairs and for a common shift s of two positions;
- ``misconception_verdict``: the verdict of a "this is a misconception" claim, taken from the
  outcomes of the claims that decide it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks.helpers.current import current_run
from checks.helpers.strategies import UNIT, d_models, position_bound, positions
from checks.implementations.references import Reference
from checks.verdicts import Verdict, most_severe

if TYPE_CHECKING:
    from checks.evidence.base import Dependency
    from checks.evidence.probe import Recorder

DEMO_M, DEMO_N, DEMO_SHIFT = 2, 5, 5
"""Document 002, demo 8: query at m = 2, key at n = 5, then "둘 다 +5"."""
DEMO_Q, DEMO_KEY = np.array([1.0, 0.25]), np.array([0.5, 1.0])
"""The document prints no demo vectors; any 2-d q, k serve (for d = 2, RoPE's θ is 10000⁰ = 1)."""


@st.composite
def query_key_pairs(draw: st.DrawFn, high: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """(q, k): two float64 vectors with entries in [−1, 1] of one even length d ≤ ``high`` (inside the
    implementation's declared d_model, when it declares one)."""
    run = current_run()
    if run is not None and (run.domain.min_d_model or run.domain.d_models or run.domain.excluded_d_models):
        d_model = draw(d_models(even=True, low=2, high=high))
    else:
        d_model = 2 * draw(st.integers(1, high // 2))
    both = draw(arrays(np.float64, (2, d_model), elements=UNIT))
    return both[0], both[1]


@st.composite
def common_shifts(draw: st.DrawFn) -> tuple[int, int, int]:
    """(m, n, s) with m, n, m + s and n + s all within the run's positions (checks.strategies.position_bound)."""
    limit, run = position_bound(), current_run()
    lowest = run.domain.min_position if run is not None and run.domain.min_position is not None else 0
    m, n = draw(positions()), draw(positions())
    shift = draw(st.integers(lowest - min(m, n), limit - max(m, n)))
    return m, n, shift


def rope_rows(impl: Reference, rows: np.ndarray, at: list[int]) -> np.ndarray:
    """RoPE applied in the implementation's backend and dtype to each row at its position, returned as float64."""
    return impl.xp.to_float64(impl.rope(impl.xp.array(rows), at))


def rope_scores(impl: Reference, q: np.ndarray, key: np.ndarray, pairs: list[tuple[int, int]]) -> list[float]:
    """(R(mθ)q)·(R(nθ)k) for each (m, n), all rotations in one backend call; dot products in float64."""
    rows = np.stack([v for _ in pairs for v in (q, key)])
    rotated = rope_rows(impl, rows, [p for pair in pairs for p in pair])
    return [float(rotated[2 * j] @ rotated[2 * j + 1]) for j in range(len(pairs))]


def additive_scores(
    impl: Reference, content: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, pairs: list[tuple[int, int]]
) -> list[float]:
    """(x + PE(m))ᵀ W_Qᵀ W_K (y + PE(n)) for each (m, n); content = (x, y).

    The sum x + PE, the sinusoidal PE and both projections run in the implementation's
    backend and dtype (projections as broadcast products summed in the dtype: torch's CPU
    matmul in float16/bfloat16 takes milliseconds per tiny call); the final dot product of
    the projected query and key is taken in float64.
    """
    xp = impl.xp
    at = [p for pair in pairs for p in pair]
    tokens = xp.array(np.stack([row for _ in pairs for row in content])) + impl.sinusoidal(at, content.shape[-1])
    queries = xp.to_float64(xp.sum(tokens[0::2, None, :] * xp.array(w_q)[None], axis=-1))
    keys = xp.to_float64(xp.sum(tokens[1::2, None, :] * xp.array(w_k)[None], axis=-1))
    return [float(q @ k) for q, k in zip(queries, keys, strict=True)]


def score_scale(q: np.ndarray, key: np.ndarray, at: list[int]) -> float:
    """‖q‖‖k‖ · (1 + Σ|position|): a score's size times the angles its computation rounds."""
    return float(np.linalg.norm(q) * np.linalg.norm(key)) * (1 + sum(abs(p) for p in at))


MEANING: dict[Verdict, str] = {
    Verdict.PROVED: "proved: the belief is false, shown symbolically and numerically",
    Verdict.HOLDS: "holds: the belief is false, shown by numeric or structural evidence",
    Verdict.QUALIFIED: "qualified: the belief is false only under a condition the document does not state",
    Verdict.REFUTED: "refuted: a deciding claim fails, so the belief may not be a misconception",
    Verdict.OUT_OF_SCOPE: "out-of-scope: a deciding claim cannot be checked by computation",
    Verdict.BROKEN: "broken: a deciding claim crashed, nothing is shown",
}


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
