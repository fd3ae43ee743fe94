"""Document pages: the text cut into sentences, the quoted ones highlighted, and the coverage.

A *sentence* is a line of the document, cut again after '.', '!' or '?' when a space
follows and no digit precedes (so "1. item" stays whole). Blank lines and '---' rules
are not sentences. A sentence is *checkable* when a claim quotes it, or when it states
something in Korean: at least two words, not a question, not a label ending in ':', and
either a declarative ending (…다, …요, or a note-style ending on ㅁ such as …함, …됨, …음)
or at least five words ending in a Korean syllable.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

SENTENCE = re.compile(r"[^\n]+?(?:(?<![0-9])[.!?](?= )|$)", re.MULTILINE)
HANGUL = re.compile(r"[\uac00-\ud7a3]")
CLOSING = " .!)\"'”’」』]"
DEFINITION = (
    "A sentence is a line of the document, cut again after '.', '!' or '?' when a space follows and no digit "
    "precedes; blank lines and '---' rules are not sentences.",
    "A sentence is checkable when a claim quotes it, or when it states something in Korean: at least two words, "
    "not a question, not a label ending in ':', and either a declarative ending (…다, …요, or a note-style ending "
    "on ㅁ such as …함, …됨, …음) or at least five words ending in a Korean syllable (before closing punctuation). "
    "Headings, labels, code and formulas mostly fall outside; they count only when quoted.",
    "Coverage is checked sentences over checkable sentences; a sentence quoted only by out-of-scope claims is "
    "counted apart, in neither number.",
)


@dataclass(frozen=True)
class Quote:
    """One quote of one claim, placed in its document."""

    claim_id: str
    href: str
    verdict: str
    anchor: str
    text: str
    in_scope: bool
    start: int = -1
    end: int = -1


@dataclass
class Segment:
    """A run of text with one highlighting: the quotes over it and the state of its sentence."""

    text: str
    quotes: list[Quote] = field(default_factory=list)
    state: str = "plain"
    anchors: list[str] = field(default_factory=list)
    ending: list[Quote] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return self.quotes[0].verdict if self.quotes else ""


@dataclass
class Coverage:
    sentences: int
    checkable: int
    checked: int
    out_of_scope: int

    @property
    def percent(self) -> float:
        return 100.0 * self.checked / self.checkable if self.checkable else 0.0


@dataclass
class HighlightedDocument:
    segments: list[Segment]
    coverage: Coverage
    missing: list[Quote]


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of every sentence, leading and trailing spaces trimmed."""
    spans = []
    for match in SENTENCE.finditer(text):
        chunk = match.group()
        stripped = chunk.strip()
        if not stripped or stripped == "---":
            continue
        start = match.start() + (len(chunk) - len(chunk.lstrip()))
        spans.append((start, start + len(stripped)))
    return spans


def checkable(sentence: str) -> bool:
    """The plain rule in the module docstring (quoted sentences count as well, elsewhere)."""
    words = sentence.split()
    core = sentence.rstrip(CLOSING)
    if len(words) < 2 or sentence.endswith(("?", ":")) or not core or not HANGUL.search(sentence):
        return False
    last = core[-1]
    offset = ord(last) - 0xAC00
    declarative = last in "다요" or (0 <= offset < 11172 and offset % 28 == 16)
    return declarative or (len(words) >= 5 and HANGUL.match(last) is not None)


def highlight(text: str, quotes: list[Quote]) -> HighlightedDocument:
    """Place each quote (its first occurrence), cut the text into segments, count the coverage."""
    placed, missing = [], []
    for quote in quotes:
        start = text.find(quote.text) if quote.text else -1
        if start < 0:
            missing.append(quote)
        else:
            placed.append(Quote(**{**quote.__dict__, "start": start, "end": start + len(quote.text)}))
    spans = sentences(text)
    states = [_state(text[a:b], a, b, placed) for a, b in spans]
    cuts = {0, len(text)} | {p for span in spans for p in span} | {p for q in placed for p in (q.start, q.end)}
    points = sorted(cuts)
    segments = []
    sentence_index = 0
    for a, b in itertools.pairwise(points):
        while sentence_index < len(spans) and spans[sentence_index][1] <= a:
            sentence_index += 1
        inside = sentence_index < len(spans) and spans[sentence_index][0] <= a
        segments.append(
            Segment(
                text[a:b],
                quotes=[q for q in placed if q.start <= a and b <= q.end],
                state=states[sentence_index] if inside else "plain",
                anchors=[q.anchor for q in placed if q.start == a],
                ending=[q for q in placed if q.end == b],
            )
        )
    coverage = Coverage(
        sentences=len(spans),
        checkable=sum(s in ("checked", "unchecked") for s in states),
        checked=states.count("checked"),
        out_of_scope=states.count("out-of-scope"),
    )
    return HighlightedDocument(segments, coverage, missing)


def _state(sentence: str, start: int, end: int, quotes: list[Quote]) -> str:
    over = [q for q in quotes if q.start < end and start < q.end]
    if any(q.in_scope for q in over):
        return "checked"
    if over:
        return "out-of-scope"
    return "unchecked" if checkable(sentence) else "plain"
