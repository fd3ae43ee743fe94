"""'PE(pos + k) is a linear transform of PE(pos)' says something only with 'the same transform for every pos'."""

import numpy as np
import sympy as sp

from checks import Claim, Erratum
from checks.reference import EXACT
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

RELATIVE_000 = "수학적 특성: PE(pos + k)는 PE(pos)의 선형 변환으로 표현 가능"
RELATIVE_001 = "-> 상대 위치 정보 표현 가능"
SHIFT_001 = "P E (p o s + k)"
STATED_002 = "M_k는 k에만 달려 있습니다."

claim = Claim(
    id="pe.shift-same-for-every-pos",
    title="A linear map from PE(pos) to PE(pos + k) carries relative position only if one map serves every pos",
    statement=(
        "For a single pos, some linear map sends PE(pos) to PE(pos + k) whatever the encoding (the rank-one map "
        "PE(pos + k) PE(pos)ᵀ / |PE(pos)|² does). What makes the sinusoidal encoding relative is that one matrix M_k, "
        "depending on k alone, does it for every pos (pe.shift-is-rotation); a map fitted at one pos fails at others."
    ),
    sources=[
        LESSON_000.quote("2. 상대적 위치 표현 가능", RELATIVE_000),
        LESSON_001.quote("4. Relative Position 정보", SHIFT_001),
        LESSON_001.quote("4. Relative Position 정보", RELATIVE_001),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", STATED_002),
    ],
    depends=["pe.shift-is-rotation"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "True but empty as stated: for one pos a linear map from PE(pos) to PE(pos + k) exists for any vectors "
            "(the map fitted at pos = 0 misses PE(pos + k) by {fitted_error:.2f} at pos = {other_pos}, d_model = "
            "{d_model}, k = {k}); relative position needs the same map for every pos, which M_k gives."
        ),
        reader_problem=(
            "이대로는 참이지만 아무것도 말하지 않습니다. pos 하나만 보면 PE(pos)를 PE(pos + k)로 보내는 선형 변환은 "
            "어떤 두 벡터 사이에도 있습니다(pos = 0에 맞춘 변환을 pos = {other_pos}에 쓰면 {fitted_error:.2f}만큼 "
            "어긋납니다. d_model = {d_model}, k = {k}). 상대 위치를 나타내는 것은 k에만 달린 같은 행렬 M_k가 모든 "
            "pos에서 통한다는 점입니다."
        ),
        wording=(
            "수학적 특성: PE(pos + k)는 PE(pos)의 선형 변환으로 표현 가능하며, 그 변환 행렬은 k에만 달려 있어 "
            "모든 pos에서 같음"
        ),
        sentence=RELATIVE_000,
        stated_by=STATED_002,
        also={
            SHIFT_001: "$\\mathrm{{PE}}(pos+k) = M_k\\,\\mathrm{{PE}}(pos)$",
            RELATIVE_001: (
                "-> M_k(각 sin·cos 쌍을 그 쌍의 주파수 × k만큼 돌리는 회전 행렬들을 모은 행렬)는 k에만 달려 있고 "
                "pos와 무관하므로 상대 위치 정보 표현 가능"
            ),
        },
    ),
    expect="qualified",
)

D_MODEL, K, OTHER_POS = 512, 3, 5
"""The document's d_model, a shift of 3 positions, and the position the fitted map is tried at."""


@claim.proof
def _(p):
    p.assume("PE(pos) ≠ 0 (true of the sinusoidal encoding: its cos entries at pos = 0 are 1)")
    v = sp.Matrix(sp.symbols("v1:5", real=True))
    w = sp.Matrix(sp.symbols("w1:5", real=True))
    fitted = w * v.T / (v.T * v)[0]
    p.decide(fitted * v, w, label="for one vector v ≠ 0, the rank-one map w vᵀ/|v|² sends v to w (d = 4; any d alike)")


@claim.probe
def fitted_at_one_pos(r):
    """The map fitted at pos = 0 against PE(pos + k) at other pos, beside M_k, at the document's d_model."""
    first, target = EXACT.sinusoidal([0], D_MODEL)[0], EXACT.sinusoidal([K], D_MODEL)[0]
    fitted = np.outer(target, first) / float(first @ first)
    positions = np.arange(0, 50)
    before, after = EXACT.sinusoidal(positions, D_MODEL), EXACT.sinusoidal(positions + K, D_MODEL)
    fitted_errors = np.max(np.abs(before @ fitted.T - after), axis=1)
    rotation = EXACT.shift_matrix(K, D_MODEL)
    rotation_errors = np.max(np.abs(before @ rotation.T - after), axis=1)
    r.measure("max |A₀·PE(pos) − PE(pos + 3)| at pos = 0 (A₀ fitted there)", float(fitted_errors[0]))
    r.measure(f"the same A₀ at pos = {OTHER_POS}", float(fitted_errors[OTHER_POS]))
    r.measure("the largest over pos = 0 … 49: A₀, then M_3", (float(fitted_errors.max()), float(rotation_errors.max())))
    if fitted_errors[OTHER_POS] > 1e-6 and rotation_errors.max() < 1e-9:
        r.condition(
            f"a linear map from PE(pos) to PE(pos + k) exists at any one pos; fitted at pos = 0 it misses by "
            f"{fitted_errors[OTHER_POS]:.2f} at pos = {OTHER_POS}, while M_k serves every pos",
            fitted_error=float(fitted_errors[OTHER_POS]),
            other_pos=OTHER_POS,
            d_model=D_MODEL,
            k=K,
        )
