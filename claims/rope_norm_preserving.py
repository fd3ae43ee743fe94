"""RoPE rotates each (2i, 2i+1) pair of q and k, so ‖R(mθ)q‖ = ‖q‖ and ‖R(nθ)k‖ = ‖k‖ at every position."""

import numpy as np
import sympy as sp

from checks import Claim, given
from checks.formulas import i, omega, pairs_sum, rotation
from checks.rope import rope_rows
from checks.strategies import query_key_batches
from claims.catalog.works import LESSON_002

claim = Claim(
    id="rope.norm-preserving",
    title="RoPE keeps the lengths of q and k",
    statement=(
        "Rotating each 2-dimensional pair of the query and key by an angle proportional to the position is a "
        "rotation: R(φ)ᵀR(φ) = I for one pair, so ‖R(mθ)q‖ = ‖q‖ and ‖R(nθ)k‖ = ‖k‖ for every position and d "
        "(an odd d's last dimension, which has no partner, is left as it is)."
    ),
    sources=[
        LESSON_002.quote("8. 그다음: RoPE", "쿼리와 키 벡터의 각 2차원 쌍을 위치에 비례하는 각도만큼 직접 돌립니다.")
    ],
    expect="proved",
)

LAST_POSITION = 4096
"""Any angle is a rotation, so the norm does not depend on how precisely pos · θ is formed:
positions range past checks.tolerances.position_limit on purpose."""


@claim.proof
def _(p):
    phi = sp.Symbol("phi", real=True)
    p.decide(rotation(phi).T * rotation(phi), sp.eye(2), label="one pair: R(φ)ᵀR(φ) = I")
    x = sp.IndexedBase("x")
    pair = sp.Matrix([x[2 * i], x[2 * i + 1]])
    m = sp.Symbol("m", real=True)
    rotated = rotation(m * omega()) * pair
    p.decide(
        pairs_sum((rotated.T * rotated)[0]),
        pairs_sum((pair.T * pair)[0]),
        label="d dimensions: ‖RoPE(x, m)‖² = ‖x‖², termwise over pairs",
    )


@claim.check(uses="rope", batched=True)
@given(qk=query_key_batches(high=64, maximum=LAST_POSITION, exact=True, odd=True))
def rotation_keeps_lengths(t, qk):
    for name, rows, at in (("‖R(mθ)q‖", qk[0], qk[2][:, 0]), ("‖R(nθ)k‖", qk[1], qk[2][:, 1])):
        stored = t.xp.to_float64(t.xp.array(np.asarray(rows)))
        rotated = rope_rows(t.impl, stored, at)
        t.close(np.linalg.norm(rotated, axis=-1), np.linalg.norm(stored, axis=-1), label=name)
