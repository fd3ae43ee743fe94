"""The RoPE score sees only n − m in low precision only up to a position per dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import rope_score_envelopes
from claims.catalog.works import LESSON_002

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
            "True in exact arithmetic; with the rotation computed in a dtype the score stops depending on n − m "
            "alone from a position that depends on the dtype and on where the angles are formed (the findings give "
            "each position)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    rope_score_envelopes(r, D_MODEL, DISTANCE)
