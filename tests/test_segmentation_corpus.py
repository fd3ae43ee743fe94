"""The sentence-splitting corpus (tests/segmentation_corpus.py) is real and well-formed, so that its figures mean
something: each expected sentence is a piece of its passage, in order, without overlap, and together they cover the
passage's non-space text; each Korean passage is a line of its lesson, and every prose line of the lessons is one.
Needs none of the splitters compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.segmentation_corpus import ENGLISH, KOREAN, NOT_PROSE, Passage

LESSONS = Path(__file__).resolve().parent.parent / "sources"


def _problems(passage: Passage) -> list[str]:
    found = []
    for sentence in passage.sentences:
        if not sentence or sentence != sentence.strip():
            found.append(f"{sentence!r} is empty or has spaces at an end")
    try:
        spans = passage.spans
    except ValueError:
        return [*found, "its sentences are not pieces of the text, in order, without overlap"]
    rest, at = [], 0
    for start, end in spans:
        rest.append(passage.text[at:start])
        at = end
    rest.append(passage.text[at:])
    if "".join(rest).strip():
        found.append(f"text outside every sentence: {''.join(rest).strip()!r}")
    return found


@pytest.mark.parametrize("corpus", [ENGLISH, KOREAN], ids=["english", "korean"])
def test_sentences_cover_each_passage_in_order(corpus: list[Passage]) -> None:
    problems = [f"{p.source}: {problem}" for p in corpus for problem in _problems(p)]
    assert not problems, "\n".join(problems)


def test_line_ends_are_spaces_of_the_text() -> None:
    wrong = [
        p.source
        for p in ENGLISH + KOREAN
        if list(p.breaks) != sorted(set(p.breaks)) or any(not 0 < b < len(p.text) or p.text[b] != " " for b in p.breaks)
    ]
    assert not wrong, f"breaks that are not spaces of the text, in order: {wrong}"


def test_english_is_paper_prose_with_the_issues_cases() -> None:
    sentences = [s for p in ENGLISH for s in p.sentences]
    assert len(sentences) >= 60
    assert (
        "In practice, we compute the attention function on a set of queries simultaneously, packed together into a "
        "matrix Q." in sentences
    ), "the case issue 45 reports"
    text = " ".join(p.text for p in ENGLISH)
    for abbreviation in ("et al.", "e.g.", "i.e.", "Eq.", "Sec.", "Figure"):
        assert abbreviation in text, f"no passage has {abbreviation!r}"
    ends = [s for s in sentences if s.endswith(("et al.", "e.g.", "i.e.", "Eq.", "Eqs.", "Sec.", "eq."))]
    assert not ends, f"a sentence labelled as ending at an abbreviation: {ends}"


def _lines(name: str) -> list[str]:
    return (LESSONS / name).read_text(encoding="utf-8").splitlines()


def test_korean_passages_are_lines_of_their_lesson() -> None:
    wrong = []
    for passage in KOREAN:
        name, _, number = passage.source.rpartition(":")
        lines = _lines(name) if (LESSONS / name).is_file() else []
        if not number.isdigit() or not 0 < int(number) <= len(lines) or lines[int(number) - 1].strip() != passage.text:
            wrong.append(passage.source)
    assert not wrong, f"not the stripped line of the lesson they name: {wrong}"


def test_every_prose_line_of_the_lessons_is_a_passage() -> None:
    expected = []
    for path in sorted(LESSONS.glob("*.txt")):
        left_out = NOT_PROSE.get(path.name, ())
        for number, line in enumerate(_lines(path.name), 1):
            if not line.strip() or line.strip() == "---" or "\t" in line:
                continue
            if not any(first <= number <= last for first, last in left_out):
                expected.append(f"{path.name}:{number}")
    assert [p.source for p in KOREAN] == expected


def test_the_adopted_english_splitter_keeps_its_score_on_the_corpus() -> None:
    from tests.segmentation_comparison import _adopted_per_paragraph, scored

    score = scored(_adopted_per_paragraph(), ENGLISH, repeat=1)
    wrong = [f"{kind}: {sentence!r} ({source})" for kind, sentence, source in score.wrong]
    assert score.right >= 240, "\n".join(wrong)
    assert not [w for w in wrong if "factor of k" in w or "length n." in w], "a one-letter symbol ends its sentence"
