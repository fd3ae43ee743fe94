"""Each (sin θ, cos θ) pair lies on the unit circle: 12 o'clock at θ = 0, turning clockwise as θ grows."""

import math

import numpy as np
import sympy as sp
import torch

from checks import FLOATS, Claim, given
from checks.formulas import pair, pos
from checks.reference import clockwise_turn, frequency_values, table_in
from checks.strategies import d_models, position_batches
from claims.catalog.works import LESSON_002

SECTION = "4. 시계 바늘: 원 위의 한 점"
claim = Claim(
    id="pe.unit-circle",
    title="A PE pair is a clock hand on the unit circle",
    statement=(
        "(x, y) = (sin θ, cos θ) satisfies x² + y² = 1; θ = 0 gives (0, 1), 12 o'clock; as θ grows the point "
        "moves clockwise (x·dy − y·dx = −dθ, a negative signed area), so one step pos → pos + 1 turns pair i "
        "clockwise by ω_i."
    ),
    sources=[
        LESSON_002.quote(
            SECTION,
            "$\\sin^2\\theta + \\cos^2\\theta = 1$이므로 $(\\sin\\theta, \\cos\\theta)$는 반지름 1인 원 위의 점입니다.",
        ),
        LESSON_002.quote(
            SECTION,
            "가로 좌표를 sin, 세로 좌표를 cos로 두면 $\\theta = 0$일 때 점은 12시에 있고, "
            "θ가 커질수록 시계 방향으로 돕니다.",
        ),
        LESSON_002.quote("4. 시계 바늘: 원 위의 한 점", "위치 인코딩의 한 쌍은 문자 그대로 시계 바늘입니다."),
        LESSON_002.quote(
            "4. 시계 바늘: 원 위의 한 점", "점에서 내린 가로 길이가 sin θ(파랑), 세로 길이가 cos θ(주황)입니다."
        ),
        LESSON_002.quote(
            "4. 시계 바늘: 원 위의 한 점",
            "두 변과 반지름(1)이 직각삼각형을 이루니 피타고라스 정리로 sin²θ + cos²θ = 1² = 1. 각도가 바뀌어도 "
            "반지름은 그대로 1이므로 점은 항상 원 위에 있습니다.",
        ),
        LESSON_002.quote(
            "4. 시계 바늘: 원 위의 한 점",
            "$$\\theta = \\omega_i \\cdot pos$$ 단어 하나를 지날 때마다 바늘이 ω_i만큼 돕니다.",
        ),
        LESSON_002.quote(
            "4. 시계 바늘: 원 위의 한 점", "0번 단어는 12시, 1번 단어는 ω_i, 2번 단어는 2ω_i만큼 돌아간 자리."
        ),
        LESSON_002.quote("정리", "sin은 위치를 표시하고, 짝이 되는 cos는 그 위치를 회전 각도로 만듭니다."),
    ],
    expect="proved",
)

WIDGET_DEGREES = 40
"""The figure's slider: θ = 40° (clockwise from 12 o'clock)."""


@claim.proof
def _(p):
    theta, a, b = sp.symbols("theta a b", real=True)
    x, y = sp.sin(theta), sp.cos(theta)
    p.decide(x**2 + y**2, 1, label="x² + y² = 1")
    p.step("θ = 0 → (x, y) = (0, 1): 12 o'clock; θ = π/2 → (1, 0): 3 o'clock", sp.Tuple(pair(0), pair(sp.pi / 2)))
    p.decide(x * sp.diff(y, theta) - y * sp.diff(x, theta), -1, label="x·dy/dθ − y·dx/dθ = −1 < 0: clockwise")
    cross = sp.sin(a) * sp.cos(b) - sp.cos(a) * sp.sin(b)
    p.decide(cross, -sp.sin(b - a), label="hand at a × hand at b = −sin(b − a): negative for 0 < b − a < π")


@claim.check(uses="sinusoidal", batched=True)
@given(pos=position_batches(), d=d_models(even=True, high=128))
def hands_on_circle_turn_clockwise(t, pos, d):
    """Every pair of PE(pos) has x² + y² = 1, and the step to pos + 1 turns it clockwise by ω_i."""
    rows, after = t.impl.sinusoidal(pos, d), t.impl.sinusoidal(pos + 1, d)
    here = t.xp.to_float64(rows)
    radii = here[:, 0::2] ** 2 + here[:, 1::2] ** 2
    t.close(radii, np.ones_like(radii), bound=1.0, label="x² + y²")
    cosine, sine = clockwise_turn(rows, after)
    step = np.broadcast_to(frequency_values(d), radii.shape)
    t.close_pe(sine, np.sin(step), pos + 1, label="sin of the clockwise turn")
    t.close_pe(cosine, np.cos(step), pos + 1, label="cos of the clockwise turn")


@claim.probe
def clock_face(r):
    """Where the hand points at 0°, 90°, 180°, 270° and at the figure's 40°; radius spread per dtype."""
    faces = {}
    for degrees, hour in ((0, 12), (90, 3), (180, 6), (270, 9), (WIDGET_DEGREES, None)):
        theta = math.radians(degrees)
        x, y = math.sin(theta), math.cos(theta)
        faces[f"θ = {degrees}°"] = {
            "(x, y) = (sin θ, cos θ)": [round(x, 4), round(y, 4)],
            "clockwise angle from 12 o'clock, atan2(x, y)": round(math.degrees(math.atan2(x, y)) % 360, 6),
            "hour": hour,
            "x² + y²": x * x + y * y,
        }
    r.measure("hand positions", faces)
    spread = {}
    for dtype in FLOATS:
        table = table_in(dtype, np.arange(1024), 64)
        radius = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
        spread[dtype] = float(np.max(np.abs(radius - 1)))
    r.measure("max |x² + y² − 1| over positions < 1024, d_model = 64, computed in each dtype", spread)


@claim.sweep(offsets=1)
def every_position_and_pair(s):
    """Every pos × pair: x² + y² = 1, and the step to pos + 1 turns the hand by ω_i (cos and sin of the turn).

    The check's tolerances: scale 1 for the radius, pos + 1 for the turn.
    """
    here, ahead = s.pe(), s.pe(ahead=True)
    s.equal("x² + y² = 1", s.products(here.sin, here.sin, here.cos, here.cos, rounded=False), 1.0, scale=1.0)
    cosine = s.products(here.sin, ahead.sin, here.cos, ahead.cos)
    s.equal_hands("x₀x₁ + y₀y₁ = cos ω_i", cosine, torch.cos(s.omega), pos + 1)
    sine = s.products(ahead.sin, here.cos, here.sin, ahead.cos, minus=True)
    s.equal_hands("x₁y₀ − x₀y₁ = sin ω_i", sine, torch.sin(s.omega), pos + 1)
