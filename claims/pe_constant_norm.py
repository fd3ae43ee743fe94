"""‖PE(pos)‖ = √(d_model/2) at every position: true for even d_model only."""

import numpy as np
import sympy as sp
import torch

from checks import Claim, Erratum, given
from checks.formulas import d_model, i, omega, pairs_sum, pos
from checks.reference import EXACT
from checks.strategies import d_models, position_batches
from claims.catalog.works import LESSON_002

claim = Claim(
    id="pe.constant-norm",
    title="Every PE vector has length √(d_model/2), for an even d_model only",
    statement=(
        "For every position pos, the sinusoidal vector PE(pos) has Euclidean norm √(d_model/2), "
        "because each (sin, cos) pair contributes sin² + cos² = 1."
    ),
    sources=[
        LESSON_002.quote(
            "6. 크기는 일정하고, 내적은 거리만 본다",
            "쌍마다 $\\sin^2 + \\cos^2 = 1$이므로 위치 벡터 전체의 길이는 위치와 상관없이 항상 "
            "$\\sqrt{d_{model}/2}$입니다.",
        ),
        LESSON_002.quote("정리", "③ 벡터 길이가 일정하고"),
    ],
    erratum=Erratum(
        severity="implementation",
        problem=(
            "Needs the sin/cos pairs the text presumes: at an odd d_model the last sine has no cosine and the "
            "length changes with the position (d_model = {d_model}: from {min_norm:.3f} to {max_norm:.3f})."
        ),
    ),
    expect="qualified",
)


@claim.proof
def _(p):
    p.assume("d_model is even: every sin has its cos (the sum runs over d_model/2 pairs)")
    angle = omega() * pos
    norm_squared = pairs_sum(sp.sin(angle) ** 2 + sp.cos(angle) ** 2)
    p.decide(norm_squared, d_model / 2, label="‖PE(pos)‖² = d_model/2, termwise over the pairs")


@claim.check(uses="sinusoidal", batched=True)
@given(pos=position_batches(), d=d_models(even=True))
def norm_is_constant(t, pos, d):
    pe = t.impl.sinusoidal(pos, d)
    t.close_norm(t.xp.sqrt(t.xp.sum(pe * pe, axis=-1)), np.full(len(pos), np.sqrt(d / 2)), d_model=d)


@claim.probe
def odd_d_model(r):
    """Odd d_model, with the last column a lone sin as in document 000's code."""
    norms = {d: np.linalg.norm(EXACT.sinusoidal(np.arange(2000), d), axis=1) for d in (3, 5, 7, 63)}
    spread = {d: (n.min(), n.max(), np.sqrt(d / 2)) for d, n in norms.items()}
    r.measure("odd d_model: (min, max, √(d/2)) of ‖PE(pos)‖ over pos < 2000", spread)
    low, high, target = spread[5]
    if high - low > 1e-6:
        varies = {"d_model": 5, "min_norm": low, "max_norm": high}
        r.condition(
            "d_model must be even: with odd d_model the last sin has no cos partner and "
            f"‖PE(pos)‖ varies with pos (d_model=5: {low:.4f} … {high:.4f}, never constant √2.5={target:.4f})",
            **varies,
        )


@claim.sweep()
def every_position_and_prefix(s):
    """Every pos × m = 1 … d_model/2: the first m pairs of PE(pos) have norm √m (m = d_model/2 is the claim).

    Each pair adds sin² + cos² = 1, so every prefix is a case. Squares, running sum and square root are
    taken in the dtype; the tolerance is the check's (scale |expected| = √m).
    """
    pe = s.pe(pairs_innermost=True)
    norms = s.sqrt(s.cumsum(s.products(pe.sin, pe.sin, pe.cos, pe.cos), dim=0))
    s.equal(
        "‖first m pairs of PE(pos)‖ = √m",
        norms,
        torch.sqrt(s.pair + 1.0),
        scale=sp.sqrt(i + 1),
        inputs={"pos": s.pos, "pairs m": s.pair + 1},
    )
