"""(R(mθ)q)·(R(nθ)k) = qᵀ R((n−m)θ) k: the RoPE score sees only n − m, so shifting both positions keeps it."""

import numpy as np
import sympy as sp

from checks import Claim, example, given
from checks.figures import lines
from checks.formulas import i, omega, pairs_sum, rotation
from checks.reference import EXACT
from checks.rope import rope_rows, rope_score_rows, rope_scores
from checks.strategies import as_batch, query_key_batches
from claims.catalog.demos import DEMO_KEY, DEMO_M, DEMO_N, DEMO_Q, DEMO_SHIFT
from claims.catalog.works import LESSON_000, LESSON_002

claim = Claim(
    id="rope.relative-score",
    title="The RoPE score depends only on the distance n − m",
    statement=(
        "Rotating each query/key pair by its position, (R(mθ)q)·(R(nθ)k) = qᵀR((n−m)θ)k, "
        "for 2×2 rotations and for block-diagonal d-dimensional RoPE; hence shifting both positions "
        "by the same s leaves the score unchanged (document 002's demo 8: m = 2, n = 5, both +5)."
    ),
    sources=[
        LESSON_002.quote(
            "8. 그다음: RoPE",
            "회전 행렬끼리는 각도가 빼기로 합쳐지므로, 점수에는 절대 위치 m, n 대신 상대 거리 n−m만 남습니다.",
        ),
        LESSON_002.quote(
            "데모 8 · RoPE: 둘 다 옮기면 점수는 그대로",
            "“둘 다 +5”를 누르면 두 벡터가 같이 돌고 내적은 변하지 않습니다.",
        ),
        LESSON_002.quote("8. 그다음: RoPE", "2차원 쿼리(파랑)와 키(주황)를 각자의 위치 m, n만큼 돌립니다."),
        LESSON_000.quote("Sinusoidal vs 학습 가능한 위치 임베딩", "• •회전 행렬을 이용한 상대적 위치 인코딩"),
        LESSON_002.quote("8. 그다음: RoPE", "데모 8 · RoPE: 둘 다 옮기면 점수는 그대로"),
    ],
    expect="proved",
)

m, n, s, theta = sp.symbols("m n s theta", real=True)


def score(q: sp.Matrix, key: sp.Matrix, at_q: sp.Expr, at_k: sp.Expr, angle: sp.Expr) -> sp.Expr:
    """(R(at_q · angle) q) · (R(at_k · angle) k) for one pair."""
    return ((rotation(at_q * angle) * q).T * (rotation(at_k * angle) * key))[0]


@claim.proof
def _(p):
    q, key = sp.Matrix(sp.symbols("q0 q1", real=True)), sp.Matrix(sp.symbols("k0 k1", real=True))
    p.decide(
        score(q, key, m, n, theta),
        (q.T * rotation((n - m) * theta) * key)[0],
        label="2×2: (R(mθ)q)·(R(nθ)k) = qᵀR((n−m)θ)k",
    )
    p.decide(score(q, key, m + s, n + s, theta), score(q, key, m, n, theta), label="2×2: both shifted by s")
    Q, K = sp.IndexedBase("q"), sp.IndexedBase("k")
    qi, ki = sp.Matrix([Q[2 * i], Q[2 * i + 1]]), sp.Matrix([K[2 * i], K[2 * i + 1]])
    w = omega()
    relative = (qi.T * rotation((n - m) * w) * ki)[0]
    p.decide(
        pairs_sum(score(qi, ki, m, n, w)),
        pairs_sum(relative),
        label="d dimensions: block-diagonal RoPE, termwise over pairs",
    )
    p.decide(
        pairs_sum(score(qi, ki, m + s, n + s, w)),
        pairs_sum(score(qi, ki, m, n, w)),
        label="d dimensions: both shifted by s, termwise over pairs",
    )


@claim.check(uses="rope", batched=True)
@given(qk=query_key_batches(high=32))
def score_sees_only_distance(t, qk):
    q, key, (m, n) = qk[0], qk[1], qk[2].T
    rotated = rope_score_rows(t.impl, q, key, m, n)
    t.close_score(rotated, t.relative_score(q, key, n - m), q, key, [m, n], label="RoPE score")


