"""sin x = sin(π − x): one sin value names two positions per period; the paired cos has opposite signs there."""

import math

import numpy as np
import sympy as sp

from checks import Claim, Erratum, given
from checks.figures import lines
from checks.strategies import position_batches, with_frequencies
from claims.catalog.works import LESSON_002

SECTION = "3. sin 하나로는 부족하다"
RED_DOT = "빨간 점은 sin만 보면 현재 위치와 구분되지 않는 다른 위치입니다."
claim = Claim(
    id="pe.sin-ambiguous",
    title="sin alone is ambiguous within a period; cos tells the two points apart",
    statement=(
        "For a frequency ω, position pos and its partner π/ω − pos have the same sin(ω·) but cos values of opposite "
        "sign; the two points coincide exactly when cos(ω pos) = 0. Demo 3 (pos = 3, ω = 0.30): the partner is "
        "(π − 0.9)/0.3 ≈ 7.47, a real position and no token's: at the lessons' frequencies (π/ω irrational) no two "
        "token positions share a sin value exactly, they only come close."
    ),
    sources=[
        LESSON_002.quote(
            SECTION,
            "한 주파수만 놓고 보면 $\\sin x$는 한 주기 안에서 같은 값을 두 번 냅니다($\\sin x = \\sin(\\pi - x)$).",
        ),
        LESSON_002.quote(SECTION, "짝이 되는 cos가 그 답을 줍니다. 두 지점에서 cos는 부호가 반대입니다."),
        LESSON_002.quote("데모 3 · 같은 sin 값, 다른 위치", RED_DOT),
        LESSON_002.quote(
            "3. sin 하나로는 부족하다", "값이 0.5라고 해도 올라가는 중인지 내려가는 중인지 알 수 없습니다."
        ),
        LESSON_002.quote("정리", "② 한 주기 안에서 위치가 모호하지 않으며"),
        LESSON_002.quote("3. sin 하나로는 부족하다", "데모 3 · 같은 sin 값, 다른 위치"),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The other position with the same sin, π/ω − pos, is a real number: {partner:.2f} in demo 3, not a "
            "token position. Among token positions sin values come close but never coincide at the lessons' "
            "frequencies (π/ω is irrational): the nearest below 1000 is q = {closest}, {gap:.3f} away."
        ),
        reader_problem=(
            "빨간 점의 위치(π/ω − pos)는 실수입니다. 데모의 pos = 3, ω = 0.30이면 {partner:.2f}로 단어 위치가 "
            "아닙니다. 정수 위치끼리는 sin 값이 정확히 같아지지 않고 가까워질 뿐입니다(1000 안에서 가장 가까운 "
            "q = {closest}, 차이 {gap:.3f}). sin만으로는 가까운 값의 위치를 가려내기 어렵다는 요점은 그대로입니다."
        ),
        wording=(
            "빨간 점은 sin만 보면 현재 위치와 구분되지 않는 다른 위치입니다(빨간 점은 pos를 연속값으로 본 위치라 "
            "정수가 아닐 수 있습니다. 예: pos 3, ω 0.30이면 약 {partner:.2f}. 정수 위치끼리는 sin 값이 정확히 "
            "같지는 않아도 아주 가까워질 수 있습니다.)"
        ),
        sentence=RED_DOT,
    ),
    expect="qualified",
)

DEMO_POS, DEMO_OMEGA = 3, 0.30


