"""Fingerprints of a normalisation (LayerNorm, RMSNorm): what a user meets in the libraries, read off outputs.

Measured in float64 on the CPU (checks.implementations.fingerprint.probing), at one d_model:

- ``axis``: the entries a change of x[0, 0] moves: its row ("last"), its column ("first"), both ("whole array");
- ``weight``: x̂ · weight, or x̂ · (1 + weight) as Gemma's RMSNorm: the output at weight 0 over that at weight 1
  (``weight_offset``), then checked at a drawn weight;
- ``centred``: whether the mean is subtracted: a row shifted by 3 normalises as the row itself;
- ``variance_divisor``: d (the biased variance, the mean square) or d − 1 (the unbiased): the sum of x̂² over a row of
  spread 10⁶, where ε is negligible;
- ``eps_form`` and ``eps``: where ε enters, √(var + ε) (added to the variance), √var + ε (to the standard
  deviation) or √max(var, ε) (a floor), and its value: each form's ε solved from rows of spread 10⁻¹⁰ … 10 whose
  output ε changes; the form whose ε is the same in every such row;
- ``upcast``: per half precision the adapter runs in on the CPU, which computation its output equals entry for entry,
  under its own measured formula: in float32 or wider and rounded once (torch's), the same but rounded to the dtype
  before the weight multiplies (transformers' LlamaRMSNorm: ``weight * hidden.to(input_dtype)``), or each operation
  in the dtype (the references'); ``upcast_agreement`` keeps each one's share of equal entries. The first and the
  last are the topics' convention; any other path is a variant.

A dimension that cannot be measured reads "not measured: <why>".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from checks.implementations.base import Implementation, ImplementationFailure, OutsideDomain, backend_name, refusal
from checks.implementations.computed_in import carried
from checks.implementations.fingerprint import probe_d_model, probing
from checks.implementations.topic_records import Fingerprint
from checks.numerics.backends import BACKENDS
from checks.numerics.domain import Domain
from checks.numerics.tolerances import COARSEST_FIRST, LOW_PRECISION, UNIT_ROUNDOFF
from checks.results.codec import JSON

INSIDE, OUTSIDE, FLOOR = "√(var + ε)", "√var + ε", "√max(var, ε)"
"""Where ε enters: added to the variance (torch's), to the standard deviation, or as a floor under the variance."""
WORDS = {
    INSIDE: "added to the variance",
    OUTSIDE: "added to the standard deviation",
    FLOOR: "a floor under the variance",
}
ONCE, BEFORE_WEIGHT, IN_DTYPE = "upcast, rounded once", "upcast, rounded before the weight", "in the dtype"
"""How a half-precision output is computed (the candidates ``upcast`` names)."""
SLACK = 2**12
"""Two probe outputs differ when they differ by more than this many unit roundoffs of what it computes in."""
INFORMATIVE = 2**20
"""A row tells ε when ε changes its output by more than this many unit roundoffs (relatively)."""
SAME_EPS = 1e-3
"""A form fits when the ε it solves for differs by less than this (relatively) from row to row."""
AGREEMENT = 0.95
"""A half-precision output is a candidate computation when this share of its entries equals that one's."""
SPREADS = 10.0 ** (np.arange(-40, 5) / 4)
"""The spreads of the rows ε is read from, 10⁻¹⁰ … 10."""
ROWS = 6
"""Rows of a probe (not d_model, so that the axis is told apart)."""
HALF_ROWS = 32
"""Rows of the half-precision probe: means up to ±8 and spread 1, where a mean rounded to the dtype shows."""
SEED = 20261213


@dataclass(frozen=True)
class Norm:
    """A normalisation topic as the fingerprint probes it, with its documented convention."""

    method: str
    """The adapter method: "layer_norm" (with a bias) or "rms_norm"."""
    centred: bool
    """The convention: the mean is subtracted (LayerNorm) or not (RMSNorm)."""
    eps: float
    """The convention's ε, added to the variance."""

    def fingerprint(self) -> Fingerprint:
        """The topic's fingerprint: measured by ``measure``, its variants by ``variants``."""
        return Fingerprint(measure=partial(measure, self), variants=partial(variants, self))


@dataclass(frozen=True)
class Form:
    """A normalisation's formula, as measured: x̂ = (x − c · mean) / root(var), times (offset + weight)."""

    centred: bool
    divisor: float
    eps_form: str
    eps: float
    offset: float

    def normalised(self, x: Any) -> Any:
        """x̂ over the last axis, in x's own library and dtype (each operation rounded to it)."""
        lib = _library(x)
        centred = x - _mean(x) if self.centred else x
        square = centred * centred
        width = x.shape[-1]
        variance = _mean(square) if self.divisor == width else _mean(square) * (width / self.divisor)
        if self.eps_form == OUTSIDE:
            root = lib.sqrt(variance) + self.eps
        elif self.eps_form == FLOOR:
            root = lib.sqrt(variance.clamp(min=self.eps) if lib is not np else np.maximum(variance, self.eps))
        else:
            root = lib.sqrt(variance + self.eps)
        return centred / root


def measure(norm: Norm, adapter: Any, domain: Domain) -> dict[str, JSON]:
    """What a normalisation computes, measured at one d_model (float64 on the CPU where its domain allows)."""
    d_model = probe_d_model(domain, even=False)
    bound = probing(adapter, domain)
    probe = _NormProbe(norm, bound, d_model)
    found: dict[str, JSON] = {"d_model": d_model, "probed_in": bound.xp.dtype, "axis": probe.axis()}
    if found["axis"] != "last":
        why = "not measured: it does not normalise over the last axis"
        return {**found, **dict.fromkeys(("weight", "centred", "variance_divisor", "eps_form", "upcast"), why)}
    found["computed_in"] = probe.precision()
    offset, weight = probe.weight()
    found |= {"weight": weight, "weight_offset": offset}
    centred = probe.centred(offset)
    divisor, divisor_name = probe.divisor(offset, centred)
    eps_form, eps, fits = probe.eps(offset, divisor)
    found |= {"centred": centred, "variance_divisor": divisor_name, "divisor_measured": divisor}
    found |= {"eps_form": eps_form, "eps": eps, "eps_fits": fits}
    if eps_form not in WORDS or weight.startswith("other"):
        found["upcast"] = "not measured: its formula is none of those the candidates compute"
        return found
    form = Form(centred, divisor, eps_form, eps, _snapped(offset, (0.0, 1.0)))
    upcast = {dtype: _upcast(norm, adapter, domain, dtype, form, d_model) for dtype in LOW_PRECISION}
    found["upcast"] = {dtype: named for dtype, (named, _) in upcast.items()}
    found["upcast_agreement"] = {dtype: shares for dtype, (_, shares) in upcast.items() if shares}
    return found


def _snapped(measured: float, named: tuple[float, ...], within: float = 1e-6) -> float:
    """The named value ``measured`` is (to ``within``, relatively), else ``measured``."""
    return next((value for value in named if math.isclose(measured, value, rel_tol=within, abs_tol=1e-9)), measured)


class _NormProbe:
    """Calls of one bound adapter on crafted rows, in the probe's dtype."""

    def __init__(self, norm: Norm, bound: Implementation, d_model: int) -> None:
        self.norm, self.bound, self.d_model = norm, bound, d_model
        self.roundoff = UNIT_ROUNDOFF[bound.xp.dtype]
        """The unit roundoff of what it computes in (the probe's dtype, until ``precision`` measures it)."""
        self.rng = np.random.default_rng(SEED)

    @property
    def noise(self) -> float:
        return SLACK * self.roundoff

    def precision(self) -> str:
        """The dtype it computes in: the coarsest holding every output at weight 1 (and at weight 0, unless all zero)
        exactly, which the later probes' noise then follows (transformers' RMSNorms compute in float32 whatever the
        input's dtype)."""
        x = self.rows()
        outputs = [self.call(x, 1.0), *(y for y in [self.call(x, 0.0)] if y.any())]
        coarsest = max((carried(y) for y in outputs), key=COARSEST_FIRST.index)
        self.roundoff = UNIT_ROUNDOFF[coarsest]
        return coarsest

    def call(self, x: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
        """The adapter's output at ``weight`` (a bias of 0), in float64."""
        return _called(self.norm, self.bound, x, np.broadcast_to(weight, (x.shape[-1],)).astype(np.float64))

    def unit(self, x: np.ndarray, offset: float) -> np.ndarray:
        """x̂: the output at the weight that makes (offset + weight) one."""
        return self.call(x, 1.0 - offset)

    def rows(self, count: int = ROWS) -> np.ndarray:
        return self.rng.normal(0.0, 1.0, (count, self.d_model)) + self.rng.uniform(-2.0, 2.0, (count, 1))

    def axis(self) -> str:
        """Which entries a change of x[0, 0] moves: its row's (the last axis), its column's (the first), or both."""
        x = self.rows()
        moved = x.copy()
        moved[0, 0] += 0.5
        changed = np.abs(self.call(moved, 1.0) - self.call(x, 1.0)) > self.noise
        rows, columns = np.flatnonzero(changed.any(1)), np.flatnonzero(changed.any(0))
        if len(columns) > 1 and len(rows) > 1:
            return "whole array"
        if len(columns) > 1:
            return "last"
        return "first" if len(rows) > 1 else "none: each entry alone"

    def weight(self) -> tuple[float, str]:
        """(a, what multiplies x̂) with output = x̂ · (a + weight), from the outputs at weight 0 and 1 and checked at
        a drawn weight."""
        x = self.rows()
        at_zero, at_one = self.call(x, 0.0), self.call(x, 1.0)
        unit = at_one - at_zero
        offset = float(np.sum(at_zero * unit) / np.sum(unit * unit))
        drawn = self.rng.uniform(0.5, 1.5, self.d_model)
        if np.abs(self.call(x, drawn) - unit * (offset + drawn)).max() > self.noise * np.abs(unit).max() * 4:
            return offset, "other: the output is not x̂ · (a + weight) for any one a"
        names = {0.0: "weight", 1.0: "1 + weight"}
        named = next((name for a, name in names.items() if abs(offset - a) <= self.noise), None)
        return offset, named or f"other: {offset:.6g} + weight"

    def centred(self, offset: float) -> bool:
        """Whether the mean is subtracted: a row and the row shifted by 3 normalise alike."""
        x = self.rows()
        return bool(np.abs(self.unit(x + 3.0, offset) - self.unit(x, offset)).max() <= self.noise)

    def pattern(self, divisor: float) -> np.ndarray:
        """A row of mean 0 whose variance (its sum of squares over ``divisor``) is 1."""
        z = np.linspace(-1.0, 1.0, self.d_model) * (-1.0) ** np.arange(self.d_model)
        z -= z.mean()
        return z / math.sqrt(np.sum(z * z) / divisor)

    def divisor(self, offset: float, centred: bool) -> tuple[float, str]:
        """(what the sum of squares is divided by, in words): Σ x̂² over a row of spread 10⁶, where ε is negligible
        (d or d − 1 where it is one of them to 10⁻⁶)."""
        d = self.d_model
        measured = float(np.sum(self.unit(1e6 * self.pattern(d)[None], offset) ** 2))
        divisor = _snapped(measured, (d, d - 1), max(1e-6, self.noise))
        what = "variance" if centred else "mean square"
        words = {d: f"biased {what} (÷ d)", d - 1: f"unbiased {what} (÷ (d − 1))"}
        return divisor, words.get(divisor, f"{what} ÷ {divisor:.6g}")

    def eps(self, offset: float, divisor: float) -> tuple[str, float | None, dict[str, JSON]]:
        """(where ε enters, ε, each form's ε over the informative rows: [smallest, largest]).

        A row s · z of spread s (z of variance 1) comes out as z · s / root(s): root(s) = s / ⟨x̂, z⟩ · ⟨z, z⟩.
        √(var + ε) gives ε = root² − s² in every row; √var + ε gives ε = root − s; √max(var, ε) gives root² = ε.
        """
        z = self.pattern(divisor)
        rows = SPREADS[:, None] * z[None]
        root = SPREADS * float(z @ z) / (self.unit(rows, offset) @ z)
        told = root / SPREADS - 1.0 > INFORMATIVE * self.roundoff
        if not told.any():
            return f"none measured: it changes no row of spread down to {SPREADS[0]:.0e}", 0.0, {}
        s, r = SPREADS[told], root[told]
        solved = {INSIDE: r * r - s * s, OUTSIDE: r - s, FLOOR: r * r}
        fits = {form: [float(e.min()), float(e.max())] for form, e in solved.items()}
        spread = {form: high / low - 1.0 if low > 0 else math.inf for form, (low, high) in fits.items()}
        best = min(spread, key=lambda form: spread[form])
        if spread[best] > SAME_EPS:
            ranges = "; ".join(f"{form} would need ε {low:.3g} … {high:.3g}" for form, (low, high) in fits.items())
            return f"other: no one ε fits ({ranges})", None, fits
        return best, float(np.median(solved[best])), fits


def _called(norm: Norm, bound: Implementation, x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The adapter's output on float64 ``x`` and ``weight`` (a zero bias), put in the bound dtype, in float64."""
    xp = bound.xp
    arguments = [xp.array(x), xp.array(weight)]
    if norm.method == "layer_norm":
        arguments.append(xp.array(np.zeros_like(weight)))
    return xp.to_float64(bound.call(norm.method, *arguments))


def _upcast(
    norm: Norm, adapter: Any, domain: Domain, dtype: str, form: Form, d_model: int
) -> tuple[str, dict[str, float]]:
    """(which candidate computation its ``dtype`` output equals, each candidate's share of equal entries)."""
    why = refusal(adapter, domain, "cpu", dtype)
    if why:
        return f"not measured: {why}", {}
    xp = BACKENDS[backend_name(adapter)](dtype, "cpu")
    rng = np.random.default_rng(SEED)
    x = xp.array(rng.normal(0.0, 1.0, (HALF_ROWS, d_model)) + rng.uniform(-8.0, 8.0, (HALF_ROWS, 1)))
    weight, bias = xp.array(rng.uniform(0.5, 1.5, d_model)), xp.array(rng.uniform(-1.0, 1.0, d_model))
    arguments = (x, weight, bias) if norm.method == "layer_norm" else (x, weight)
    try:
        found = Implementation(adapter, xp, domain).call(norm.method, *arguments)
    except (ImplementationFailure, OutsideDomain) as failure:
        return f"not measured: {failure}", {}
    exact = [xp.to_float64(a) for a in arguments]
    added = exact[2] if len(exact) > 2 else 0.0
    unit = form.normalised(exact[0])
    scaled = weight + form.offset
    candidates = {
        ONCE: xp.array(unit * (exact[1] + form.offset) + added),
        BEFORE_WEIGHT: _plus(xp.array(unit) * scaled, arguments),
        IN_DTYPE: _plus(form.normalised(x) * scaled, arguments),
    }
    shares = {name: float(np.mean(xp.to_float64(c) == xp.to_float64(found))) for name, c in candidates.items()}
    best = max(shares, key=lambda name: shares[name])
    return (best if shares[best] >= AGREEMENT else f"other: closest {best} ({shares[best]:.0%} of entries)"), shares


def _plus(value: Any, arguments: tuple[Any, ...]) -> Any:
    """``value`` plus the bias, where the topic has one (in the dtype)."""
    return value + arguments[2] if len(arguments) > 2 else value


def _library(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return np
    import torch

    return torch


def _mean(x: Any) -> Any:
    return x.mean(-1, keepdims=True) if isinstance(x, np.ndarray) else x.mean(-1, keepdim=True)


def variants(norm: Norm, found: dict[str, JSON], adapter: Any) -> tuple[list[str], list[str]]:
    """(each difference from the topic's convention, in words; no declarations to contradict)."""
    del adapter  # the normalisation topics declare nothing
    notes: list[str] = []
    axis = str(found.get("axis", "last"))
    if axis != "last":
        return [f"normalises over {axis}, not the last axis"], []
    if found["weight"] != "weight":
        notes.append(f"x̂ is multiplied by {found['weight']}, not by the weight")
    if found["centred"] != norm.centred:
        notes.append("the mean is subtracted" if found["centred"] else "the mean is not subtracted")
    if not str(found["variance_divisor"]).startswith("biased"):
        notes.append(f"the {found['variance_divisor']}, not the biased one (÷ d)")
    eps_form = str(found["eps_form"])
    if eps_form not in WORDS:
        notes.append(f"ε: {eps_form}")
    elif eps_form != INSIDE:
        notes.append(f"ε enters as {eps_form} ({WORDS[eps_form]}), not √(var + ε)")
    if eps_form in WORDS and not math.isclose(float(found["eps"]), norm.eps, rel_tol=SAME_EPS):
        notes.append(f"ε = {float(found['eps']):.4g}, not {norm.eps:g}")
    if found["computed_in"] != found["probed_in"]:
        notes.append(f"computed in {found['computed_in']} when called in {found['probed_in']}")
    upcast = found["upcast"] if isinstance(found["upcast"], dict) else {}
    for dtype, how in upcast.items():
        if how == BEFORE_WEIGHT:
            said = f"computed in float32, rounded to {dtype} before the weight multiplies"
            notes.append(f"in {dtype}: {said} (as transformers' LlamaRMSNorm), not rounded once")
        elif how not in (ONCE, IN_DTYPE) and not str(how).startswith("not measured"):
            notes.append(f"in {dtype}: {how}")
    return notes, []
