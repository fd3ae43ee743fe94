"""Words for how two vectors are combined that contradict the formula beside them.

A document that adds the position vector to the word vector (``embedding + position``, ``X = E + P``) and says
in words that the vector is appended (``추가됩니다``, 'appended', 'concatenated') tells its reader two different
things: appending makes the vector longer, adding keeps its length and mixes the two. Each such sentence is a
finding with the word for adding in its place (where the suite can conjugate it).
"""

from __future__ import annotations

import re

from checks.written.remarks import NotationFinding, Place, sentence_around

APPENDING = re.compile(
    r"추가(?:됩니다|된다|되어|돼|된|합니다|한다|하여|해|하는|하고|하면)|덧붙(?:여|인|입니다|는다)|이어 ?붙"
    r"|\bappend(?:s|ed|ing)?\b|\bconcatenat\w*",
    re.IGNORECASE,
)
"""Words that say a vector is appended (its length grows) rather than added."""
ADDING = {
    "추가됩니다": "더해집니다", "추가된다": "더해진다", "추가되어": "더해져", "추가돼": "더해져", "추가된": "더해진",
    "추가합니다": "더합니다", "추가한다": "더한다", "추가하여": "더하여", "추가해": "더해", "추가하는": "더하는",
    "추가하고": "더하고", "추가하면": "더하면", "append": "add", "appends": "adds", "appended": "added",
    "appending": "adding",
}  # fmt: skip
"""The appending word's adding counterpart, in the same form (a word not here gets no wording)."""
VECTORS = re.compile(r"벡터|인코딩|encoding|embedding|임베딩|vector", re.IGNORECASE)
SUM = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*|\\?[A-Za-z]+_\{?\w+\}?)\s*\+\s*([A-Za-z_][A-Za-z0-9_]*)")
"""Two names joined by ``+``: ``embedding + position``, ``E + P``, ``word_embedding + positional_encoding``."""
CONCATENATED = re.compile(r"concat|torch\.cat|np\.concatenate|hstack|연결해|이어 붙인", re.IGNORECASE)
NEGATED = re.compile(r"아니|않|대신|not\b|rather than|instead of|unlike", re.IGNORECASE)
"""A sentence that denies appending ('추가가 아니라', 'instead of concatenating')."""
BOTH = re.compile(r"더하|더해|합|\badd|\bsum", re.IGNORECASE)
"""A sentence that names adding too ('add or concatenate'): it weighs the two, it does not say which is done."""
NEAR = 3


def appended_sums(lines: list[str]) -> list[NotationFinding]:
    """A sentence about vectors that says 'appended' within ``NEAR`` lines of a sum of two names, in a document that
    never concatenates (no ``concat``/``torch.cat``) and where the sentence does not deny it ('추가가 아니라')."""
    if any(CONCATENATED.search(line) for line in lines):
        return []
    found = []
    for number, line in enumerate(lines, 1):
        for match in APPENDING.finditer(line):
            sentence = sentence_around(line, match.start())
            if not VECTORS.search(sentence) or NEGATED.search(sentence) or BOTH.search(sentence):
                continue
            sums = [
                (n, m.group(0))
                for n in range(max(1, number - NEAR), min(len(lines), number + NEAR) + 1)
                for m in [SUM.search(lines[n - 1])]
                if m
            ]
            if not sums:
                continue
            at, written = sums[0]
            word = match.group(0)
            adding = ADDING.get(word.lower())
            wording = sentence.replace(word, adding, 1) if adding else ""
            found.append(
                NotationFinding(
                    "appended, not added",
                    (Place(number, sentence, wording),),
                    f"'{word}' reads as appending (the vector grows longer), but line {at} adds the two ({written}): "
                    "the vectors are summed element by element and keep their length.",
                    f"'{word}'는 벡터를 뒤에 이어 붙인다(길이가 늘어난다)는 뜻으로 읽히지만, {at}행의 식({written})은 "
                    "같은 길이의 두 벡터를 원소끼리 더합니다. 더하면 길이는 그대로이고 두 정보가 한 벡터에 섞입니다.",
                )
            )
    return found
