"""Frequencies as measured: each pair's frequency against the documents' formula, and the simplest model that fits.

An implementation's frequencies ω_i (one per rotated pair or sine column, fastest first) are measured in float64
and divided by the formula's, 10000^(−2i/d). The models, simplest first:

1. the documents' frequencies (every ratio 1);
2. a position scale (every ratio the same s: positions multiplied by s);
3. one other base (ω_i = b^(−2i/d)), then one base and a position scale;
4. pieces: the fastest pairs kept as the formula's, the slowest scaled by one factor c, and a ramp between, linear
   in the pair's index or in its frequency (what Llama 3's and YaRN's scalings do); a step when nothing lies between;
5. none: "no single base fits", with the residual the best base leaves.

The first model whose residual (the largest |log(measured / model)| over the pairs) is within the measurement's
tolerance is chosen, and stated with its residual. The tolerance is FIT_FLOOR, or twice the unit roundoff of a half
precision the measured frequencies are all stored in (a frequency rounded to bfloat16 is off by up to 2⁻⁸).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from checks.numerics.reference_implementations import BASE

FIT_FLOOR = 1e-6
"""A model fits when no pair's frequency is farther from it than this, relatively (float32's rounding of ω, and
its computation through exp and log, stay below it)."""
STORED = (("bfloat16", 8), ("float16", 11), ("float32", 24))
"""Half and single precisions, with the bits of their significands, coarsest first."""
DOCUMENTS, SCALE, ONE_BASE, BASE_AND_SCALE, PIECES, NONE = (
    "documents",
    "position scale",
    "base",
    "base and position scale",
    "pieces",
    "none",
)


@dataclass(frozen=True)
class FrequencyModel:
    """One model of the measured frequencies: its kind, the frequencies it predicts, and how far they are."""

    kind: str
    predicted: np.ndarray
    residual: float
    base: float = BASE
    scale: float = 1.0
    kept: int = 0
    """Pieces: pairs 0 … kept − 1 are the formula's."""
    scaled_from: int = 0
    """Pieces: pairs from here on are the formula's times ``scale``."""
    ramp: str = ""
    """Pieces: what the ramp between is linear in ("the pair index", "the frequency"); "" for a step."""
    words: str = field(default="", compare=False)


@dataclass(frozen=True)
class Frequencies:
    """The measured frequencies, their ratios to the formula, the model chosen, and the best single base."""

    measured: np.ndarray
    ratios: np.ndarray
    stored_in: str
    tolerance: float
    model: FrequencyModel
    one_base: FrequencyModel

    def describe(self) -> str:
        """The chosen model in words, with its residual (and, for pieces or none, what one base would leave)."""
        model = self.model
        if model.kind == NONE:
            best = self.one_base
            scaled = (
                ""
                if math.isclose(best.scale, 1.0, rel_tol=self.tolerance)
                else f", positions scaled by {best.scale:.4g}"
            )
            return (
                f"no single base fits (the best, θ ≈ {best.base:.6g}{scaled}, leaves a residual of {best.residual:.2g})"
            )
        text = f"{model.words} (residual {model.residual:.2g}"
        if model.kind == PIECES:
            text += f"; one base would leave {self.one_base.residual:.2g}: θ ≈ {self.one_base.base:.6g}"
            if not math.isclose(self.one_base.scale, 1.0, rel_tol=self.tolerance):
                text += f", positions scaled by {self.one_base.scale:.4g}"
        return text + ")"


def formula(count: int, width: int, base: float = BASE) -> np.ndarray:
    """ω_i = base^(−2i/width) for i = 0 … count − 1."""
    return base ** (-np.arange(count, dtype=np.float64) * 2 / width)


def stored_in(measured: np.ndarray) -> str:
    """The coarsest of bfloat16, float16 and float32 that holds every measured frequency exactly (to a float64
    measurement's noise), else "float64"."""
    for name, bits in STORED:
        if np.all(np.abs(_rounded(measured, bits) - measured) <= 1e-12 * np.abs(measured)):
            return name
    return "float64"


def _rounded(values: np.ndarray, bits: int) -> np.ndarray:
    mantissa, exponent = np.frexp(values)
    return np.ldexp(np.round(mantissa * 2.0**bits) / 2.0**bits, exponent)


def measure(measured: np.ndarray, width: int) -> Frequencies:
    """The measured frequencies ω_i of a rotation (or table) of ``width`` dimensions, and their model."""
    measured = np.asarray(measured, dtype=np.float64)
    ratios = measured / formula(len(measured), width)
    storage = stored_in(measured)
    bits = dict(STORED).get(storage, 53)
    tolerance = FIT_FLOOR if bits > 11 else max(FIT_FLOOR, 2 * 2.0**-bits)
    one_base = _base_and_scale(measured, width)
    model = next(
        (
            found
            for found in (
                _documents(measured, width),
                _scale(measured, width),
                _base(measured, width),
                one_base,
                _pieces(measured, width, tolerance),
            )
            if found is not None and found.residual <= tolerance
        ),
        None,
    ) or FrequencyModel(
        NONE, one_base.predicted, one_base.residual, one_base.base, one_base.scale, words="no single base fits"
    )
    return Frequencies(measured, ratios, storage, tolerance, model, one_base)


