"""Hypothesis strategies for claim inputs: positions, offsets, d_models, batches, vectors, sentences, attention inputs.
One that depends on the dtype takes ``dtype=``, by default the check's; outside a check pass it.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.rope_scores import attention_input_batches, query_key_batches
from checks.helpers.variable_strategies import (
    UNIT,
    Batch,
    as_batch,
    batch_size,
    d_models,
    frequencies,
    offsets,
    position_batches,
    position_offset_batches,
    position_pair_batches,
    positions,
    sentence_batches,
    vector_batches,
    vectors,
    with_frequencies,
)

__all__ = [
    "UNIT",
    "Batch",
    "as_batch",
    "attention_input_batches",
    "batch_size",
    "d_models",
    "frequencies",
    "offsets",
    "position_batches",
    "position_offset_batches",
    "position_pair_batches",
    "positions",
    "query_key_batches",
    "sentence_batches",
    "vector_batches",
    "vectors",
    "with_frequencies",
]
