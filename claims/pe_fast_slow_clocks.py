"""Fast pairs tell neighbours apart but wrap and confuse far positions; slow pairs barely move but tell far ones
apart, within half their period."""

import math

import numpy as np
import sympy as sp

from checks import Claim, Erratum, given
from checks.figures import lines
from checks.reference import chord_lengths, frequency_values, pair_chords
from checks.strategies import d_models, position_offset_batches
from claims.catalog.works import LESSON_002

SECTION = "7. 시계가 여러 개인 이유"
claim = Claim(
    id="pe.fast-slow-clocks",
    title="Fast clocks separate neighbours but wrap around; slow clocks separate far positions, up to half a turn",
    statement=(
        "Pair i puts positions a and b a chord 2·|sin(ω_i (a − b)/2)| apart, whatever a. For d_model = 512 the "
        "fastest pair (ω_0 = 1) puts neighbours 0.96 apart (of at most 2) but wraps every 2π ≈ 6.3 positions, so "
        "positions 44 apart land 0.018 apart; the slowest pair (ω_255 ≈ 1.04·10⁻⁴) puts neighbours 1.04·10⁻⁴ apart, "
        "and its chord grows with the distance up to half its period, π/ω_255 ≈ 30,300 positions; beyond that it "
        "wraps too, which the document does not say."
    ),
    sources=[
        LESSON_002.quote(SECTION, "앞쪽 쌍(i 작음): 바늘이 빨리 돕니다."),
        LESSON_002.quote(SECTION, "바로 옆 단어끼리도 각도 차이가 커서 가까운 위치를 세밀하게 구분합니다."),
        LESSON_002.quote(SECTION, "대신 금방 한 바퀴를 돌아 먼 위치끼리는 헷갈립니다."),
        LESSON_002.quote(SECTION, "뒤쪽 쌍(i 큼): 바늘이 아주 천천히 돕니다."),
        LESSON_002.quote(SECTION, "이웃끼리는 거의 차이가 없지만 먼 위치를 구분해 줍니다."),
    ],
    erratum=Erratum(
        severity="note",
        problem=(
            "True: a sin/cos pair tells positions apart over its whole period, about {period:,.0f} positions for "
            "the slowest pair at d_model = {d_model}; only the distance between the two points stops growing after "
            "half a period ({half_period:,.0f} positions), and positions a whole period apart coincide."
        ),
        sentence="이웃끼리는 거의 차이가 없지만 먼 위치를 구분해 줍니다.",
    ),
    expect="qualified",
)

D_MODEL = 512
"""§7's table is for d_model = 512."""
CONFUSED = 0.05
"""'Confused': two positions whose points on a pair's dial lie closer than this (a twentieth of the radius)."""
FAR = 10
"""'Far': at least this many positions apart."""


@claim.proof
def _(p):
    x, y = sp.symbols("x y", real=True)
    chord = (sp.sin(x) - sp.sin(y)) ** 2 + (sp.cos(x) - sp.cos(y)) ** 2
    p.decide(chord, 2 - 2 * sp.cos(x - y), label="squared chord between angles x and y = 2 − 2 cos(x − y)")
    t = sp.Symbol("t", real=True)
    p.decide(2 - 2 * sp.cos(2 * t), 4 * sp.sin(t) ** 2, label="2 − 2 cos 2t = (2 sin t)²: chord = 2|sin(ω(a − b)/2)|")
    p.step(
        "2|sin(ωΔ/2)| grows with Δ only while ωΔ/2 < π/2, i.e. Δ < π/ω (half a period); then it falls back to 0",
        sp.pi / sp.Symbol("omega", positive=True),
    )


@claim.check(uses="sinusoidal", batched=True)
@given(at=position_offset_batches(), d=d_models(even=True, low=2, high=128))
def chord_depends_on_distance_only(t, at, d):
    """Pair i of PE(pos) and PE(pos + Δ) lie 2|sin(ω_i Δ/2)| apart, whatever pos."""
    pos, distance = at.T
    here, there = (t.xp.to_float64(t.impl.sinusoidal(rows, d)) for rows in (pos, pos + distance))
    expected = chord_lengths(frequency_values(d)[None, :], distance[:, None])
    t.close_pe(pair_chords(here, there), expected, pos, distance, 1, label="chord of pair i")


