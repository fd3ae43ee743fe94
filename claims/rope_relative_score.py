"""(R(mθ)q)·(R(nθ)k) = qᵀ R((n−m)θ) k: the RoPE score sees only n − m."""

import numpy as np
import sympy as sp
from hypothesis import given

from checks import FLOATS, Claim, Quote
from checks.formulas import i, omega, pairs_sum, rotation
from checks.references import frequency_values
from checks.strategies import d_models, positions, vectors

claim = Claim(
    id="rope.relative-score",
    title="The RoPE score depends only on the distance n − m",
    statement=(
        "Rotating each query/key pair by its position, (R(mθ)q)·(R(nθ)k) = qᵀR((n−m)θ)k, "
        "for 2×2 rotations and for block-diagonal d-dimensional RoPE."
    ),
    sources=[
        Quote(
            "002_86fa32f25d4c4c54.txt",
            "§8 그다음: RoPE",
            "회전 행렬끼리는 각도가 빼기로 합쳐지므로, 점수에는 절대 위치 m, n 대신 상대 거리 n−m만 남습니다.",
        )
    ],
    expect="proved",
)

m, n, theta = sp.symbols("m n theta", real=True)


@claim.proof
def _(p):
    q, key = sp.Matrix(sp.symbols("q0 q1", real=True)), sp.Matrix(sp.symbols("k0 k1", real=True))
    score = ((rotation(m * theta) * q).T * (rotation(n * theta) * key))[0]
    p.decide(score, (q.T * rotation((n - m) * theta) * key)[0], label="2×2: (R(mθ)q)·(R(nθ)k) = qᵀR((n−m)θ)k")
    Q, K = sp.IndexedBase("q"), sp.IndexedBase("k")
    qi, ki = sp.Matrix([Q[2 * i], Q[2 * i + 1]]), sp.Matrix([K[2 * i], K[2 * i + 1]])
    w = omega()
    rotated = ((rotation(m * w) * qi).T * (rotation(n * w) * ki))[0]
    relative = (qi.T * rotation((n - m) * w) * ki)[0]
    p.decide(pairs_sum(rotated), pairs_sum(relative), label="d dimensions: block-diagonal RoPE, termwise over pairs")


def relative_score(q: np.ndarray, key: np.ndarray, distance: int) -> float:
    """qᵀ R(distance · θ) k in float64, pair by pair."""
    angles = distance * frequency_values(q.shape[-1])
    c, s = np.cos(angles), np.sin(angles)
    q0, q1, k0, k1 = q[0::2], q[1::2], key[0::2], key[1::2]
    return float(np.sum(q0 * (c * k0 - s * k1) + q1 * (s * k0 + c * k1)))


@claim.check(dtypes=FLOATS)
@given(q=vectors(32), key=vectors(32), m=positions(), n=positions(), d=d_models(even=True, high=32))
def score_sees_only_distance(t, q, key, m, n, d):
    q, key = q[:d], key[:d]
    rotated_q = t.impl.rope(t.xp.array(q[None, :]), [m])
    rotated_k = t.impl.rope(t.xp.array(key[None, :]), [n])
    score = float(np.sum(t.xp.to_float64(rotated_q) * t.xp.to_float64(rotated_k)))
    size = float(np.linalg.norm(q) * np.linalg.norm(key))
    t.close(score, relative_score(q, key, n - m), scale=size * (1 + m + n), label="RoPE score")
