"""PE(pos + k) = M_k · PE(pos), with M_k block-diagonal rotations that contain no pos."""

import numpy as np
import sympy as sp
import torch
from hypothesis import given

from checks import FLOATS, Claim, Quote
from checks.backends import NumpyBackend
from checks.formulas import k, omega, pair, pos, shift_block
from checks.references import Reference, frequency_values
from checks.strategies import d_models, offsets, positions

claim = Claim(
    id="pe.shift-is-rotation",
    title="A k-step shift is a rotation that does not depend on pos",
    statement=(
        "For every k there is a matrix M_k, block-diagonal with one 2×2 rotation "
        "[[cos ω_i k, sin ω_i k], [−sin ω_i k, cos ω_i k]] per pair i, such that "
        "PE(pos + k) = M_k · PE(pos) for every pos; M_k contains no pos."
    ),
    sources=[
        Quote("002_86fa32f25d4c4c54.txt", "§5 k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다."),
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


@claim.check(dtypes=FLOATS)
@given(pos=positions(), k=offsets(), d=d_models(even=True, high=128))
def shift_matches_rotation(t, pos, k, d):
    rotated = t.impl.sinusoidal([pos], d) @ t.impl.shift_matrix(k, d).T
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


OFFSETS = torch.arange(1, 9, dtype=torch.float64)
ROUNDED_TERMS = 3
"""M_k · PE(pos) rounds two products and their sum, each of magnitude ≤ 1, besides the angles."""


@claim.sweep(dtypes=FLOATS, d_models=(64, 512, 4096))
def every_position_offset_and_pair(s, positions, d):
    """Every pos below the grid's limit × k = 1 … 8 × every pair; tolerance scaled by each angle and rounded term.

    One batched matmul applies every M_k block to every pair; PE(pos + k) is read from the same table.
    """
    count, offsets = len(positions), OFFSETS.to(s.device)
    reach = len(offsets)
    w64 = torch.from_numpy(frequency_values(d)).to(s.device)[:, None]
    w = w64.to(s.low)
    table = torch.cat([positions, positions[-1] + offsets])[None, :].to(s.low) * w
    pe = torch.stack([torch.sin(table), torch.cos(table)], dim=1)
    shift = w * offsets[None, :].to(s.low)
    shift_sin, shift_cos = torch.sin(shift), torch.cos(shift)
    blocks = torch.stack([shift_cos, shift_sin, -shift_sin, shift_cos], dim=-1).view(d // 2, 2 * reach, 2)
    rotated = torch.bmm(blocks, pe[:, :, :count]).view(d // 2, reach, 2, count)
    ahead = pe.unfold(2, count, 1)[:, :, 1:, :].transpose(1, 2)
    error = (rotated - ahead).abs_().amax(dim=2)
    allowed = s.allowed((positions[None, None, :] + reach) * w64[:, :, None] + ROUNDED_TERMS).to(error.dtype)
    inputs = {
        "pos": positions[None, None, :],
        "k": offsets[None, :, None],
        "pair": torch.arange(d // 2, device=s.device)[:, None, None],
    }
    s.compare(error, allowed, inputs, cases=reach * count * (d // 2))
