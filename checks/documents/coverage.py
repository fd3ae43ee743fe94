"""Every sentence of every document, with exactly one class: what makes the catalog's coverage data.

A *sentence* is what checks.documents.segmentation cuts a line of the document into (pysbd in the repository's
language; the lesson documents' rule for Korean); blank lines and '---' rules are not sentences.

A sentence is **checked** when an in-scope claim quotes it (a quote covers every sentence it
overlaps), **out-of-scope** when only out-of-scope claims quote it. Every other sentence is listed in
the document's classification file, ``<sentences folder>/<document stem>.toml`` (``sentences`` in
``[tool.theory-claims]``, default ``sources/sentences/``), one line each::

    sentence = [
      { text = "학습 목표", category = "heading" },
      { text = "…", unchecked = "what it asserts, and why no claim checks it yet" },
    ]

as **not a claim** (with a category from CATEGORIES) or **unchecked** (it states something checkable
that no claim checks yet, with a note). An entry names a sentence by its exact text and classifies
every occurrence that no claim quotes. ``problems`` lists the sentences without a class and the
entries that name no such sentence (after a document edit), which the catalog's tests refuse.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import checks.documents.markup as markup
import checks.documents.segmentation as segmentation
import checks.settings.config as config
from checks.documents.sources import document_text

CATEGORIES: dict[str, str] = {
    "heading": "a title, section heading or label",
    "demo": "an interactive demo's or a figure's heading, caption, legend, control or instruction",
    "objective": "a goal, checklist item or question put to the reader (a learning objective)",
    "code": "a line of code (a document's code is checked as an implementation, not line by line)",
    "example": "example data: tokens, sentences, a table's header",
    "notation": "a definition of a symbol or term: a stipulation, not an assertion",
    "framing": "framing, transition, metadata or an analogy's set-up that asserts nothing checkable",
    **{kind: meaning for kind, meaning in markup.KINDS.items() if kind not in ("heading", "code")},
}
"""The categories of a sentence that is not a claim, each with what it covers."""
SentenceClass = Literal["checked", "out-of-scope", "not-a-claim", "unchecked", "unclassified"]
CLASSES: tuple[SentenceClass, ...] = ("checked", "out-of-scope", "unchecked", "not-a-claim", "unclassified")
CLASSIFICATION_DIR = "sentences"
"""The folder of a sources folder given explicitly (a test's) that holds its classification files."""


class ClassificationError(ValueError):
    """A classification file that cannot be read: its path and the first problem, in one line."""


@dataclass(frozen=True)
class Entry:
    """One line of a classification file: a sentence's text and its class."""

    text: str
    category: str = ""
    unchecked: str = ""

    @property
    def sentence_class(self) -> SentenceClass:
        return "unchecked" if self.unchecked else "not-a-claim"


@dataclass(frozen=True)
class Quoting:
    """A claim's quote of the document: the claim, its verdict, whether it is in scope, and the text."""

    claim_id: str
    verdict: str
    in_scope: bool
    text: str


@dataclass
class ClassifiedSentence:
    """One sentence of a document, with its class and what gave it."""

    index: int
    start: int
    end: int
    text: str
    sentence_class: SentenceClass = "unclassified"
    category: str = ""
    note: str = ""
    claims: dict[str, str] = field(default_factory=dict)
    """The claims quoting it, with their verdicts."""


@dataclass
class Classified:
    """A document's sentences with their classes, and what is wrong with its classification."""

    document: str
    sentences: list[ClassifiedSentence]
    stale: list[str]
    """Entries of the classification file that name no sentence left unquoted."""

    def count(self, sentence_class: SentenceClass) -> int:
        return sum(s.sentence_class == sentence_class for s in self.sentences)

    @property
    def checked(self) -> int:
        return self.count("checked")

    @property
    def out_of_scope(self) -> int:
        return self.count("out-of-scope")

    @property
    def unclassified(self) -> int:
        return self.count("unclassified")

    @property
    def checkable(self) -> int:
        """Sentences that state, or may state, something checkable: checked, unchecked, or without a class yet."""
        return self.count("checked") + self.count("unchecked") + self.count("unclassified")

    @property
    def percent(self) -> float:
        return 100.0 * self.count("checked") / self.checkable if self.checkable else 100.0

    def problems(self) -> list[str]:
        """One line per sentence without a class and per stale entry, naming the file to edit."""
        where = config.current().shown(classification_path(self.document))
        lines = [
            f"{self.document}: sentence {s.index + 1} has no class (quote it in a claim, or list it in {where}): "
            f"{s.text!r}"
            for s in self.sentences
            if s.sentence_class == "unclassified"
        ]
        return lines + [
            f"{where}: names no unquoted sentence of {self.document} (edited, removed, or now quoted by a claim): "
            f"{text!r}"
            for text in self.stale
        ]

    def summary(self) -> dict[str, object]:
        """Counts per class and the share of checkable sentences checked: the figures a page shows."""
        return {
            "total": len(self.sentences),
            **{name: self.count(name) for name in CLASSES},
            "checkable": self.checkable,
            "checked_percent": round(self.percent, 1),
        }


def sentence_spans(text: str, document: str = "") -> list[tuple[int, int]]:
    """(start, end) of every sentence of the prose, leading and trailing spaces trimmed
    (checks.documents.segmentation)."""
    return [(start, end) for start, end, kind in units(text, document) if not kind]


def units(text: str, document: str = "") -> list[tuple[int, int, str]]:
    """(start, end, kind) of what coverage counts, in order: each sentence of the prose (kind "") and each block of
    markup (checks.documents.markup: a heading, a display formula, a table…), one unit each. A document named without a
    format's suffix (a test's text) is plain text."""
    language = config.current().language
    try:
        shape = markup.layout(document if Path(document).suffix else "text.txt", text)
    except ValueError as error:  # markup a parser cannot read: one line naming the document
        raise ClassificationError(str(error)) from None
    found = [(b.start, b.end, b.kind) for b in shape.blocks]
    for start, end in shape.prose:
        if shape.joined:
            found += [(a, b, "") for a, b in segmentation.paragraph_spans(text, start, end, language)]
        else:
            found += [(start + a, start + b, "") for a, b in segmentation.sentence_spans(text[start:end], language)]
    return sorted(found)


def classification_path(document: str, folder: Path | None = None) -> Path:
    """The classification file of ``document``: in the configured sentences folder, or in ``folder``/sentences
    for documents read from ``folder``."""
    where = folder / CLASSIFICATION_DIR if folder is not None else config.current().sentences
    return where / f"{Path(document).stem}.toml"


def read_entries(path: Path) -> list[Entry]:
    """The entries of a classification file (none when it does not exist); ClassificationError when malformed."""
    if not path.exists():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ClassificationError(f"{path}: not a readable TOML file ({error})") from None
    rows = data.get("sentence", [])
    unknown = sorted(set(data) - {"sentence"})
    if unknown or not isinstance(rows, list):
        raise ClassificationError(f"{path}: holds only 'sentence = [...]' (found {', '.join(unknown) or 'no list'})")
    entries, seen = [], set()
    for number, row in enumerate(rows, 1):
        entry = _entry(row, f"{path}: entry {number}")
        if entry.text in seen:
            raise ClassificationError(f"{path}: entry {number} repeats the sentence {entry.text!r}")
        seen.add(entry.text)
        entries.append(entry)
    return entries


def _entry(row: object, where: str) -> Entry:
    if not isinstance(row, dict) or not isinstance(row.get("text"), str) or not row["text"].strip():
        raise ClassificationError(f"{where}: needs a non-empty text = '…' (the sentence, exactly)")
    keys = set(row) - {"text"}
    if keys not in ({"category"}, {"unchecked"}) or not all(isinstance(row[k], str) and row[k].strip() for k in keys):
        raise ClassificationError(
            f"{where}: needs either category = '…' or unchecked = '…(why)', not {sorted(keys) or 'neither'}"
        )
    category = row.get("category", "")
    if category and category not in CATEGORIES:
        raise ClassificationError(f"{where}: unknown category {category!r}; one of {', '.join(CATEGORIES)}")
    return Entry(row["text"], category, row.get("unchecked", ""))


def classify(
    document: str,
    text: str,
    quotes: Iterable[Quoting],
    entries: list[Entry],
    counted: Iterable[tuple[int, int, str]] | None = None,
) -> Classified:
    """Give every sentence of ``text`` its class: by the quotes over it, else by its entry, else unclassified.
    ``counted``: the text's units, where already cut (``units``)."""
    placed = [(start, start + len(q.text), q) for q in quotes if q.text and (start := text.find(q.text)) >= 0]
    by_text = {_spaced(entry.text): entry for entry in entries}
    used: set[str] = set()
    sentences = []
    for index, (start, end, kind) in enumerate(units(text, document) if counted is None else counted):
        sentence = ClassifiedSentence(index, start, end, text[start:end])
        over = [q for a, b, q in placed if a < end and start < b]
        if kind and not over:  # markup: classified by what it is
            sentence.sentence_class, sentence.category = "not-a-claim", kind
        elif over:
            sentence.claims = {q.claim_id: q.verdict for q in over}
            sentence.sentence_class = "checked" if any(q.in_scope for q in over) else "out-of-scope"
        elif (entry := by_text.get(_spaced(sentence.text))) is not None:
            used.add(entry.text)
            sentence.sentence_class = entry.sentence_class
            sentence.category, sentence.note = entry.category, entry.unchecked
        sentences.append(sentence)
    return Classified(document, sentences, [e.text for e in entries if e.text not in used])


def _spaced(text: str) -> str:
    """``text`` with each line break (and the spaces around it) as one space: an entry names a sentence that a
    paragraph breaks over lines on one line."""
    return re.sub(r"[ \t]*\r?\n[ \t]*", " ", text)


def classify_document(document: str, quotes: Iterable[Quoting], folder: Path | None = None) -> Classified:
    """``classify`` with the document's text and classification file read from sources/."""
    return classify(
        document,
        document_text(document, folder),
        quotes,
        read_entries(classification_path(document, folder)),
    )


def entry_line(text: str, category: str = "", unchecked: str = "") -> str:
    """One entry as a line of a classification file (used by ``checks sentences`` for the ones still to write)."""
    value = f"category = {_toml_string(category)}" if category else f"unchecked = {_toml_string(unchecked)}"
    return f"  {{ text = {_toml_string(_spaced(text))}, {value} }},"


def _toml_string(value: str) -> str:
    """A TOML string: literal ('…') when it can be, else basic with escapes."""
    if "'" not in value and not any(ord(c) < 32 and c != "\t" for c in value):
        return f"'{value}'"
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if ord(c) >= 32 or c == "\t" else f"\\u{ord(c):04x}" for c in escaped) + '"'
