"""Layer normalisation (Ba, Kiros and Hinton, 2016) and RMSNorm (Zhang and Sennrich, 2019) as topics.

``layer_norm(x, weight, bias)`` → (x − mean) / √(var + ε) · weight + bias over the last axis (the biased variance);
``rms_norm(x, weight)`` → x / √(mean(x²) + ε) · weight; both with ε = ``EPS``, torch's default. The
implementations are PyTorch's: ``torch.nn.LayerNorm``, ``torch.nn.functional.layer_norm``, ``torch.nn.RMSNorm`` and
``torch.nn.functional.rms_norm``. In bfloat16 and float16 either of two paths is the convention: torch's (computed in
float32, rounded once) and the references' (each operation in the array's dtype, sums widened); the tolerances allow
both, and any other path (rounded to the dtype before the weight multiplies) is a variant. The fingerprint
(checks.implementations.norm_fingerprint) measures each of these choices of an implementation: the axis, ε's place
and value, the variance, the centring, a scale on the weight, the half-precision path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from checks.implementations.norm_fingerprint import Norm
from checks.implementations.topic_records import Topic
from checks.numerics.tolerances import LOW_PRECISION
from checks.settings.extras import optional

torch = optional("torch")

EPS = 1e-5
"""ε added to the variance (and to the mean square), torch's default."""
TOKENS = 16
"""Rows of a drawn input."""


def _drawn(rng: np.random.Generator, d_model: int) -> tuple[np.ndarray, ...]:
    x = rng.normal(0.0, 1.0, (TOKENS, d_model)) * rng.uniform(0.5, 2.0) + rng.uniform(-1.0, 1.0)
    return x, rng.uniform(0.5, 1.5, d_model), rng.uniform(-1.0, 1.0, d_model)


def _drawn_rms(rng: np.random.Generator, d_model: int) -> tuple[np.ndarray, ...]:
    return _drawn(rng, d_model)[:2]


def _module(x: Any) -> Any:
    return np if isinstance(x, np.ndarray) else torch


def layer_norm_reference(x: Any, weight: Any, bias: Any) -> Any:
    """(x − mean) / √(var + ε) · weight + bias, in the array's own library and dtype."""
    lib = _module(x)
    centred = x - x.mean(-1, keepdims=True) if lib is np else x - x.mean(-1, keepdim=True)
    variance = (centred * centred).mean(-1, keepdims=True) if lib is np else (centred * centred).mean(-1, keepdim=True)
    return centred / lib.sqrt(variance + EPS) * weight + bias


def rms_norm_reference(x: Any, weight: Any) -> Any:
    """x / √(mean(x²) + ε) · weight, in the array's own library and dtype."""
    lib = _module(x)
    square = (x * x).mean(-1, keepdims=True) if lib is np else (x * x).mean(-1, keepdim=True)
    return x / lib.sqrt(square + EPS) * weight


def _accumulation(dtype: str, width: int) -> int:
    """Terms whose rounding adds up in a mean over ``width`` entries: every one where the sum is kept in the dtype
    itself, none at first order where it is kept in float32 (half precisions: torch and NumPy widen)."""
    return 1 if dtype in LOW_PRECISION else width


