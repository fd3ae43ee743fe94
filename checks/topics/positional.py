"""Positional encodings as topics: the sinusoidal table (Vaswani et al., 2017) and RoPE (Su et al., 2021).

Each declares its references, its calls, its comparators with the rounding scale each derives from, its
fingerprint (checks.implementations.fingerprint) and its mutants (checks.implementations.mutants).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from checks.helpers.rope_scores import relative_score as _relative_score
from checks.helpers.rope_scores import score_scale
from checks.helpers.similarity import dot_scale
from checks.implementations.base import Implementation
from checks.implementations.builtin import HalfSplitRope, MetaComplexRope, array_backend
from checks.implementations.contract import SHARED, checked
from checks.implementations.dtype_fingerprint import dtype_fingerprints, reference_fingerprints
from checks.implementations.fingerprint import ODD_SIZES, layout_of, rope_fingerprint, sinusoidal_fingerprint, variants
from checks.implementations.mutants import PE_MUTANTS, ROPE_MUTANTS
from checks.implementations.third_party import (
    HuggingFaceLlamaRope,
    PositionalEncodings,
    RotaryEmbeddingTorch,
    TorchtuneRope,
    XTransformersRope,
    XTransformersSinusoidal,
)
from checks.implementations.topic_records import SEED, Expected, Fingerprint, Topic
from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.pairing import INTERLEAVED, LAYOUTS, PAIRINGS, to_document_layout
from checks.numerics.reference_implementations import Reference
from checks.numerics.tolerances import angle_scale

# --- comparators: each a ``t.<name>(...)`` of a check, with the rounding scale it derives from ---------------------


def close_pe(t: Any, actual: object, expected: object, *positions: object, label: str = "PE entries") -> None:
    """PE entries (sin and cos, range 2) computed from angles at ``positions``: the tolerance scales with
    Σ |position| (each position's angles are rounded; ``t.close_pe(a, b, pos, k)`` for a turn by k)."""
    t.close(actual, expected, scale=_total(positions), bound=2.0, label=label)


def close_angle(
    t: Any, actual: object, expected: object, *angles: object, bound: float = 2.0, label: str = "sin and cos"
) -> None:
    """sin or cos of ``angles`` formed in the dtype (each rounded three times: ``angle_scale``), range 2
    (``bound=4.0`` for a difference of two sines)."""
    t.close(actual, expected, scale=angle_scale(*angles), bound=bound, label=label)


def close_dot(
    t: Any,
    actual: object,
    expected: object,
    d_model: int,
    *positions: object,
    bound: float | None = None,
    label: str = "PE · PE",
) -> None:
    """A dot product of PE rows at ``positions``: scale ``dot_scale`` (their angles and d_model products),
    range d_model (``bound=`` for rows of fewer entries: d_model/2 for the sin half alone)."""
    top = float(d_model) if bound is None else bound
    t.close(actual, expected, scale=dot_scale(d_model, *positions), bound=top, label=label)


def close_norm(
    t: Any, actual: object, expected: object, *positions: object, d_model: int, label: str = "‖PE(pos)‖"
) -> None:
    """‖PE(pos)‖ of rows at ``positions`` against √(d_model/2): scale Σ |position| (their angles are rounded),
    range √(d_model/2)."""
    t.close(actual, expected, scale=_total(positions), bound=math.sqrt(d_model / 2), label=label)


def close_hands(
    t: Any,
    actual: object,
    expected: object,
    omega: object,
    *positions: object,
    bound: float = 2.0,
    label: str = "products",
) -> None:
    """Products of one pair's hands (sin·sin, cos·cos, their sum) at frequency ``omega`` (one per row) and
    ``positions``: scale ω · Σ |position| + 2 (the angles rounded, two rounded products each at most 1, and
    their sum: one pair's share of ``dot_scale``), range ``bound``."""
    scale = np.asarray(omega, dtype=np.float64) * _total(positions) + 2
    t.close(actual, expected, scale=scale, bound=bound, label=label)


def close_score(
    t: Any, actual: object, expected: object, q: np.ndarray, key: np.ndarray, positions: list, label: str = "score"
) -> None:
    """A RoPE score of rows of q and k rotated at ``positions``: scale ``score_scale`` (‖q‖‖k‖ times the angles
    rounded)."""
    t.close(actual, expected, scale=score_scale(q, key, positions), label=label)


def relative_score(t: Any, q: np.ndarray, key: np.ndarray, distance: np.ndarray | int) -> np.ndarray:
    """qᵀ R(distance · θ) k in float64 as the implementation under test lays out its rotation: its pairs, and
    the dimensions it rotates (a partial rotation leaves the rest as plain q · k). Rows of q and k, one
    distance each: the expected value ``close_score`` compares with."""
    layout = layout_of(t.impl, q.shape[-1])
    q_in, key_in, turned = q[..., layout.order], key[..., layout.order], layout.rotated
    kept = np.sum(q_in[..., turned:] * key_in[..., turned:], axis=-1)
    return _relative_score(q_in[..., :turned], key_in[..., :turned], distance) + kept


def _total(positions: tuple[object, ...]) -> object:
    """Σ |position| (arrays: one per row)."""
    return sum((np.abs(np.asarray(p, dtype=np.float64)) for p in positions), np.float64(0.0))


# --- calls --------------------------------------------------------------------------------------------------------

LENGTH = 300


def _positions(positions: object) -> np.ndarray:
    return np.atleast_1d(np.asarray(positions, dtype=np.int64))


def _sequence(implementation: Implementation, length: int) -> np.ndarray:
    """Positions 0 … length − 1 (fewer where the domain ends sooner)."""
    top = implementation.domain.max_position
    return np.arange(length if top is None else min(length, top + 1))


def _sinusoidal_call(implementation: Implementation, d_model: int, length: int) -> Any:
    positions = _sequence(implementation, length)
    if implementation.domain.max_position is not None:  # and the largest position it declares
        positions = np.append(positions, min(implementation.domain.max_position, 2**20))
    return implementation.as_given("sinusoidal", positions, d_model)


def _sinusoidal_repeated(implementation: Implementation, d_model: int) -> tuple[Any, Any]:
    return (
        implementation.as_given("sinusoidal", np.arange(10), d_model),
        implementation.as_given("sinusoidal", SHARED, d_model),
    )


def _rope_inputs(rng: np.random.Generator, d_model: int) -> tuple[Any, ...]:
    return rng.uniform(-1.0, 1.0, (LENGTH, d_model)), np.arange(LENGTH)


def _rope_call(implementation: Implementation, d_model: int, length: int) -> Any:
    positions = _sequence(implementation, length)
    x = np.random.default_rng(SEED).uniform(-1.0, 1.0, (len(positions), d_model))
    return implementation.call("rope", implementation.xp.array(x), positions)


def _rope_repeated(implementation: Implementation, d_model: int) -> tuple[Any, Any]:
    x = np.random.default_rng(SEED).uniform(-1.0, 1.0, (10, d_model))
    return (
        implementation.call("rope", implementation.xp.array(x), np.arange(10)),
        implementation.call("rope", implementation.xp.array(x[SHARED]), SHARED),
    )


def _sinusoidal_reference(backend: str) -> Any:
    def sinusoidal(positions: np.ndarray, d_model: int, dtype: str, device: str) -> Any:
        return Reference(BACKENDS[backend](dtype, device)).sinusoidal(positions, d_model)

    return sinusoidal


def _rope_reference(backend: str) -> Any:
    def rope(x: Any, positions: np.ndarray) -> Any:
        return Reference(array_backend(backend, x)).rope(x, positions)

    return rope


def _in_document_layout(implementation: Implementation, table: Any, arguments: tuple[Any, ...]) -> Any:
    """A table in the documents' layout (sin at 2i, cos at 2i + 1), whatever layout the adapter declares."""
    layout = getattr(implementation.adapter, "layout", INTERLEAVED)
    return table if layout == INTERLEAVED else table[..., to_document_layout(int(arguments[1]), layout)]


def _table(xp: Backend, arguments: tuple[Any, ...]) -> Expected:
    return Expected((len(arguments[0]), int(arguments[1])), xp.dtype, xp.device)


def _fingerprint(capability: str, measure: Any) -> Fingerprint:
    return Fingerprint(
        measure=measure,
        variants=lambda found, adapter: variants(capability, found, adapter),
        per_dtype=lambda adapter, domain, found, dtypes: dtype_fingerprints(adapter, domain, capability, found, dtypes),
        reference=lambda backend, domain, size, dtypes: reference_fingerprints(
            backend, domain, capability, size, dtypes
        ),
    )


def rotated_pairs(adapter: Any) -> Fraction | None:
    """The rotated pairs per dimension of d_model the adapter's RoPE fingerprint measured (1/2 for a full
    rotation, 1/4 when half of each head rotates); None without one."""
    found = checked(adapter, ("rope",)).fingerprints.get("rope", {})
    if not isinstance(found.get("rotated"), int) or not found.get("d_model"):
        return None
    return Fraction(int(found["rotated"]), 2 * int(found["d_model"]))


SINUSOIDAL = Topic(
    name="sinusoidal",
    summary="rows PE(pos) of the sinusoidal table for integer positions: sin at 2i, cos at 2i + 1 (or as declared)",
    arguments=("positions", "d_model", "dtype", "device"),
    cite="Vaswani et al. 2017, Attention Is All You Need, §3.5",
    references={backend: _sinusoidal_reference(backend) for backend in ("numpy", "torch")},
    prepare=lambda arguments: (_positions(arguments[0]), int(arguments[1])),
    size=lambda arguments: int(arguments[1]),
    positions=lambda arguments: arguments[0],
    to_adapter=lambda xp, arguments: (*arguments, xp.dtype, xp.device),
    expected=_table,
    present=_in_document_layout,
    call=_sinusoidal_call,
    repeated=_sinusoidal_repeated,
    comparators=(close_pe, close_angle, close_dot, close_norm, close_hands),
    fingerprint=_fingerprint("sinusoidal", sinusoidal_fingerprint),
    declarations={"layout": LAYOUTS, "odd": ODD_SIZES},
    implementations=(XTransformersSinusoidal(), PositionalEncodings()),
    mutants=PE_MUTANTS,
)
"""The sinusoidal table: ``sinusoidal(positions, d_model, dtype, device)`` → one row PE(pos) per position."""

ROPE = Topic(
    name="rope",
    summary="x (n × d, in the run's dtype and device) with row j rotated for positions[j], base 10000, pairs as "
    "declared",
    arguments=("x", "positions"),
    inputs=_rope_inputs,
    cite="Su et al. 2021, RoFormer: Enhanced Transformer with Rotary Position Embedding, §3.4",
    references={backend: _rope_reference(backend) for backend in ("numpy", "torch")},
    prepare=lambda arguments: (arguments[0], _positions(arguments[1])),
    positions=lambda arguments: arguments[1],
    call=_rope_call,
    repeated=_rope_repeated,
    comparators=(close_score, relative_score),
    fingerprint=_fingerprint("rope", rope_fingerprint),
    declarations={"pairing": PAIRINGS, "odd": ODD_SIZES},
    rotated_fraction=rotated_pairs,
    implementations=(
        HalfSplitRope(),
        MetaComplexRope(),
        TorchtuneRope(),
        HuggingFaceLlamaRope(),
        RotaryEmbeddingTorch(),
        XTransformersRope(),
    ),
    mutants=ROPE_MUTANTS,
)
"""Rotary position embedding: ``rope(x, positions)`` → x with each row's pairs rotated by its position."""

TOPICS = (SINUSOIDAL, ROPE)
"""This module's topics, as checks.topics loads them."""

__all__ = [
    "ROPE",
    "SINUSOIDAL",
    "TOPICS",
    "close_angle",
    "close_dot",
    "close_hands",
    "close_norm",
    "close_pe",
    "close_score",
    "relative_score",
]
