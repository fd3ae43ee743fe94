"""The formula is defined past the training length and keeps its properties; computed values and the class do not."""

import numpy as np
import torch

from checks import FLOAT32, FLOAT64, FLOATS, Claim, Erratum, given
from checks.figures import lines
from checks.precision import find_boundary, pe_value_errors
from checks.reference import EXACT, shifted_rows
from checks.strategies import d_models, position_offset_batches
from claims.catalog.lesson_code import torch_module_cases
from claims.catalog.works import LESSON_000

SECTION = "3. 길이 일반화 가능"
TRAINED = 512
"""'학습 시: 최대 512 토큰까지만 봄': positions 0 … 511."""
D_MODEL = 64
REACH = 2**20
DOCUMENT_CASES = (
    (D_MODEL, TRAINED, TRAINED),
    (D_MODEL, TRAINED, TRAINED + 1),
    (D_MODEL, 1024, TRAINED + 1),
    (D_MODEL, 5000, 5001),
)
"""(d_model, max_len, seq_len) for the document's PositionalEncoding; 5000 is its default max_len."""
claim = Claim(
    id="pe.length-extrapolation",
    title="Past the training length: the formula yes, the precomputed table and half precision no",
    statement=(
        "PE(pos) is defined for positions past the 512 seen in training and keeps its norm √(d_model/2) and its "
        "shift identity PE(pos+k) = M_k PE(pos) there; but the document's PyTorch class only covers max_len "
        "precomputed rows, and in float16/bfloat16 the values at position 513 no longer match float64."
    ),
    sources=[
        LESSON_000.quote(
            SECTION,
            "학습 시: 최대 512 토큰까지만 봄 추론 시: 513번째 위치의 PE(513, i) = sin(513 / 10000^(2i/d_model)) → "
            "수학적으로 자연스럽게 계산 가능!",
        ),
        LESSON_000.quote(
            SECTION, "학습하지 않은 긴 문장에도 적용할 수 있음 (다만 성능은 학습 범위를 크게 벗어나면 저하될 수 있음)"
        ),
    ],
    erratum=Erratum(
        severity="implementation",
        problem=(
            "The formula has no length limit, but the document's PyTorch class precomputes max_len rows and raises "
            "on a longer input (max_len {max_len}, {seq_len} tokens); in float16 and bfloat16 the values at "
            "position 513 are off (the finding gives by how much)."
        ),
    ),
    expect="qualified",
)


@claim.check(dtypes=(FLOAT64, FLOAT32), batched=True)
@given(at=position_offset_batches(minimum=TRAINED), d=d_models(even=True, high=128))
def properties_past_training(t, at, d):
    """Past 512 only float64 and float32 stay within their meaningful position limit (float16 128, bfloat16 8):
    positions from 512 up to the dtype's limit, each with a shift k."""
    pos, k = at.T
    here, there = t.impl.sinusoidal(pos, d), t.impl.sinusoidal(pos + k, d)
    norms, expected = t.xp.sqrt(t.xp.sum(here * here, axis=-1)), np.full(len(pos), np.sqrt(d / 2))
    t.close_norm(norms, expected, pos, d_model=d)
    t.close_pe(shifted_rows(t.ref, here, k), there, pos, k, label="M_k PE(pos) = PE(pos+k)")


@claim.probe
def document_class(r):
    """Document 000's PositionalEncoding (one subprocess): sequences of 512 and 513 with max_len 512, 1024, 5000."""
    cases = torch_module_cases(DOCUMENT_CASES)
    r.measure("(d_model, max_len, seq_len) → forward error", {case: outcome.error for case, outcome in cases.items()})
    built = cases[(D_MODEL, 1024, TRAINED + 1)]
    exact = EXACT.sinusoidal([TRAINED, TRAINED + 1], D_MODEL)
    r.measure(
        "document class (float32), max_len 1024: largest |pe − float64 formula| at positions 512, 513",
        np.abs(built.pe[0, TRAINED : TRAINED + 2] - exact).max(axis=1),
    )
    failed = {case: outcome.error for case, outcome in cases.items() if outcome.error}
    if set(failed) != {(D_MODEL, TRAINED, TRAINED + 1), (D_MODEL, 5000, 5001)}:
        r.counterexample("the document's class did not fail exactly where its table ends", failed=str(failed))
        return
    r.condition(
        "with the document's own PyTorch class the length is capped by max_len (default 5000): PE is "
        "precomputed into a max_len-row buffer and forward slices it, so a sequence longer than max_len fails "
        f"(max_len {TRAINED}, 513 tokens: {failed[(D_MODEL, TRAINED, TRAINED + 1)]}); the formula itself has no cap",
        max_len=TRAINED,
        seq_len=TRAINED + 1,
        error=failed[(D_MODEL, TRAINED, TRAINED + 1)],
    )


