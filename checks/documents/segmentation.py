"""A document's sentences: each line (or paragraph, checks.documents.markup) cut into sentences by nupunkt in English
(and after a single capital letter before a word that starts sentences: "matrix Q. The keys"; after a single small
letter before a capitalised word: "a factor of k. Separable"), pysbd in the other languages it knows, or, for a
document in Korean, after '.', '!' or '?' when a space follows and no digit precedes (docs/segmentation.md compares
them on real sentences).

In plain text a line is never joined to the next; blank lines and '---' rules are not sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pysbd

HANGUL = re.compile(r"[\uac00-\ud7a3]")
SENTENCE_STARTS = [
    "The",
    "These",
    "This",
    "Those",
    "We",
    "Our",
    "It",
    "Its",
    "In",
    "A",
    "An",
    "Each",
    "For",
    "To",
    "Then",
    "Thus",
    "Here",
    "As",
    "Finally",
    "However",
    "Since",
    "When",
    "Where",
    "Note",
    "Both",
    "All",
    "Such",
    "That",
    "There",
    "Their",
    "They",
    "One",
    "If",
    "On",
    "With",
    "By",
    "From",
    "At",
    "Is",
    "Are",
]
INITIAL_ENDS = re.compile(rf"(?<![A-Za-z.])[A-Z]\.\s+(?=(?:{'|'.join(SENTENCE_STARTS)})\b)")
"""A single capital letter and a period before a word that starts sentences: "a matrix Q. The keys" ends a sentence
at "Q." (nupunkt takes "Q." for an initial, as in "J. Smith", whose next word is a name). Measured on the corpus of
docs/segmentation.md before it was adopted: 230 of 231 English sentences right, against nupunkt's 227 alone."""
SYMBOL_ENDS = re.compile(r"(?<![A-Za-z.\\])[a-z]\.\s+(?=[A-Z])")
"""A single small letter and a period before a capitalised word: "by a factor of k. Separable convolutions" ends a
sentence at "k." (a symbol, never an initial; "e.g." and "i.e." have a letter or period before their last letter).
nupunkt keeps such sentences whole."""
KOREAN_SENTENCE = re.compile(r"[^\n]+?(?:(?<![0-9])[.!?](?= )|$)", re.MULTILINE)
"""The rule the three lesson documents' classification files were written against ("1. item" stays whole)."""


KOREAN_SHARE = 0.2
"""The least share of Hangul among a document's letters that makes it a Korean document (its errata, its pages'
language): the lessons have 0.40–0.69; an English post that quotes one Korean word, about 0.001."""


def document_language(text: str, configured: str) -> str:
    """The language a whole document is written in: 'ko' where Hangul is at least KOREAN_SHARE of its letters
    (a Korean syllable counts once, as a Latin letter does), else the repository's configured language."""
    hangul = len(HANGUL.findall(text))
    latin = sum(character.isascii() and character.isalpha() for character in text)
    return "ko" if hangul and hangul >= KOREAN_SHARE * (hangul + latin) else configured


def language_of(text: str, configured: str) -> str:
    """'ko' for a text with Hangul in it, else the repository's configured language (checks.settings.config)."""
    return "ko" if HANGUL.search(text) else configured


def sentence_spans(text: str, language: str = "en") -> list[tuple[int, int]]:
    """(start, end) of every sentence of ``text``, leading and trailing spaces trimmed."""
    if language_of(text, language) == "ko":
        pieces = ((m.start(), m.group()) for m in KOREAN_SENTENCE.finditer(text))
    else:
        pieces = _segmented(text, language)
    spans = []
    for start, chunk in pieces:
        stripped = chunk.strip()
        if not stripped or stripped == "---":
            continue
        begin = start + (len(chunk) - len(chunk.lstrip()))
        spans.append((begin, begin + len(stripped)))
    return spans


def paragraph_spans(text: str, start: int, end: int, language: str = "en") -> list[tuple[int, int]]:
    """(start, end) of every sentence of the paragraph ``text[start:end]``, whose lines are one run of text (Markdown,
    LaTeX): a sentence may go on over a line break."""
    flat = re.sub(r"[\r\n~]", " ", text[start:end])  # ~: LaTeX's unbreakable space ("Fig.~2" stays whole)
    return [(start + a, start + b) for a, b in sentence_spans(flat, language)]


def _segmented(text: str, language: str) -> Iterator[tuple[int, str]]:
    """(start, piece) of each sentence found line by line: nupunkt in English, pysbd in the other languages."""
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip():
            yield from ((offset + start, piece) for start, piece in _split(line.rstrip("\r\n"), language))
        offset += len(line)


def _split(line: str, language: str) -> list[tuple[int, str]]:
    """(start, piece) of each sentence of one line (or one flattened paragraph). English goes to nupunkt: on the
    labelled corpus of docs/segmentation.md it cuts 98.3 % of the sentences right, pysbd 86.6 % (pysbd cuts after
    "et al. [2017]" and "Eq. (2)")."""
    if language == "en":
        import nupunkt

        return [(start, line[start:end]) for start, end in _at_initials(line, nupunkt.sent_spans(line))]
    return [(span.start, span.sent) for span in _segmenter(language).segment(line)]


def _at_initials(text: str, spans: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """``spans`` cut again after each single letter and period that ends a sentence (INITIAL_ENDS, SYMBOL_ENDS)."""
    for start, end in spans:
        ends = sorted([*INITIAL_ENDS.finditer(text, start, end), *SYMBOL_ENDS.finditer(text, start, end)], key=_start)
        for found in ends:
            yield start, found.start() + 2
            start = found.end()
        yield start, end


def _start(found: re.Match[str]) -> int:
    return found.start()


@cache
def _segmenter(language: str) -> pysbd.Segmenter:
    try:
        return pysbd.Segmenter(language=language, clean=False, char_span=True)
    except ValueError as error:
        raise ValueError(f"sentence splitting: {error} (set language = '…' in [tool.theory-claims])") from None
