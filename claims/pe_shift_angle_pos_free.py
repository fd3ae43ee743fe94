"""Going from pos to pos + k turns every pair's hand by ω_i·k, whatever pos."""

import math

import numpy as np
import sympy as sp
import torch

from checks import Claim, given
from checks.figures import Figure, lines, scatter
from checks.formulas import k, pos
from checks.reference import EXACT, clockwise_turn, frequency_values
from checks.strategies import d_models, position_offset_batches
from claims.catalog.works import LESSON_002

SECTION = "4. 시계 바늘: 원 위의 한 점"
claim = Claim(
    id="pe.shift-angle-pos-free",
    title="A k-step shift adds the same angle ω_i·k at every position",
    statement=(
        "The hand of pair i at pos + k is the hand at pos turned clockwise by ω_i(pos + k) − ω_i pos = ω_i k: its "
        "cosine and sine, x₀x₁ + y₀y₁ = cos(ω_i k) and x₁y₀ − y₁x₀ = sin(ω_i k), contain no pos."
    ),
    sources=[
        LESSON_002.quote(
            SECTION, "pos에서 pos+k로 가면 각도가 $\\omega_i k$만큼 늘어납니다. 이 증가량에는 pos가 들어 있지 않습니다."
        ),
        LESSON_002.quote(SECTION, "바늘이 지금 3시에 있든 8시에 있든 “30° 더 돌려라”라는 명령은 같습니다."),
        LESSON_002.quote(
            "데모 4 · d_model = 16의 시계 8개", "pos 슬라이더를 움직여 보세요. 바늘은 돌지만 호의 길이는 그대로입니다."
        ),
        LESSON_002.quote(
            "cos(A − B) 공식은 무엇을 말하나", "위치 인코딩에서 사이각은 “몇 칸 떨어졌나”(k)로 정해집니다."
        ),
        LESSON_002.quote("4. 시계 바늘: 원 위의 한 점", "데모 4 · d_model = 16의 시계 8개"),
    ],
    expect="proved",
)

DEMO_D_MODEL, DEMO_POS, DEMO_K = 16, 0, 2
"""Demo 4's settings: 8 clocks, pos slider at 0, k = 2."""
PROBE_POSITIONS = (0, 5, 50, 500)
DIAL_POINTS = 40


@claim.proof
def _(p):
    pos, k = sp.symbols("pos k", real=True)
    w = sp.Symbol("omega", positive=True)
    increase = w * (pos + k) - w * pos
    p.decide(increase, w * k, label="angle increase ω(pos + k) − ω pos = ω k")
    p.free_of(sp.expand(increase), pos, label="the increase contains no pos")
    before, after = w * pos, w * (pos + k)
    cosine = sp.sin(before) * sp.sin(after) + sp.cos(before) * sp.cos(after)
    sine = sp.sin(after) * sp.cos(before) - sp.cos(after) * sp.sin(before)
    p.decide(cosine, sp.cos(w * k), label="x₀x₁ + y₀y₁ = cos(ω k)")
    p.decide(sine, sp.sin(w * k), label="x₁y₀ − y₁x₀ = sin(ω k): clockwise turn by ω k")


@claim.check(batched=True)
@given(at=position_offset_batches(starts=2), d=d_models(even=True, high=128))
def same_turn_at_two_positions(t, at, d):
    """Measured in the dtype at pos and at another position, the turn to + k is (cos ω_i k, sin ω_i k).

    The turn combines the hands at start and at start + k, so it carries both angles' rounding: the scale is
    angle_scale(start, start + k) (ω_i ≤ 1), not the larger position alone."""
    pos, other, k = at.T
    turned = k[:, None] * frequency_values(d)[None, :]
    expected = (np.cos(turned), np.sin(turned))
    for start, label in ((pos, "at pos"), (other, "at the other position")):
        cosine, sine = clockwise_turn(t.impl.sinusoidal(start, d), t.impl.sinusoidal(start + k, d))
        t.close_angle(cosine, expected[0], start, start + k, label=f"cos of the turn {label}")
        t.close_angle(sine, expected[1], start, start + k, label=f"sin of the turn {label}")


