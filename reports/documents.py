"""Document pages: the text cut into sentences, each shown with its class, the quoted ones highlighted.

Sentences and their classes come from checks.documents.coverage: quoted by a claim (checked or out-of-scope), or
listed in the document's classification file (not a claim, with a category; or unchecked, with a note).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from checks.documents.coverage import CATEGORIES, Classified, ClassifiedSentence, Quoting, classify
from checks.verdicts import Verdict, most_severe
from checks.written.reading import DocumentReading

PLAIN_TEXT_SENTENCE = (
    "A sentence is a line of the document, cut again after '.', '!' or '?' when a space follows and no digit "
    "precedes; blank lines and '---' rules are not sentences."
)
MARKED_UP_SENTENCE = (
    "A sentence is cut from its paragraph by the sentence splitter of the document's language; headings, display "
    "formulas, tables, code, captions and reference lists are classified from the markup."
)
DEFINITION = (
    "Every sentence has one class: checked (an in-scope claim quotes it), out-of-scope (only out-of-scope claims "
    "quote it), unchecked (it states something checkable that no claim checks yet; the classification file says "
    "what), or not a claim (a heading, code, a definition, …; the classification file gives the category). "
    "A sentence with no class is shown as unclassified: `theory-claims sentences` lists them.",
    "Coverage is checked sentences over checkable ones (checked, unchecked, or without a class: a sentence not yet "
    "classified counts against it); out-of-scope sentences count apart.",
)


@dataclass(frozen=True)
class PlacedQuote:
    """One quote of one claim, placed in its document."""

    claim_id: str
    href: str
    verdict: str
    anchor: str
    text: str
    in_scope: bool
    start: int = -1
    end: int = -1
    control: bool = False
    """A control's quote (checks.Claim.control): it checks a reading the document does not make, so it neither
    colours the sentence nor checks it."""


@dataclass
class Segment:
    """A run of text with one highlighting: the quotes over it and the state of its sentence."""

    text: str
    quotes: list[PlacedQuote] = field(default_factory=list)
    sentence: ClassifiedSentence | None = None
    anchors: list[str] = field(default_factory=list)
    ending: list[PlacedQuote] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """The most severe verdict of the claims quoting it (in-scope ones first): its colour."""
        quotes = [q for q in self.quotes if not q.control]
        judged = [q.verdict for q in quotes if q.in_scope] or [q.verdict for q in quotes]
        return most_severe({Verdict(v) for v in judged}) if judged else ""

    @property
    def state(self) -> str:
        """The class of the sentence it belongs to ("plain" between sentences)."""
        return self.sentence.sentence_class if self.sentence else "plain"


@dataclass
class HighlightedDocument:
    segments: list[Segment]
    coverage: Classified
    missing: list[PlacedQuote]


def highlight(reading: DocumentReading, quotes: list[PlacedQuote]) -> HighlightedDocument:
    """Place each quote (its first occurrence), class every sentence, and cut the text into segments."""
    text = reading.text
    placed, missing = [], []
    for quote in quotes:
        start = text.find(quote.text) if quote.text else -1
        if start < 0:
            missing.append(quote)
        else:
            placed.append(PlacedQuote(**{**quote.__dict__, "start": start, "end": start + len(quote.text)}))
    checking = [Quoting(q.claim_id, q.verdict, q.in_scope, q.text) for q in placed if not q.control]
    classified = classify(reading.name, text, checking, reading.entries, reading.units)
    spans = classified.sentences
    cuts = {0, len(text)} | {p for s in spans for p in (s.start, s.end)} | {p for q in placed for p in (q.start, q.end)}
    segments = []
    index = 0
    for a, b in itertools.pairwise(sorted(cuts)):
        while index < len(spans) and spans[index].end <= a:
            index += 1
        sentence = spans[index] if index < len(spans) and spans[index].start <= a else None
        segments.append(
            Segment(
                text[a:b],
                quotes=[q for q in placed if q.start <= a and b <= q.end],
                sentence=sentence,
                anchors=[f"s-{s.index + 1}" for s in spans if s.start == a]
                + [q.anchor for q in placed if q.start == a],
                ending=[q for q in placed if q.end == b],
            )
        )
    return HighlightedDocument(segments, classified, missing)


def describe(sentence: ClassifiedSentence) -> str:
    """A sentence's class in words, for its tooltip."""
    if sentence.sentence_class == "not-a-claim":
        return f"not a claim: {sentence.category} ({CATEGORIES.get(sentence.category, '')})"
    if sentence.sentence_class == "unchecked":
        return f"checkable, not yet checked: {sentence.note}"
    if sentence.sentence_class == "unclassified":
        return "no class: quote it in a claim or list it in the document's classification file"
    return sentence.sentence_class
