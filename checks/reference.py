"""The project's reference formulas and implementations, array backends, tolerances, encodings and similarity.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.encodings import (
    EXACT,
    chord_lengths,
    clockwise_turn,
    pair_chords,
    rounded,
    shifted_rows,
    table_in,
    table_rounded,
)
from checks.helpers.similarity import dot, dot_scale, first_increase, similarity_curve, sin_only
from checks.numerics.backends import Array, Backend, NumpyBackend, TorchBackend
from checks.numerics.devices import available_devices
from checks.numerics.reference import Reference, frequency_values
from checks.numerics.tolerances import (
    BFLOAT16,
    FLOAT16,
    FLOAT32,
    FLOAT64,
    FLOATS,
    LOW_PRECISION,
    angle_scale,
    position_limit,
    tolerance,
)

__all__ = [
    "BFLOAT16",
    "EXACT",
    "FLOAT16",
    "FLOAT32",
    "FLOAT64",
    "FLOATS",
    "LOW_PRECISION",
    "Array",
    "Backend",
    "NumpyBackend",
    "Reference",
    "TorchBackend",
    "angle_scale",
    "available_devices",
    "chord_lengths",
    "clockwise_turn",
    "dot",
    "dot_scale",
    "first_increase",
    "frequency_values",
    "pair_chords",
    "position_limit",
    "rounded",
    "shifted_rows",
    "similarity_curve",
    "sin_only",
    "table_in",
    "table_rounded",
    "tolerance",
]
