"""Formulas as written (checks.written) on documents this project did not write (tests/formula_corpus.py): no
finding on a correct formula, every certain broken one found; and the corpus itself is what it says.

Issue 61: on a Markdown excerpt of "Attention Is All You Need", 4 of 7 reader rows were false ('cannot read
_{i=1}^{d_k}', a prose paragraph read as a formula). Before the reader kept to certain findings it raised 121 findings
on the correct formulas of these seven documents (docs/results-and-coverage.md#formulas-as-written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.documents.markup import format_of
from checks.written import review_document, review_text
from tests.formula_corpus import DOCUMENTS, LABELS, Label

FOLDER = Path(__file__).resolve().parent / "formula_corpus"
LESSONS_BROKEN = {
    ("000_1100ff0056b332e7.txt", 231): "disagrees with its definition",
    ("000_1100ff0056b332e7.txt", 311): "does not render",
    ("001_53050abb35828e70.txt", 58): "does not parse",
    ("001_53050abb35828e70.txt", 60): "does not parse",
    ("001_53050abb35828e70.txt", 110): "does not render",
}
"""The lessons' broken formulas, as the lessons' author's review confirmed them (issue 45, 52)."""


def _text(name: str) -> str:
    return (FOLDER / name).read_text(encoding="utf-8")


def test_the_corpus_is_outside_documents_in_both_formats_with_every_label_in_place():
    assert set(DOCUMENTS) == {p.name for p in FOLDER.iterdir()}
    assert len(DOCUMENTS) >= 6 and {format_of(name) for name in DOCUMENTS} == {".md", ".tex"}
    for name in DOCUMENTS:
        first = _text(name).splitlines()[0]
        assert first.startswith(("<!-- source:", "% source:")), f"{name} names no source"
    misplaced = []
    for label in LABELS:
        text = _text(label.document)
        start = sum(len(line) for line in text.splitlines(keepends=True)[: label.line - 1])
        if label.formula not in text[start : start + len(text.splitlines()[label.line - 1]) + len(label.formula)]:
            misplaced.append(label)
    assert not misplaced, misplaced[:3]


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_no_formula_a_reader_sees_as_meant_is_reported(name: str):
    broken = {label.line for label in LABELS if label.document == name and label.broken}
    found = [f for f in review_text(name, _text(name)) if f.problems]
    false = [(f.line, f.span, [p.detail for p in f.problems]) for f in found if f.line not in broken]
    assert not false, false


def _found(label: Label) -> bool:
    return any(
        f.problems and f.line == label.line and (f.span in label.formula or label.formula in f.span)
        for f in review_text(label.document, _text(label.document))
    )


def test_every_certainly_broken_formula_of_the_corpus_is_found():
    certain = [label for label in LABELS if label.broken and not label.doubtful]
    assert certain and all(_found(label) for label in certain), [label for label in certain if not _found(label)]


def test_the_lessons_broken_formulas_are_still_found():
    found = {
        (f.document, f.line): f.problems[0].kind
        for name in {name for name, _ in LESSONS_BROKEN}
        for f in review_document(name)
        if f.problems
    }
    assert {key: found.get(key) for key in LESSONS_BROKEN} == LESSONS_BROKEN
    lessons = {name for name, _ in LESSONS_BROKEN} | {"002_86fa32f25d4c4c54.txt"}
    reported = {(f.document, f.line) for name in lessons for f in review_document(name) if f.problems}
    assert reported == set(LESSONS_BROKEN), "nothing else in the lessons is reported"
