"""Designed training experiments: tiny encoders, synthetic tasks, seeds and budgets.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.tiny_encoders import (
    AT_TRAINED,
    MODEL,
    OFFSET,
    PER_POSITION_MODEL,
    TRAINED,
    Budget,
    TinyEncoder,
    encoder_design,
    fitted_offset_model,
    learned_table_step,
    length_trial,
    offset_design,
    offset_trial,
    token_at,
    token_at_any_length,
    token_back,
    train,
    which_first,
)

__all__ = [
    "AT_TRAINED",
    "MODEL",
    "OFFSET",
    "PER_POSITION_MODEL",
    "TRAINED",
    "Budget",
    "TinyEncoder",
    "encoder_design",
    "fitted_offset_model",
    "learned_table_step",
    "length_trial",
    "offset_design",
    "offset_trial",
    "token_at",
    "token_at_any_length",
    "token_back",
    "train",
    "which_first",
]
