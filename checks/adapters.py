"""What a claim about implementations asks of them: which are references, what they lack, how they lay out RoPE; and
what an adapter of a document's own code needs: the document's text, the sandbox that runs the code, and the name
prefix (DOCUMENT_CODE) that marks such an adapter in the report.

Part of the public face for claim files and the catalog's own adapters (docs/writing-claims.md); what it re-exports
may move inside."""

from __future__ import annotations

from checks.documents.sources import document_text
from checks.helpers.probing import adapter_score_errors
from checks.implementations.base import backend_name, is_reference, missing
from checks.implementations.fingerprint import layout_of, pair_order, pairing_name, probing, rotated_dimensions
from checks.implementations.sandbox import Sandbox, SandboxError
from checks.numerics.domain import Domain
from checks.results.records import DOCUMENT_CODE

__all__ = [
    "DOCUMENT_CODE",
    "Domain",
    "Sandbox",
    "SandboxError",
    "adapter_score_errors",
    "backend_name",
    "document_text",
    "is_reference",
    "layout_of",
    "missing",
    "pair_order",
    "pairing_name",
    "probing",
    "rotated_dimensions",
]
