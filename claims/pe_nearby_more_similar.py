"""Nearer positions are more similar (PE(0)·PE(k) falls with k): true at the printed positions, not monotone."""

import itertools
import re

import numpy as np
from hypothesis import strategies as st

from checks import Claim, Erratum, given
from checks.figures import lines
from checks.reference import dot, first_increase, similarity_curve
from claims.catalog.lesson_code import lesson_script
from claims.catalog.works import LESSON_000

SECTION = "실행해보기: Positional Encoding 생성과 시각화"
LESSON_D_MODEL, LESSON_MAX_LEN = 64, 50
RELATIVE = "이것이 모델이 상대적 거리를 학습할 수 있게 해줍니다!"
RELATIVE_LINE = f'print("{RELATIVE}")'
PRINTED = re.compile(r"위치 (\d+) vs 위치\s+(\d+):\s+(-?\d+\.\d+)")
claim = Claim(
    id="pe.nearby-more-similar",
    title="Nearer positions are more similar: a tendency, not a monotone law",
    statement=(
        "PE(0)·PE(k) = Σ cos(ω_i k) decreases as k grows: it does at the lesson's printed positions "
        "(d_model 64: k = 1, 2, 5, 10, 20, 49), but it is not monotone in k."
    ),
    sources=[
        LESSON_000.quote(SECTION, "가까운 위치일수록 유사도가 높고,"),
        LESSON_000.quote(SECTION, "먼 위치일수록 유사도가 낮아지는 경향을 보입니다."),
        LESSON_000.quote(SECTION, RELATIVE),
        LESSON_000.quote(SECTION, RELATIVE_LINE),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "PE(0)·PE(k) does not fall steadily with k (for d_model = 64 it first rises at k = {first_increase[64]}, "
            "and position {more_similar_than_printed[20]} is more similar to position 0 than the printed position 20 "
            "is); and the conclusion drawn from the printout does not follow from it: what these dot products can "
            "show is that PE(p)·PE(p + k) is the same for every p (pe.dot-distance-only), which one reference "
            "position cannot show."
        ),
        reader_problem=(
            "가까울수록 유사도가 높다는 것은 대략적인 경향일 뿐입니다. d_model = 64에서 PE(0)·PE(k)는 "
            "k = {first_increase[64]}에서 처음으로 다시 커지고, 위치 {more_similar_than_printed[20]}가 출력된 "
            "위치 20보다 위치 0과 더 비슷합니다. 또 204행의 결론은 이 출력에서 나오지 않습니다. 이 내적들이 보여 줄 "
            "수 있는 성질은 PE(p)·PE(p + k)가 기준 위치 p와 상관없이 k에만 달려 있다는 점인데, 기준 위치가 0 "
            "하나뿐이라 그것도 드러나지 않습니다."
        ),
        wording=(
            'print("이 내적은 기준 위치와 상관없이 두 위치의 거리에만 달려 있습니다:")\n'
            'print(f"  PE[5]·PE[8] = {{PE[5] @ PE[8]:.3f}}, PE[20]·PE[23] = {{PE[20] @ PE[23]:.3f}}  (둘 다 거리 3)")'
        ),
        sentence=RELATIVE_LINE,
        also={"가까운 위치일수록 유사도가 높고,": ""},
    ),
    expect="qualified",
)


@claim.check
@given(k=st.integers(0, LESSON_MAX_LEN - 1))
def lesson_similarity_curve(t, k):
    rows = t.impl.sinusoidal([0, k], LESSON_D_MODEL)
    expected = float(similarity_curve(LESSON_D_MODEL, [k])[0])
    t.close_dot(dot(t.impl, rows[0], rows[1]), expected, LESSON_D_MODEL, 0, k, label="PE(0)·PE(k), d_model=64")


@claim.probe
def lesson_printout(r):
    """The similarities the lesson's script prints, against Σ cos(ω_i k) (3 decimals as printed)."""
    run = lesson_script()
    r.measure("lesson script return code", run.returncode)
    printed = {int(q): float(v) for p, q, v in PRINTED.findall(run.stdout) if p == "0"}
    formula = similarity_curve(LESSON_D_MODEL, list(printed))
    r.measure("printed PE(0)·PE(k)", printed)
    r.measure("Σ cos(ω_i k), d_model=64", dict(zip(printed, np.round(formula, 6), strict=True)))
    if sorted(printed) != [1, 2, 5, 10, 20, 49] or np.max(np.abs(np.array(list(printed.values())) - formula)) > 5e-4:
        r.counterexample("the lesson's printed similarities are not Σ cos(ω_i k) at 3 decimals", printed=printed)
    values = [printed[p] for p in sorted(printed)]
    if any(b >= a for a, b in itertools.pairwise(values)):
        r.counterexample("the printed similarities do not decrease", printed=printed)


