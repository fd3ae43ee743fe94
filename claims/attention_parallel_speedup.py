"""An RNN needs n dependent steps, attention a fixed number of kernels whatever n; timings measured per device."""

import torch
from hypothesis import strategies as st

from checks import FLOAT32, Claim, given
from checks.attention import (
    REFERENCE_LAYERS,
    attention_flops,
    graph_structure,
    median_times,
    rnn_flops,
    shipped_rnn_structure,
    single_threaded,
)
from checks.figures import lines
from checks.reference import TorchBackend, available_devices
from claims.catalog.works import LESSON_001

claim = Claim(
    id="attention.parallel-speedup",
    title="Attention runs in a fixed number of steps; an RNN in n dependent ones",
    statement=(
        "Over n tokens an RNN's chain of dependent operations grows with n (h_t waits for h_{t−1}), while "
        "self-attention runs the same fixed number of operations and the same dependency depth for every n, each "
        "over all tokens at once. The timings of torch.nn.RNN against an attention layer are measured on each "
        "available device (training speed against matched recurrent layers is decided by attention.training-speed; "
        "GPU utilisation needs a GPU: scope.parallel-gpu-utilization)."
    ),
    sources=[LESSON_001.quote("6. RNN vs Transformer", "RNN\t순차 계산\nTransformer\t병렬 계산")],
    expect="holds",
)

WIDTH = 8
"""The width of the step counts."""


@claim.check(dtypes=(FLOAT32,), backends=("torch",))
@given(length=st.integers(2, 32))
@single_threaded()
def steps_grow_only_for_the_rnn(t, length):
    """Reference layers: attention's depth and op count equal those at n = 1; the RNN's grow by ≥ 1 per token."""
    for layer in REFERENCE_LAYERS:
        (depth_one, ops_one), (depth_two, ops_two), (depth, ops) = (
            graph_structure(layer, t.xp, size, WIDTH) for size in (1, 2, length)
        )
        if layer == "attention":
            assert (depth, ops) == (depth_one, ops_one), f"attention at n={length}: depth {depth}, ops {ops}"
            continue
        step_depth, step_ops = depth_two - depth_one, ops_two - ops_one
        assert step_depth >= 1 and step_ops >= 1, f"RNN: a token adds {step_depth} depth, {step_ops} ops"
        assert depth == depth_one + (length - 1) * step_depth, f"RNN depth {depth} at n={length} is not linear"
        assert ops == ops_one + (length - 1) * step_ops, f"RNN ops {ops} at n={length} are not linear"


LENGTHS, TIMING_WIDTH, REPEATS = (16, 64, 256, 1024), 64, 5


@claim.probe
@single_threaded()
def timings(r):
    """Median seconds per pass, d = 64, n = 16 … 1024, forward (inference) and forward + backward (training).

    One CPU thread: on shared cores more threads stall for milliseconds per operation, which swamps
    what is measured; a GPU (when present) runs its own kernels either way.
    """
    r.measure("torch CPU threads during the timing", torch.get_num_threads())
    for device in available_devices():
        seconds = median_times(device, LENGTHS, TIMING_WIDTH, REPEATS)
        ratios = {
            mode: {n: rnn / att for n, att, rnn in zip(LENGTHS, by_layer["attention"], by_layer["rnn"], strict=True)}
            for mode, by_layer in seconds.items()
        }
        series = {f"{name}, {mode}": values for mode, by_layer in seconds.items() for name, values in by_layer.items()}
        r.measure(f"{device}: RNN time / attention time (>1: attention faster)", ratios)
        r.measure(
            f"{device}: median seconds", {label: dict(zip(LENGTHS, s, strict=True)) for label, s in series.items()}
        )
        r.figure(
            lines(
                f"timings-{device}",
                f"Median time per pass on {device}, d = {TIMING_WIDTH}",
                f"Median seconds of {REPEATS} runs against n for an attention layer and torch.nn.RNN, forward only and "
                "forward plus backward.",
                {label: (LENGTHS, values) for label, values in series.items()},
                x_label="sequence length n",
                y_label="seconds",
            )
        )
    flops = {n: float(attention_flops(n, TIMING_WIDTH) / rnn_flops(n, TIMING_WIDTH)) for n in LENGTHS}
    r.measure("attention FLOPs / RNN FLOPs at the same n (counted formulas)", flops)
    if "cuda" not in available_devices():
        r.measure("cuda", "not available on this machine: the GPU-utilisation claim is not measured here")


@claim.probe
@single_threaded()
def step_counts(r):
    """Dependency depth and dispatched ops over n: the reference layers and torch.nn.RNN as shipped (CPU, d = 8)."""
    lengths = (1, 4, 16, 64)
    backend = TorchBackend(FLOAT32)
    for layer in REFERENCE_LAYERS:
        table = {
            length: dict(zip(("depth", "ops"), graph_structure(layer, backend, length, WIDTH), strict=True))
            for length in lengths
        }
        r.measure(f"reference {layer}: autograd depth and dispatched ops by n", table)
    r.measure("torch.nn.RNN: autograd depth and dispatched ops by n", shipped_rnn_structure(lengths, WIDTH))
