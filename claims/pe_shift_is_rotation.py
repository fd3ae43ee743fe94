"""PE(pos + k) = M_k · PE(pos), with M_k block-diagonal rotations that contain no pos."""

import numpy as np
import sympy as sp

from checks import Claim, Erratum, given
from checks.figures import scatter
from checks.formulas import k, omega, pair, pos, shift_block
from checks.reference import EXACT, shifted_rows
from checks.strategies import d_models, position_offset_batches
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

claim = Claim(
    id="pe.shift-is-rotation",
    title="A k-step shift is a rotation that does not depend on pos, for an even d_model",
    statement=(
        "For every k there is a matrix M_k, block-diagonal with one 2×2 rotation "
        "[[cos ω_i k, sin ω_i k], [−sin ω_i k, cos ω_i k]] per pair i, such that "
        "PE(pos + k) = M_k · PE(pos) for every pos; M_k contains no pos."
    ),
    sources=[
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다."),
        LESSON_000.quote("2. 상대적 위치 표현 가능", "수학적 특성: PE(pos + k)는 PE(pos)의 선형 변환으로 표현 가능"),
        LESSON_001.quote("4. Relative Position 정보", "-> 상대 위치 정보 표현 가능"),
        LESSON_002.quote(
            "위치 인코딩 — sin과 cos를 함께 쓰는 이유",
            "짝을 이룬 두 값은 원 위의 한 점이 되고, “k칸 뒤로 가기”는 그 점을 고정된 각도만큼 돌리는 일이 됩니다.",
        ),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "원 위의 점을 φ만큼 돌리는 연산은 2×2 회전 행렬 하나입니다."),
        LESSON_002.quote(
            "5. k칸 이동 = 회전 행렬",
            "덧셈 정리 $\\sin(a+b) = \\sin a\\cos b + \\cos a\\sin b$, $\\cos(a+b) = \\cos a\\cos b - \\sin a\\sin b$"
            "를 행렬로 쓰면 다음과 같습니다.",
        ),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "데모 5a · 행렬을 직접 곱해 보기"),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k·PE(pos)를 계산해 PE(pos+k)와 비교합니다."),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "pos를 바꿔도 M_k의 숫자는 하나도 안 바뀝니다."),
        LESSON_002.quote("정리", "① k칸 이동이 pos와 무관한 회전 행렬이 되고"),
        LESSON_001.quote("4. Relative Position 정보", "P E (p o s + k)"),
    ],
    erratum=Erratum(
        severity="implementation",
        problem=(
            "Needs the sin/cos pairs the text presumes: at an odd d_model the last sine has no cosine and no matrix "
            "maps PE(pos) to PE(pos + k) (d_model = {d_model}, k = {k}: the best linear map misses by "
            "{max_residual:.3f})."
        ),
    ),
    expect="qualified",
)


@claim.proof
def _(p):
    p.assume("d_model is even: every sin has its cos (the sum runs over d_model/2 pairs)")
    a, b = p.reals("a b")
    p.decide(sp.sin(a + b), sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b), label="addition formula for sin")
    p.decide(sp.cos(a + b), sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b), label="addition formula for cos")
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


@claim.check(uses="sinusoidal", batched=True)
@given(at=position_offset_batches(), d=d_models(even=True, high=128))
def shift_matches_rotation(t, at, d):
    pos, k = at.T
    rotated = shifted_rows(t.ref, t.impl.sinusoidal(pos, d), k)
    t.close_pe(rotated, t.impl.sinusoidal(pos + k, d), pos, k, label="M_k PE(pos)")


@claim.probe
def odd_d_model(r):
    """With odd d_model no matrix maps PE(pos) to PE(pos + k): least squares over 400 positions."""
    d, step = 5, 3
    before, after = EXACT.sinusoidal(np.arange(400), d), EXACT.sinusoidal(np.arange(400) + step, d)
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


DEMO_POS, DEMO_K, DEMO_PAIR, DEMO_D_MODEL = 5, 3, 1, 16
"""Demo 5a's sliders: pos 5, k 3, pair i = 1 of d_model = 16."""
PAIR = slice(2 * DEMO_PAIR, 2 * DEMO_PAIR + 2)


def demo_row(pos: int) -> np.ndarray:
    """PE(pos) at demo 5a's d_model (float64)."""
    return EXACT.sinusoidal([pos], DEMO_D_MODEL)[0]


def shift_error(matrix: np.ndarray, pos: int) -> float:
    """max |M_k·PE(pos) − PE(pos + k)| over every dimension (float64)."""
    return float(np.max(np.abs(matrix @ demo_row(pos) - demo_row(pos + DEMO_K))))


@claim.probe
def demo_5a(r):
    """Demo 5a: M_k's block for pair i = 1 (d_model 16, k 3), M_k·PE(5) against PE(8), and M_k at other pos."""
    matrix = EXACT.shift_matrix(DEMO_K, DEMO_D_MODEL)
    here, ahead = demo_row(DEMO_POS), demo_row(DEMO_POS + DEMO_K)
    rotated = matrix @ here
    r.measure(
        "ω_1 of d_model 16; M_3's block for pair 1, [[cos 3ω, sin 3ω], [−sin 3ω, cos 3ω]]",
        (float(EXACT.frequencies(DEMO_D_MODEL)[DEMO_PAIR]), np.round(matrix[PAIR, PAIR], 4)),
    )
    r.measure(
        "pair 1: PE(5), M_3·PE(5), PE(8)",
        {"PE(5)": here[PAIR].round(4), "M_3·PE(5)": rotated[PAIR].round(4), "PE(8)": ahead[PAIR].round(4)},
    )
    error = shift_error(matrix, DEMO_POS)
    r.measure("max |M_3·PE(5) − PE(8)| over all 16 dimensions (float64)", error)
    if error > 1e-12:
        r.counterexample("M_k·PE(pos) is not PE(pos + k) in demo 5a's setting", error=error)
    others = {pos: shift_error(matrix, pos) for pos in (0, 17, 100, 1000)}
    r.measure("the same M_3 at other pos: max |M_3·PE(pos) − PE(pos + 3)|", others)
    dims = np.arange(DEMO_D_MODEL)
    r.figure(
        scatter(
            "demo-5a",
            "Demo 5a: M_3·PE(5) lands on PE(8) (d_model 16)",
            "The 16 components of PE(5), of PE(8) and of M_3·PE(5), by dimension: the points of M_3·PE(5), drawn "
            f"last, cover those of PE(8) exactly (largest gap {error:.1e}), while PE(5) differs from both in the first "
            "dimensions.",
            {"PE(5)": (dims, here), "PE(8)": (dims, ahead), "M_3·PE(5)": (dims, rotated)},
            x_label="dimension",
            y_label="value",
        )
    )


@claim.sweep(offsets=8)
def every_position_offset_and_pair(s):
    """Every pos below the grid's limit × k = 1 … 8 × every pair, at the check's tolerance (scale pos + k).

    Each component of M_k PE(pos) against PE(pos + k), with M_k's entries cos, sin(k ω_i) formed in the dtype.
    """
    here, ahead, turn = s.pe(), s.pe(ahead=True), s.sinusoid(s.k)
    sine = s.products(turn.cos, here.sin, turn.sin, here.cos)
    s.equal_hands("sin ω(pos + k) = cos ωk · sin ω pos + sin ωk · cos ω pos", sine, ahead.sin, pos, k)
    cosine = s.products(turn.cos, here.cos, turn.sin, here.sin, minus=True)
    s.equal_hands("cos ω(pos + k) = cos ωk · cos ω pos − sin ωk · sin ω pos", cosine, ahead.cos, pos, k)