def arcs_at(start: int) -> np.ndarray:
    """The clockwise turn in degrees of each of demo 4's clocks from pos = start to start + k (float64)."""
    rows = EXACT.sinusoidal([start, start + DEMO_K], DEMO_D_MODEL)
    cosine, sine = clockwise_turn(rows[0], rows[1])
    return np.degrees(np.arctan2(sine, cosine))


def clocks(rows: np.ndarray) -> Figure:
    """Demo 4's eight dials in two rows of four (x = sin, y = cos) with the hands of ``rows`` (pos, pos + k)."""
    centres = np.array([(3.0 * (index % 4), -3.0 * (index // 4)) for index in range(DEMO_D_MODEL // 2)])
    circle = np.linspace(0.0, 2 * math.pi, DIAL_POINTS, endpoint=False)
    dial = (np.add.outer(centres[:, 0], np.sin(circle)).ravel(), np.add.outer(centres[:, 1], np.cos(circle)).ravel())
    hands = {f"hand at pos = {DEMO_POS}": rows[0], f"hand at pos + k = {DEMO_POS + DEMO_K}": rows[1]}
    tips = {label: (centres[:, 0] + row[0::2], centres[:, 1] + row[1::2]) for label, row in hands.items()}
    return scatter(
        "demo-4-clocks",
        "Demo 4: the 8 clocks of d_model = 16, pos = 0 and pos + k = 2",
        "Eight unit dials in two rows of four (clock i = 0 … 7 left to right, top row first), x = sin, y = cos. "
        "At pos = 0 every hand points to 12 o'clock; at pos + 2 clock i has turned clockwise by 2ω_i: "
        "about 115° for clock 0, then less and less, to about 0.04° for clock 7.",
        {"dial": dial, **tips},
        x_label="sin (offset per clock)",
        y_label="cos (offset per clock)",
    )


@claim.probe
def demo_four(r):
    """Demo 4 (d_model = 16, 8 clocks, k = 2): hands at pos and pos + k, and the arc at several pos."""
    arcs = {start: arcs_at(start) for start in PROBE_POSITIONS}
    expected = np.degrees(DEMO_K * frequency_values(DEMO_D_MODEL))
    r.measure("arc ω_i·k in degrees per clock (k = 2), from ω_i", np.round(expected, 4))
    r.measure(
        "largest difference of the measured arc from ω_i·k, per pos (degrees)",
        {start: float(np.max(np.abs(arc - expected))) for start, arc in arcs.items()},
    )
    r.figure(clocks(EXACT.sinusoidal([DEMO_POS, DEMO_POS + DEMO_K], DEMO_D_MODEL)))
    r.figure(
        lines(
            "demo-4-arcs",
            "The arc between pos and pos + 2 is the same at every pos",
            "Clockwise turn in degrees from pos to pos + 2 for the 8 clocks, measured from the vectors at pos = 0, 5, "
            "50 and 500: the four lines lie on top of each other, falling from 114.6° (clock 0) to 0.036° (clock 7).",
            {f"pos = {start}": (np.arange(DEMO_D_MODEL // 2), arc) for start, arc in arcs.items()},
            x_label="clock i",
            y_label="turn (degrees)",
        )
    )


@claim.sweep(offsets=8)
def every_position_offset_and_pair(s):
    """Every pos × k = 1 … 8 × pair: the turn from the hand at pos to the one at pos + k is (cos ω_i k, sin ω_i k).

    x₀x₁ + y₀y₁ and x₁y₀ − y₁x₀ from the dtype's table, at the check's tolerance (scale pos + k).
    """
    here, ahead = s.pe(), s.pe(ahead=True)
    turn = s.k * s.omega
    cosine = s.products(here.sin, ahead.sin, here.cos, ahead.cos)
    s.equal_hands("x₀x₁ + y₀y₁ = cos ω_i k", cosine, torch.cos(turn), pos, k)
    sine = s.products(ahead.sin, here.cos, here.sin, ahead.cos, minus=True)
    s.equal_hands("x₁y₀ − y₁x₀ = sin ω_i k", sine, torch.sin(turn), pos, k)
