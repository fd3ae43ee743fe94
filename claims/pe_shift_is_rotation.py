"""PE(pos + k) = M_k · PE(pos), with M_k block-diagonal rotations that contain no pos."""

import numpy as np
import sympy as sp
from hypothesis import given

from checks import FLOATS, Claim, Quote
from checks.helpers.backends import NumpyBackend
from checks.helpers.formulas import k, omega, pair, pos, shift_block
from checks.helpers.strategies import d_models, position_and_offset
from checks.implementations.references import Reference

claim = Claim(
    id="pe.shift-is-rotation",
    title="A k-step shift is a rotation that does not depend on pos",
    statement=(
        "For every k there is a matrix M_k, block-diagonal with one 2×2 rotation "
        "[[cos ω_i k, sin ω_i k], [−sin ω_i k, cos ω_i k]] per pair i, such that "
        "PE(pos + k) = M_k · PE(pos) for every pos; M_k contains no pos."
    ),
    sources=[
        Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다."),
        Quote(
            "000_1100ff0056b332e7.txt",
            "2. 상대적 위치 표현 가능",
            "수학적 특성: PE(pos + k)는 PE(pos)의 선형 변환으로 표현 가능",
        ),
        Quote("001_53050abb35828e70.txt", "4. Relative Position 정보", "-> 상대 위치 정보 표현 가능"),
    ],
    expect="qualified",
)


@claim.proof
def _(p):
    w = sp.Symbol("omega", positive=True)
    block = shift_block(w * k)
    p.decide(
        block * pair(w * pos), pair(w * (pos + k)), label="one pair: M_k (sin, cos)(ω pos) = (sin, cos)(ω (pos+k))"
    )
    p.free_of(block, pos, label="M_k contains no pos")
    d = 4
    full = sp.diag(*(shift_block(omega(j, d) * k) for j in range(d // 2)))
    pe = sp.Matrix.vstack(*(pair(omega(j, d) * pos) for j in range(d // 2)))
    shifted = sp.Matrix.vstack(*(pair(omega(j, d) * (pos + k)) for j in range(d // 2)))
    p.decide(full * pe, shifted, label="block-diagonal M_k for d_model = 4 (every pair alike)")


@claim.check(dtypes=FLOATS, uses="sinusoidal")
@given(at=position_and_offset(), d=d_models(even=True, high=128))
def shift_matches_rotation(t, at, d):
    pos, k = at
    rotated = t.impl.sinusoidal([pos], d) @ t.ref.shift_matrix(k, d).T
    t.close(rotated, t.impl.sinusoidal([pos + k], d), scale=abs(pos) + abs(k), bound=2.0, label="M_k PE(pos)")


@claim.probe
def odd_d_model(r):
    """With odd d_model no matrix maps PE(pos) to PE(pos + k): least squares over 400 positions."""
    reference = Reference(NumpyBackend("float64"))
    d, step = 5, 3
    before = reference.sinusoidal(np.arange(400), d)
    after = reference.sinusoidal(np.arange(400) + step, d)
    best, *_ = np.linalg.lstsq(before, after, rcond=None)
    residual = float(np.max(np.abs(before @ best - after)))
    r.measure("odd d_model=5, k=3: max residual of the best linear map", residual)
    if residual > 1e-6:
        r.condition(
            "d_model must be even: with odd d_model the last sin has no cos partner and no matrix maps "
            f"PE(pos) to PE(pos+k) (d_model=5, k=3: best least-squares map misses by {residual:.3f})",
            d_model=d,
            k=step,
            max_residual=residual,
        )


@claim.sweep(dtypes=FLOATS, d_models=(64, 512, 4096), offsets=8)
def every_position_offset_and_pair(s):
    """Every pos below the grid's limit × k = 1 … 8 × every pair, at the check's tolerance (scale pos + k).

    Each component of M_k PE(pos) against PE(pos + k), with M_k's entries cos, sin(k ω_i) formed in the dtype.
    """
    here, ahead, turn = s.pe(), s.pe(ahead=True), s.sinusoid(s.k)
    s.equal(
        "sin ω(pos + k) = cos ωk · sin ω pos + sin ωk · cos ω pos",
        s.products(turn.cos, here.sin, turn.sin, here.cos),
        ahead.sin,
        scale=pos + k,
    )
    s.equal(
        "cos ω(pos + k) = cos ωk · cos ω pos − sin ωk · sin ω pos",
        s.products(turn.cos, here.cos, turn.sin, here.sin, minus=True),
        ahead.cos,
        scale=pos + k,
    )
