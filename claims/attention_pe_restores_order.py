"""With positional encoding added, reordering a sentence changes every word's attention output."""

import itertools

import numpy as np

from checks import BFLOAT16, FLOAT16, FLOAT32, FLOAT64, Claim, Erratum, example, given
from checks.attention import (
    Sentence,
    median_change,
    random_reorderings,
    rounding_visibility,
    single_threaded,
    unencoded_changes,
    uniform_change,
    word_changes,
)
from checks.figures import lines, scatter
from checks.reference import NumpyBackend, TorchBackend
from checks.strategies import as_batch, sentence_batches
from claims.catalog.works import LESSON_001, LESSON_002

claim = Claim(
    id="attention.pe-restores-order",
    title=("With positional encoding, reordering changes attention outputs, but only slightly at initial weights"),
    statement=(
        "Add the sinusoidal encoding PE(pos) to each word's embedding. Then for distinct words and any reordering "
        "that moves some word, every word's self-attention output changes (by more than rounding), including "
        "words that keep their place, because the others' positions change."
    ),
    sources=[
        LESSON_002.quote(
            "데모 1 · 순서를 섞어 보기",
            "위치 인코딩을 켜면 같은 단어라도 몇 번째 자리에 있느냐에 따라 입력 벡터가 달라지고, 그 차이가 어텐션 "
            "출력에도 드러납니다.",
        ),
        LESSON_001.quote("문제 설정", "이를 해결하기 위해 사용하는 방법이 Positional Encoding입니다."),
        LESSON_001.quote("1. Transformer 입력", "토큰의 순서를 모델이 이해할 수 있도록 합니다."),
        LESSON_002.quote("1. 어텐션은 순서를 모른다", "데모 1 · 순서를 섞어 보기"),
    ],
    erratum=Erratum(
        severity="note",
        problem=(
            "True wherever the attention weights are uneven, as trained ones are: with exactly uniform weights no "
            "reordering changes an output; at PyTorch's default initial weights the change is small (median "
            "{median_relative_change:.1%} of the output range) and in low precision often within rounding "
            "(bfloat16: {hidden_bfloat16:.0%} of reorderings, float16: {hidden_float16:.0%})."
        ),
    ),
    expect="qualified",
)

DEMO_WORDS = ("dog", "bites", "man")
DEMO = Sentence(d=6, words=(0, 1, 2), order=(2, 1, 0), seed=0)
REORDERINGS = 200
BACKENDS = {
    FLOAT64: TorchBackend(FLOAT64),
    FLOAT32: TorchBackend(FLOAT32),
    BFLOAT16: TorchBackend(BFLOAT16),
    FLOAT16: NumpyBackend(FLOAT16),
}
"""Where each dtype is measured (NumPy for float16: the same arithmetic, faster on the CPU for tiny inputs)."""


@claim.check(dtypes=(FLOAT64,), batched=True)
@given(batch=sentence_batches(distinct=True, moved=True, dims=(2, 16)))
@example(batch=as_batch([DEMO]))
# Found by the thorough profile: "man" keeps its place and moves by 4.5e-5 (1.3e-5 of the output
# range), far beyond float64 rounding (2 u · B ≈ 1.8e-13) yet within assert_close's float64 tolerance.
@example(batch=as_batch([Sentence(d=10, words=(0, 1, 2), order=(1, 0, 2), seed=50)]))
@single_threaded()
def every_word_changes(t, batch):
    """float64: the smallest change must exceed the rounding bound 2 u · B (the probe measures the other dtypes)."""

    def changes_beyond_rounding(sentence):
        changes, allowed, _ = word_changes(t.xp, sentence)
        smallest = int(np.argmin(changes))
        assert changes[smallest] > allowed, (
            f"word {smallest}'s output moved by {changes[smallest]:.3g} ≤ rounding bound {allowed:.3g} ({t.dtype}) "
            f"at {sentence}"
        )

    t.each(batch, changes_beyond_rounding)


