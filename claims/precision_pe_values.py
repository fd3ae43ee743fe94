"""PE values in low precision agree with float64 only up to a position that depends on dtype and angle formation."""

from checks import Claim, Erratum
from checks.precision import pe_value_envelopes
from claims.catalog.works import LESSON_002

D_MODEL = 64
claim = Claim(
    id="precision.pe-values",
    title="Precision envelope of the PE values",
    statement=(
        f"PE(pos) for d_model = {D_MODEL}, computed in float32, bfloat16 or float16 (angles formed in the dtype, in "
        "float32 then cast, or reduced modulo 2π in float64 then cast), stays within torch.testing's tolerance of "
        "the float64 values only up to a position per dtype and angle mode; the documents state the formula for "
        "every position without a precision condition."
    ),
    sources=[LESSON_002.quote("4. 시계 바늘: 원 위의 한 점", "위치는 곧 바늘이 가리키는 방향입니다.")],
    erratum=Erratum(
        severity="precision",
        problem=(
            "True in exact arithmetic; computed values match the formula only up to a position that depends on the "
            "dtype and on whether the angles are formed in it or in float32 first (the findings give each "
            "position)."
        ),
    ),
    expect="qualified",
)


@claim.probe
def envelopes(r):
    """Boundary per dtype × angle mode × device."""
    pe_value_envelopes(r, D_MODEL)