@claim.probe
def monotonicity(r):
    """Where PE(0)·PE(k) first rises, per d_model; the rises within the lesson's 50 positions; long distances."""
    distances, far_k = np.arange(1001), np.arange(20_001)
    curves = {d: similarity_curve(d, distances) for d in (LESSON_D_MODEL, 512)}
    far_curves = {d: similarity_curve(d, far_k) for d in curves}
    first = first_rises(r, curves)
    lesson = curves[LESSON_D_MODEL][:LESSON_MAX_LEN]
    rises, beaten = rises_within_the_lesson(r, lesson)
    lowest, rebound = far_away(r, far_curves)
    if first[LESSON_D_MODEL] is not None:
        far = beaten[20]
        r.condition(
            "holds only as a trend over short distances, which 'tendency' leaves open: PE(0)·PE(k) first rises at "
            f"k = {first[LESSON_D_MODEL]} for d_model = 64 ({curves[64][first[64] - 1]:.3f} → "
            f"{curves[64][first[64]]:.3f}) and at k = {first[512]} for d_model = 512; within the lesson's own "
            f"50 positions it rises at {len(rises)} of 49 steps, and position {far} is more similar to position 0 "
            f"than the printed position 20 ({lesson[far]:.3f} > {lesson[20]:.3f}); far away it oscillates "
            f"(d_model = 64: minimum {far_curves[64][lowest[64]]:.2f} at k = {lowest[64]}, back up to "
            f"{far_curves[64][rebound[64]]:.2f} at k = {rebound[64]})",
            first_increase=first,
            rises_below_50=rises,
            more_similar_than_printed=beaten,
        )
    draw_curves(r, distances, curves, far_k, far_curves, first)


def draw_curves(r, distances, curves, far_k, far_curves, first):
    """The similarity over k = 0 … 100 with the first rises marked, and over k = 0 … 20000 (every 100th k)."""
    r.figure(
        similarity_lines(
            "similarity-vs-distance",
            "Cosine similarity PE(0)·PE(k)/(d_model/2) over k = 0 … 100",
            "Both curves fall from 1 but not monotonically: the d_model = 64 curve first rises at k = "
            f"{first[64]}, the d_model = 512 curve at k = {first[512]}; the marks show those boundaries.",
            distances[:101],
            {d: c[:101] for d, c in curves.items()},
            marks={f"first rise, d_model = {d}": float(k) for d, k in first.items() if k is not None},
        )
    )
    r.figure(
        similarity_lines(
            "similarity-long-range",
            "Cosine similarity PE(0)·PE(k)/(d_model/2) over k = 0 … 20000 (every 100th k)",
            "Over long distances the similarity dips below zero and climbs back: far positions are not "
            "always less similar.",
            far_k[::100],
            {d: c[::100] for d, c in far_curves.items()},
        )
    )


def first_rises(r, curves):
    """The first k where PE(0)·PE(k) rises, per d_model, and the values on either side of it."""
    first = {d: first_increase(c) for d, c in curves.items()}
    r.measure("first k with PE(0)·PE(k) > PE(0)·PE(k−1)", first)
    around = {d: (curves[d][first[d] - 1], curves[d][first[d]]) for d in curves if first[d]}
    r.measure("values around the first rise", around)
    return first


def rises_within_the_lesson(r, lesson):
    """d_model = 64, k < 50: the steps where the curve rises, and the farthest k beating each printed k."""
    rises = np.nonzero(np.diff(lesson) > 0)[0] + 1
    r.measure("d_model=64, k < 50: the k where the curve rises", rises)
    beaten = {near: np.nonzero(lesson > lesson[near])[0].max() for near in (1, 2, 5, 10, 20)}
    r.measure("d_model=64, printed k: the farthest k < 50 that is more similar to position 0", beaten)
    return rises, beaten


def far_away(r, far_curves):
    """k = 0 … 20000: the minimum of each curve and the highest value after it."""
    lowest = {d: np.argmin(c) for d, c in far_curves.items()}
    rebound = {d: lowest[d] + np.argmax(c[lowest[d] :]) for d, c in far_curves.items()}
    r.measure(
        "k = 0 … 20000: (k of the minimum, minimum, k of the highest value after it, that value)",
        {d: (lowest[d], c[lowest[d]], rebound[d], c[rebound[d]]) for d, c in far_curves.items()},
    )
    return lowest, rebound


def similarity_lines(name, title, alt, k, curves, **options):
    """PE(0)·PE(k)/(d_model/2) against k, one line per d_model (the cosine similarity)."""
    series = {f"d_model = {d}": (k, c / (d / 2)) for d, c in curves.items()}
    return lines(name, title, alt, series, x_label="distance k", y_label="PE(0)·PE(k) / (d_model/2)", **options)
