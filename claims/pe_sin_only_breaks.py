"""With sin alone, PE(0) = 0, the norm varies with pos, and the dot product depends on the reference position."""

import numpy as np
import sympy as sp

from checks import Claim, decide, given
from checks.figures import Figure, lines
from checks.formulas import k, omega, pairs_sum, pos
from checks.reference import EXACT, dot, frequency_values, sin_only
from checks.strategies import d_models, position_offset_batches
from claims.catalog.works import LESSON_002

SECTION = "6. 크기는 일정하고, 내적은 거리만 본다"
DEMO_D_MODEL = 16
"""Demo 6 states no d_model; demos 4 and 5a beside it use 16."""
DEMO_REFERENCES = (0, 10, 25)
DEMO_POSITIONS = 60
"""Demo 2 shows 60 positions."""
DISTANCES = np.arange(41)
claim = Claim(
    id="pe.sin-only-breaks",
    title="Without the cos partners the norm and the dot products depend on position",
    statement=(
        "Dropping the cos columns (PE_sin(pos) = (sin ω_i pos)_i): PE_sin(0) is the zero vector, "
        "‖PE_sin(pos)‖² = Σ (1 − cos 2ω_i pos)/2 varies with pos, and PE_sin(p₀)·PE_sin(p₀+k) = "
        "Σ (cos ω_i k − cos ω_i(2p₀+k))/2 depends on the reference position p₀; with sin and cos the three "
        "reference positions give one curve."
    ),
    sources=[
        LESSON_002.quote(
            SECTION,
            "sin만 쓰면 사정이 다릅니다. pos=0이면 벡터 전체가 0이고, 위치마다 신호 세기가 들쭉날쭉하며, 내적도 "
            "기준 위치에 따라 모양이 바뀝니다.",
        ),
        LESSON_002.quote(
            SECTION,
            "위: 위치별 벡터 길이. 아래: 기준 위치 p₀ 세 개에서 잰 PE(p₀)·PE(p₀+k). sin·cos 쌍이면 세 곡선이 한 "
            "줄로 겹칩니다.",
        ),
        LESSON_002.quote("cos(A − B) 공식은 무엇을 말하나", "데모 6 · 벡터 길이와 내적 곡선"),
    ],
    expect="proved",
)

w = omega()
reference_position = sp.Symbol("p_0", real=True)


def sin_only_dot(at: sp.Expr, factor: int = 1) -> sp.Sum:
    """factor · PE_sin(at)·PE_sin(at + k) as one sum over the pairs."""
    return pairs_sum(factor * sp.sin(w * at) * sp.sin(w * (at + k)))


@claim.proof
def _(p):
    p.decide(pairs_sum(sp.sin(w * 0) ** 2), 0, label="‖PE_sin(0)‖² = 0")
    p.decide(
        pairs_sum(2 * sp.sin(w * pos) ** 2),
        pairs_sum(1 - sp.cos(2 * w * pos)),
        label="2‖PE_sin(pos)‖² = Σ (1 − cos 2ω_i pos): pos stays in",
    )
    p.decide(
        sin_only_dot(pos, factor=2),
        pairs_sum(sp.cos(w * k) - sp.cos(w * (2 * pos + k))),
        label="2 PE_sin(pos)·PE_sin(pos+k) = Σ (cos ω_i k − cos ω_i(2pos+k)): pos stays in",
    )


