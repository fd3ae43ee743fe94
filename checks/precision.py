"""Precision envelopes: errors of PE values and identities by dtype, and the positions where they pass a tolerance.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.precision_envelopes import (
    Boundary,
    cosine_gaps,
    dot_identity_envelopes,
    find_boundary,
    index_gaps,
    merge_thresholds,
    normalized_collisions,
    pe_value_envelopes,
    pe_value_errors,
    rope_score_envelopes,
    rope_score_errors,
    rope_vectors,
    shift_identity_envelopes,
)

__all__ = [
    "Boundary",
    "cosine_gaps",
    "dot_identity_envelopes",
    "find_boundary",
    "index_gaps",
    "merge_thresholds",
    "normalized_collisions",
    "pe_value_envelopes",
    "pe_value_errors",
    "rope_score_envelopes",
    "rope_score_errors",
    "rope_vectors",
    "shift_identity_envelopes",
]
