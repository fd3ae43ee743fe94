"""PE(pos) · PE(pos + k) = Σ_i cos(ω_i k): the dot product sees only the distance k (and not its sign)."""

import numpy as np
import sympy as sp
import torch

from checks import Claim, Erratum, given
from checks.formulas import k, omega, pairs_sum, pos
from checks.reference import EXACT, dot, similarity_curve
from checks.strategies import d_models, position_offset_batches
from claims.catalog.works import LESSON_001, LESSON_002

SECTION = "6. 크기는 일정하고, 내적은 거리만 본다"
claim = Claim(
    id="pe.dot-distance-only",
    title="The dot product of two PE vectors depends only on their distance, for an even d_model only",
    statement=(
        "For even d_model, PE(pos) · PE(pos + k) = Σ_{i=0}^{d_model/2−1} cos(ω_i k) for every pos: the right side "
        "contains no pos, and k and −k give the same value."
    ),
    sources=[
        LESSON_002.quote(SECTION, "두 위치 벡터의 내적은 쌍별로 $\\sin a\\sin b + \\cos a\\cos b = \\cos(a-b)$가 되어"),
        LESSON_002.quote(
            SECTION,
            "오른쪽에 pos가 없습니다. 두 바늘이 이루는 각도의 코사인을 다 더한 값이라, 절대 위치가 아니라 두 단어 "
            "사이의 거리 k에만 의존합니다.",
        ),
        LESSON_001.quote("4. Relative Position 정보", "두 위치 간 관계를 계산할 수 있습니다."),
        LESSON_002.quote("정리", "내적은 거리에만 의존합니다."),
    ],
    erratum=Erratum(
        severity="implementation",
        problem=(
            "Needs the sin/cos pairs the text presumes: at an odd d_model the last sine has no cosine and the dot "
            "product depends on the position (d_model = {d_model}, k = {k}: from {min_dot:.3f} to {max_dot:.3f})."
        ),
    ),
    expect="qualified",
)


@claim.proof
def _(p):
    p.assume("d_model is even: every sin has its cos (the sum runs over d_model/2 pairs)")
    a, b = p.reals("a b")
    p.decide(sp.sin(a) * sp.sin(b) + sp.cos(a) * sp.cos(b), sp.cos(a - b), label="one pair: sin a sin b + cos a cos b")
    w = omega()
    distance_sum = pairs_sum(sp.cos(w * k))

    def dot_with(other: sp.Expr) -> sp.Sum:
        return pairs_sum(sp.sin(w * pos) * sp.sin(w * other) + sp.cos(w * pos) * sp.cos(w * other))

    p.decide(dot_with(pos + k), distance_sum, label="PE(pos)·PE(pos+k) = Σ cos(ω_i k), termwise over the pairs")
    p.free_of(distance_sum, pos, label="Σ cos(ω_i k) contains no pos")
    p.decide(dot_with(pos - k), distance_sum, label="k → −k: PE(pos)·PE(pos−k) is the same sum")


@claim.check(batched=True)
@given(at=position_offset_batches(both_ways=True), d=d_models(even=True, high=128))
def dot_product_is_distance_only(t, at, d):
    pos, k = at.T
    here, expected = t.impl.sinusoidal(pos, d), similarity_curve(d, k)
    for other, label in ((pos + k, "PE(pos)·PE(pos+k)"), (pos - k, "PE(pos)·PE(pos−k)")):
        there = t.impl.sinusoidal(other, d)
        t.close_dot(dot(t.impl, here, there), expected, d, pos, other, label=label)


@claim.probe
def free_of_position(r):
    """d_model = 64, k = 3: the dot product at 200 positions spreads only by rounding."""
    pe = EXACT.sinusoidal(np.arange(-3, 203), 64)  # row j is position j − 3
    here, ahead, behind = pe[3:203], pe[6:206], pe[0:200]
    forward, backward = np.sum(here * ahead, axis=1), np.sum(here * behind, axis=1)
    r.measure("d_model=64, k=3: Σ cos(ω_i·3)", similarity_curve(64, [3])[0])
    r.measure("d_model=64, k=3: spread of PE(pos)·PE(pos+3) over pos < 200", np.ptp(forward))
    r.measure(
        "d_model=64: largest |PE(pos)·PE(pos+3) − PE(pos)·PE(pos−3)| over pos < 200", np.abs(forward - backward).max()
    )


@claim.probe
def odd_d_model(r):
    """Odd d_model, the last column a lone sin as in document 000's code: the dot product depends on pos."""
    d, step = 5, 3
    pe = EXACT.sinusoidal(np.arange(2000 + step), d)
    dots = np.sum(pe[:2000] * pe[step:], axis=1)
    r.measure("odd d_model=5, k=3: (min, max) of PE(pos)·PE(pos+3) over pos < 2000", (dots.min(), dots.max()))
    if np.ptp(dots) > 1e-6:
        varies = {"d_model": d, "k": step, "min_dot": dots.min(), "max_dot": dots.max()}
        r.condition(
            "d_model must be even: with odd d_model the last sin has no cos partner and PE(pos)·PE(pos+k) "
            f"depends on pos (d_model=5, k=3: {dots.min():.4f} … {dots.max():.4f} over pos < 2000)",
            **varies,
        )


@claim.sweep(offsets=8)
def every_position_offset_and_pair(s):
    """Every pos × k = 1 … 8 × pair i: the pair's share sin·sin + cos·cos of PE(pos)·PE(pos + k) is cos(ω_i k).

    The document's own step ("쌍별로 … = cos(a−b)"), at the check's tolerance split per pair: dot_scale
    gives pair i its angles ω_i(|pos| + |pos + k|) and its two rounded products, so the shares' tolerances
    add up to the dot product's. PE(pos)·PE(pos − k) multiplies the same entries as PE(pos′)·PE(pos′ + k)
    at pos′ = pos − k, so the grid covers −k too (for pos ≥ k).
    """
    here, ahead = s.pe(), s.pe(ahead=True)
    share = s.products(here.sin, ahead.sin, here.cos, ahead.cos)
    s.equal_hands(
        "pair i of PE(pos)·PE(pos + k) = cos(ω_i k)", share, torch.cos(s.k * s.omega), pos, pos + k, held_as="dot"
    )
