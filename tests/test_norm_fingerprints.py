"""The norms and multi-head attention as a user meets them (issue 65, item 9): each dimension of their fingerprints
(checks.implementations.norm_fingerprint, checks.implementations.heads_fingerprint) names a variant an adapter of
this file carries on purpose, and torch's own adapters read as the topics' documented convention."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest
import torch

from checks.implementations.contract import check_implementation
from checks.implementations.norm_fingerprint import BEFORE_WEIGHT, FLOOR, IN_DTYPE, INSIDE, ONCE, OUTSIDE
from checks.numerics.domain import Domain
from checks.topics.multihead import MULTIHEAD_ATTENTION, SdpaHeads, TorchMultiheadAttention
from checks.topics.normalisation import EPS, FUNCTIONAL, LAYER_NORM, RMS_NORM, TorchLayerNorm, TorchRMSNorm

HALF = (torch.bfloat16, torch.float16)


@dataclass(frozen=True)
class Norm:
    """LayerNorm and RMSNorm with one choice each a library makes differently (the defaults: torch's)."""

    name: str
    eps: float = EPS
    eps_form: str = INSIDE
    divisor: int = 0
    """Subtracted from d in the variance (1: the unbiased one)."""
    offset: float = 0.0
    """x̂ · (offset + weight)."""
    axis: int = -1
    centred: bool | None = None
    """None: the topic's (LayerNorm centres, RMSNorm does not)."""
    path: str = ONCE
    """In a half precision: ONCE (float32, rounded once), BEFORE_WEIGHT, IN_DTYPE."""
    float32: bool = False
    """Computes in float32 whatever the input's dtype (and rounds back)."""
    refuses: tuple[str, ...] = ()
    """dtypes it declares unsupported."""
    raises_in: tuple[torch.dtype, ...] = ()

    def unsupported(self, device: str, dtype: str) -> str | None:
        return "not offered in this dtype" if dtype in self.refuses else None

    def layer_norm(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return self._normalised(x, weight, bias, centred=True if self.centred is None else self.centred)

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        return self._normalised(x, weight, torch.zeros_like(weight), centred=bool(self.centred))

    def _normalised(self, x: torch.Tensor, weight: Any, bias: Any, centred: bool) -> torch.Tensor:
        if x.dtype in self.raises_in:
            raise RuntimeError(f"no kernel for {x.dtype}")
        upcast = self.float32 or (x.dtype in HALF and self.path != IN_DTYPE)
        h = x.float() if upcast else x
        if self.axis != -1:
            h = h.transpose(-1, self.axis)
        centred_h = h - h.mean(-1, keepdim=True) if centred else h
        variance = (centred_h * centred_h).sum(-1, keepdim=True) / (h.shape[-1] - self.divisor)
        root = {
            INSIDE: lambda: torch.sqrt(variance + self.eps),
            OUTSIDE: lambda: torch.sqrt(variance) + self.eps,
            FLOOR: lambda: torch.sqrt(variance.clamp(min=self.eps)),
        }[self.eps_form]()
        unit = centred_h / root
        if self.axis != -1:
            unit = unit.transpose(-1, self.axis)
        if self.path == BEFORE_WEIGHT:
            return unit.to(x.dtype) * (self.offset + weight) + bias
        return (unit * (self.offset + weight.to(unit.dtype)) + bias.to(unit.dtype)).to(x.dtype)


def _named(adapter: Any) -> str:
    return str(adapter.name)


def _measured(topic: Any, adapter: Any) -> tuple[dict[str, Any], list[str]]:
    assert topic.fingerprint is not None
    found = topic.fingerprint.measure(adapter, Domain.of(adapter))
    notes, broken = topic.fingerprint.variants(found, adapter)
    assert broken == []  # these topics declare nothing
    return found, notes


@pytest.mark.needs("torch")
@pytest.mark.parametrize(
    ("topic", "adapter"),
    [(LAYER_NORM, TorchLayerNorm()), (LAYER_NORM, FUNCTIONAL), (RMS_NORM, TorchRMSNorm()), (RMS_NORM, FUNCTIONAL)],
    ids=["LayerNorm", "layer_norm", "RMSNorm", "rms_norm"],
)
def test_torchs_norms_read_as_the_documented_convention(topic, adapter):
    found, notes = _measured(topic, adapter)
    assert notes == []
    assert (found["axis"], found["weight"], found["eps_form"], found["computed_in"]) == (
        "last",
        "weight",
        INSIDE,
        "float64",
    )
    assert found["centred"] is (topic is LAYER_NORM)
    assert found["variance_divisor"].startswith("biased") and found["divisor_measured"] == 64
    assert math.isclose(found["eps"], EPS, rel_tol=1e-6)
    assert found["upcast"] == {"bfloat16": ONCE, "float16": ONCE}


VARIANTS = [
    (Norm("eps-outside", eps_form=OUTSIDE), "eps_form", OUTSIDE, "ε enters as √var + ε (added to the standard"),
    (Norm("eps-floor", eps_form=FLOOR), "eps_form", FLOOR, "ε enters as √max(var, ε) (a floor under the variance)"),
    (Norm("eps-1e-6", eps=1e-6), "eps", pytest.approx(1e-6, rel=1e-6), "ε = 1e-06, not 1e-05"),
    (Norm("eps-0", eps=0.0), "eps", 0.0, "ε: none measured: it changes no row of spread down to 1e-10"),
    (Norm("unbiased", divisor=1), "variance_divisor", "unbiased variance (÷ (d − 1))", "the unbiased variance"),
    (Norm("one-plus-weight", offset=1.0), "weight", "1 + weight", "x̂ is multiplied by 1 + weight, not by the weight"),
    (Norm("axis-0", axis=0), "axis", "first", "normalises over first, not the last axis"),
    (Norm("not-centred", centred=False), "centred", False, "the mean is not subtracted"),
    (Norm("in-dtype", path=IN_DTYPE), "upcast", {"bfloat16": IN_DTYPE, "float16": IN_DTYPE}, None),
    (
        Norm("before-weight", path=BEFORE_WEIGHT),
        "upcast",
        {"bfloat16": BEFORE_WEIGHT, "float16": BEFORE_WEIGHT},
        "in bfloat16: computed in float32, rounded to bfloat16 before the weight multiplies",
    ),
    (Norm("float32-always", float32=True), "computed_in", "float32", "computed in float32 when called in float64"),
]


@pytest.mark.needs("torch")
@pytest.mark.parametrize(("adapter", "field", "value", "note"), VARIANTS, ids=[v[0].name for v in VARIANTS])
def test_each_layer_norm_variant_is_measured_and_named(adapter, field, value, note):
    """Each is measured; each but the in-dtype path (the references', one of the convention's two) is a variant."""
    found, notes = _measured(LAYER_NORM, adapter)
    assert found[field] == value
    assert [text for text in notes if text.startswith(note)] if note else notes == [], notes


@pytest.mark.needs("torch")
def test_a_variant_leaves_the_other_dimensions_as_the_convention():
    """Measured one at a time: the (1 + weight) scale is the only variant of that adapter, and its ε and divisor are
    still read (each probe holds the others' measurements, not torch's defaults)."""
    found, notes = _measured(RMS_NORM, Norm("gemma-like", offset=1.0, eps=1e-6))
    assert notes == ["x̂ is multiplied by 1 + weight, not by the weight", "ε = 1e-06, not 1e-05"]
    assert found["weight_offset"] == pytest.approx(1.0) and found["upcast"] == {"bfloat16": ONCE, "float16": ONCE}


@pytest.mark.needs("torch")
def test_an_rms_norm_that_subtracts_the_mean_is_named_so():
    found, notes = _measured(RMS_NORM, Norm("centred-rms", centred=True))
    assert found["centred"] is True and notes == ["the mean is subtracted"]


@pytest.mark.needs("torch")
@pytest.mark.parametrize("topic", [LAYER_NORM, RMS_NORM], ids=["layer_norm", "rms_norm"])
def test_every_mutant_of_the_norm_topics_reads_as_a_variant(topic):
    for mutant in topic.mutants:
        assert _measured(topic, mutant)[1], mutant.name


@pytest.mark.needs("torch")
def test_a_dtype_it_refuses_or_raises_in_is_not_measured_and_says_why():
    found, notes = _measured(LAYER_NORM, Norm("picky", refuses=("bfloat16",), raises_in=(torch.float16,)))
    assert found["upcast"]["bfloat16"] == "not measured: not offered in this dtype"
    assert found["upcast"]["float16"].startswith("not measured: picky.layer_norm(")
    assert "raised RuntimeError: no kernel for torch.float16" in found["upcast"]["float16"]
    assert notes == []


@pytest.mark.needs("torch")
def test_the_contract_records_the_fingerprint_and_lists_its_variants():
    record = check_implementation(Norm("unbiased-before-weight", divisor=1, path=BEFORE_WEIGHT), ["layer_norm"])
    assert record.fingerprints["layer_norm"]["variance_divisor"] == "unbiased variance (÷ (d − 1))"
    assert record.variants == [
        "layer_norm: the unbiased variance (÷ (d − 1)), not the biased one (÷ d)",
        *(
            f"layer_norm: in {dtype}: computed in float32, rounded to {dtype} before the weight multiplies (as "
            "transformers' LlamaRMSNorm), not rounded once"
            for dtype in ("bfloat16", "float16")
        ),
    ]


class _HuggingFaceNorm:
    """A transformers RMSNorm module, built once per size and dtype, its weight set to the call's."""

    def __init__(self, module: Any, name: str) -> None:
        self.module, self.name = module, name
        self.built: dict[tuple[int, torch.dtype], Any] = {}

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        key = (int(x.shape[-1]), x.dtype)
        if key not in self.built:
            self.built[key] = self.module(key[0]).to(x.dtype)
        with torch.no_grad():
            self.built[key].weight.copy_(weight)
            return self.built[key](x)


@pytest.mark.needs("torch", "libraries")
def test_transformers_llama_and_gemma_rms_norms_read_as_what_their_code_does():
    """LlamaRMSNorm: float32 whatever the input, ε 1e-6, rounded to the dtype before ``weight *``; GemmaRMSNorm:
    x̂ · (1 + weight), rounded once."""
    from transformers.models.gemma.modeling_gemma import GemmaRMSNorm
    from transformers.models.llama.modeling_llama import LlamaRMSNorm

    llama, notes = _measured(RMS_NORM, _HuggingFaceNorm(LlamaRMSNorm, "hf-llama-rmsnorm"))
    assert (llama["computed_in"], llama["weight"], llama["eps_form"]) == ("float32", "weight", INSIDE)
    assert llama["eps"] == pytest.approx(1e-6, rel=1e-6)
    assert llama["upcast"] == {"bfloat16": BEFORE_WEIGHT, "float16": BEFORE_WEIGHT}
    assert "in bfloat16: computed in float32, rounded to bfloat16 before the weight multiplies" in " ".join(notes)
    gemma, _ = _measured(RMS_NORM, _HuggingFaceNorm(GemmaRMSNorm, "hf-gemma-rmsnorm"))
    assert (gemma["computed_in"], gemma["weight"], gemma["upcast"]) == (
        "float32",
        "1 + weight",
        {"bfloat16": ONCE, "float16": ONCE},
    )


@dataclass(frozen=True)
class Heads:
    """Multi-head attention with one choice made differently (the defaults: the documents')."""

    name: str
    interleaved: bool = False
    scale: str = "d/h"
    """"d/h", "d" or "none"."""
    projection: str = "applied"
    """"applied", "transposed" or "dropped"."""
    one_head: bool = False

    def multihead_attention(self, x: torch.Tensor, w_q: Any, w_k: Any, w_v: Any, w_o: Any, heads: int) -> Any:
        heads = 1 if self.one_head else heads
        n, d = x.shape
        if self.interleaved:
            q, k, v = ((x @ w).reshape(n, d // heads, heads).permute(2, 0, 1) for w in (w_q, w_k, w_v))
        else:
            q, k, v = ((x @ w).reshape(n, heads, d // heads).transpose(0, 1) for w in (w_q, w_k, w_v))
        factor = {"d/h": 1 / math.sqrt(d // heads), "d": 1 / math.sqrt(d), "none": 1.0}[self.scale]
        out = torch.softmax(q @ k.transpose(-1, -2) * factor, -1) @ v
        joined = out.permute(1, 2, 0).reshape(n, d) if self.interleaved else out.transpose(0, 1).reshape(n, d)
        return {"applied": lambda: joined @ w_o, "transposed": lambda: joined @ w_o.T, "dropped": lambda: joined}[
            self.projection
        ]()


@pytest.mark.needs("torch")
@pytest.mark.parametrize("adapter", [TorchMultiheadAttention(), SdpaHeads(), Heads("written-out")], ids=_named)
def test_torchs_multihead_attention_reads_as_the_documented_convention(adapter):
    found, notes = _measured(MULTIHEAD_ATTENTION, adapter)
    assert notes == []
    assert (found["heads"], found["heads_split"], found["output_projection"]) == (4, "contiguous", "applied")
    assert found["score_scale"] == pytest.approx(0.25, rel=1e-12) and found["score_scale_name"] == "1/√(d/h)"
    assert found["head_columns"] == ["0 … 15", "16 … 31", "32 … 47", "48 … 63"]


HEAD_VARIANTS = [
    (Heads("interleaved", interleaved=True), "heads_split", "interleaved", "heads interleaved: head i takes columns"),
    (Heads("scale-d", scale="d"), "score_scale_name", "1/√d", "scores scaled by 1/√d, not 1/√(d/h)"),
    (Heads("no-scale", scale="none"), "score_scale_name", "none (1)", "scores scaled by none (1)"),
    (
        Heads("w-o-transposed", projection="transposed"),
        "output_projection",
        "applied transposed (W_Oᵀ)",
        "output projection applied transposed (W_Oᵀ)",
    ),
    (Heads("no-w-o", projection="dropped"), "output_projection", "not applied", "output projection not applied"),
    (
        Heads("one-head", one_head=True),
        "heads_split",
        "one head: every column attends together, not 4 heads",
        "heads split: one head",
    ),
    (MULTIHEAD_ATTENTION.mutants[0], "score_scale_name", "1/√d", "scores scaled by 1/√d"),
]


@pytest.mark.needs("torch")
@pytest.mark.parametrize(("adapter", "field", "value", "note"), HEAD_VARIANTS, ids=[v[0].name for v in HEAD_VARIANTS])
def test_each_multihead_variant_is_measured_and_named(adapter, field, value, note):
    found, notes = _measured(MULTIHEAD_ATTENTION, adapter)
    assert found[field] == value
    assert [text for text in notes if text.startswith(note)], notes
