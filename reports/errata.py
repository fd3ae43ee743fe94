"""Errata per document, for two audiences: the sentences that mislead a reader, and the notes for implementers.

A claim that declares an erratum (checks.errata) for a sentence of a document makes a row. A reader's erratum
(error, condition) goes to the document's errata: one row per sentence, errata of several claims that make one
point merged into one row naming each place, most serious first, then by where the sentence stands. An
implementer's (precision, implementation, note) goes to the implementers' list on the implementations page, never
counted as a sentence to fix. Beside the site, each document's errata are written as Markdown and CSV (UTF-8 with a
byte-order mark, so that spreadsheets read Korean right), all of them as JSON, and the implementers' list as
Markdown and CSV (``errata/``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cache

import checks.written as written
from checks.errata import FOR_IMPLEMENTERS, FOR_READERS, SEVERITIES, rank
from checks.sources import Quote, section_of
from reports.model import ClaimView, Site, document_slug

FOLDER = "errata"
"""The downloads' folder in the site."""
IMPLEMENTERS = "for-implementers"
"""The implementers' list's file name (without suffix) in FOLDER."""
BOM = "\ufeff"


@dataclass(frozen=True)
class Place:
    """One sentence an erratum corrects, with the wording that replaces it (empty: the point is made elsewhere)."""

    section: str
    sentence: str
    wording: str
    position: int
    """Where the sentence starts in the document (-1: not found in its text)."""
    line: int = 0
    """The line it starts on, from 1 (0: not found)."""


@dataclass(frozen=True)
class ErratumRow:
    """One suggestion: a point, the sentences it corrects, and the claims that make it."""

    document: str
    severity: str
    verdict: str
    problem: str
    places: tuple[Place, ...]
    claims: tuple[str, ...]
    claim_pages: tuple[str, ...]
    """The claims' pages, relative to the site's root."""
    anchor: str = ""
    """The row's id on its page (``erratum-N``)."""
    finding: str = ""
    """For a formula as written (checks.written), what the reader meets: does not parse, does not render, …;
    such a row has no verdict (no claim decided it) and names the claims that quote the formula."""

    page: str = ""
    """Where a row that no claim makes is shown: its formula on the document's page, relative to the site's root."""

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """(label, page) of each claim the row names; for a formula no claim quotes, its line on the document's
        page: every row links to where its evidence is shown."""
        found = tuple(zip(self.claims, self.claim_pages, strict=True))
        if not found and self.page:
            line = next((place.line for place in self.places if place.line), 0)
            found = ((f"formula, line {line}" if line else "formulas as written", self.page),)
        return found

    def unchanged(self, place: Place) -> str:
        """What a place without a wording says: the wording of another place makes the point, or none was checked."""
        if place.wording:
            return ""
        if any(other.wording for other in self.places):
            return "no change here: the wording at another place of this suggestion makes the point"
        return "no wording could be checked: the problem says what to change"

    @property
    def shown_verdict(self) -> str:
        """The claims' verdict, or for a formula as written what its reader meets."""
        return self.verdict or f"as written: {self.finding}"

    @property
    def position(self) -> int:
        found = [p.position for p in self.places if p.position >= 0]
        return min(found) if found else -1


@dataclass(frozen=True)
class _Entry:
    claim: ClaimView
    quote: Quote
    place: Place
    key: str
    """The row it joins: the erratum's point, else the sentence its erratum names first."""


def errata(site: Site, texts: dict[str, str | None]) -> dict[str, list[ErratumRow]]:
    """Each document's errata for its readers (``texts``: the documents' texts by name, None where unreadable):
    the claims' and the formulas' as written."""
    claimed = _rows(site, texts, FOR_READERS)
    for name, text in texts.items():
        if text is not None:
            claimed[name] = _numbered(
                sorted(
                    claimed[name] + as_written(site, name, text), key=lambda r: (rank(r.severity), r.position, r.claims)
                )
            )
    return claimed


@cache
def formulas(name: str, text: str) -> list[written.Formula]:
    """The document's formulas as written, reviewed once per text (checks.written)."""
    return written.review_text(name, text, written.code_lines(name))


