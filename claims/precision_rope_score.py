"""The RoPE score sees only n − m in low precision only up to a position per dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import rope_score_envelopes
from checks.works import LESSON_002

D_MODEL, DISTANCE = 64, 3
claim = Claim(
    id="precision.rope-score",
    title="Precision envelope of the RoPE relative score",
    statement=(
        f"(R(mθ)q)·(R(nθ)k) with the rotation in the dtype (d_model = {D_MODEL}, n − m = {DISTANCE}, fixed q and k "
        "with entries in [−1, 1]) stays within torch.testing's tolerance (scaled by ‖q‖‖k‖) of qᵀR((n−m)θ)k only up "
        "to a position m per dtype and angle mode."
    ),
    depends=["rope.relative-score"],
    sources=[
        LESSON_002.quote(
            "8. 그다음: RoPE",
            "회전 행렬끼리는 각도가 빼기로 합쳐지므로, 점수에는 절대 위치 m, n 대신 상대 거리 n−m만 남습니다.",
        )
    ],
    erratum=Erratum(
        severity="precision",
        problem=(
            "Holds in exact arithmetic only: with the rotation computed in the dtype the score stops depending on n − "
            "m alone from m = 87 in bfloat16, 146 in float16 and 461 in float32 (angles formed in float32 first: to "
            "about 5.6 million and 406,000; float64 to about 2×10¹⁰)."
        ),
        wording=(
            "회전 행렬끼리는 각도가 빼기로 합쳐지므로, 정확한 계산에서는 점수에 절대 위치 m, n 대신 상대 거리 n−m만 "
            "남습니다(회전을 bfloat16·float16으로 계산하면 bfloat16은 m = 87, float16은 m = 146부터 절대 위치의 영향이 "
            "허용 오차를 넘습니다)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    rope_score_envelopes(r, D_MODEL, DISTANCE)
