"""The frequencies ω_i form a geometric sequence; periods run from 2π to 2π·10000^(1−2/d_model)."""

import math

import sympy as sp

from checks import Claim, Erratum, given
from checks.figures import lines
from checks.formulas import BASE, d_model, i, omega
from checks.reference import frequency_values
from checks.strategies import d_models
from claims.catalog.works import LESSON_000, LESSON_002

SECTION = "7. 시계가 여러 개인 이유"
claim = Claim(
    id="pe.frequencies-geometric",
    title="Clock speeds fall geometrically, from period 2π to almost 2π × 10000",
    statement=(
        "ω_{i+1}/ω_i = 10000^(−2/d_model) for every i, so the periods 2π/ω_i = 2π·10000^(2i/d_model) grow "
        "geometrically from 2π ≈ 6.3 (i = 0) to 2π·10000^(1−2/d_model) (i = d_model/2 − 1), which is close to "
        "2π × 10000 only for large d_model."
    ),
    sources=[
        LESSON_002.quote(
            SECTION,
            "주기는 $2\\pi/\\omega_i = 2\\pi\\cdot 10000^{2i/d_{model}}$로, "
            "가장 빠른 시계의 $2\\pi \\approx 6.3$칸부터 "
            "가장 느린 시계의 거의 $2\\pi \\times 10000$칸까지 기하급수로 늘어납니다.",
        ),
        LESSON_002.quote(SECTION, "d_model = 512 기준, 256쌍 중 일부."),
        LESSON_000.quote("직관적 이해: 이진수와의 유사성", "낮은 차원: 빠르게 변하는 sin/cos (bit0처럼)"),
        LESSON_000.quote("직관적 이해: 이진수와의 유사성", "높은 차원: 느리게 변하는 sin/cos (bit3처럼)"),
        LESSON_002.quote(SECTION, "쌍이 $d_{model}/2$개이니 시계도 그만큼 있고, 각각 속도가 다릅니다."),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The slowest period is 2π·10000^(1 − 2/d_model), near 2π × 10000 only for a large d_model: 2π × "
            "{d_model_512:.0f} at d_model = 512, 2π × {d_model_64:.0f} at 64 (demo 2) and 2π × {d_model_16:.0f} at "
            "16 (demo 4)."
        ),
        reader_problem=(
            "가장 느린 주기는 2π·10000^(1 − 2/d_model)이며, d_model이 클 때만 2π × 10000에 가깝습니다. d_model = "
            "512에서는 2π × {d_model_512:.0f}, 64(데모 2)에서는 2π × {d_model_64:.0f}, 16(데모 4)에서는 2π × "
            "{d_model_16:.0f}입니다."
        ),
        wording=(
            "주기는 $2\\pi/\\omega_i = 2\\pi\\cdot 10000^{{2i/d_{{model}}}}$로, 가장 빠른 시계의 $2\\pi \\approx "
            "6.3$칸부터 가장 느린 시계의 $2\\pi\\cdot 10000^{{1-2/d_{{model}}}}$칸까지 기하급수로 "
            "늘어납니다(d_model = 512이면 거의 $2\\pi \\times 10000$칸이지만, 데모 4의 d_model = 16에서는 $2\\pi "
            "\\times {d_model_16:.0f}$칸입니다)."
        ),
    ),
    expect="qualified",
)

TABLE_PAIRS = (0, 1, 2, 4, 8, 16, 32, 64, 128, 255)
"""Rows of §7's table for d_model = 512 (the source text lost them)."""
NEAR = 0.95
"""'Almost 2π × 10000' read as within 5 %."""