@claim.probe
def fast_and_slow(r):
    """d_model = 512: neighbour chords of the fastest and slowest pairs, far positions the fast pair confuses, and
    where the slow pair stops separating."""
    frequencies = frequency_values(D_MODEL)
    fast, slow = frequencies[0], frequencies[-1]
    r.measure("ω_0, ω_255 (rad per position)", (fast, slow))
    r.measure("neighbour chord (of at most 2): fastest, slowest", (chord_lengths(fast, 1), chord_lengths(slow, 1)))
    distances = np.arange(FAR, 1001)
    confused = distances[chord_lengths(fast, distances) < CONFUSED]
    r.measure(f"fastest pair: distances {FAR}…1000 whose chord < {CONFUSED}", confused[:8])
    r.measure("fastest pair: the nearest of them, its chord", (confused[0], chord_lengths(fast, confused[0])))
    if confused.size == 0 or chord_lengths(fast, 1) < 0.5:
        r.counterexample("the fastest pair does not separate neighbours and confuse far positions")
    slow_pair_separates_up_to_half_a_turn(r, slow)
    r.figure(dials_figure(fast, slow))


def slow_pair_separates_up_to_half_a_turn(r, slow):
    """The slowest dial's chord grows with the distance up to half its period, then falls back."""
    half_turn = math.pi / slow
    r.measure("slowest pair: half period π/ω_255 (positions)", half_turn)
    far = np.array([1, 10, 100, 1000, 10000, 30000])
    r.measure("slowest pair: chord at distance 1, 10, 100, 1000, 10000, 30000", chord_lengths(slow, far))
    past = np.array([half_turn * 1.5, 2 * math.pi / slow - 1])
    r.measure(
        "slowest pair: chord at 1.5 half-periods, and at one period − 1 (as near as a neighbour)",
        chord_lengths(slow, past),
    )
    r.condition(
        f"the slowest pair tells positions apart over its whole period, 2π/ω = {2 * math.pi / slow:,.0f} positions at "
        f"d_model = {D_MODEL}, but its chord grows with the distance only up to half of it, {half_turn:,.0f} "
        "positions, and falls back beyond, so positions a whole period apart coincide even on the slowest clock",
        half_period=half_turn,
        period=2 * math.pi / slow,
        d_model=D_MODEL,
    )


def dials_figure(fast, slow):
    """The chord between pos and pos + Δ on the fastest and the slowest dial, for Δ from 1 past one turn of the
    slowest (about 61,000 positions), on log scales, with the slowest dial's half and full period marked."""
    half_turn, turn = math.pi / slow, 2 * math.pi / slow
    near_turn = np.arange(math.floor(turn) - 300, math.floor(turn) + 301)
    span = np.unique(np.concatenate([np.geomspace(1, 1.2 * turn, 500).round(), near_turn]))
    fast_span, slow_span = chord_lengths(fast, span), chord_lengths(slow, span)
    lowest = int(np.argmin(np.where(span > half_turn, slow_span, np.inf)))
    return lines(
        "fast-and-slow",
        "Chord between pos and pos + Δ on the fastest and the slowest dial (d_model 512)",
        f"On log scales: the fastest pair's chord keeps swinging between about {fast_span.min():.1e} and "
        f"{fast_span.max():.2f} at every distance, as it wraps every 6.3 positions; the slowest pair's chord starts "
        f"at {slow_span[0]:.1e} at Δ = 1, rises to {slow_span.max():.2f} at half its period "
        f"(Δ ≈ {half_turn:,.0f}) and "
        f"falls back to {slow_span[lowest]:.1e} at Δ = {int(span[lowest]):,}, one period, where far positions look "
        "like "
        "neighbours.",
        {"pair 0 (fastest)": (span, fast_span), "pair 255 (slowest)": (span, slow_span)},
        x_label="distance Δ (positions)",
        y_label="chord |PE_i(pos + Δ) − PE_i(pos)|",
        marks={f"half period ≈ {half_turn:,.0f}": half_turn, f"period ≈ {turn:,.0f}": turn},
        log_x=True,
        log_y=True,
    )
