"""PE(pos + k) = M_k · PE(pos) holds in low precision only up to a position per dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import shift_identity_envelopes
from checks.works import LESSON_002

D_MODEL, K = 64, 3
claim = Claim(
    id="precision.shift-identity",
    title="Precision envelope of the M_k shift identity",
    statement=(
        f"M_k · PE(pos) with M_k and PE(pos) computed in the dtype (d_model = {D_MODEL}, k = {K}) stays within "
        "torch.testing's tolerance of the float64 PE(pos + k) only up to a position per dtype and angle mode, "
        "not at every position of the sentence."
    ),
    depends=["pe.shift-is-rotation"],
    sources=[
        LESSON_002.quote(
            "5. k칸 이동 = 회전 행렬",
            "모델이 “3칸 앞 단어”를 찾는 법을 선형 변환 하나로 배우면, "
            "그 변환은 문장의 어느 위치에서든 똑같이 통합니다.",
        )
    ],
    erratum=Erratum(
        severity="precision",
        problem=(
            "Holds in exact arithmetic only: computed in the dtype, M_3·PE(pos) leaves the tolerance from position 4 "
            "in float16, 22 in bfloat16 and 342 in float32 (float64 holds to about 1.4×10⁹)."
        ),
        wording=(
            "모델이 “3칸 앞 단어”를 찾는 법을 선형 변환 하나로 배우면, 정확한 계산에서는 그 변환이 문장의 어느 "
            "위치에서든 똑같이 통합니다(그 자료형으로 계산하면 float16은 위치 4, bfloat16은 22, float32는 342부터 허용 "
            "오차를 넘게 어긋납니다)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    shift_identity_envelopes(r, D_MODEL, K)
