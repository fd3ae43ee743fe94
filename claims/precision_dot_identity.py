"""PE(pos) · PE(pos + k) = Σ cos(ω_i k) holds in low precision only up to a position per dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import dot_identity_envelopes
from claims.catalog.works import LESSON_002

D_MODEL, K = 64, 3
claim = Claim(
    id="precision.dot-identity",
    title="Precision envelope of the distance-only dot product",
    statement=(
        f"PE(pos) · PE(pos + {K}) with both vectors in the dtype (d_model = {D_MODEL}) stays within torch.testing's "
        "tolerance (scaled by d_model/2, the size of the dot product) of Σ cos(ω_i k) only up to a position per dtype "
        "and angle mode: words 100 and 103 match words 5 and 8 only while the positions stay below that boundary."
    ),
    depends=["pe.dot-distance-only"],
    sources=[
        LESSON_002.quote(
            "cos(A − B) 공식은 무엇을 말하나",
            "5번과 8번 단어든 100번과 103번 단어든, 3칸 차이면 사이각이 같고 내적도 같습니다.",
        )
    ],
    erratum=Erratum(
        severity="precision",
        problem=(
            "True in exact arithmetic; with angles computed in a dtype, PE(pos)·PE(pos + 3) leaves the tolerance "
            "from a position that depends on the dtype (the findings give each position)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    dot_identity_envelopes(r, D_MODEL, K)
