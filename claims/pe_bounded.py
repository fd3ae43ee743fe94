"""Every PE value lies in [−1, 1], in every dtype after rounding."""

import numpy as np
import sympy as sp
import torch

from checks import FLOATS, Claim, Erratum, given
from checks.reference import table_in
from checks.strategies import d_models, position_batches
from claims.catalog.lesson_code import numpy_encoding
from claims.catalog.works import LESSON_000

SECTION = "1. 값이 항상 -1 ~ 1 사이"
claim = Claim(
    id="pe.bounded",
    title="PE values always lie between −1 and 1",
    statement=(
        "Every entry sin(pos ω_i) or cos(pos ω_i) of PE lies in [−1, 1]; computed and rounded in float64, float32, "
        "bfloat16 or float16 no entry exceeds 1 in magnitude (rounding to exactly ±1 is allowed)."
    ),
    sources=[
        LESSON_000.quote(SECTION, "1. 값이 항상 -1 ~ 1 사이"),
        LESSON_000.quote(SECTION, "sin과 cos의 출력 범위: [-1, 1]"),
    ],
    erratum=Erratum(
        severity="note",
        problem=(
            "True in every precision tested, at every position and d_model; the document's PyTorch class cannot "
            "build the table at an odd d_model (the findings name the sizes), where only the formula and the numpy "
            "loop give values."
        ),
    ),
    expect="proved",
)

FLOAT16_MAX = 65_504
"""Largest finite float16: positions up to it are drawn in every dtype (a bound needs no tolerance)."""


@claim.proof
def _(p):
    theta = sp.Symbol("theta", real=True)
    p.step("PE's entries are sin θ and cos θ with θ = pos·ω_i real; each bound is decided with its certificate", theta)
    for entry in (sp.sin(theta), sp.cos(theta)):
        p.decide(entry, 1, label=f"{entry} ≤ 1", relation="<=")
        p.decide(entry, -1, label=f"{entry} ≥ −1", relation=">=")


@claim.check(uses="sinusoidal", batched=True)
@given(pos=position_batches(maximum=FLOAT16_MAX, exact=True), d=d_models(even=None, high=256))
def entries_within_one(t, pos, d):
    """max |PE(pos)| computed in the dtype never exceeds 1, not even by one unit in the last place."""
    largest = np.max(np.abs(t.xp.to_float64(t.impl.sinusoidal(pos, d))), axis=1)
    t.close(np.maximum(largest - 1.0, 0.0), np.zeros_like(largest), label="max |PE| beyond 1")
    row = int(np.argmax(largest))
    assert largest[row] <= 1.0, f"|PE| = {largest[row]!r} > 1 at pos {pos[row]}, d_model {d} ({t.dtype})"


def every_finite(dtype: torch.dtype) -> torch.Tensor:
    """Every finite value of a 16-bit float type, from its 65,536 bit patterns."""
    values = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16).view(dtype)
    return values[torch.isfinite(values)]


def sin_cos_extremes(name: str) -> dict[str, object]:
    """sin and cos of every finite input of a 16-bit type: the largest |value|, how many are exactly ±1."""
    inputs = every_finite(getattr(torch, name))
    found = {"inputs": inputs.numel()}
    for function in (torch.sin, torch.cos):
        values = function(inputs).double().abs()
        found[f"torch {function.__name__}: max |value|"] = values.max()
        found[f"torch {function.__name__}: values exactly ±1"] = (values == 1).sum()
    if name == "float16":
        found |= {f"numpy {f.__name__}: max |value|": np.max(np.abs(f(inputs.numpy()))) for f in (np.sin, np.cos)}
    return found


def table_extremes(dtype: str) -> dict[str, object]:
    """PE in the dtype at positions 0, 7, …, 65499, d_model = 64: its largest |entry|, how many are exactly ±1."""
    table = np.abs(table_in(dtype, np.arange(0, FLOAT16_MAX, 7), 64))
    return {"max |PE|": np.max(table), "entries exactly ±1": np.sum(table == 1)}


@claim.probe
def exhaustive_and_document(r):
    """sin and cos of every finite bfloat16/float16 input; wide tables; the document's own table."""
    exhaustive = {name: sin_cos_extremes(name) for name in ("bfloat16", "float16")}
    r.measure("every finite 16-bit input", exhaustive)
    tables = {dtype: table_extremes(dtype) for dtype in FLOATS}
    r.measure("PE in each dtype, positions 0, 7, …, 65499, d_model = 64", tables)
    document = numpy_encoding(50, 64)
    r.measure(
        "document 000's positional_encoding(50, 64)",
        {"min": document.min(), "max": document.max(), "printed": "값 범위: [-1.000, 1.000]"},
    )
    over = {name: found for name, found in exhaustive.items() if any(v > 1 for k, v in found.items() if "max" in k)}
    over |= {dtype: found for dtype, found in tables.items() if found["max |PE|"] > 1}
    if over or np.max(np.abs(document)) > 1:
        r.counterexample("a sin/cos value exceeds 1 in magnitude after rounding", **over)


@claim.sweep()
def every_entry(s):
    """Every entry sin(pos ω_i), cos(pos ω_i) of every pos, computed in the dtype: |PE| ≤ 1 exactly (no tolerance)."""
    pe = s.pe()
    s.within("|sin(pos ω_i)| ≤ 1", pe.sin, 1.0)
    s.within("|cos(pos ω_i)| ≤ 1", pe.cos, 1.0)