def first_collision(dtype: str) -> int:
    """The first integer position that the dtype rounds onto its predecessor (so two positions share one PE)."""
    low = getattr(torch, dtype)
    candidate = 2 ** (round(-np.log2(torch.finfo(low).eps)) + 1) + 1
    pair = torch.tensor([candidate - 2, candidate - 1, candidate], dtype=torch.float64).to(low)
    if not (pair[0] < pair[1] == pair[2]):
        raise AssertionError(f"{dtype}: {candidate} is not the first position to collide ({pair.tolist()})")
    return candidate


def precision_in(dtype: str, samples: torch.Tensor) -> tuple[np.ndarray, dict[str, object], torch.Tensor]:
    """One dtype: the largest errors at positions 511, 512, 513; where they leave the tolerance (find_boundary);
    the error at each sample position (NaN and overflow drawn as 2, zero as 1e−17 on the log scale)."""
    error_at = pe_value_errors(dtype, "low", D_MODEL)
    at_training = error_at(torch.tensor([TRAINED - 1.0, TRAINED, TRAINED + 1.0], dtype=torch.float64)).numpy()
    boundary = find_boundary(error_at, dtype, "low", D_MODEL // 2, swept=2**12, reach=REACH)
    found = {name: getattr(boundary, name) for name in ("holds_up_to", "first_failure", "tolerance", "method")}
    return at_training, found, torch.nan_to_num(error_at(samples), nan=2.0, posinf=2.0).clamp_min(1e-17)


@claim.probe
def precision_past_training(r):
    """Per dtype, angles formed in the dtype as the reference does, d_model = 64, on the CPU."""
    samples = torch.from_numpy(np.unique(np.geomspace(1, REACH, 200).round()))
    measured = {dtype: precision_in(dtype, samples) for dtype in FLOATS}
    errors, boundaries = ({dtype: found[n] for dtype, found in measured.items()} for n in (0, 1))
    collisions = {dtype: first_collision(dtype) for dtype in ("float32", "bfloat16", "float16")}
    r.measure("largest |PE_dtype − PE_float64| at positions 511, 512, 513", errors)
    r.measure("last position within tolerance(dtype) (torch.testing's atol + rtol)", boundaries)
    r.measure("first position that the dtype rounds onto its predecessor", collisions)
    r.measure("bfloat16 rounds 513 to", torch.tensor(513.0).to(torch.bfloat16))
    r.measure("float16 overflows (inf) from position", float(torch.finfo(torch.float16).max) + 16)
    r.measure(
        "notation",
        "counting from pos = 0 as the lesson does, the 513th position is pos = 512; the text writes PE(513, i) with "
        "the sin that belongs to column 2i",
    )
    low = [d for d in ("float16", "bfloat16") if errors[d][2] > boundaries[d]["tolerance"]]
    if low:
        r.condition(
            half_precision_fails(low, errors, boundaries, collisions),
            errors_at_513={d: errors[d][2] for d in FLOATS},
            holds_up_to={d: boundaries[d]["holds_up_to"] for d in FLOATS},
            collisions=collisions,
        )
    r.figure(error_figure({dtype: (samples, found[2]) for dtype, found in measured.items()}))


def half_precision_fails(low, errors, boundaries, collisions) -> str:
    """The condition: float16 and bfloat16 miss the formula at position 513; float32 stays near its tolerance."""
    per_dtype = "; ".join(
        f"{d}: error {errors[d][2]:.3g} > tolerance {boundaries[d]['tolerance']:.3g}, within tolerance only "
        f"up to position {boundaries[d]['holds_up_to']}"
        for d in low
    )
    return (
        "computed in float16 or bfloat16 (angles in the dtype) the values at position 513 are not the formula's: "
        + per_dtype
        + f"; bfloat16 even rounds position 513 to 512 (positions collide from {collisions['bfloat16']}, "
        f"float16 from {collisions['float16']}); float32 stays near its tolerance ({errors['float32'][2]:.2g} at "
        f"513, first above {boundaries['float32']['tolerance']:.3g} at {boundaries['float32']['first_failure']})"
    )


def error_figure(curves) -> object:
    """The largest error by position per dtype, log-log, with the training length marked."""
    return lines(
        "error-past-training",
        "Largest |PE_dtype(pos) − PE_float64(pos)| by position, d_model = 64",
        "Errors grow roughly in proportion to the position; float16 and bfloat16 pass 0.01 long before the "
        "training length 512 (marked); float16 overflows past 65504 (drawn as 2).",
        curves,
        x_label="position (log)",
        y_label="largest error (log)",
        marks={"training length 512": float(TRAINED)},
        log_x=True,
        log_y=True,
    )
