"""What a document's author reads for a sentence a claim finds wrong or incomplete: an erratum.

A claim whose verdict is refuted or qualified declares one (``Claim(erratum=Erratum(...))``): how serious it
is on a four-step scale, one line on what is wrong or which condition the sentence needs, and a corrected
wording in the document's own language. The report lists them per document, most serious first, and writes
them beside the site as Markdown, CSV and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "condition", "precision", "note"]
SEVERITIES: dict[str, str] = {
    "error": "false as stated: a reader who believes it is misled",
    "condition": "true only under a condition that matters in practice and that the sentence leaves out",
    "precision": "true in exact arithmetic; fails only at floating-point extremes",
    "note": "true as stated; worth a remark (a bound left loose, a case left unsaid)",
}
"""The scale, most serious first: errata are listed in this order."""


@dataclass(frozen=True)
class Erratum:
    """The correction a claim proposes for the sentence it quotes first (or for ``sentence``, another one of its
    quotes, by its exact text)."""

    severity: Severity
    problem: str
    """One line, in English: what is wrong, or which condition the sentence needs."""
    wording: str
    """The sentence as it could read instead, in the document's language."""
    sentence: str = ""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"erratum severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")
        for name in ("problem", "wording"):
            value = getattr(self, name)
            if not value.strip() or "\n" in value:
                raise ValueError(f"erratum {name} must be one non-empty line, not {value!r}")


def rank(severity: str) -> int:
    """The place of ``severity`` on the scale (0: most serious); unknown ones last."""
    order = list(SEVERITIES)
    return order.index(severity) if severity in order else len(order)
