"""RoPE: scores of rotated queries and keys, pairings and layouts (RoPE's, and the sinusoidal
table's).

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.rope_scores import (
    additive_score_rows,
    additive_scores,
    common_shift_batches,
    misconception_verdict,
    qualified_where,
    query_key_batches,
    rope_rows,
    rope_score_rows,
    rope_scores,
    score_scale,
)
from checks.numerics.pairing import (
    CONCATENATED,
    HALF_SPLIT,
    INTERLEAVED,
    RopeLayout,
    rope_layout,
    to_document_layout,
    to_interleaved,
)

__all__ = [
    "CONCATENATED",
    "HALF_SPLIT",
    "INTERLEAVED",
    "RopeLayout",
    "additive_score_rows",
    "additive_scores",
    "common_shift_batches",
    "misconception_verdict",
    "qualified_where",
    "query_key_batches",
    "rope_layout",
    "rope_rows",
    "rope_score_rows",
    "rope_scores",
    "score_scale",
    "to_document_layout",
    "to_interleaved",
]
