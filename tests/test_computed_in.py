"""The precision an implementation computes in, measured for any topic (checks/implementations/computed_in.py):
three libraries' ALiBi attention ran their softmax in float32 on float64 scores, which nothing said (issue 65's
trial)."""

from __future__ import annotations

import numpy as np
import pytest

from checks.implementations.contract import checked
from checks.implementations.topic_records import Topic, register, unregister

torch = pytest.importorskip("torch")


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _rows(rng: np.random.Generator, size: int) -> tuple[np.ndarray]:
    return (rng.normal(size=(4, size)),)


class Float64Softmax:
    name = "test-softmax-in-its-dtype"

    def softmax_rows(self, x):
        return torch.softmax(x, -1)


class Float32Softmax:
    name = "test-softmax-in-float32"

    def softmax_rows(self, x):
        return torch.softmax(x.float(), -1).to(x.dtype)


class Signs:
    name = "test-signs"

    def signs_of(self, x):
        return torch.sign(x)


@pytest.fixture
def topics():
    added = [
        Topic("softmax_rows", "softmax over the last axis", ("x",), inputs=_rows, references={"numpy": _softmax}),
        Topic("signs_of", "sign of each entry", ("x",), inputs=_rows, references={"numpy": np.sign}),
    ]
    for new in added:
        register(new)
    yield
    for new in added:
        unregister(new)


def test_an_implementation_that_computes_in_float32_when_called_in_float64_is_named(topics):
    record = checked(Float32Softmax(), ["softmax_rows"])
    assert record.fingerprints["softmax_rows"] == {"computed_in": "float32", "probed_in": "float64"}
    (said,) = record.variants
    assert said.startswith("softmax_rows: computes in float32 when called in float64"), said
    exact = checked(Float64Softmax(), ["softmax_rows"])
    assert exact.fingerprints["softmax_rows"]["computed_in"] == "float64" and exact.variants == []


def test_outputs_the_reference_also_gives_coarse_say_nothing_of_the_precision(topics):
    """A sign is ±1 in any precision: no claim that the implementation computed in bfloat16."""
    record = checked(Signs(), ["signs_of"])
    assert "signs_of" not in record.fingerprints and record.variants == []
