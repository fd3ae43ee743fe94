"""What the speed measurements run: the layers to time, and the structure of the RNN torch ships."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from checks.helpers.attention_costs import dependency_depth, dispatched_ops
from checks.helpers.attention_layers import self_attention
from checks.numerics.backends import TorchBackend
from checks.settings.extras import optional

torch = optional("torch")


def timed_layers(length: int, width: int, device: str = "cpu", train: bool = False) -> dict[str, Callable[[], Any]]:
    """One pass over one random sentence (n × d, float32) through the attention layer and through torch.nn.RNN.

    Both run the library's own kernels: attention as three projections, Q Kᵀ, softmax and A V
    (``self_attention`` on torch), the RNN as torch's tanh recurrent layer, which loops over the
    n steps inside. ``train``: forward and backward (gradients for every weight), as a training step does.
    """
    generator = torch.Generator().manual_seed(0)
    x = torch.rand(length, width, generator=generator).to(device)
    bound = 1 / math.sqrt(width)
    weights = [
        ((torch.rand(width, width, generator=generator) * 2 - 1) * bound).to(device).requires_grad_(train)
        for _ in range(3)
    ]
    rnn = torch.nn.RNN(width, width).to(device).requires_grad_(train)
    backend = TorchBackend("float32", device)
    forward = {"attention": lambda: self_attention(backend, x, *weights), "rnn": lambda: rnn(x)[0]}
    if not train:
        return forward
    return {name: (lambda run=run: run().sum().backward()) for name, run in forward.items()}


def shipped_rnn_structure(lengths: Sequence[int], width: int) -> dict[int, dict[str, int]]:
    """torch.nn.RNN(width, width) as shipped, over zero inputs of each length: autograd depth and dispatched ops."""
    rnn, table = torch.nn.RNN(width, width), {}
    for length in lengths:
        x = torch.zeros(length, width)
        table[length] = {"depth": dependency_depth(rnn(x)[0]), "ops": sum(dispatched_ops(rnn, x).values())}
    return table