def layer_norm_scale(dtype: str, x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> float:
    """B with |LayerNorm computed in ``dtype`` − exact| ≤ u · B to first order (u: unit roundoff), row by row.

    With a = the accumulation count, m = max|x|, c = max|x − μ|, σ = √(var + ε), z = c / σ:
    the mean is off by ≤ (a + 1) u m, so each x − μ by ≤ (a + 3) u m =: u e; the variance by
    ≤ u ((a + 2) var + 2 c e), so σ relatively by ≤ u r with r = ((a + 2) var + 2 c e) / (2 σ²) + 1;
    z = (x − μ) / σ by ≤ u (e / σ + z (r + 1)); y = z w + b by ≤ u (max|w| (e / σ + z (r + 1)) + z max|w| + max|y|).
    A near-constant row (σ small) has a large B: the normalisation amplifies its rounding, as it must.
    """
    a = _accumulation(dtype, x.shape[-1])
    centred = x - x.mean(-1, keepdims=True)
    variance = (centred**2).mean(-1)
    sigma = np.sqrt(variance + EPS)
    m, c = np.abs(x).max(-1), np.abs(centred).max(-1)
    e = (a + 3) * m
    r = ((a + 2) * variance + 2 * c * e) / (2 * sigma**2) + 1
    z = c / sigma
    w = float(np.max(np.abs(weight)))
    y = np.abs(centred / sigma[:, None] * weight + bias).max(-1)
    return float(np.max(w * (e / sigma + z * (r + 1)) + z * w + y))


def rms_norm_scale(dtype: str, x: np.ndarray, weight: np.ndarray) -> float:
    """B with |RMSNorm computed in ``dtype`` − exact| ≤ u · B to first order, row by row: the mean square is off
    relatively by ≤ (a + 2) u, the root by half that plus u, x / rms by one more u, the product with the weight by
    one more: B = max|w| z ((a + 2) / 2 + 3), z = max|x| / rms."""
    a = _accumulation(dtype, x.shape[-1])
    rms = np.sqrt((x**2).mean(-1) + EPS)
    z = np.abs(x).max(-1) / rms
    return float(np.max(np.max(np.abs(weight)) * z * ((a + 2) / 2 + 3)))


def close_layer_norm(
    t: Any, actual: object, expected: object, x: Any, weight: Any, bias: Any, label: str = "LayerNorm"
) -> None:
    """LayerNorm outputs of ``x`` (float64 values of the run's inputs): the tolerance at ``layer_norm_scale``, the
    first-order rounding bound of the computation in the run's dtype."""
    t.close(
        actual, expected, scale=layer_norm_scale(t.dtype, *(t.xp.to_float64(a) for a in (x, weight, bias))), label=label
    )


def close_rms_norm(t: Any, actual: object, expected: object, x: Any, weight: Any, label: str = "RMSNorm") -> None:
    """RMSNorm outputs of ``x``: the tolerance at ``rms_norm_scale``, the first-order rounding bound of the
    computation in the run's dtype."""
    t.close(actual, expected, scale=rms_norm_scale(t.dtype, *(t.xp.to_float64(a) for a in (x, weight))), label=label)


class _TorchModule:
    """An adapter that calls a torch.nn normalisation module built once per size and dtype, as a model keeps it."""

    def __init__(self, name: str, build: Any) -> None:
        self.name, self.build = name, build
        self.modules: dict[tuple[int, str, str], Any] = {}

    def _module(self, x: torch.Tensor) -> Any:
        key = (int(x.shape[-1]), str(x.dtype), x.device.type)
        if key not in self.modules:
            self.modules[key] = self.build(int(x.shape[-1])).to(x.device, x.dtype)
        return self.modules[key]


class TorchLayerNorm(_TorchModule):
    """torch.nn.LayerNorm(d, eps=1e-5), its weight and bias set to the call's."""

    def __init__(self) -> None:
        super().__init__("torch-layernorm", lambda d: torch.nn.LayerNorm(d, eps=EPS))

    def layer_norm(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        module = self._module(x)
        with torch.no_grad():
            module.weight.copy_(weight)
            module.bias.copy_(bias)
            return module(x)


class TorchRMSNorm(_TorchModule):
    """torch.nn.RMSNorm(d, eps=1e-5), its weight set to the call's."""

    def __init__(self) -> None:
        super().__init__("torch-rmsnorm", lambda d: torch.nn.RMSNorm(d, eps=EPS))

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        module = self._module(x)
        with torch.no_grad():
            module.weight.copy_(weight)
            return module(x)


class FunctionalNorms:  # one instance, FUNCTIONAL, offers both topics
    """torch.nn.functional.layer_norm and torch.nn.functional.rms_norm."""

    name = "torch-functional-norms"

    def layer_norm(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.layer_norm(x, (int(x.shape[-1]),), weight, bias, eps=EPS)

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.rms_norm(x, (int(x.shape[-1]),), weight, eps=EPS)


@dataclass(frozen=True)
class NormMutant:
    """A normalisation with one plausible bug."""

    name: str
    bug: str
    variance_divisor: int = 0
    """0: the biased variance (divide by d); 1: the unbiased one (d − 1)."""
    eps_outside_root: bool = False

    def layer_norm(self, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        centred = x - x.mean(-1, keepdim=True)
        variance = (centred * centred).sum(-1, keepdim=True) / (x.shape[-1] - self.variance_divisor)
        root = torch.sqrt(variance) + EPS if self.eps_outside_root else torch.sqrt(variance + EPS)
        return centred / root * weight + bias


FUNCTIONAL = FunctionalNorms()
"""The functional adapter, one instance for both topics (one column of the matrix)."""


@dataclass(frozen=True)
class CentredRMSNorm:
    """A faulty RMSNorm: the mean subtracted first (a LayerNorm without its bias)."""

    name: str = "rms-norm-centred"
    bug: str = "the mean subtracted, as LayerNorm does"

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        rows = x - x.mean(-1, keepdim=True)
        return rows / torch.sqrt((rows * rows).mean(-1, keepdim=True) + EPS) * weight


LAYER_NORM = Topic(
    name="layer_norm",
    summary="(x − mean) / √(var + ε) · weight + bias over the last axis (biased variance, ε = 1e-5)",
    arguments=("x", "weight", "bias"),
    inputs=_drawn,
    cite="Ba, Kiros and Hinton 2016, Layer Normalization, §3",
    references={"numpy": layer_norm_reference, "torch": layer_norm_reference},
    value_cases={
        "rows of mean 1000 and spread 1 (a one-pass variance loses them)": lambda: (
            np.random.default_rng(7).normal(1000.0, 1.0, (4, 16)),
            np.ones(16),
            np.zeros(16),
        ),
        "d_model 6, weight and bias drawn": lambda: _drawn(np.random.default_rng(8), 6),
        "rows of spread 0.001, where ε counts": lambda: (
            np.random.default_rng(10).normal(0.0, 1e-3, (4, 16)),
            np.ones(16),
            np.zeros(16),
        ),
    },
    rounding_scale=layer_norm_scale,
    comparators=(close_layer_norm,),
    fingerprint=Norm("layer_norm", centred=True, eps=EPS).fingerprint(),
    implementations=(TorchLayerNorm(), FUNCTIONAL),
    mutants=(
        NormMutant("layer-norm-unbiased-variance", "the unbiased variance (÷ (d − 1)) for the biased one", 1),
        NormMutant("layer-norm-eps-outside-root", "√var + ε for √(var + ε)", eps_outside_root=True),
    ),
)
"""Layer normalisation over the last axis, with an elementwise weight and bias."""

RMS_NORM = Topic(
    name="rms_norm",
    summary="x / √(mean(x²) + ε) · weight over the last axis (ε = 1e-5)",
    arguments=("x", "weight"),
    inputs=_drawn_rms,
    cite="Zhang and Sennrich 2019, Root Mean Square Layer Normalization, §4",
    references={"numpy": rms_norm_reference, "torch": rms_norm_reference},
    value_cases={"d_model 6, weight drawn": lambda: _drawn_rms(np.random.default_rng(9), 6)},
    rounding_scale=rms_norm_scale,
    comparators=(close_rms_norm,),
    fingerprint=Norm("rms_norm", centred=False, eps=EPS).fingerprint(),
    implementations=(TorchRMSNorm(), FUNCTIONAL),
    mutants=(CentredRMSNorm(),),
)
"""RMSNorm over the last axis, with an elementwise weight (no centring, no bias)."""

TOPICS = (LAYER_NORM, RMS_NORM)
"""This module's topics, as checks.topics loads them."""

__all__ = [
    "EPS",
    "LAYER_NORM",
    "RMS_NORM",
    "TOPICS",
    "close_layer_norm",
    "close_rms_norm",
    "layer_norm_reference",
    "layer_norm_scale",
    "rms_norm_reference",
]
