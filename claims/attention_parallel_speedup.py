"""An RNN needs n dependent steps, attention a fixed number of kernels whatever n; timings measured per device."""

import functools
from collections.abc import Callable

import torch
from hypothesis import given
from hypothesis import strategies as st

from checks import FLOAT32, Claim
from checks.attention import (
    attention_flops,
    dependency_depth,
    dispatched_ops,
    median_seconds,
    rnn_flops,
    rnn_layer,
    self_attention,
    single_threaded,
    timed_layers,
)
from checks.reference import TorchBackend, available_devices
from checks.works import LESSON_001

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
    sources=[
        LESSON_001.quote("6. RNN vs Transformer", "RNN\t순차 계산\nTransformer\t병렬 계산"),
    ],
    expect="holds",
)

WIDTH = 8


LAYERS: dict[str, Callable[..., torch.Tensor]] = {
    "attention": lambda xp, x, weights: self_attention(xp, x, *weights),
    "rnn": lambda xp, x, weights: rnn_layer(xp, x, *weights[:2]),
}
"""The reference layers (checks.helpers.attention), both written as the formulas say."""


def _structure(layer: str, backend: TorchBackend, length: int) -> tuple[int, int]:
    """(dependency depth of the autograd graph, dispatched aten ops) of one layer over ``length`` tokens."""
    x = backend.zeros(length, WIDTH).requires_grad_()
    weights = [backend.zeros(WIDTH, WIDTH).requires_grad_() for _ in range(3)]
    run = functools.partial(LAYERS[layer], backend, x, weights)
    return dependency_depth(run()), sum(dispatched_ops(run).values())


@claim.check(dtypes=(FLOAT32,), backends=("torch",))
@given(length=st.integers(2, 32))
@single_threaded()
def steps_grow_only_for_the_rnn(t, length):
    """Reference layers: attention's depth and op count equal those at n = 1; the RNN's grow by ≥ 1 per token."""
    for layer in LAYERS:
        (depth_one, ops_one), (depth_two, ops_two), (depth, ops) = (
            _structure(layer, t.xp, size) for size in (1, 2, length)
        )
        if layer == "attention":
            assert (depth, ops) == (depth_one, ops_one), f"attention at n={length}: depth {depth}, ops {ops}"
            continue
        step_depth, step_ops = depth_two - depth_one, ops_two - ops_one
        assert step_depth >= 1 and step_ops >= 1, f"RNN: a token adds {step_depth} depth, {step_ops} ops"
        assert depth == depth_one + (length - 1) * step_depth, f"RNN depth {depth} at n={length} is not linear"
        assert ops == ops_one + (length - 1) * step_ops, f"RNN ops {ops} at n={length} are not linear"


LENGTHS = (16, 64, 256, 1024)
TIMING_WIDTH = 64
REPEATS = 5


@claim.probe
@single_threaded()
def timings(r):
    """Median seconds per pass, d = 64, n = 16 … 1024, forward (inference) and forward + backward (training).

    One CPU thread: on shared cores more threads stall for milliseconds per operation, which swamps
    what is measured; a GPU (when present) runs its own kernels either way.
    """
    r.measure("torch CPU threads during the timing", torch.get_num_threads())
    for device in available_devices():
        ratios, series = {}, {}
        for mode in ("forward", "training step"):
            seconds = {"attention": [], "rnn": []}
            for length in LENGTHS:
                layers = timed_layers(length, TIMING_WIDTH, device, train=mode == "training step")
                context = torch.inference_mode() if mode == "forward" else torch.enable_grad()
                with context:
                    for name, run in layers.items():
                        seconds[name].append(median_seconds(run, device, REPEATS))
            pairs = zip(LENGTHS, seconds["attention"], seconds["rnn"], strict=True)
            ratios[mode] = {n: rnn / attention for n, attention, rnn in pairs}
            for name, values in seconds.items():
                series[f"{name}, {mode}"] = {"x": list(LENGTHS), "y": values}
        r.measure(f"{device}: RNN time / attention time (>1: attention faster)", ratios)
        r.measure(
            f"{device}: median seconds", {label: dict(zip(LENGTHS, s["y"], strict=True)) for label, s in series.items()}
        )
        r.figure(
            f"timings-{device}",
            "lines",
            f"Median time per pass on {device}, d = {TIMING_WIDTH}",
            f"Median seconds of {REPEATS} runs against n for an attention layer and torch.nn.RNN, forward only and "
            "forward plus backward.",
            x_label="sequence length n",
            y_label="seconds",
            series=series,
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
    for layer in LAYERS:
        table = {
            length: dict(zip(("depth", "ops"), _structure(layer, backend, length), strict=True)) for length in lengths
        }
        r.measure(f"reference {layer}: autograd depth and dispatched ops by n", table)
    rnn = torch.nn.RNN(WIDTH, WIDTH)
    table = {}
    for length in lengths:
        x = torch.zeros(length, WIDTH)
        table[length] = {"depth": dependency_depth(rnn(x)[0]), "ops": sum(dispatched_ops(rnn, x).values())}
    r.measure("torch.nn.RNN: autograd depth and dispatched ops by n", table)