def residual(measured: np.ndarray, predicted: np.ndarray) -> float:
    """The largest |log(measured / predicted)|: how far, relatively, measured frequencies are from a model's."""
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = np.abs(np.log(measured / predicted))
    return float(np.max(np.where(np.isfinite(gap), gap, np.inf), initial=0.0))


def _documents(measured: np.ndarray, width: int) -> FrequencyModel:
    predicted = formula(len(measured), width)
    return FrequencyModel(DOCUMENTS, predicted, residual(measured, predicted), words=f"the formula's (θ = {BASE:g})")


def _scale(measured: np.ndarray, width: int) -> FrequencyModel | None:
    if len(measured) < 2 or not np.all(measured > 0):
        return None
    documents = formula(len(measured), width)
    scale = float(np.exp(np.mean(np.log(measured / documents))))
    predicted = scale * documents
    words = f"the formula's times {scale:.6g} (positions scaled by {scale:.6g})"
    return FrequencyModel(SCALE, predicted, residual(measured, predicted), scale=scale, words=words)


def _base(measured: np.ndarray, width: int) -> FrequencyModel | None:
    """One other base, no scale: log ω_i = −(2i/width) log b, fitted through the origin."""
    exponent = np.arange(len(measured)) * 2 / width
    if len(measured) < 2 or not np.all(measured > 0):
        return None
    log_base = -float(np.dot(exponent, np.log(measured)) / np.dot(exponent, exponent))
    base = math.exp(log_base)
    predicted = formula(len(measured), width, base)
    return FrequencyModel(ONE_BASE, predicted, residual(measured, predicted), base=base, words=f"base θ ≈ {base:.6g}")


def _base_and_scale(measured: np.ndarray, width: int) -> FrequencyModel:
    """The least-squares line through log ω_i: a base and a position scale (a single pair: its own scale)."""
    if len(measured) < 2 or not np.all(measured > 0):
        scale = float(measured[0]) if len(measured) else 1.0
        predicted = np.full(len(measured), scale)
        return FrequencyModel(BASE_AND_SCALE, predicted, residual(measured, predicted), scale=scale)
    exponent = np.arange(len(measured)) * 2 / width
    slope, intercept = np.polyfit(exponent, np.log(measured), 1)
    base, scale = math.exp(-slope), math.exp(intercept)
    predicted = scale * formula(len(measured), width, base)
    words = f"base θ ≈ {base:.6g}, positions scaled by {scale:.6g}"
    return FrequencyModel(BASE_AND_SCALE, predicted, residual(measured, predicted), base, scale, words=words)


def _pieces(measured: np.ndarray, width: int, tolerance: float) -> FrequencyModel | None:
    """The fastest pairs as the formula's, the slowest scaled by one factor, and a linear ramp between."""
    documents = formula(len(measured), width)
    ratios = measured / documents
    logs = np.log(np.where(ratios > 0, ratios, np.nan))
    kept = int(np.argmax(~(np.abs(logs) <= tolerance))) if not np.all(np.abs(logs) <= tolerance) else len(logs)
    scale = float(ratios[-1])
    if kept == 0 or kept == len(logs) or not scale > 0 or abs(math.log(scale)) <= tolerance:
        return None
    same = np.abs(logs - math.log(scale)) <= tolerance
    scaled_from = len(logs) - int(np.argmax(~same[::-1])) if not same.all() else 0
    if scaled_from < kept:
        return None
    best: FrequencyModel | None = None
    for ramp, along in (("the frequency", documents), ("the pair index", np.arange(len(logs), dtype=np.float64))):
        predicted = _piecewise(ratios, along, kept, scaled_from, scale) * documents
        found = FrequencyModel(
            PIECES,
            predicted,
            residual(measured, predicted),
            scale=scale,
            kept=kept,
            scaled_from=scaled_from,
            ramp=ramp if scaled_from > kept else "",
            words=_pieces_words(kept, scaled_from, len(logs), scale, ramp),
        )
        if best is None or found.residual < best.residual:
            best = found
    return best


def _piecewise(ratios: np.ndarray, along: np.ndarray, kept: int, scaled_from: int, scale: float) -> np.ndarray:
    """Ratios 1 before ``kept``, ``scale`` from ``scaled_from``, and between them scale + (1 − scale)·γ with γ the
    least-squares line in ``along`` (clipped to [0, 1])."""
    model = np.ones(len(ratios))
    model[scaled_from:] = scale
    ramp = slice(kept, scaled_from)
    if scaled_from > kept:
        weight = (ratios[ramp] - scale) / (1.0 - scale)
        line = np.polyfit(along[ramp], weight, 1) if scaled_from - kept > 1 else np.array([0.0, weight[0]])
        model[ramp] = scale + (1.0 - scale) * np.clip(np.polyval(line, along[ramp]), 0.0, 1.0)
    return model


def _pieces_words(kept: int, scaled_from: int, count: int, scale: float, ramp: str) -> str:
    factor = f"divided by {1 / scale:.6g}" if scale < 1 else f"multiplied by {scale:.6g}"
    words = f"pairs {_span(0, kept)} as the formula's, pairs {_span(scaled_from, count)} {factor}"
    if scaled_from > kept:
        words += f", a ramp between (pairs {_span(kept, scaled_from)}, linear in {ramp})"
    return words


def _span(start: int, stop: int) -> str:
    return f"{start}" if stop - start == 1 else f"{start}–{stop - 1}"
