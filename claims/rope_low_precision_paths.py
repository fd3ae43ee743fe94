"""Each RoPE implementation's own bfloat16/float16 path keeps the relative score only up to a position."""

from checks import Claim, Erratum
from checks.adapters import Domain, adapter_score_errors, backend_name, is_reference, missing
from checks.precision import Boundary, find_boundary, rope_score_errors, rope_vectors
from claims.catalog.works import LESSON_002

D_MODEL, DISTANCE = 64, 3
DTYPES = ("bfloat16", "float16")
REACH, WINDOW = 2**24, 256
"""Positions examined at most (float32 angles lose integer positions beyond 2²⁴), and the bisection window."""

claim = Claim(
    id="rope.low-precision-paths",
    title="Where each RoPE implementation's low-precision path stops seeing only n − m",
    statement=(
        f"Feeding bfloat16 and float16 queries and keys to each RoPE implementation the way a model does "
        f"(d = {D_MODEL}, n − m = {DISTANCE}, fixed q and k), the score (R(mθ)q)·(R(nθ)k) stays within "
        "torch.testing's tolerance of qᵀR((n−m)θ)k only up to a position m that depends on the implementation "
        "and dtype; beside each, the same computation with angles formed in float32 and in the dtype."
    ),
    sources=[
        LESSON_002.quote(
            "8. 그다음: RoPE",
            "회전 행렬끼리는 각도가 빼기로 합쳐지므로, 점수에는 절대 위치 m, n 대신 상대 거리 n−m만 남습니다.",
        )
    ],
    depends=["rope.relative-score", "precision.rope-score"],
    erratum=Erratum(
        severity="precision",
        problem=(
            "True in exact arithmetic; in bfloat16 and float16 each RoPE implementation keeps only n − m up to a "
            "position, far later when its angles are formed in float32 (the findings give each implementation's and "
            "each reference path's position)."
        ),
    ),
    expect="qualified",
)


@claim.probe(uses="rope")
def boundaries(r):
    """Boundary per installed implementation × dtype, next to the reference with float32 and in-dtype angles.

    The reference paths' boundaries are the claim's conditions; an implementation's boundary is measured
    beside them (only the references decide the verdict), and whatever an implementation raises is its finding.
    """
    q, key = rope_vectors(D_MODEL)
    scale = float(q.norm() * key.norm())
    rows = []
    for dtype in DTYPES:
        for mode in ("float32", "low"):
            errors = rope_score_errors(dtype, mode, D_MODEL, DISTANCE)
            boundary = _measure(rows, f"reference, {mode} angles", dtype, errors, REACH, scale)
            if boundary.first_failure is not None:
                r.condition(
                    f"reference, {mode} angles, in {dtype}: the score sees only n − m up to m = "
                    f"{boundary.holds_up_to}; at m = {boundary.first_failure} the error is "
                    f"{boundary.error_at_failure:.3g} > {boundary.tolerance:.3g} ({boundary.method})",
                    implementation=f"reference, {mode} angles",
                    dtype=dtype,
                    position=boundary.first_failure,
                )
        for adapter in r.implementations("rope"):
            if missing(adapter) or is_reference(adapter) or backend_name(adapter) != "torch":
                continue
            with r.guarded(adapter, "rope"):
                errors = adapter_score_errors(adapter, dtype, D_MODEL, DISTANCE)
                top = min(REACH, Domain.of(adapter).max_position or REACH)
                _measure(rows, adapter.name, dtype, errors, top, scale)
    r.measure("boundaries", rows)


def _measure(rows: list, name: str, dtype: str, errors, top: int, scale: float) -> Boundary:
    boundary = find_boundary(errors, dtype, name, D_MODEL // 2, scale, reach=top - DISTANCE - WINDOW, window=WINDOW)
    rows.append(
        {
            "implementation": name,
            "dtype": dtype,
            "holds_up_to": boundary.holds_up_to,
            "first_failure": boundary.first_failure,
            "error": boundary.error_at_failure,
            "tolerance": boundary.tolerance,
            "method": boundary.method,
        }
    )
    return boundary