@claim.probe
def demo_numbers(r):
    """Demo 1 with the encoding on: each word's max difference from its output in the original order (float64)."""
    xp, orders = NumpyBackend(FLOAT64), itertools.permutations(range(3))
    demos = {" ".join(DEMO_WORDS[i] for i in order): Sentence(6, (0, 1, 2), order, 0) for order in orders}
    changes = {name: word_changes(xp, sentence)[0] for name, sentence in demos.items()}
    table = {name: {DEMO_WORDS[i]: float(c) for i, c in enumerate(moved)} for name, moved in changes.items()}
    cells = [f"{name}: {word}" for name in demos for word in DEMO_WORDS]
    off = np.concatenate([unencoded_changes(xp, sentence) for sentence in demos.values()])
    on = np.concatenate(list(changes.values()))
    r.measure("demo 1 with PE, d=6, float64: per word, max difference from the original order", table)
    r.measure("demo 1 without PE: the same numbers, largest", float(off.max()))
    r.measure("demo 1 cells of the figure, in order (reordering: word)", cells)
    r.figure(
        scatter(
            "demo-1",
            "Demo 1: each word's max difference from its output in the original order (d = 6, float64)",
            "For the 6 orders of 'dog bites man' and each of its 3 words (18 points, listed under the measurements): "
            f"without PE every difference is at most {off.max():.1e}; with PE every word of a reordered sentence "
            f"moves, by {on[on > 0].min():.2f} to {on.max():.2f}, and the original order stays at 0.",
            {"PE off": (range(len(off)), off), "PE on": (range(len(on)), on)},
            x_label="order × word (see the cells listed above)",
            y_label="max |difference|",
        )
    )


@claim.probe
@single_threaded()
def how_often_and_how_much(r):
    """Random reorderings at demo size (d = 6, PyTorch's default weight scale), in every dtype."""
    fractions, shares, relative = rounding_visibility(random_reorderings(REORDERINGS), BACKENDS)
    levels = {"min": 0.0, "10%": 0.1, "median": 0.5, "90%": 0.9, "max": 1.0}
    quantiles = {name: float(np.quantile(relative, level)) for name, level in levels.items()}
    r.measure("fraction of reorderings where every word's output moves beyond the dtype's rounding bound", fractions)
    r.measure(f"smallest word change / output range, float64 (quantiles over {REORDERINGS} reorderings)", quantiles)
    r.measure("median rounding bound / output range", shares)
    curve = np.sort(relative)
    r.figure(
        lines(
            "smallest-change-distribution",
            "Smallest per-word change after a reordering, with PE (d = 6, float64)",
            f"Cumulative share of {REORDERINGS} random reorderings whose smallest per-word output change, as a share "
            "of the output range, is at most x; vertical marks at each dtype's median rounding bound.",
            {"float64": (curve, [(i + 1) / len(curve) for i in range(len(curve))])},
            x_label="smallest per-word change / output range",
            y_label="share of reorderings",
            marks={f"{dtype} rounding bound": shares[dtype] for dtype in (FLOAT32, FLOAT16, BFLOAT16)},
        )
    )
    if hidden := {dtype: 1 - f for dtype, f in fractions.items() if f < 1}:
        r.condition(
            "the change is small at PyTorch's default weight scale (median "
            f"{quantiles['median']:.2%} of the output range, d = 6), so in low precision it often stays within the "
            "rounding error bound (twice the dtype's rounding unit times the largest output; median bound as a share "
            "of the output range: "
            + ", ".join(f"{dtype} {shares[dtype]:.1%}" for dtype in hidden)
            + "); reorderings leaving some word's output within it: "
            + ", ".join(f"{dtype} {share:.0%}" for dtype, share in hidden.items()),
            **{f"hidden_{dtype}": share for dtype, share in hidden.items()},
            median_relative_change=quantiles["median"],
        )


@claim.probe
def carried_by_the_weights(r):
    """Uniform attention hides PE; sharper attention (larger W_Q, W_K) shows it more (float64, d = 6)."""
    drawn = random_reorderings(40, seed=1)
    factors = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
    medians = [median_change(drawn, factor) for factor in factors]
    r.measure(
        "median smallest change / output range, by the factor on W_Q and W_K", dict(zip(factors, medians, strict=True))
    )
    r.figure(
        lines(
            "change-by-weight-scale",
            "Reordering's effect grows with attention sharpness",
            "Median over 40 reorderings of the smallest per-word output change (share of the output range) when W_Q "
            "and W_K are scaled by the factor on the x axis (1 = PyTorch's default initialisation).",
            {"with PE": (factors, medians)},
            x_label="factor on W_Q and W_K",
            y_label="median smallest change / range",
        )
    )
    worst = max([0.0, *(uniform_change(sentence) for sentence in drawn)])
    r.measure("W_Q = 0 (uniform attention): largest change / float64 rounding bound over 40 reorderings", worst)
    if worst <= 1:
        r.condition(
            "the positions reach the output only through the attention weights: with uniform weights (here W_Q = 0) "
            "every word's output is the mean of all values, which no reordering changes (largest change "
            f"{worst:.2g} × the float64 rounding bound over 40 reorderings)",
            uniform_largest_change_over_rounding_bound=worst,
        )
