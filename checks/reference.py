"""The project's reference formulas and implementations, array backends, tolerances, encodings and similarity.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.encodings import (
    EXACT,
    chord_lengths,
    clockwise_turn,
    pair_chords,
    shifted_rows,
    table_in,
    table_rounded,
)
from checks.helpers.similarity import dot, dot_scale, first_increase, similarity_curve, sin_only
from checks.numerics.backends import NumpyBackend, TorchBackend
from checks.numerics.devices import available_devices
from checks.numerics.reference_implementations import Reference, frequency_values
from checks.numerics.tolerances import angle_scale, tolerance

__all__ = [
    "EXACT",
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
    "shifted_rows",
    "similarity_curve",
    "sin_only",
    "table_in",
    "table_rounded",
    "tolerance",
]