@claim.proof
def _(p):
    ratio = omega(i + 1) / omega(i)
    p.decide(ratio, BASE ** (-2 / d_model), label="ω_{i+1}/ω_i = 10000^(−2/d_model)")
    combined = sp.powsimp(ratio)
    p.step("the same ratio with its powers combined (sympy.powsimp): 10000^(−2/d_model) = 10^(−8/d_model)", combined)
    p.free_of(combined, i, label="the ratio contains no i: a geometric sequence")
    p.decide(2 * sp.pi / omega(), 2 * sp.pi * BASE ** (2 * i / d_model), label="period 2π/ω_i = 2π·10000^(2i/d_model)")
    p.decide(2 * sp.pi / omega(sp.Integer(0)), 2 * sp.pi, label="fastest clock (i = 0): period 2π")
    p.step("2π to two digits", sp.N(2 * sp.pi, 2))
    slowest = 2 * sp.pi / omega(d_model / 2 - 1)
    p.decide(slowest, 2 * sp.pi * BASE ** (1 - 2 / d_model), label="slowest clock (i = d_model/2 − 1)")
    p.step("slowest / (2π·10000) = 10000^(−2/d_model) < 1, → 1 only as d_model → ∞", BASE ** (-2 / d_model))
    p.step("equal to the binary counter's ratio 2 only at d_model = 2·log₂10000", 2 * sp.log(BASE, 2))


@claim.check
@given(d=d_models(even=True, low=4, high=1024))
def each_is_the_last_times_the_ratio(t, d):
    """ω_{i+1} in the dtype equals ω_i (as stored in the dtype) times 10000^(−2/d_model)."""
    stored = t.xp.to_float64(t.ref.frequencies(d))
    t.close(stored[1:], stored[:-1] * 10000 ** (-2 / d), label="ω_{i+1}")


def table_row(pair: int, omega: float) -> dict[str, float]:
    """One row of §7's table: pair i's ω_i, its period, and the angle between neighbours in radians and degrees."""
    return {
        "pair i": pair,
        "ω_i": omega,
        "period (positions)": 2 * math.pi / omega,
        "neighbour angle (rad)": omega,
        "neighbour angle (°)": math.degrees(omega),
    }


@claim.probe
def section_seven_table(r):
    """§7's table for d_model = 512 and the slowest period as a function of d_model."""
    frequencies = frequency_values(512)
    r.measure("§7 table, d_model = 512", [table_row(pair, float(frequencies[pair])) for pair in TABLE_PAIRS])
    r.measure("fastest period 2π", 2 * math.pi)
    slowest_period_by_d_model(r)


def slowest_period_by_d_model(r):
    """How near the slowest period 2π·10000^(1 − 2/d_model) comes to 2π × 10000, by d_model."""
    share = {d: 10000 ** (1 - 2 / d) for d in (4, 8, 16, 32, 64, 128, 256, 360, 512, 1024, 2048, 4096)}
    r.measure("slowest period / 2π = 10000^(1 − 2/d_model)", {d: round(v, 1) for d, v in share.items()})
    r.measure(
        "period ratio between neighbouring pairs, 10000^(2/d_model)", {d: 10000 ** (2 / d) for d in (16, 64, 512)}
    )
    r.measure("d_model at which that ratio would be 2 (binary counter)", 2 * math.log2(10000))
    smallest = math.ceil(2 * math.log(10000) / -math.log(NEAR) / 2) * 2
    r.measure("smallest d_model with slowest period ≥ 95 % of 2π × 10000", smallest)
    r.condition(
        "'almost 2π × 10000' needs a large d_model: the slowest period is 2π·10000^(1 − 2/d_model) = "
        f"2π × {share[512]:.0f} at d_model = 512 ({share[512] / 100:.1f} %), 2π × {share[64]:.0f} at 64 (demo 2), "
        f"2π × {share[16]:.0f} at 16 (demo 4); within 5 % of 2π × 10000 only from d_model = {smallest}",
        d_model_512=share[512],
        d_model_64=share[64],
        d_model_16=share[16],
    )
    r.figure(
        lines(
            "slowest-period",
            "Slowest clock's period / 2π against d_model",
            "10000^(1 − 2/d_model) rises from 100 at d_model = 4 to 9647 at 512 and 9955 at 4096, approaching but "
            "never reaching 10000; a mark at d_model = 512.",
            {"slowest period / 2π": ([math.log2(d) for d in share], list(share.values()))},
            x_label="log2 d_model",
            y_label="period / 2π",
            marks={"d_model = 512": 9.0},
        )
    )
