"""An attention layer is not always cheaper than an RNN layer: which costs fewer FLOPs depends on n against d."""

import functools
import warnings

import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st

from checks import FLOAT32, Claim
from checks.attention import attention_flops, counted_flops, d, gates, n, rnn_flops, self_attention, single_threaded
from checks.reference import TorchBackend
from checks.works import LESSON_001

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
    sources=[
        LESSON_001.quote(
            "자주 하는 오해 5개",
            "Transformer는 항상 RNN보다 계산량이 적다고 생각한다",
        )
    ],
    expect="proved",
)

CELLS = {"RNN": (torch.nn.RNN, 1), "GRU": (torch.nn.GRU, 3), "LSTM": (torch.nn.LSTM, 4)}
"""torch's recurrent layers and their gate blocks g."""


@functools.cache
def crossover_formula() -> sp.Expr:
    """The n ≠ 0 where attention and a g-gate recurrent layer cost the same, solved by SymPy: (2g − 3) d / 2."""
    (root,) = sp.solve(sp.Eq(attention_flops(), rnn_flops(n, d, gates)), n)
    return root


def crossover(gate_blocks: int) -> sp.Expr | None:
    """The crossover for a given g, or None when it is not positive (attention always costs more)."""
    value = crossover_formula().subs(gates, gate_blocks)
    return value if value.is_positive else None


@claim.proof
def _(p):
    difference = attention_flops() - rnn_flops(n, d, gates)
    factored = 4 * n * d * (n - (2 * gates - 3) * d / 2)
    p.decide(difference, factored, label="attention − RNN = 4 n d (n − (2g − 3) d / 2)")
    p.decide(crossover_formula(), (2 * gates - 3) * d / 2, label="SymPy's solve: crossover n* = (2g − 3) d / 2")
    beyond = sp.Symbol("m", nonnegative=True)
    for name, (_, blocks) in CELLS.items():
        boundary = crossover(blocks)
        start = boundary if boundary is not None else sp.Integer(0)
        cost = difference.subs(gates, blocks).subs(n, start + beyond)
        where = f"every n ≥ n* = {sp.sstr(boundary)}" if boundary is not None else "every n ≥ 0 (no crossover)"
        p.decide(cost, 0, label=f"{name} (g = {blocks}): attention − RNN ≥ 0 at {where}", relation=">=")
    ratio = sp.simplify(attention_flops() / rnn_flops(n, d, 1))
    p.decide(ratio, sp.Rational(3, 2) + n / d, label="against the tanh RNN: attention / RNN = 3/2 + n/d")
    p.decide(ratio, 1, label="attention / tanh RNN ≥ 1 for every n, d > 0", relation=">=")


def counted_recurrent(name: str, length: int, width: int) -> int:
    """FLOPs FlopCounterMode counts for one torch recurrent layer over ``length`` tokens.

    oneDNN is switched off: its fused LSTM kernel (aten.mkldnn_rnn_layer) has no FLOP formula and counts 0.
    """
    module, _ = CELLS[name]
    layer = module(width, width)
    x = torch.zeros(length, width)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # oneDNN's TF32 notice when its flags change
        with torch.backends.mkldnn.flags(enabled=False):
            return counted_flops(layer, x)


def counted_attention(length: int, width: int) -> int:
    xp = TorchBackend(FLOAT32)
    return counted_flops(self_attention, xp, xp.zeros(length, width), *(xp.zeros(width, width) for _ in range(3)))


@claim.check(dtypes=(FLOAT32,), backends=("torch",), devices=("cpu",))
@given(name=st.sampled_from(sorted(CELLS)), width=st.integers(2, 8), offset=st.integers(-2, 2))
@single_threaded()
def counter_confirms_crossover(t, name, width, offset):
    """Both layers counted around the crossover (or at a few n when there is none); counts equal the formulas."""
    blocks = CELLS[name][1]
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
    width = 16
    lengths = [8, 16, 32, 48]
    series = {"attention": {"x": lengths, "y": [counted_attention(length, width) for length in lengths]}}
    table, marks = {}, {}
    for name, (_, blocks) in CELLS.items():
        series[name] = {"x": lengths, "y": [counted_recurrent(name, length, width) for length in lengths]}
        boundary = crossover(blocks)
        if boundary is None:
            table[name] = {"crossover n": "none (attention always costs more)", "ratio at n = 1": 1.5 + 1 / width}
            continue
        at = float(boundary.subs(d, width))
        marks[f"{name} crossover"] = at
        below, above = int(at) - 1, int(at) + 1
        table[name] = {
            "crossover n": at,
            f"n={below}: attention / {name}": counted_attention(below, width) / counted_recurrent(name, below, width),
            f"n={above}: attention / {name}": counted_attention(above, width) / counted_recurrent(name, above, width),
        }
    r.measure("d = 16: attention / recurrent FLOPs on both sides of the crossover (counted)", table)
    with torch.no_grad():
        fused = counted_flops(torch.nn.LSTM(width, width), torch.zeros(32, width))
    r.measure("torch.nn.LSTM with oneDNN on (the default on CPU), n = 32, d = 16: FLOPs counted", fused)
    r.figure(
        "attention-vs-recurrent",
        "lines",
        "Matrix-product FLOPs at d = 16: attention against torch's recurrent layers",
        "Counted FLOPs against n for one attention layer (quadratic) and one RNN, GRU and LSTM layer (linear). "
        "Attention lies above the plain RNN everywhere and crosses the GRU at n = 3d/2 = 24 and the LSTM at "
        "n = 5d/2 = 40.",
        x_label="sequence length n",
        y_label="FLOPs",
        series=series,
        marks=marks,
    )
