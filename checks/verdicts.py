"""The one verdict vocabulary, and how a claim's evidence becomes a verdict."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    PROVED = "proved"
    """Decided symbolically, and every numeric run agrees."""
    HOLDS = "holds"
    """Numeric or structural evidence only, all of it passing."""
    QUALIFIED = "qualified"
    """True only under a condition the document does not state (recorded)."""
    REFUTED = "refuted"
    """False as stated (counterexample recorded)."""
    BROKEN = "broken"
    """The check itself crashed: never shown as refuted."""
    OUT_OF_SCOPE = "out-of-scope"
    """Not checkable by computation (reason recorded)."""


def observe(
    *,
    crashed: bool,
    out_of_scope: bool,
    proof_status: str | None,
    run_statuses: list[str],
    finding_kinds: list[str],
    probes_ran: bool,
) -> Verdict:
    """The verdict the evidence supports, most severe first."""
    if crashed or "error" in run_statuses:
        return Verdict.BROKEN
    if out_of_scope:
        return Verdict.OUT_OF_SCOPE
    if proof_status == "refuted" or "failed" in run_statuses or "counterexample" in finding_kinds:
        return Verdict.REFUTED
    if not (proof_status == "proved" or "passed" in run_statuses or probes_ran):
        return Verdict.BROKEN
    if "condition" in finding_kinds:
        return Verdict.QUALIFIED
    return Verdict.PROVED if proof_status == "proved" else Verdict.HOLDS
