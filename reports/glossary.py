"""The terms the report cannot do without, each in words a reader of the documents knows (the glossary page)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from checks.verdicts.errata import SEVERITIES

TERMS: dict[str, str] = {
    "proved": "Shown true for every input by exact algebra (no rounding), and every numeric run agrees.",
    "holds": "Every numeric test and measurement passed, but no exact algebra covers it.",
    "qualified": "True only under a condition the document does not state; the condition is written down.",
    "refuted": "False as the document states it; a counterexample is written down.",
    "broken": "The check itself crashed, so nothing was decided (never shown as refuted).",
    "out-of-scope": "Not something a computation can check (an opinion, a definition, a claim about history).",
    **{f"severity: {name}": meaning[0].upper() + meaning[1:] + "." for name, meaning in SEVERITIES.items()},
    "erratum": "The fix a claim proposes for a sentence: what is wrong, how serious, and how it could read.",
    "decision procedure": (
        "A method that always answers proved, refuted or unknown for a given kind of formula, instead of trying "
        "simplifications and hoping; unknown is never shown as proved."
    ),
    "Groebner reduction": (
        "The decision procedure for polynomial identities (a sin and a cos of one angle enter as two variables tied "
        "by sin² + cos² = 1): rewrite both sides by the relations until nothing more can be rewritten; if the "
        "difference becomes 0, the identity holds."
    ),
    "certificate": (
        "What a proof leaves behind so that anyone can check it again by multiplying out, without trusting "
        "the program that found it (for an inequality: a sum of squares that equals the gap). Here a small "
        "kernel of exact fraction arithmetic multiplies each one out."
    ),
    "sum of squares": "A sum of squared terms, never negative: writing a gap that way proves it is ≥ 0.",
    "tolerance": (
        "How far a computed number may be from the exact one before a check fails: a fixed part plus a part "
        "that grows with the size of the numbers involved, set per number format."
    ),
    "dtype": (
        "The number format a computation runs in: float64 (about 16 digits), float32 (about 7), float16 and "
        "bfloat16 (about 3 and 2)."
    ),
    "example": "One input a property test tried (a size and the arrays drawn at it, a number, a pair of vectors).",
    "sweep": "Every position × pair × offset of a grid checked at once, instead of sampled examples.",
    "case": "One equation at one grid point of a sweep.",
    "implementation": "A piece of code under test: a document's own code, PyTorch or NumPy versions, libraries.",
    "contract": "What every implementation must do before its answers count: the right shape, type and no crash.",
    "experiment": "A small training or timing run, designed in the claim file before it ran: what is compared, "
    "how it is measured, with which seeds, and the rule that decides.",
    "arm": "One of the things an experiment compares (for example, with and without position encoding).",
    "regime": "One setting an experiment is repeated in (a sequence length, a task); each is decided alone.",
    "seed": "The number that fixes an experiment's randomness, so the same seed gives the same result.",
    "95 % interval": "The range the average effect lies in with 95 % confidence, from resampling the seeds.",
    "d_model": "The length of each word's vector (the model's width).",
    "pair (i)": "Entries 2i and 2i+1 of a position vector: one sin and one cos, a clock hand turning at ω_i.",
}
"""Each term with its meaning, in the order the page lists them."""
ALWAYS = ("proved", "holds", "qualified", "refuted", "broken", "out-of-scope", "erratum", "tolerance", "dtype")
"""Terms the glossary gives whatever the site shows (the verdicts, and what every numeric run speaks of)."""


def used(pages: Iterable[str]) -> dict[str, str]:
    """The terms the site's pages use (and ALWAYS): a glossary of a repository without sweeps, experiments or
    position vectors does not explain them."""
    text = " ".join(re.sub(r"<[^>]+>", " ", page) for page in pages).lower()
    return {
        term: meaning
        for term, meaning in TERMS.items()
        if term in ALWAYS
        or term.startswith("severity: ")
        or re.search(rf"(?<!\w){re.escape(term.lower())}(?!\w)", text)
    }
