"""Adding the integer position p to every entry drowns the word: cos(a + p·1, b + p·1) → 1 as p grows."""

import math

import numpy as np
import sympy as sp
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks import Claim, given
from checks.figures import lines
from checks.precision import cosine_gaps, index_gaps, merge_thresholds
from checks.strategies import UNIT, Batch, as_batch, batch_size, d_models
from claims.catalog.works import LESSON_000

claim = Claim(
    id="index.integer-unbounded",
    title="Integer positions grow without bound and drown the word embedding",
    statement=(
        "With the raw index p added to every entry, two different word vectors a ≠ b (entries in [−1, 1]) "
        "become a + p·1 and b + p·1, whose cosine similarity tends to 1 as p grows: "
        "1 − cos ≤ 2·asin(1/(p−1))², and p²(1 − cos²) → the variance of the entries of a − b."
    ),
    sources=[
        LESSON_000.quote("시도 1: 정수 인덱스 사용", "문장이 길어지면 값이 무한히 커짐 (0, 1, 2, ..., 10000)"),
        LESSON_000.quote("시도 1: 정수 인덱스 사용", "단어 임베딩 벡터의 값은 보통 -1 ~ 1 범위"),
        LESSON_000.quote("시도 1: 정수 인덱스 사용", "위치 값이 10000이면 임베딩 정보를 압도해 버림"),
    ],
    expect="holds",
)

D_MODEL = 64
WIDTH = 8
"""Largest d_model drawn by the check (drawing entries is what costs; the bound holds for every d)."""
SEARCH = 20_000
"""Integer positions searched for the thresholds (the document's example runs to 10000)."""
IDENTICAL_SEARCH = 8192
"""Positions searched for rounded vectors that coincide (bfloat16 and float16 reach them well before)."""


@claim.proof
def _(p):
    pos = sp.Symbol("p", positive=True)
    d = sp.Symbol("d", integer=True, positive=True)
    sum_a, sum_b, dot = sp.symbols("S_a S_b G", real=True)
    norm_a, norm_b = sp.symbols("Q_a Q_b", nonnegative=True)
    # x = a + p·1, y = b + p·1 with S = Σ entries, Q = ‖·‖², G = a·b: every term below is exact for any d.
    xy = dot + pos * (sum_a + sum_b) + pos**2 * d
    xx = norm_a + 2 * pos * sum_a + pos**2 * d
    yy = norm_b + 2 * pos * sum_b + pos**2 * d
    p.step("x·y, ‖x‖², ‖y‖² for x = a + p·1, y = b + p·1", sp.Tuple(xy, xx, yy))
    spread = d * (norm_a + norm_b - 2 * dot) - (sum_a - sum_b) ** 2
    remainder = (
        norm_a * norm_b - dot**2 + 2 * pos * (norm_a * sum_b + norm_b * sum_a - dot * (sum_a + sum_b)) + pos**2 * spread
    )
    p.decide(xx * yy - xy**2, remainder, label="‖x‖²‖y‖² − (x·y)² is quadratic in p: the p⁴ and p³ terms cancel")
    mean_square, mean = (norm_a + norm_b - 2 * dot) / d, (sum_a - sum_b) / d
    p.decide(spread / d**2, mean_square - mean**2, label="its p² coefficient / d² is the variance of a − b's entries")
    cosine = xy / sp.sqrt(xx * yy)
    p.step("1 − cos² = (quadratic in p) / (d²p⁴ + …), so cos² → 1; shown, computed by sympy.limit", cosine)
    p.unchecked(
        "lim_{p→∞} cos = 1 (sympy.limit computes it; no decision procedure checks a limit)",
        sp.limit(cosine, pos, sp.oo),
    )
    p.step("lim_{p→∞} p²(1 − cos²) (sympy.limit; displayed)", sp.limit(pos**2 * remainder / (xx * yy), pos, sp.oo))


@st.composite
def word_pairs_at_indices(draw: st.DrawFn) -> tuple[Batch, Batch, Batch]:
    """Rows (a, b, p) for a batched check: two words with entries in [−1, 1] and a distinct index p ∈ 2 … 10000."""
    p = draw(arrays(np.int64, batch_size(), elements=st.integers(2, 10_000), unique=True))
    a, b = draw(arrays(np.float64, (2, len(p), WIDTH), elements=UNIT))
    return as_batch(a), as_batch(b), as_batch(p)


@claim.check(batched=True)
@given(words=word_pairs_at_indices(), d=d_models(even=None, low=2, high=WIDTH))
def gap_below_bound(t, words, d):
    """a + p·1 and b + p·1 formed in the dtype: 1 − cos stays under 2·asin(1/(p−1))²."""
    p = np.asarray(words[2])
    x, y = (t.xp.to_float64(t.xp.array(np.asarray(v)[:, :d]) + t.xp.array(p[:, None])) for v in words[:2])
    bound = 2 * np.arcsin(1 / (p - 1)) ** 2
    excess = np.maximum(cosine_gaps(x, y) - bound, 0.0)
    t.close(excess, np.zeros_like(excess), scale=1.0, label="1 − cos beyond 2·asin(1/(p−1))²")


def word_pairs() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The most different pair in [−1, 1]^64 (a − b = ±2 alternating) and a uniform random pair."""
    signs = np.resize([1.0, -1.0], D_MODEL)
    draw = np.random.default_rng(0).uniform(-1.0, 1.0, (2, D_MODEL))
    return {"most different (a = ±1 alternating, b = −a)": (signs, -signs), "uniform random": (draw[0], draw[1])}


@claim.probe
def indistinguishable_from(r):
    """From which position two different words become indistinguishable, per dtype (d_model = 64)."""
    pairs = word_pairs()
    found = {name: merge_thresholds(a, b, SEARCH, IDENTICAL_SEARCH) for name, (a, b) in pairs.items()}
    sample = np.unique(np.geomspace(1, SEARCH, 120).round())
    curves = {name: (np.log10(sample), np.log10(index_gaps(a, b, sample))) for name, (a, b) in pairs.items()}
    r.measure("thresholds per word pair (d_model = 64)", found)
    worst = found["most different (a = ±1 alternating, b = −a)"]
    marks = {"cos ≥ 0.99": worst["cos ≥ 0.99 from p"]}
    marks |= {f"cos = 1 in {dt}": worst[f"{dt}: exact cos rounds to 1.0 from p"] for dt in ("bfloat16", "float16")}
    marks["cos = 1 in float32"] = worst["float32: exact cos rounds to 1.0 from p"]
    r.figure(
        lines(
            "integer-index-gap",
            "How fast two words merge under the integer index (d_model = 64)",
            "log10(1 − cos similarity) of a + p·1 and b + p·1 against log10 p, falling with slope −2 for both the "
            "most different pair and a random pair; marks at the positions (most different pair) where the "
            "similarity passes 0.99 and where it rounds to 1 in bfloat16, float16 and float32.",
            curves,
            x_label="log10 position p",
            y_label="log10(1 − cos)",
            marks={label: math.log10(value) for label, value in marks.items()},
        )
    )
