"""Examples meant to show that word order carries meaning, read with the grammar of their language.

A document shows that order matters with sentences made of the same words in another order ('dog bites man' /
'man bites dog'). The example shows it only when nothing but the order says who does what. Where the grammar
already fixes the roles, it does not:

- Korean case particles mark each noun's role wherever it stands (-이/-가 the subject, -을/-를 the object): '사람이
  개를 물었다' and '개를 사람이 물었다' mean the same;
- English pronouns carry case: 'I' is a subject wherever it stands, so 'you love I' is not the reverse of 'I love
  you' but a sentence no grammar allows.

Such an example is a finding in the document's language, with an example whose words have no case in its place.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

CASE_PARTICLES = {"이": "subject", "가": "subject", "을": "object", "를": "object"}
"""Korean: the particle ending a noun, and the role it marks wherever the noun stands."""
KOREAN_ROLES = {"subject": "주어", "object": "목적어"}
"""Each role's name in Korean, as a Korean reader's text says it."""
NOMINATIVE = frozenset({"I", "he", "she", "we", "they"})
ACCUSATIVE = frozenset({"me", "him", "us", "them"})
"""English pronouns whose form says subject or object ('her' and 'you' say neither)."""
UNCASED = {"en": ("dog bites man", "man bites dog"), "ko": ("큰 고양이의 작은 집", "작은 고양이의 큰 집")}
"""An example per language in which only the order says who does what (or which noun a word describes)."""
QUOTED = re.compile(r"[\"“]([^\"”\n]{3,60})[\"”]")
ENGLISH_RUN = re.compile(r"(?<![A-Za-z])[A-Za-z]+(?: [A-Za-z]+){2,5}(?![A-Za-z])")
NEAR = 3
"""Lines within which two sentences make one example."""


@dataclass(frozen=True)
class Candidate:
    """A sentence that may be one of an example's orders: its line and its words as written."""

    line: int
    text: str


@dataclass(frozen=True)
class OrderExample:
    """Sentences of the same words in other orders, whose grammar fixes the roles anyway."""

    language: str
    sentences: tuple[Candidate, ...]
    roles: str
    """What fixes the roles, in English."""
    korean: str
    """The same, in Korean."""

    @property
    def first(self) -> int:
        return self.sentences[0].line

    @property
    def last(self) -> int:
        return self.sentences[-1].line


def roles_korean(sentence: str) -> dict[str, str]:
    """Each noun of a Korean sentence with the role its case particle gives it (none for a word without one)."""
    return {
        word[:-1]: CASE_PARTICLES[word[-1]] for word in sentence.split() if len(word) > 1 and word[-1] in CASE_PARTICLES
    }


def examples(text: str) -> list[OrderExample]:
    """Every word-order example of the text whose grammar fixes the roles, in line order."""
    candidates = _candidates(text.splitlines())
    found: list[OrderExample] = []
    used: set[Candidate] = set()
    for index, candidate in enumerate(candidates):
        if candidate in used:
            continue
        group = [candidate] + [
            other
            for other in candidates[index + 1 :]
            if other.line - candidate.line <= NEAR and _reordered(candidate.text, other.text)
        ]
        if len(group) < 2:
            continue
        used.update(group)
        if judged := _judged(tuple(group)):
            found.append(judged)
    return found


def _candidates(lines: list[str]) -> list[Candidate]:
    """Quoted sentences, then runs of three or more English words, and short lines standing alone."""
    found = []
    for number, line in enumerate(lines, 1):
        quoted = [m.group(1).strip() for m in QUOTED.finditer(line)]
        found += [Candidate(number, q) for q in quoted if len(q.split()) >= 3]
        unquoted = QUOTED.sub(lambda m: " " * len(m.group(0)), line)
        found += [Candidate(number, m.group(0)) for m in ENGLISH_RUN.finditer(unquoted)]
    return found


def _reordered(one: str, other: str) -> bool:
    words, others = one.split(), other.split()
    return words != others and Counter(words) == Counter(others)


def _judged(group: tuple[Candidate, ...]) -> OrderExample | None:
    texts = [c.text for c in group]
    if any(re.search(r"[가-힣]", t) for t in texts):
        marked = [roles_korean(t) for t in texts]
        if marked[0] and all(m == marked[0] for m in marked):
            said = ", ".join(f"{noun} {role}" for noun, role in marked[0].items())
            korean = ", ".join(
                f"{noun}: {'주어' if role == 'subject' else '목적어'}" for noun, role in marked[0].items()
            )
            return OrderExample("ko", group, f"the case particles keep every role ({said})", korean)
        return None
    verb = _shared_middle(texts)
    if verb is None:
        return None
    misplaced = [
        (word, text)
        for text in texts
        for position, word in enumerate(text.split())
        if (word in NOMINATIVE and position > verb) or (word in ACCUSATIVE and position < verb)
    ]
    if not misplaced:
        return None
    word, text = misplaced[0]
    case = "subject" if word in NOMINATIVE else "object"
    return OrderExample(
        "en",
        group,
        f"'{word}' is a {case} pronoun wherever it stands, so '{text}' is ungrammatical, not the reverse meaning",
        f"'{word}'는 어디에 놓여도 {KOREAN_ROLES[case]} 형태이므로 '{text}'는 뜻이 뒤바뀐 문장이 아니라 문법에 맞지 "
        "않는 문장입니다",
    )


def _shared_middle(texts: list[str]) -> int | None:
    """The position of the word that stands at the same place in every sentence (the verb of 'A v B' / 'B v A')."""
    split = [t.split() for t in texts]
    for position in range(1, len(split[0]) - 1):
        if all(len(s) == len(split[0]) and s[position] == split[0][position] for s in split):
            return position
    return None


def rewritten(example: OrderExample, lines: list[str]) -> str:
    """The example's lines with its two sentences replaced by an example whose words carry no case; empty for an
    example of more sentences (which to drop is the author's choice)."""
    if len(example.sentences) != 2:
        return ""
    span = lines[example.first - 1 : example.last]
    first, second = example.sentences
    for candidate, sentence in zip(example.sentences, UNCASED[example.language], strict=True):
        index = candidate.line - example.first
        span[index] = span[index].replace(candidate.text, sentence, 1)
    return "\n".join(span) if first.text != second.text else ""
