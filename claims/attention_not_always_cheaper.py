"""An attention layer is not always cheaper than an RNN layer: which costs fewer FLOPs depends on n against d."""

import sympy as sp
import torch
from hypothesis import strategies as st

from checks import FLOAT32, Claim, given
from checks.attention import (
    RECURRENT_CELLS,
    attention_flops,
    counted_attention,
    counted_flops,
    counted_recurrent,
    crossover,
    crossover_formula,
    crossover_ratios,
    d,
    gates,
    n,
    rnn_flops,
    single_threaded,
)
from checks.figures import lines
from claims.catalog.works import LESSON_001

claim = Claim(
    id="attention.not-always-cheaper",
    title="Attention is not always cheaper than an RNN",
    statement=(
        "Counting matrix-product FLOPs, one attention layer of width d over n tokens costs 6 n d² + 4 n² d and one "
        "recurrent layer with g gate blocks costs 4 g n d² (torch.nn.RNN g = 1, GRU g = 3, LSTM g = 4). Attention "
        "is cheaper only for n < (2g − 3) d / 2: never against the plain tanh RNN, below n = 3d/2 against a GRU, "
        "below n = 5d/2 against an LSTM. So 'a Transformer always computes less than an RNN' is false, as the "
        "document says."
    ),
    sources=[LESSON_001.quote("자주 하는 오해 5개", "Transformer는 항상 RNN보다 계산량이 적다고 생각한다")],
    expect="proved",
)
WIDTH, LENGTHS = 16, [8, 16, 32, 48]
"""The probe's width and sequence lengths."""


@claim.proof
def _(p):
    difference = attention_flops() - rnn_flops(n, d, gates)
    factored = 4 * n * d * (n - (2 * gates - 3) * d / 2)
    p.decide(difference, factored, label="attention − RNN = 4 n d (n − (2g − 3) d / 2)")
    p.decide(crossover_formula(), (2 * gates - 3) * d / 2, label="SymPy's solve: crossover n* = (2g − 3) d / 2")
    beyond = sp.Symbol("m", nonnegative=True)
    for name, (_, blocks) in RECURRENT_CELLS.items():
        boundary = crossover(blocks)
        start = boundary if boundary is not None else sp.Integer(0)
        cost = difference.subs(gates, blocks).subs(n, start + beyond)
        where = f"every n ≥ n* = {sp.sstr(boundary)}" if boundary is not None else "every n ≥ 0 (no crossover)"
        p.decide(cost, 0, label=f"{name} (g = {blocks}): attention − RNN ≥ 0 at {where}", relation=">=")
    ratio = sp.simplify(attention_flops() / rnn_flops(n, d, 1))
    p.decide(ratio, sp.Rational(3, 2) + n / d, label="against the tanh RNN: attention / RNN = 3/2 + n/d")
    p.decide(ratio, 1, label="attention / tanh RNN ≥ 1 for every n, d > 0", relation=">=")


@claim.check(dtypes=(FLOAT32,), backends=("torch",), devices=("cpu",))
@given(name=st.sampled_from(sorted(RECURRENT_CELLS)), width=st.integers(2, 8), offset=st.integers(-2, 2))
@single_threaded()
def counter_confirms_crossover(t, name, width, offset):
    """Both layers counted around the crossover (or at a few n when there is none); counts equal the formulas."""
    blocks = RECURRENT_CELLS[name][1]
    boundary = crossover(blocks)
    length = int(sp.floor(boundary.subs(d, width))) + offset if boundary is not None else width * (3 + offset)
    length = max(1, length)
    attention, recurrent = counted_attention(length, width), counted_recurrent(name, length, width)
    assert attention == attention_flops(length, width), f"attention counted {attention}"
    assert recurrent == rnn_flops(length, width, blocks), f"{name} counted {recurrent}"
    expected = sp.sign(length - boundary.subs(d, width)) if boundary is not None else 1
    assert sp.sign(attention - recurrent) == expected, (
        f"{name}, d={width}, n={length}: attention {attention} vs {recurrent}, crossover {boundary}"
    )


@claim.probe
@single_threaded()
def around_the_crossover(r):
    """d = 16: both sides of each crossover, and the oneDNN LSTM the counter cannot see."""
    counted = {"attention": [counted_attention(length, WIDTH) for length in LENGTHS]}
    counted |= {name: [counted_recurrent(name, length, WIDTH) for length in LENGTHS] for name in RECURRENT_CELLS}
    r.measure(
        "d = 16: attention / recurrent FLOPs on both sides of the crossover (counted)",
        {c: crossover_ratios(c, WIDTH) for c in RECURRENT_CELLS},
    )
    with torch.no_grad():
        fused = counted_flops(torch.nn.LSTM(WIDTH, WIDTH), torch.zeros(32, WIDTH))
    r.measure("torch.nn.LSTM with oneDNN on (the default on CPU), n = 32, d = 16: FLOPs counted", fused)
    r.figure(
        lines(
            "attention-vs-recurrent",
            "Matrix-product FLOPs at d = 16: attention against torch's recurrent layers",
            "Counted FLOPs against n for one attention layer (quadratic) and one RNN, GRU and LSTM layer (linear). "
            "Attention lies above the plain RNN everywhere and crosses the GRU at n = 3d/2 = 24 and the LSTM at "
            "n = 5d/2 = 40.",
            {name: (LENGTHS, values) for name, values in counted.items()},
            x_label="sequence length n",
            y_label="FLOPs",
            marks={
                f"{c} crossover": float(at.subs(d, WIDTH))
                for c, (_, g) in RECURRENT_CELLS.items()
                if (at := crossover(g)) is not None
            },
        )
    )