@claim.check(batched=True)
@given(at=position_offset_batches(), d=d_models(even=True, high=128))
def sin_only_norm_and_dot(t, at, d):
    pos, k = at.T
    rows = [sin_only(t.ref, positions, d) for positions in (np.zeros_like(pos), pos, pos + k)]
    angles, shifted = (np.multiply.outer(ends, frequency_values(d)) for ends in (pos, pos + k))
    t.close(rows[0], np.zeros((len(pos), d // 2)), label="PE_sin(0)")
    t.close_dot(
        dot(t.impl, rows[1], rows[1]),
        np.sum(1 - np.cos(2 * angles), axis=-1) / 2,
        d,
        pos,
        pos,
        bound=d / 2,
        label="‖PE_sin(pos)‖²",
    )
    expected = np.sum(np.cos(shifted - angles) - np.cos(shifted + angles), axis=-1) / 2
    t.close_dot(dot(t.impl, rows[1], rows[2]), expected, d, pos, pos + k, label="PE_sin(pos)·PE_sin(pos+k)")


@claim.probe
def witnesses(r):
    """The decision procedure refutes 'constant norm' and 'reference-free dot product' for sin only (witnesses)."""
    for name, lhs, rhs in (
        ("‖PE_sin(pos)‖² = ‖PE_sin(0)‖²", pairs_sum(sp.sin(w * pos) ** 2), 0),
        ("PE_sin(pos)·PE_sin(pos+k) = PE_sin(p₀)·PE_sin(p₀+k)", sin_only_dot(pos), sin_only_dot(reference_position)),
    ):
        decision = decide(lhs, rhs)
        r.measure(f"sin only: {name}", {"status": decision.status, "witness": decision.witness})
        if decision.status != "refuted":
            r.counterexample(f"sin only, {name} was not refuted ({decision.status}): the text says it fails")


def dot_curves(encode) -> list[np.ndarray]:
    """PE(p₀)·PE(p₀ + k) for k = 0 … 40 from each reference position p₀ (float64)."""
    return [np.sum(encode([p0], DEMO_D_MODEL) * encode(p0 + DISTANCES, DEMO_D_MODEL), axis=1) for p0 in DEMO_REFERENCES]


@claim.probe
def demo_6(r):
    """d_model = 16, positions 0 … 59, reference positions p₀ = 0, 10, 25 and k = 0 … 40 (float64)."""
    span = np.arange(DEMO_POSITIONS)
    both, alone = EXACT.sinusoidal(span, DEMO_D_MODEL), sin_only(EXACT, span, DEMO_D_MODEL)
    norms = {"sin + cos": np.linalg.norm(both, axis=1), "sin only": np.linalg.norm(alone, axis=1)}
    r.measure(
        "‖PE(pos)‖ (min, max) over pos 0…59", {name: (float(v.min()), float(v.max())) for name, v in norms.items()}
    )
    r.measure("sin only: ‖PE_sin(0)‖", float(norms["sin only"][0]))
    r.measure(
        "sin only: ‖PE_sin(pos)‖ (min, max) over pos 1…59",
        (float(norms["sin only"][1:].min()), float(norms["sin only"][1:].max())),
    )
    curves = {"sin + cos": dot_curves(EXACT.sinusoidal), "sin only": dot_curves(lambda p, d: sin_only(EXACT, p, d))}
    spread = {name: float(np.max(np.ptp(np.stack(rows), axis=0))) for name, rows in curves.items()}
    r.measure("largest gap between the three p₀ curves over k = 0…40", spread)
    if np.ptp(norms["sin only"]) < 1e-6 or spread["sin only"] < 1e-6:
        r.counterexample("sin only: the norm or the dot-product curve does not depend on position", **spread)
    r.figure(
        lines(
            "norms",
            "Vector length by position: constant with sin + cos, uneven with sin only",
            f"‖PE(pos)‖ for d_model = {DEMO_D_MODEL}: a flat line at √8 ≈ 2.83 with sin and cos; with sin only it "
            f"starts at 0 and wanders between {norms['sin only'].min():.2f} and {norms['sin only'].max():.2f}.",
            {name: (span, v) for name, v in norms.items()},
            x_label="position",
            y_label="‖PE(pos)‖",
        )
    )
    r.figure(dot_figure(curves, spread["sin only"]))


def dot_figure(curves: dict[str, list[np.ndarray]], gap: float) -> Figure:
    """The three p₀ curves of sin + cos and of sin only against the distance k."""
    series = {
        f"{name}, p₀ = {p0}": (DISTANCES, y)
        for name, rows in curves.items()
        for p0, y in zip(DEMO_REFERENCES, rows, strict=True)
    }
    return lines(
        "dot-curves",
        "PE(p₀)·PE(p₀+k) from three reference positions",
        "With sin and cos the three curves for p₀ = 0, 10, 25 coincide; with sin only they differ "
        f"(largest gap {gap:.2f}).",
        series,
        x_label="distance k",
        y_label="PE(p₀)·PE(p₀+k)",
    )
