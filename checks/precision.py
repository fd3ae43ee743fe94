"""Precision envelopes: errors of PE values and identities by dtype, and the positions where they pass a tolerance.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.precision import (
    ANGLE_MODES,
    CHUNK_ELEMENTS,
    DTYPE_MODES,
    Boundary,
    ErrorFactory,
    ErrorFunction,
    dot_identity_errors,
    exact_pairs,
    find_boundary,
    frequencies_of,
    pairs_in,
    pe_value_errors,
    record_envelopes,
    rope_score_errors,
    rope_vectors,
    shift_identity_errors,
    sweep_errors,
)

__all__ = [
    "ANGLE_MODES",
    "CHUNK_ELEMENTS",
    "DTYPE_MODES",
    "Boundary",
    "ErrorFactory",
    "ErrorFunction",
    "dot_identity_errors",
    "exact_pairs",
    "find_boundary",
    "frequencies_of",
    "pairs_in",
    "pe_value_errors",
    "record_envelopes",
    "rope_score_errors",
    "rope_vectors",
    "shift_identity_errors",
    "sweep_errors",
]
