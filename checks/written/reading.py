"""What a run reads in each document for its report, recorded in the results file (checks.results.records.Results).

The report builds its pages from results files alone (reports/): the document's text and title, the units coverage
counts, its formulas as written with their review, its notation, word-order examples and surface blemishes, and how it
counts positions against the other documents are all read here, once, when the claims run.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import checks.settings.config as config
from checks.documents.coverage import ClassificationError, Entry, classification_path, read_entries, units
from checks.documents.markup import layout
from checks.documents.segmentation import document_language
from checks.documents.sources import document_text, documents
from checks.written.conventions import Disagreement, disagreements
from checks.written.examples import OrderExample, examples, rewritten
from checks.written.found import Formula, Problem
from checks.written.notation import findings
from checks.written.remarks import NotationFinding
from checks.written.review import review_text
from checks.written.surface import Blemish, blemishes


@dataclass(frozen=True)
class FormulaReview:
    """One formula as written and what its review decided (checks.written.review)."""

    line: int
    span: str
    """The formula as it stands in its line, delimiters included."""
    status: str
    problems: list[Problem] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    corrected_span: str = ""
    """The span as it could read instead; empty when no correction could be checked."""


@dataclass(frozen=True)
class ExampleReview:
    """A word-order example whose grammar fixes the roles, with its lines as they could read instead (empty: none)."""

    example: OrderExample
    rewritten: str = ""


@dataclass
class DocumentReading:
    """One document of sources/ as the run read it; ``problem`` says why it cannot be shown (the rest is then empty)."""

    name: str
    text: str = ""
    title: str = ""
    language: str = "en"
    entries: list[Entry] = field(default_factory=list)
    """Its classification file: the sentences no claim quotes, each with its class."""
    units: list[tuple[int, int, str]] = field(default_factory=list)
    """What coverage counts as one, (start, end, kind): a sentence of the prose (kind "") or a block of markup."""
    formulas: list[FormulaReview] = field(default_factory=list)
    notation: list[NotationFinding] = field(default_factory=list)
    examples: list[ExampleReview] = field(default_factory=list)
    blemishes: list[Blemish] = field(default_factory=list)
    counting: Disagreement | None = None
    """Where it counts positions from another place than most documents."""
    problem: str = ""


def read_documents(folder: Path | None = None) -> list[DocumentReading]:
    """Every document of sources/ (or ``folder``), read for the report."""
    readings = [_read(name, folder) for name in documents(folder)]
    counted = {d.counting.document: d for d in disagreements({r.name: r.text for r in readings if not r.problem})}
    for reading in readings:
        reading.counting = counted.get(reading.name)
    return readings


def _read(name: str, folder: Path | None) -> DocumentReading:
    try:
        text = document_text(name, folder)
        title = layout(name, text).title or name
    except (OSError, ValueError) as error:
        return DocumentReading(name, problem=f"sources/{name}: cannot be shown ({error})")
    try:
        entries = read_entries(classification_path(name, folder))
    except ClassificationError as error:
        return DocumentReading(name, problem=str(error))
    return replace(_reviewed(name, text, title, tuple(entries), config.current().language))


@cache
def _reviewed(name: str, text: str, title: str, entries: tuple[Entry, ...], configured: str) -> DocumentReading:
    """The reading of one text in the repository's ``configured`` language, once per process (a test session runs
    the claims many times over the same documents)."""
    reviewed = review_text(name, text, frozenset(e.text for e in entries if e.category == "code"))
    lines = text.splitlines()
    return DocumentReading(
        name,
        text,
        title,
        document_language(text, configured),
        list(entries),
        units(text, name),
        [_review(formula) for formula in reviewed],
        findings(text, reviewed),
        [ExampleReview(example, rewritten(example, lines)) for example in examples(text)],
        blemishes(name, text),
    )


def _review(formula: Formula) -> FormulaReview:
    return FormulaReview(
        formula.line,
        formula.span,
        formula.status,
        formula.problems,
        formula.remarks,
        formula.corrected_span,
    )
