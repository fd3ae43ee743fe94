"""RMSNorm is invariant to re-scaling a row (where its mean square dwarfs ε), not to re-centring it."""

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import assume
from hypothesis import strategies as st

from checks import Claim, Erratum, given
from checks.topics.normalisation import EPS, RMS_NORM, rms_norm_reference
from claims.catalog.works import zhang_2019

claim = Claim(
    id="rms-norm.rescaling-invariance",
    title="RMSNorm ignores a row's scale where its mean square dwarfs ε, and never its shift",
    statement=(
        "RMSNorm(a·x) = RMSNorm(x) for every a > 0 when ε = 0; with the ε > 0 implementations add (torch's 1e-5), "
        "RMSNorm(a·x) = x / √(mean(x²) + ε/a²), so the invariance holds where a²·mean(x²) ≫ ε. Unlike LayerNorm it "
        "is not invariant to a shift: RMSNorm(x + c) ≠ RMSNorm(x) for c ≠ 0."
    ),
    sources=[
        zhang_2019(
            "Abstract",
            "RMSNorm regularizes the summed inputs to a neuron in one layer according to root mean square (RMS), "
            "giving the model re-scaling invariance property and implicit learning rate adaptation ability.",
        )
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The re-scaling invariance is exact only without ε: with the ε an implementation adds (torch's default "
            "1e-5), a row of mean square 1 scaled by 0.001 comes out at {at_thousandth:.0%} of its size."
        ),
        reader_problem=(
            "스케일 불변성은 ε이 없을 때만 정확합니다. 구현이 더하는 ε(torch 기본값 1e-5)이 있으면, 제곱평균이 "
            "1인 행을 0.001배 하면 출력이 원래 크기의 {at_thousandth:.0%}가 됩니다."
        ),
        wording=(
            "RMSNorm regularizes the summed inputs to a neuron in one layer according to root mean square (RMS), "
            "giving the model re-scaling invariance property (for inputs whose mean square stays well above the ε "
            "added to it) and implicit learning rate adaptation ability."
        ),
    ),
    expect="qualified",
)

x, c = sp.symbols("x_i c", real=True)
a, s, eps = sp.symbols("a mean_square epsilon", positive=True)


def entry(value: sp.Expr, mean_square: sp.Expr, epsilon: sp.Expr) -> sp.Expr:
    """One entry of RMSNorm before the weight: x_i / √(mean(x²) + ε)."""
    return value / sp.sqrt(mean_square + epsilon)


@claim.proof
def _(p):
    p.assume("the mean square of a·x is a²·mean(x²) (linearity of the mean)")
    p.decide(entry(a * x, a**2 * s, 0), entry(x, s, 0), label="scale, ε = 0: RMSNorm(a·x) = RMSNorm(x)")
    p.decide(entry(a * x, a**2 * s, eps), x / sp.sqrt(s + eps / a**2), label="scale, ε > 0: x / √(mean(x²) + ε/a²)")
    p.refute(entry(a * x, a**2 * s, eps), entry(x, s, eps), label="scale, ε > 0: RMSNorm(a·x) = RMSNorm(x)")


@claim.check(uses="rms_norm")
@given(inputs=RMS_NORM.strategy(), where=st.floats(0.0, 1.0))
def scale_as_epsilon_says(t, inputs, where):
    """Each implementation's RMSNorm(a·x) is x / √(mean(x²) + ε/a²) · w for a from 10⁻⁴ to 10² (``where`` picks a
    on a log scale), narrowed to what the dtype holds: a mean square at least 2¹⁰ times its smallest normal number,
    entries below 2⁻⁴ √max (their squares must not overflow)."""
    x_in, weight = (t.xp.array(value) for value in inputs)
    rows = t.xp.to_float64(x_in)
    limits, size = torch.finfo(getattr(torch, t.dtype)), float(np.min((rows**2).mean(-1)))
    assume(size > 0)  # a row of zeros has no scale to change
    low = max(-4.0, 0.5 * math.log10(2.0**10 * limits.tiny / size))
    high = min(2.0, math.log10(2.0**-4 * limits.max**0.5 / float(np.max(np.abs(rows)))))
    assume(low < high)
    scaled = t.xp.array(rows * 10.0 ** (low + where * (high - low)))
    values, w = (t.xp.to_float64(value) for value in (scaled, weight))
    expected = values / np.sqrt((values**2).mean(-1, keepdims=True) + EPS) * w
    t.close_rms_norm(t.impl.rms_norm(scaled, weight), expected, scaled, weight)


@claim.probe
def shift_and_scale(r):
    """A row of mean square 1: RMSNorm under a shift by 1, and scaled down, at ε = 1e-5."""
    row = np.random.default_rng(0).normal(0.0, 1.0, 64)
    row = row / np.sqrt((row**2).mean())
    ones = np.ones(64)
    plain = rms_norm_reference(row, ones)
    shifted = float(np.max(np.abs(rms_norm_reference(row + 1.0, ones) - plain)))
    r.measure("max |RMSNorm(x + 1) − RMSNorm(x)| for a row of mean square 1", shifted)
    if shifted < 1e-6:
        r.counterexample("a shift by 1 left RMSNorm unchanged", shifted=shifted)
    shrink = {
        f"a = {scale:g}": float(np.max(np.abs(rms_norm_reference(row * scale, ones))) / np.max(np.abs(plain)))
        for scale in (1.0, 1e-1, 1e-2, 1e-3)
    }
    r.measure("max |RMSNorm(a·x)| / max |RMSNorm(x)|, ε = 1e-5", shrink)
    r.condition(
        f"holds only where a²·mean(x²) ≫ ε: at ε = {EPS:g} a row of mean square 1 scaled by 0.001 comes out at "
        f"{shrink['a = 0.001']:.0%} of its size",
        shrink=shrink,
        at_thousandth=shrink["a = 0.001"],
    )