@claim.proof
def _(p):
    x = sp.Symbol("x", real=True)
    sin_mirror, cos_mirror = sp.sin(sp.pi - x, evaluate=False), sp.cos(sp.pi - x, evaluate=False)
    p.decide(sin_mirror, sp.sin(x), label="sin(π − x) = sin x")
    p.decide(cos_mirror, -sp.cos(x), label="cos(π − x) = −cos x: opposite signs")
    gap = (sp.sin(x) - sin_mirror) ** 2 + (sp.cos(x) - cos_mirror) ** 2
    p.decide(gap, 4 * sp.cos(x) ** 2, label="the two points coincide only where cos x = 0")
    w = sp.Symbol("omega", positive=True)
    pos = sp.Symbol("pos", real=True)
    partner = sp.pi / w - pos
    p.decide(sp.sin(w * partner), sp.sin(w * pos), label="partner position π/ω − pos has the same sin")
    p.step(
        "demo 3: partner of pos = 3 at ω = 3/10",
        sp.Eq(partner.subs({w: sp.Rational(3, 10), pos: 3}), (sp.pi - sp.Rational(9, 10)) / sp.Rational(3, 10)),
    )


@claim.check(batched=True)
@given(at=with_frequencies(position_batches()))
def partner_shares_sin_not_cos(t, at):
    """In the dtype, sin(ω p′) = sin(ω pos) and cos(ω p′) = −cos(ω pos) for p′ = π/ω − pos."""
    pos, omega = np.asarray(at[0], dtype=np.float64), np.asarray(at[1])
    partner = math.pi / omega - pos
    here = t.xp.array(pos) * t.xp.array(omega)
    there = t.xp.array(partner) * t.xp.array(omega)
    largest = np.maximum(np.abs(pos * omega), np.abs(partner * omega))
    t.close_angle(t.xp.sin(there), np.sin(omega * pos), largest, label="sin at the partner")
    t.close_angle(t.xp.cos(there), -np.cos(omega * pos), largest, label="cos at the partner")
    t.close_angle(t.xp.sin(here), np.sin(omega * pos), largest, label="sin at pos")


@claim.probe
def demo_three(r):
    """pos = 3, ω = 0.30: the other position with the same sin, and the integer positions nearest to it."""
    angle = DEMO_POS * DEMO_OMEGA
    partner = (math.pi - angle) / DEMO_OMEGA
    r.measure(
        "demo 3 (pos = 3, ω = 0.30)",
        {
            "partner (π − 0.9)/0.3": partner,
            "period 2π/ω": 2 * math.pi / DEMO_OMEGA,
            "sin at pos, at partner": [math.sin(angle), math.sin(DEMO_OMEGA * partner)],
            "cos at pos, at partner": [math.cos(angle), math.cos(DEMO_OMEGA * partner)],
        },
    )
    near = {q: {"sin": math.sin(DEMO_OMEGA * q), "cos": math.cos(DEMO_OMEGA * q)} for q in (7, 8)}
    r.measure("integer positions beside the partner (it is not itself an integer)", near)
    others = np.arange(0, 1000)
    others = others[others != DEMO_POS]
    gaps = np.abs(np.sin(DEMO_OMEGA * others) - math.sin(angle))
    closest = int(others[np.argmin(gaps)])
    r.measure(
        "integer q < 1000 whose sin(0.3 q) is closest to sin(0.9)",
        {"q": closest, "|sin difference|": float(gaps.min()), "cos there": math.cos(DEMO_OMEGA * closest)},
    )
    if partner != round(partner):
        r.condition(
            "the position with the same sin is a real number, not a token position (demo 3); token positions "
            "only come close",
            partner=partner,
            closest=closest,
            gap=float(gaps.min()),
        )
    grid = np.linspace(0.0, 2 * math.pi / DEMO_OMEGA, 120)
    r.figure(
        lines(
            "demo-3",
            "Same sin, different position (ω = 0.30)",
            "sin(0.3·pos) and cos(0.3·pos) over one period (0 to 20.9); marks at pos = 3 and at its partner 7.47, "
            "where the sin curve has the same height 0.78 and the cos curve has opposite signs (+0.62 and −0.62).",
            {"sin(ω·pos)": (grid, np.sin(DEMO_OMEGA * grid)), "cos(ω·pos)": (grid, np.cos(DEMO_OMEGA * grid))},
            x_label="pos",
            y_label="value",
            marks={"pos = 3": float(DEMO_POS), "partner 7.47": partner},
        )
    )
