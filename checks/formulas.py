"""The SymPy symbols and formulas proofs are written in: pos, k, ω, PE pairs, rotations, sums over pairs.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.symbolic.document_formulas import BASE, d_model, i, k, omega, pair, pairs_sum, pos, rotation, shift_block, w

__all__ = ["BASE", "d_model", "i", "k", "omega", "pair", "pairs_sum", "pos", "rotation", "shift_block", "w"]
