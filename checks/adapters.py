"""What a claim about implementations asks of them: which are references, what they lack, how they lay out RoPE.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.helpers.probing import adapter_score_errors
from checks.implementations.base import backend_name, is_reference, missing
from checks.implementations.fingerprint import layout_of, pair_order, pairing_name, probing, rotated_dimensions
from checks.numerics.domain import Domain

__all__ = [
    "Domain",
    "adapter_score_errors",
    "backend_name",
    "is_reference",
    "layout_of",
    "missing",
    "pair_order",
    "pairing_name",
    "probing",
    "rotated_dimensions",
]