def as_written(site: Site, name: str, text: str) -> list[ErratumRow]:
    """A row for each formula of the document whose reader meets a problem (checks.written), with its correction."""
    rows = []
    lines = text.splitlines(keepends=True)
    for formula in formulas(name, text):
        if not formula.problems:
            continue
        position = text.find(formula.span, sum(len(line) for line in lines[: formula.line - 1]))
        quoting = [
            (claim, quote)
            for claim in site.claims
            for quote in claim.record.placed
            if quote.document == name and (formula.span in quote.text or quote.text in formula.span)
        ]
        section = quoting[0][1].section if quoting else section_of(text, formula.span, name) or ""
        kinds = " and ".join(dict.fromkeys(p.kind for p in formula.problems))
        rows.append(
            ErratumRow(
                document=name,
                severity="error",
                verdict="",
                problem=f"As written (line {formula.line}), the formula {kinds}: "
                + "; ".join(p.detail for p in formula.problems)
                + ".",
                places=(Place(section, formula.span, formula.corrected_span, position, formula.line),),
                claims=tuple(_unique(claim.id for claim, _ in quoting)),
                claim_pages=tuple(_unique(f"claims/{claim.slug}.html" for claim, _ in quoting)),
                finding=formula.problems[0].kind,
                page=f"documents/{document_slug(name)}.html#formula-{formula.line}",
            )
        )
    return rows


def for_implementers(site: Site, texts: dict[str, str | None]) -> dict[str, list[ErratumRow]]:
    """Each document's notes for implementers: precision limits, implementation details, remarks."""
    return _rows(site, texts, FOR_IMPLEMENTERS)


def _rows(site: Site, texts: dict[str, str | None], severities: tuple[str, ...]) -> dict[str, list[ErratumRow]]:
    entries: dict[str, list[_Entry]] = {name: [] for name in texts}
    for claim in site.claims:
        record = claim.record
        if record.erratum is None or record.erratum.severity not in severities:
            continue
        if not record.erratum.agrees_with(str(claim.verdict)):
            continue
        corrected = record.corrected
        key = record.erratum.point or (f"sentence:{corrected[0][0].text}" if corrected else "")
        for quote, wording in corrected:
            if quote.document in entries:
                text = texts[quote.document] or ""
                position = text.find(quote.text)
                line = text.count("\n", 0, position) + 1 if position >= 0 else 0
                place = Place(quote.section, quote.text, wording, position, line)
                entries[quote.document].append(_Entry(claim, quote, place, key))
    return {name: _numbered(_merged(found)) for name, found in entries.items()}


