"""The example PE vectors of the input walkthrough are the formula's values for d_model = 4 only."""

import re

import numpy as np
from hypothesis import strategies as st

from checks import Claim, Erratum, given
from checks.reference import EXACT, frequency_values
from claims.catalog.works import LESSON_000

SECTION = "입력 처리 전체 과정"
PRINTED_PE = {0: (0.0, 1.0, 0.0), 1: (0.84, 0.54, 0.01), 2: (0.91, -0.42, 0.02)}
"""Step 3: the first three entries of PE(pos), as printed (2 decimals)."""
EMBEDDINGS = {1: (0.2, -0.5, 0.8), 2: (0.1, 0.3, -0.2), 3: (-0.4, 0.7, 0.1)}
"""Step 2: token j's embedding; token j stands at position j − 1."""
SOLVED_D_MODEL = 4
HEADING = "3. Positional Encoding 더하기:"
"""The step whose vectors are computed at d_model = 4: the place to say so (it covers every line below it)."""


def pe_line(pos: int) -> str:
    return f"위치{pos}의 PE → [{', '.join(map(repr, PRINTED_PE[pos]))}, ...]"


def sum_line(token: int) -> str:
    terms = (
        f"{e!r}{'+' if p >= 0 else '-'}{abs(p)!r}"
        for e, p in zip(EMBEDDINGS[token], PRINTED_PE[token - 1], strict=True)
    )
    return f"토큰{token} → [{', '.join(terms)}, ...]"


claim = Claim(
    id="pe.example-vectors",
    title="The walkthrough's PE vectors fit d_model = 4, not the lesson's 64 or 512",
    statement=(
        "The printed PE(0), PE(1), PE(2) (first three entries, 2 decimals) equal the formula's values "
        "[sin pos, cos pos, sin(pos/10000^(2/d_model))] only for d_model = 4, which the text does not state; "
        "step 4 adds each embedding to the PE of its position, entry by entry."
    ),
    sources=[LESSON_000.quote(SECTION, pe_line(pos)) for pos in PRINTED_PE]
    + [LESSON_000.quote(SECTION, sum_line(token)) for token in EMBEDDINGS]
    + [LESSON_000.quote(SECTION, HEADING)],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The printed vectors are the formula's values only for d_model = {fits[0]}, which the walkthrough never "
            "says: the third entry of PE(1) is {d_model_64[2]} at the lesson's d_model = 64 and {d_model_512[2]} at "
            "512."
        ),
        reader_problem=(
            "예로 든 벡터는 d_model = {fits[0]}일 때만 공식의 값과 같은데, 설명 어디에도 이 조건이 없습니다. "
            "레슨의 d_model = 64에서 PE(1)의 세 번째 값은 {d_model_64[2]}, 512에서는 {d_model_512[2]}입니다."
        ),
        wording=(
            "3. Positional Encoding 더하기 (예시 값은 d_model = {fits[0]} 기준):\n"
            "   ※ 위 코드(d_model = 64)로 출력하면 위치1은 [{pe1_at_64}, ...]로 세 번째 값부터 다릅니다."
        ),
        sentence=HEADING,
    ),
    expect="qualified",
)


@claim.check
@given(pos=st.sampled_from(sorted(PRINTED_PE)))
def printed_values_at_d_model_4(t, pos):
    pe = t.impl.sinusoidal([pos], SOLVED_D_MODEL)[0, :3]
    t.close_pe(pe, EXACT.sinusoidal([pos], SOLVED_D_MODEL)[0, :3], pos, label=f"PE({pos})[:3], d_model=4")
    rounded = np.round(t.xp.to_float64(pe), 2)
    if not np.array_equal(rounded, PRINTED_PE[pos]):
        raise AssertionError(f"PE({pos})[:3] in {t.dtype} rounds to {rounded.tolist()}, printed {PRINTED_PE[pos]}")


def first_entries(d_model: int, pos: int) -> np.ndarray:
    """PE(pos)[:3] at this d_model, rounded to 2 decimals as printed."""
    return np.round(EXACT.sinusoidal([pos], d_model)[0, :3], 2)


@claim.probe
def solve_d_model(r):
    """Every d_model 1 … 1024 whose PE(1), PE(2) round to the printed entries (the third entry decides)."""
    fits = [d for d in range(1, 1025) if all(np.array_equal(first_entries(d, p), PRINTED_PE[p]) for p in PRINTED_PE)]
    r.measure("d_model 1…1024 whose first three entries round as printed", fits)
    r.measure("ω_1 = 10000^(−2/d_model) for d_model = 4, 64, 512", {d: frequency_values(d)[1] for d in (4, 64, 512)})
    r.measure(
        "PE(1)[:3] rounded, d_model = 64 (the lesson's code) and 512", {d: first_entries(d, 1) for d in (64, 512)}
    )
    if fits != [SOLVED_D_MODEL]:
        r.counterexample("no d_model, or another one, reproduces the printed vectors", fits=fits)
        return
    lesson = {"fits": fits, "d_model_64": first_entries(64, 1), "d_model_512": first_entries(512, 1)}
    lesson["pe1_at_64"] = ", ".join(f"{x:.2f}" for x in lesson["d_model_64"])
    r.condition(
        "the printed vectors hold only for d_model = 4, which the walkthrough never states (it says 'd_model 차원 "
        "벡터'; the lesson's code uses 64, its formula section 512): the third entry sin(1/10000^(2/d_model)) "
        f"rounds to 0.01 only for d_model = 4; d_model = 64 gives {lesson['d_model_64'][2]} and 512 gives "
        f"{lesson['d_model_512'][2]}",
        **lesson,
    )


@claim.probe
def final_input(r):
    """Step 4: token j + its position's PE, entry by entry (the quoted lines are built from steps 2 and 3)."""
    totals = {token: np.round(np.add(EMBEDDINGS[token], PRINTED_PE[token - 1]), 10) for token in EMBEDDINGS}
    r.measure("step 4 sums, token → first three entries", totals)
    printed = np.array([PRINTED_PE[p] for p in PRINTED_PE])
    exact = EXACT.sinusoidal([0, 1, 2], SOLVED_D_MODEL)[:, :3]
    r.measure("largest |printed PE − formula (d_model = 4)| over the nine entries", np.max(np.abs(printed - exact)))


@claim.corrected
def printed_values_match_the_stated_d_model(sentence, wording):
    """The d_model the wording names first reproduces the example's vectors, and each vector the wording prints
    rounds to the formula's values at the d_model named last before it."""
    named = [int(d) for d in re.findall(r"d_model = (\d+)", wording)]
    assert named, "the wording names no d_model"
    for pos, printed in PRINTED_PE.items():
        at_named = tuple(first_entries(named[0], pos).tolist())
        assert at_named == printed, f"the example's PE({pos}) is {printed}, d_model = {named[0]} gives {at_named}"
    vectors = list(re.finditer(r"\[([^\]]*)\]", wording))
    for vector in vectors:
        before = wording[: vector.start()]
        size = int(re.findall(r"d_model = (\d+)", before)[-1])
        pos = int(re.findall(r"위치(\d+)", before)[-1])
        printed = [float(x) for x in re.findall(r"-?\d+\.\d+", vector.group(1))]
        expected = first_entries(size, pos)[: len(printed)].tolist()
        assert printed == expected, f"PE({pos}) at d_model = {size} rounds to {expected}, the wording prints {printed}"
