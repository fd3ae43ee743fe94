"""The installed transformers library: tiny BERT, GPT-2 and LLaMA models and its modeling code.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.library import (
    bert,
    causal_lm_architectures,
    gpt2,
    library_version,
    llama,
    longest_accepted,
    position_table_rows,
    rotary_modules,
    shift_change,
)

__all__ = [
    "bert",
    "causal_lm_architectures",
    "gpt2",
    "library_version",
    "llama",
    "longest_accepted",
    "position_table_rows",
    "rotary_modules",
    "shift_change",
]
