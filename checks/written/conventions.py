"""Conventions a set of documents should share, read from what each writes: where positions start counting.

A document says it in its notation (``pos: 단어의 위치 (0, 1, 2, 3, ...)``), in an example that maps tokens to positions
(``token1 -> pos 1``), in a line naming a first position (``pos 0``) or in words (``0번 단어``). Documents that count
from different places make a reader of one misread the formulas of another: the documents in the minority get a
row, citing where the others say otherwise, with the example rewritten in the majority's convention.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

NOTATION = re.compile(r"pos[^\n]{0,12}:[^\n]*?\((\d+), (\d+), (\d+)")
MAPPING = re.compile(r"^[ \t]*(\w*?)(\d+)[ \t]*->[ \t]*pos[ \t]*(\d+)[ \t]*$", re.MULTILINE)
FIRST_LINE = re.compile(r"^[ \t]*pos[ \t]+(0|1)[ \t]*$", re.MULTILINE)
ORDINAL_ZERO = re.compile(r"(?<!\d)0번 (?:단어|토큰|위치)")


@dataclass(frozen=True)
class Counting:
    """Where a document starts counting positions, and the text that shows it."""

    document: str
    first: int
    line: int
    evidence: str
    start: int
    """Where the evidence starts in the text."""


def counting(document: str, text: str) -> Counting | None:
    """The first position a document counts from, by the first of its notation, a token-to-position example, a
    line naming the first position, or a word for the 0th word; None when it says nothing."""
    if found := NOTATION.search(text):
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        return _said(document, text, int(found.group(1)), start, text[start : end if end >= 0 else len(text)])
    if mappings := list(MAPPING.finditer(text)):
        run = _first_run(mappings, text)
        first = min(int(m.group(3)) for m in run)
        return _said(document, text, first, run[0].start(), text[run[0].start() : run[-1].end()].strip())
    if found := ORDINAL_ZERO.search(text):  # prose before a lone 'pos 0' (a slider's default, say)
        start = text.rfind("\n", 0, found.start()) + 1
        return _said(document, text, 0, found.start(), _sentence_at(text, found.start(), start))
    if found := FIRST_LINE.search(text):
        return _said(document, text, int(found.group(1)), found.start(), found.group(0).strip())
    return None


def _sentence_at(text: str, at: int, line_start: int) -> str:
    """The sentence of its line around ``at``: from the last '. ' before it (or the line's start) to the next end."""
    before = text.rfind(". ", line_start, at)
    begin = before + 2 if before >= 0 else line_start
    end = re.search(r"[.!?,](?= |$)", text[at:])
    return text[begin : at + (end.end() if end else 0)].strip().rstrip(",")


def _first_run(mappings: list[re.Match[str]], text: str) -> list[re.Match[str]]:
    """The first block of consecutive mapping lines."""
    run = [mappings[0]]
    for match in mappings[1:]:
        if text.count("\n", run[-1].end(), match.start()) > 1:
            break
        run.append(match)
    return run


def _said(document: str, text: str, first: int, start: int, evidence: str) -> Counting:
    return Counting(document, first, text.count("\n", 0, start) + 1, evidence.strip(), start)


@dataclass(frozen=True)
class Disagreement:
    """A document that counts from another position than the others, and what its example reads as instead."""

    counting: Counting
    others: tuple[Counting, ...]
    rewritten: str
    """The evidence in the others' convention (a token-to-position example renumbered); empty when none is."""


def disagreements(texts: dict[str, str]) -> list[Disagreement]:
    """The documents in the minority on where positions start (none when they agree, or are as many each way)."""
    said = [c for name, text in texts.items() if (c := counting(name, text)) is not None]
    votes = Counter(c.first for c in said)
    if len(votes) < 2 or len(set(votes.values())) == 1:
        return []
    usual = votes.most_common(1)[0][0]
    others = tuple(c for c in said if c.first == usual)
    return [Disagreement(c, others, _renumbered(c.evidence, usual - c.first)) for c in said if c.first != usual]


def _renumbered(evidence: str, shift: int) -> str:
    """A token-to-position example with each position moved by ``shift`` (token names kept)."""
    if not MAPPING.search(evidence):
        return ""
    return MAPPING.sub(lambda m: m.group(0)[: m.start(3) - m.start(0)] + str(int(m.group(3)) + shift), evidence)