@claim.check(uses="rope", batched=True)
@example(qks=(as_batch([DEMO_Q]), as_batch([DEMO_KEY]), as_batch([[DEMO_M, DEMO_N, DEMO_SHIFT]])))
@given(qks=query_key_batches(high=32, shifted=True, odd=True))
def common_shift_keeps_score(t, qks):
    """Both positions shifted by s leave each implementation's own score as it was, at every d (odd ones too)."""
    q, key, (m, n, s) = qks[0], qks[1], qks[2].T
    before, after = (rope_score_rows(t.impl, q, key, m + step, n + step) for step in (0, s))
    t.close_score(after, before, q, key, [m, n, m + s, n + s], label="score after the shift")


SHIFTS = list(range(-10, 31))
"""The shifts s the demo's figure spans."""


def arrows() -> dict[str, tuple[list[float], list[float]]]:
    """Demo 8's four arrows from the origin: q at m = 2 and k at n = 5, then both +5 (float64)."""
    ends = {
        "q at m = 2": (DEMO_Q, DEMO_M),
        "k at n = 5": (DEMO_KEY, DEMO_N),
        "q at m = 7 (+5)": (DEMO_Q, DEMO_M + DEMO_SHIFT),
        "k at n = 10 (+5)": (DEMO_KEY, DEMO_N + DEMO_SHIFT),
    }
    tips = {label: rope_rows(EXACT, vector[None, :], [at])[0] for label, (vector, at) in ends.items()}
    return {label: ([0.0, x], [0.0, y]) for label, (x, y) in tips.items()}


@claim.probe
def demo_both_plus_five(r):
    """Demo 8: m = 2, n = 5, then both +5; against the score when only the key moves."""
    both = rope_scores(EXACT, DEMO_Q, DEMO_KEY, [(DEMO_M + step, DEMO_N + step) for step in SHIFTS])
    key_only = rope_scores(EXACT, DEMO_Q, DEMO_KEY, [(DEMO_M, DEMO_N + step) for step in SHIFTS])
    before, after = both[SHIFTS.index(0)], both[SHIFTS.index(DEMO_SHIFT)]
    r.measure("q, k (2-d, θ = 1)", {"q": DEMO_Q, "k": DEMO_KEY})
    r.measure("score at m=2, n=5", before)
    r.measure("score after both +5 (m=7, n=10)", after)
    r.measure("score with only the key +5 (m=2, n=10)", key_only[SHIFTS.index(DEMO_SHIFT)])
    r.measure("largest change over s = −10 … 30: both shifted", float(np.ptp(both)))
    r.measure("largest change over s = −10 … 30: only the key shifted", float(np.ptp(key_only)))
    if abs(after - before) > 1e-12:
        r.counterexample(
            f"both +5 changes the score: {before:.6g} at (2, 5) but {after:.6g} at (7, 10)", before=before, after=after
        )
    r.figure(
        lines(
            "rope-score-under-shifts",
            "RoPE score under shifts (demo 8: m = 2, n = 5)",
            "Score of the 2-d query and key against the shift s. Shifting both positions gives a flat line at "
            f"{before:.3f}; shifting only the key makes the score swing between {min(key_only):.3f} and "
            f"{max(key_only):.3f}.",
            {"both shifted: (m+s, n+s)": (SHIFTS, both), "only the key shifted: (m, n+s)": (SHIFTS, key_only)},
            x_label="shift s",
            y_label="score q′·k′",
            marks={"둘 다 +5": DEMO_SHIFT},
        )
    )
    r.figure(
        lines(
            "demo-8-vectors",
            "Demo 8: query and key rotated to m = 2, n = 5, then both +5",
            "Four arrows from the origin: q turned by 2 rad and k by 5 rad, then q by 7 and k by 10. Both pairs are "
            f"3 rad apart (n − m = 3), so the dot product stays {before:.3f} after both +5.",
            arrows(),
            x_label="first component",
            y_label="second component",
        )
    )