def _merged(entries: list[_Entry]) -> list[ErratumRow]:
    """One row per point (the erratum's ``point``, else its sentence): the most serious severity leads."""
    groups: dict[str, list[_Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.key, []).append(entry)
    rows = []
    for group in groups.values():
        group.sort(key=lambda e: (rank(_severity(e)), e.place.position, e.claim.id))
        places: dict[str, Place] = {}
        for entry in group:
            places.setdefault(entry.place.sentence, entry.place)
        rows.append(
            ErratumRow(
                document=group[0].quote.document,
                severity=_severity(group[0]),
                verdict=str(group[0].claim.verdict),
                problem=" ".join(_unique(_problem(e) for e in group)),
                places=tuple(sorted(places.values(), key=lambda p: p.position)),
                claims=tuple(_unique(e.claim.id for e in group)),
                claim_pages=tuple(_unique(f"claims/{e.claim.slug}.html" for e in group)),
            )
        )
    return sorted(rows, key=lambda r: (rank(r.severity), r.position, r.claims))


def _severity(entry: _Entry) -> str:
    erratum = entry.claim.record.erratum
    assert erratum is not None
    return erratum.severity


def _problem(entry: _Entry) -> str:
    erratum = entry.claim.record.erratum
    assert erratum is not None
    return erratum.problem


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _numbered(rows: list[ErratumRow]) -> list[ErratumRow]:
    return [
        ErratumRow(**{**{f: getattr(row, f) for f in row.__dataclass_fields__}, "anchor": f"erratum-{n}"})
        for n, row in enumerate(rows, 1)
    ]


def anchors(rows: list[ErratumRow]) -> dict[tuple[str, str], str]:
    """(claim id, sentence) → the anchor of the row that corrects that sentence: 'what is wrong' links to it."""
    return {(claim, place.sentence): row.anchor for row in rows for claim in row.claims for place in row.places}


def counts(rows: list[ErratumRow], severities: Iterable[str] = FOR_READERS) -> dict[str, int]:
    """Rows per severity, every step of ``severities`` present."""
    return {severity: sum(r.severity == severity for r in rows) for severity in severities}


def downloads(name: str) -> list[tuple[str, str]]:
    """(label, path relative to the site's root) of a document's Markdown and CSV errata."""
    slug = document_slug(name)
    return [("Markdown", f"{FOLDER}/{slug}.md"), ("CSV", f"{FOLDER}/{slug}.csv")]


IMPLEMENTERS_DOWNLOADS = [("Markdown", f"{FOLDER}/{IMPLEMENTERS}.md"), ("CSV", f"{FOLDER}/{IMPLEMENTERS}.csv")]


def markdown(name: str, rows: list[ErratumRow]) -> str:
    """A document's errata as Markdown: one section per suggestion, each place with the wording to paste."""
    lines = [f"# Errata: {name}", ""]
    if not rows:
        return "\n".join([*lines, "No sentence of this document misleads its reader, as far as the claims find.", ""])
    summary = ", ".join(f"{n} {severity}" for severity, n in counts(rows).items() if n)
    places = sum(len(r.places) for r in rows)
    changed = sum(1 for r in rows for p in r.places if p.wording)
    lines += [
        f"{len(rows)} suggestion(s), most serious first ({summary}): {changed} sentence(s) to change"
        + (f", and {places - changed} place(s) that make the same point as a changed one" if places > changed else "")
        + ". "
        + "; ".join(f"**{s}**: {SEVERITIES[s]}" for s in FOR_READERS)
        + ". Precision limits and implementation notes are listed apart, for implementers.",
        "",
    ]
    lines += _markdown_rows(rows)
    return "\n".join(lines)


def implementers_markdown(by_document: dict[str, list[ErratumRow]]) -> str:
    """Every document's notes for implementers as Markdown."""
    lines = [
        "# For implementers",
        "",
        "True of what the documents present; these concern computing it: "
        + "; ".join(f"**{s}**: {SEVERITIES[s]}" for s in FOR_IMPLEMENTERS)
        + ". None is a sentence to fix for the documents' readers.",
        "",
    ]
    for name, rows in by_document.items():
        if rows:
            lines += [f"## {name}", "", *_markdown_rows(rows, level="###")]
    return "\n".join(lines)


def _markdown_rows(rows: list[ErratumRow], level: str = "##") -> list[str]:
    lines = []
    for number, row in enumerate(rows, 1):
        lines += [
            f"{level} {number}. {row.severity} · {row.shown_verdict} · " + ", ".join(f"`{c}`" for c in row.claims),
            "",
        ]
        lines += [f"**Problem.** {row.problem}", ""]
        for place in row.places:
            where = f"Line {place.line}, section: {place.section}" if place.line else f"Section: {place.section}"
            lines += [where, "", *_quoted(place.sentence), ""]
            if place.wording:
                lines += ["**Could read:**", "", *_quoted(place.wording), ""]
            else:
                lines += [f"*{row.unchanged(place).capitalize()}.*", ""]
        lines += ["Page(s): " + ", ".join(f"{page} ({label})" for label, page in row.links), ""]
    return lines


def _quoted(text: str) -> list[str]:
    """A block quote of every line of ``text`` (an empty line stays inside the quote)."""
    return [f"> {line}".rstrip() for line in text.split("\n")]


COLUMNS = (
    "suggestion",
    "severity",
    "verdict",
    "line",
    "section",
    "sentence",
    "problem",
    "wording",
    "claims",
    "claim_pages",
)


def csv_text(rows: list[ErratumRow], document: bool = False) -> str:
    """Errata as CSV: UTF-8 with a byte-order mark, a header row, one line per place (``suggestion`` numbers the
    row a place belongs to); ``document`` adds the document's name as the first column."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow((("document",) if document else ()) + COLUMNS)
    for number, row in enumerate(rows, 1):
        for place in row.places:
            cells = [number, row.severity, row.shown_verdict, place.line or "", place.section, place.sentence]
            cells += [row.problem, place.wording]
            cells += [" ".join(row.claims), " ".join(page for _, page in row.links)]
            writer.writerow(([row.document] if document else []) + cells)
    return BOM + buffer.getvalue()


def json_text(by_document: dict[str, list[ErratumRow]], implementers: dict[str, list[ErratumRow]]) -> str:
    """Every document's errata and notes for implementers, with the scale and who each severity is for."""
    document = {
        "severities": SEVERITIES,
        "for_readers": list(FOR_READERS),
        "for_implementers": list(FOR_IMPLEMENTERS),
        "documents": {name: [asdict(row) for row in rows] for name, rows in by_document.items()},
        "implementers": {name: [asdict(row) for row in rows] for name, rows in implementers.items()},
    }
    return json.dumps(document, indent=1, ensure_ascii=False)


def files(by_document: dict[str, list[ErratumRow]], implementers: dict[str, list[ErratumRow]]) -> dict[str, str]:
    """Every download, by its path in the site."""
    written = {f"{FOLDER}/errata.json": json_text(by_document, implementers)}
    for name, rows in by_document.items():
        (_, as_markdown), (_, as_csv) = downloads(name)
        written[as_markdown] = markdown(name, rows)
        written[as_csv] = csv_text(rows)
    (_, as_markdown), (_, as_csv) = IMPLEMENTERS_DOWNLOADS
    written[as_markdown] = implementers_markdown(implementers)
    written[as_csv] = csv_text([row for rows in implementers.values() for row in rows], document=True)
    return written
