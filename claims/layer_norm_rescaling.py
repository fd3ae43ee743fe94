"""LayerNorm absorbs a shift of a row exactly, and a re-scaling only where the row's variance dwarfs ε."""

import math

import numpy as np
import sympy as sp
import torch
from hypothesis import assume
from hypothesis import strategies as st

from checks import Claim, Erratum, given
from checks.topics.normalisation import EPS, LAYER_NORM, layer_norm_reference
from claims.catalog.works import ba_2016

claim = Claim(
    id="layer-norm.rescaling-invariance",
    title="LayerNorm ignores a row's shift, and its scale only where the scaled variance dwarfs ε",
    statement=(
        "LN(a·x + c) = LN(x) for every a > 0 and c when ε = 0: the row's mean and variance absorb both. With the ε > 0 "
        "every implementation adds (torch's default 1e-5) the shift is still absorbed exactly, the scale is not: "
        "LN(a·x) = (x − μ) / √(var + ε/a²), so a row scaled down until a²·var is comparable to ε comes out shrunk."
    ),
    sources=[
        ba_2016(
            "5.1 Invariance under weights and data transformations",
            "Furthermore, layer normalization is invariant to re-scaling of individual training cases, because the "
            "normalization scalars μ and σ in Eq. (3) only depend on the current input data.",
        )
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The invariance to re-scaling is exact only without ε: with the ε an implementation adds to the variance "
            "(torch's default 1e-5), a case of variance 1 scaled by 0.01 comes out {at_hundredth:.1%} smaller, "
            "scaled by 0.001 at {at_thousandth:.0%} of its size."
        ),
        reader_problem=(
            "스케일 불변성은 ε이 없을 때만 정확합니다. 구현이 분산에 더하는 ε(torch 기본값 1e-5)이 있으면, "
            "분산이 1인 입력을 0.01배 하면 출력이 {at_hundredth:.1%} 작아지고, 0.001배 하면 원래 크기의 "
            "{at_thousandth:.0%}가 됩니다."
        ),
        wording=(
            "Furthermore, layer normalization is invariant to re-scaling of individual training cases whose variance "
            "stays well above the ε added to it, because the normalization scalars μ and σ in Eq. (3) only depend on "
            "the current input data."
        ),
    ),
    expect="qualified",
)

x, mu, c = sp.symbols("x_i mu c", real=True)
a, v, eps = sp.symbols("a var epsilon", positive=True)


def entry(value: sp.Expr, mean: sp.Expr, variance: sp.Expr, epsilon: sp.Expr) -> sp.Expr:
    """One entry of LN before the weight and bias: (x_i − μ) / √(var + ε)."""
    return (value - mean) / sp.sqrt(variance + epsilon)


@claim.proof
def _(p):
    p.assume("the mean of a·x + c is a·μ + c and its variance a²·var (linearity of the mean)")
    p.decide(entry(x + c, mu + c, v, eps), entry(x, mu, v, eps), label="shift: LN(x + c) = LN(x), any ε")
    p.decide(entry(a * x, a * mu, a**2 * v, 0), entry(x, mu, v, 0), label="scale, ε = 0: LN(a·x) = LN(x)")
    p.decide(
        entry(a * x, a * mu, a**2 * v, eps),
        (x - mu) / sp.sqrt(v + eps / a**2),
        label="scale, ε > 0: LN(a·x) = (x − μ) / √(var + ε/a²)",
    )
    p.refute(entry(a * x, a * mu, a**2 * v, eps), entry(x, mu, v, eps), label="scale, ε > 0: LN(a·x) = LN(x)")


@claim.check(uses="layer_norm")
@given(inputs=LAYER_NORM.strategy(), shift=st.floats(-2.0, 2.0))
def shift_absorbed(t, inputs, shift):
    """Each implementation gives a shifted row what it gives the row itself (the shift rounded into the dtype)."""
    x_in, weight, bias = (t.xp.array(value) for value in inputs)
    shifted = t.xp.array(t.xp.to_float64(x_in) + shift)
    t.close_layer_norm(
        t.impl.layer_norm(shifted, weight, bias), t.impl.layer_norm(x_in, weight, bias), shifted, weight, bias
    )


@claim.check(uses="layer_norm")
@given(inputs=LAYER_NORM.strategy(), where=st.floats(0.0, 1.0))
def scale_as_epsilon_says(t, inputs, where):
    """Each implementation's LN(a·x) is (x − μ)/√(var + ε/a²) · w + b for a from 10⁻⁴ to 10² (``where`` picks a on a
    log scale): absorbed where a²·var ≫ ε, shrunk where it is not. The range of a is narrowed to what the dtype holds:
    a variance at least 2¹⁰ times its smallest normal number (float16 underflows at a = 10⁻⁴), deviations below
    2⁻⁴ √max (float16 overflows their squares at a = 100); beyond, the dtype, not the formula, decides the output."""
    x_in, weight, bias = (t.xp.array(value) for value in inputs)
    rows = t.xp.to_float64(x_in)
    centred = rows - rows.mean(-1, keepdims=True)
    limits, spread = torch.finfo(getattr(torch, t.dtype)), float(np.min((centred**2).mean(-1)))
    assume(spread > 0)  # a row whose entries round to one value has no scale to change
    low = max(-4.0, 0.5 * math.log10(2.0**10 * limits.tiny / spread))
    high = min(2.0, math.log10(2.0**-4 * limits.max**0.5 / float(np.max(np.abs(centred)))))
    assume(low < high)
    scaled = t.xp.array(rows * 10.0 ** (low + where * (high - low)))
    rows, w, b = (t.xp.to_float64(value) for value in (scaled, weight, bias))
    centred = rows - rows.mean(-1, keepdims=True)
    expected = centred / np.sqrt((centred**2).mean(-1, keepdims=True) + EPS) * w + b
    t.close_layer_norm(t.impl.layer_norm(scaled, weight, bias), expected, scaled, weight, bias)


@claim.probe
def where_the_scale_shows(r):
    """A row of unit variance scaled by a: how much LN(a·x) shrinks against LN(x) at ε = 1e-5."""
    row = np.random.default_rng(0).normal(0.0, 1.0, 64)
    row = (row - row.mean()) / row.std()
    ones, zeros = np.ones(64), np.zeros(64)
    plain = layer_norm_reference(row, ones, zeros)
    shrink = {}
    for scale in (1.0, 1e-1, 1e-2, 1e-3, 1e-4):
        scaled = layer_norm_reference(row * scale, ones, zeros)
        shrink[f"a = {scale:g} (a²·var = {scale**2:g})"] = float(np.max(np.abs(scaled)) / np.max(np.abs(plain)))
    r.measure("max |LN(a·x)| / max |LN(x)| for a row of variance 1, ε = 1e-5", shrink)
    smallest = shrink["a = 0.001 (a²·var = 1e-06)"]
    r.condition(
        f"holds only where a²·var ≫ ε: at ε = {EPS:g} a row of variance 1 scaled by 0.01 comes out "
        f"{1 - shrink['a = 0.01 (a²·var = 0.0001)']:.1%} smaller, scaled by 0.001 at {smallest:.0%} of its size "
        "(the re-scaled row's variance is then below ε)",
        shrink=shrink,
        at_hundredth=1 - shrink["a = 0.01 (a²·var = 0.0001)"],
        at_thousandth=smallest,
    )
