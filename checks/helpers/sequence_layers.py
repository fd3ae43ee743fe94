"""Training steps of one attention encoder layer and of recurrent layers with as many parameters: their wall time
and the activation memory they keep for the backward pass.

The attention layer is nn.TransformerEncoderLayer (d = 64, 2 heads, feed-forward 128: PyTorch's fused attention
kernel, which does not keep the n × n scores for the backward pass) or the same layer written as the formula
is (``ExplicitEncoderLayer``: softmax(Q Kᵀ/√d_k) V with the scores formed). Each recurrent layer
(torch.nn.LSTM, GRU, RNN) gets the hidden size that brings its parameter count closest to the attention
layer's. A training step is forward, the mean square of the output as the loss, and backward, on one random
sequence (batch 1, float32).
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch.multiprocessing.reductions import StorageWeakRef

from checks.helpers.attention_costs import RECURRENT_CELLS, recurrent_cell
from checks.helpers.attention_timing import timed_layers
from checks.helpers.tiny_encoders import ExplicitEncoderLayer

WIDTH, HEADS = 64, 2
"""The attention layer's model width d and its number of heads (each recurrent layer takes inputs of WIDTH)."""
ATTENTION = {
    "attention": "nn.TransformerEncoderLayer(64, 2 heads, feed-forward 128): PyTorch's fused attention kernel",
    "attention, scores formed": "the same layer as the formula writes it: the n × n scores formed and kept",
}
"""The attention layers a claim compares, by kind, with what each is."""
RECURRENT: dict[str, type[nn.RNNBase]] = {
    name: getattr(nn, RECURRENT_CELLS[name][0]) for name in ("lstm", "gru", "rnn")
}
"""The recurrent layers a claim compares, by kind: the RECURRENT_CELLS names (lower case), LSTM first."""
MIB = 2.0**20
"""Bytes in a MiB."""


def parameter_count(layer: nn.Module) -> int:
    """The number of parameters of ``layer`` (every entry of every weight and bias)."""
    return sum(p.numel() for p in layer.parameters())


def attention_layer(kind: str = "attention") -> nn.Module:
    """A fresh attention layer of ``kind`` (an ATTENTION name), initialised from torch's current seed."""
    if kind == "attention":
        return nn.TransformerEncoderLayer(WIDTH, HEADS, 2 * WIDTH, dropout=0.0, batch_first=True)
    if kind == "attention, scores formed":
        return ExplicitEncoderLayer(WIDTH, HEADS, rotary=False)
    raise ValueError(f"attention layer {kind!r} is not one of {sorted(ATTENTION)}")


@functools.cache
def matched_hidden(kind: str) -> int:
    """The hidden size whose recurrent layer's parameter count is closest to the attention layer's (counted by
    formula, so claim files can name it at import without building layers; a test checks the real modules): a layer
    with g gate blocks (RECURRENT_CELLS) has g · (h·d + h·h + 2h) parameters (two bias vectors). ``kind``: a
    RECURRENT name, in either case."""
    target, gates = parameter_count(attention_layer()), RECURRENT_CELLS[recurrent_cell(kind)][1]
    return min(range(8, 4 * WIDTH), key=lambda h: abs(gates * (h * WIDTH + h * h + 2 * h) - target))


def layer(kind: str) -> nn.Module:
    """A fresh layer of ``kind`` (an ATTENTION name, or a RECURRENT one in either case), initialised from torch's
    current seed."""
    if kind in ATTENTION:
        return attention_layer(kind)
    if kind.lower() not in RECURRENT:
        raise ValueError(f"layer kind {kind!r} is none of {', '.join([*ATTENTION, *RECURRENT])} (either case)")
    return RECURRENT[kind.lower()](WIDTH, matched_hidden(kind), batch_first=True)


def training_step(network: nn.Module, x: torch.Tensor) -> None:
    """One training step of ``network`` on ``x``: forward, the mean square of the output as the loss, backward."""
    out = network(x)
    out = out[0] if isinstance(out, tuple) else out
    out.square().mean().backward()


def sequence(length: int, seed: int, device: str = "cpu") -> torch.Tensor:
    """One random sequence (batch 1, ``length`` × WIDTH, float32, standard normal) drawn from ``seed``."""
    return torch.randn(1, length, WIDTH, generator=torch.Generator().manual_seed(seed)).to(device)


def median_seconds(run: Callable[[], object], device: str, repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``run`` after one warm-up (synchronising a GPU)."""

    def once() -> float:
        started = time.perf_counter()
        run()
        if device == "cuda":
            torch.cuda.synchronize()
        return time.perf_counter() - started

    once()
    return statistics.median(once() for _ in range(repeats))


def median_times(device: str, lengths: Sequence[int], width: int, repeats: int) -> dict[str, dict[str, list[float]]]:
    """Median seconds of ``repeats`` passes (after a warm-up) of each ``timed_layers`` layer at each length, by mode
    ("forward" under inference mode, "training step" forward and backward) and layer ("attention", "rnn")."""
    seconds: dict[str, dict[str, list[float]]] = {
        mode: {"attention": [], "rnn": []} for mode in ("forward", "training step")
    }
    for mode, by_layer in seconds.items():
        for length in lengths:
            layers = timed_layers(length, width, device, train=mode == "training step")
            with torch.inference_mode() if mode == "forward" else torch.enable_grad():
                for name, run in layers.items():
                    by_layer[name].append(median_seconds(run, device, repeats))
    return seconds


def step_seconds(kind: str, length: int, seed: int, device: str = "cpu", repeats: int = 5) -> float:
    """Median wall time of ``repeats`` training steps of a fresh ``kind`` layer after one warm-up."""
    torch.manual_seed(seed)
    network, x = layer(kind).to(device), sequence(length, seed, device)
    return median_seconds(lambda: training_step(network, x), device, repeats)


@functools.cache
def activation_mib(kind: str, length: int, seed: int = 0) -> float:
    """MiB of the tensors autograd keeps from the forward pass for the backward pass, each storage counted once,
    the layer's own parameters not counted: the memory a training step needs beyond the weights, exact on any
    machine (no allocator or timing involved), so it is measured once per process.

    No backward pass follows, so what autograd would keep is counted as it is saved and not kept: the forward
    pass holds no more memory than an inference pass (a kept n × n score tensor at n = 4096 is 128 MiB per head).
    A storage counts once while it lives; one freed and another allocated at its address counts again.
    """
    torch.manual_seed(seed)
    network = layer(kind)
    weights = {p.untyped_storage().data_ptr() for p in network.parameters()}
    saved: dict[int, StorageWeakRef] = {}
    total = 0

    def count(tensor: torch.Tensor) -> None:
        nonlocal total
        storage = tensor.untyped_storage()
        address = storage.data_ptr()
        if address in weights or (address in saved and not saved[address].expired()):
            return
        saved[address] = StorageWeakRef(storage)
        total += storage.nbytes()

    with torch.autograd.graph.saved_tensors_hooks(count, lambda _: None):
        network(sequence(length, seed))
    return total / MIB
