"""What the written checks find, as a report turns it into a row: the places a finding changes, with what they
could read instead, and the finding said in English and Korean."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Place:
    """A span of the document a finding changes, with what it could read instead (empty: nothing to paste)."""

    line: int
    text: str
    wording: str = ""


@dataclass(frozen=True)
class NotationFinding:
    """One problem of notation, at the places it changes, said in English and Korean."""

    kind: str
    places: tuple[Place, ...]
    english: str
    korean: str
    formula_line: int = 0
    """The line of the formula it concerns (0: none)."""
    vectors: tuple[str, ...] = ()
    """For one letter a number and a vector: the letters its wording sets in bold."""
    rewrite: tuple[str, str] | None = None
    """For a symbol used in another role: the symbol and what its wording writes in its place."""

    def said(self, language: str) -> str:
        return self.korean if language == "ko" else self.english


def particle(word: str, pair: str) -> str:
    """The Korean particle after a word ('k는', 'd_k는', 'n은', '앞은'): the first of ``pair`` after a closed
    syllable (a Hangul final consonant; a letter read aloud in English that ends in one: el, em, en, ar; a digit
    read in Korean that ends in one: 영, 일, 삼, 육, 칠, 팔)."""
    last = word[-1]
    hangul = "가" <= last <= "힣"
    closed = (ord(last) - ord("가")) % 28 != 0 if hangul else last.lower() in "lmnr013678"
    return pair[0] if closed else pair[1]


def sentence_around(line: str, at: int) -> str:
    """The sentence of ``line`` that holds position ``at`` (sentences end with '. ', '? ', '! ' or a display's $$)."""
    starts = [0] + [m.end() for m in re.finditer(r"(?<=[.?!])\s+|\$\$\s+", line) if m.end() <= at]
    start = starts[-1]
    end = re.search(r"[.?!](?=\s|$)", line[at:])
    return line[start : at + end.end() if end else len(line)].strip()
