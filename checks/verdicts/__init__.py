"""The one verdict vocabulary, and how the weight of a claim's evidence becomes its verdict."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class Verdict(StrEnum):
    """The one verdict vocabulary: proved, holds, qualified, refuted, broken, out-of-scope."""

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


SEVERITY: tuple[Verdict, ...] = (
    Verdict.BROKEN,
    Verdict.OUT_OF_SCOPE,
    Verdict.REFUTED,
    Verdict.QUALIFIED,
    Verdict.HOLDS,
    Verdict.PROVED,
)
"""Most severe first: machines that disagree on a claim show its most severe verdict, and a claim
taken from others is only as strong as the weakest of them."""


def most_severe(verdicts: list[Verdict] | set[Verdict]) -> Verdict:
    return min(verdicts, key=SEVERITY.index)


@dataclass(frozen=True)
class Weight:
    """What one kind of evidence says about its claim (checks.evidence.base.Evidence.weigh)."""

    crashed: bool = False
    """A run of the claim's own code crashed: the claim is broken."""
    refutes: bool = False
    """A counterexample: the claim is false as stated."""
    qualifies: bool = False
    """A condition the document leaves unstated."""
    support: Literal["proved", "holds"] | None = None
    """Decided symbolically, or passing numeric or structural evidence."""
    decides: Verdict | None = None
    """A verdict taken whole from other claims (a derivation)."""


def observe(weights: list[Weight], *, crashed: bool = False, out_of_scope: bool = False) -> Verdict:
    """The verdict the evidence supports, most severe first; ``crashed``: a step of the claim raised."""
    if crashed or any(w.crashed for w in weights):
        return Verdict.BROKEN
    if out_of_scope:
        return Verdict.OUT_OF_SCOPE
    decided = [w.decides for w in weights if w.decides is not None]
    if decided:
        return most_severe(decided)
    if any(w.refutes for w in weights):
        return Verdict.REFUTED
    supports = {w.support for w in weights} - {None}
    if not supports:
        return Verdict.BROKEN
    if any(w.qualifies for w in weights):
        return Verdict.QUALIFIED
    return Verdict.PROVED if "proved" in supports else Verdict.HOLDS
