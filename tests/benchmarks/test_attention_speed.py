"""Attention layer against torch.nn.RNN at a few n (d = 64, one CPU thread), timed by pytest-benchmark.

The measurement of claim attention.parallel-speedup: `pytest tests/benchmarks/test_attention_speed.py
--benchmark-json=PATH` writes the figures, one group per mode and n with one entry per layer (FLOPs in
extra_info). With --benchmark-disable every pass runs once, as a smoke test.
"""

from __future__ import annotations

import pytest
import torch

from checks.helpers.attention_costs import attention_flops, rnn_flops
from checks.helpers.attention_layers import single_threaded
from checks.helpers.attention_timing import timed_layers

WIDTH = 64
LENGTHS = (16, 256, 1024)
MODES = ("forward", "training step")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("layer", ("attention", "rnn"))
def test_attention_against_rnn(benchmark, layer, length, mode):
    run = timed_layers(length, WIDTH, train=mode == "training step")[layer]
    flops = attention_flops(length, WIDTH) if layer == "attention" else rnn_flops(length, WIDTH)
    benchmark.group = f"{mode}, d={WIDTH}, n={length}"
    benchmark.extra_info.update(layer=layer, n=length, d=WIDTH, mode=mode, forward_flops=int(flops), threads=1)
    context = torch.inference_mode() if mode == "forward" else torch.enable_grad()
    with single_threaded(), context:
        output = benchmark(run)
    if mode == "forward":
        assert output.shape == (length, WIDTH)
