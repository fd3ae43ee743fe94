"""PE(pos + k) = M_k · PE(pos) holds in low precision only up to a position per dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import shift_identity_envelopes
from claims.catalog.works import LESSON_002

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
            "True in exact arithmetic; computed in a dtype, M_k·PE(pos) leaves the tolerance of PE(pos + k) from a "
            "position that depends on the dtype (the findings give each position)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    shift_identity_envelopes(r, D_MODEL, K)
