"""Errata per document, for two audiences: the sentences that mislead a reader, and the notes for implementers.

A claim that declares an erratum (checks.verdicts.errata) for a sentence of a document makes a row. A reader's erratum
(error, condition) goes to the document's errata: one row per sentence, errata of several claims that make one
point merged into one row naming each place, in the document's line order (severity is a mark on each row). An
implementer's (precision, implementation, note) goes to the implementers' list on the implementations page, never
counted as a sentence to fix. Beside the site, each document's errata are written as Markdown and CSV (UTF-8 with a
byte-order mark, so that spreadsheets read Korean right), all of them as JSON, and the implementers' list as
Markdown and CSV (``errata/``).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace

from checks.documents.markup import marked_up
from checks.documents.sources import Quote, heading_rank, section_of
from checks.results.records import ClaimRecord
from checks.verdicts.errata import FOR_IMPLEMENTERS, FOR_READERS, SEVERITIES, rank
from checks.written.conventions import Disagreement
from checks.written.examples import UNCASED
from checks.written.reading import DocumentReading, FormulaReview
from checks.written.remarks import NotationFinding
from checks.written.surface import NUMBERED, Blemish, heading_like
from reports.errata_words import ENGLISH, Words, words
from reports.model import ClaimView, Site, document_slug, short_name

FOLDER = "errata"
"""The downloads' folder in the site."""
IMPLEMENTERS = "for-implementers"
"""The implementers' list's file name (without suffix) in FOLDER."""
BOM = "\ufeff"


@dataclass(frozen=True)
class CorrectedSentence:
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
    places: tuple[CorrectedSentence, ...]
    claims: tuple[str, ...]
    claim_pages: tuple[str, ...]
    """The claims' pages, relative to the site's root."""
    anchor: str = ""
    """The row's id on its page (``erratum-N``)."""
    finding: str = ""
    """For a formula as written (checks.written), what the reader meets: does not parse, does not render, …;
    such a row has no verdict (no claim decided it) and names the claims that quote the formula."""

    page: str = ""
    """Where a row that no claim makes is shown (its formula on the document's page, relative to the site's root)."""
    page_label: str = ""
    """What that link says (default: the formula's line)."""

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        """(label, page) of each claim the row names; for a formula no claim quotes, its line on the document's
        page: every row links to where its evidence is shown."""
        found = tuple(zip(self.claims, self.claim_pages, strict=True))
        if not found and self.page:
            line = next((place.line for place in self.places if place.line), 0)
            found = ((self.page_label or (f"formula, line {line}" if line else "formulas as written"), self.page),)
        return found

    @property
    def changed(self) -> tuple[CorrectedSentence, ...]:
        """The places to change: those with a wording (all of them where none has one: each still needs fixing)."""
        worded = tuple(place for place in self.places if place.wording)
        return worded or self.places

    @property
    def repeated(self) -> tuple[CorrectedSentence, ...]:
        """The places that make the same point as a changed one, with no wording of their own ("also says it")."""
        return tuple(place for place in self.places if place not in self.changed)

    @property
    def shown_verdict(self) -> str:
        """The claims' verdict, or for a formula as written what its reader meets."""
        return self.verdict or f"as written: {self.finding}"

    @property
    def position(self) -> int:
        """Where its first sentence to change stands (the line its heading names): the row's place in line order."""
        found = [p.position for p in self.changed if p.position >= 0]
        return min(found) if found else -1


@dataclass(frozen=True)
class _Entry:
    claim: ClaimView
    quote: Quote
    place: CorrectedSentence
    key: str
    """The row it joins: the erratum's point, else the sentence its erratum names first."""
    stated: tuple[str, int, str] | None = None
    """(document, line, sentence) of the quote that states the condition the erratum borrows (``stated_by``)."""


def errata(site: Site) -> dict[str, list[ErratumRow]]:
    """Each document's errata for its readers: the claims' and those the run read in the document
    (checks.written.reading: formulas as written, notation, examples, position counting)."""
    claimed = _rows(site, FOR_READERS)
    for reading in site.documents:
        rows = claimed[reading.name] + as_written(site, reading)
        rows += [row for row in notation_rows(reading) if not _changed_already(row, rows)]
        rows += [row for row in example_rows(reading) if not _changed_already(row, rows)]
        if reading.counting is not None:
            rows.append(_counting_row(reading.counting, reading))
        claimed[reading.name] = _numbered(sorted(rows, key=_in_line_order))
    return claimed


def _counting_row(found: Disagreement, reading: DocumentReading) -> ErratumRow:
    """A document that counts positions from another place than the other documents (checks.written.conventions)."""
    own, usual, text = found.counting, found.others[0].first, reading.text
    korean = reading.language == "ko"
    quoted = _unbulleted(own.evidence.splitlines()[0])
    if korean:
        others = ", ".join(
            f"{short_name(o.document)} {o.line}행 '{_unbulleted(o.evidence.splitlines()[0])}'" for o in found.others
        )
        problem = (
            f"이 문서는 위치를 {own.first}부터 셉니다({own.line}행 '{quoted}'). 다른 레슨은 {usual}부터 셉니다"
            f"({others}). 공식의 pos도 {usual}부터 시작하므로, 이 예를 {usual}부터 적어야 레슨들이 서로 맞습니다."
        )
    else:
        others = ", ".join(
            f"{short_name(o.document)} line {o.line}: '{_unbulleted(o.evidence.splitlines()[0])}'" for o in found.others
        )
        problem = (
            f"This document counts positions from {own.first} (line {own.line}: '{quoted}'); the other documents "
            f"count from {usual} ({others}). Their formulas' pos starts at {usual}: written from {usual}, the example "
            "agrees with them."
        )
    other = found.others[0]
    section = _section_at(text, own.line, own.document)
    return ErratumRow(
        document=own.document,
        severity="notation",
        verdict="",
        problem=problem,
        places=(CorrectedSentence(section, own.evidence, found.rewritten, own.start, own.line),),
        claims=(),
        claim_pages=(),
        finding="position counting",
        page=f"documents/{document_slug(other.document)}.html",
        page_label=_at(other.document, other.line, "ko" if korean else "en"),
    )


UNREADABLE = ("does not parse", "does not render")
"""What a formula as written meets that is a matter of notation (its reader cannot read it), not a false statement."""


def _section_at(text: str, line: int, document: str) -> str:
    """The section a line of the document stands in, as its reader sees it: with markup, its heading; in plain text,
    the nearest line above that stands alone as a heading (structural or not: '핵심 요약' as well as '2. …')."""
    if marked_up(document):
        lines = text.splitlines()
        return section_of(text, lines[line - 1], document) or "" if 0 < line <= len(lines) else ""
    lines = text.splitlines()
    for number in range(min(line, len(lines)), 0, -1):
        worded = re.search(r"[^\W\d_]", re.sub(r"(?:←|<-|#|//).*$", "", lines[number - 1]))  # not a table's row
        titled = heading_like(lines, number, titled=True) or heading_rank(lines[number - 1])
        if number != line and worded and (titled or NUMBERED.match(lines[number - 1])):  # '데모 4 · …' too
            return lines[number - 1].strip()
    return ""


def _at(document: str, line: int, language: str) -> str:
    """A link's label naming a document's line, in the errata's language ('001, 110행')."""
    return f"{short_name(document)}, {words(language).line.format(line=line)}"


def _unbulleted(line: str) -> str:
    """A line cited inside a problem, without its list marks ('• •$\\text{pos}$: …' → '$\\text{pos}$: …')."""
    return re.sub(r"^[\s•·▪◦*-]+", "", line)


def as_written(site: Site, reading: DocumentReading) -> list[ErratumRow]:
    """A row for each formula of the document whose reader meets a problem (checks.written), with its correction."""
    rows, name, text = [], reading.name, reading.text
    lines = text.splitlines(keepends=True)
    for formula in reading.formulas:
        if not formula.problems:
            continue
        position = text.find(formula.span, sum(len(line) for line in lines[: formula.line - 1]))
        quoting = [
            (claim, quote)
            for claim in site.claims
            for quote in claim.record.placed
            if quote.document == name and (formula.span in quote.text or quote.text in formula.span)
        ]
        section = quoting[0][1].section if quoting else _section_at(text, formula.line, name)
        unreadable = all(problem.kind in UNREADABLE for problem in formula.problems)
        rows.append(
            ErratumRow(
                document=name,
                severity="notation" if unreadable else "error",
                verdict="",
                problem=_as_written_problem(formula, reading.language),
                places=(CorrectedSentence(section, formula.span, formula.corrected_span, position, formula.line),),
                claims=tuple(_unique(claim.id for claim, _ in quoting)),
                claim_pages=tuple(_unique(f"claims/{claim.slug}.html" for claim, _ in quoting)),
                finding=formula.problems[0].kind,
                page=f"documents/{document_slug(name)}.html#formula-{formula.line}",
                page_label=_at(name, formula.line, reading.language),
            )
        )
    return rows


def notation_rows(reading: DocumentReading) -> list[ErratumRow]:
    """A row for each problem of the document's notation (checks.written.notation): symbol lists, one letter with
    two meanings, subscripts run into the next symbol."""
    name, text, language = reading.name, reading.text, reading.language
    rows = []
    for finding in reading.notation:
        places = []
        for place in finding.places:
            position = _line_start(text, place.line)
            position = text.find(place.text, position) if text.find(place.text, position) >= 0 else position
            section = _section_at(text, place.line, name)
            places.append(CorrectedSentence(section, place.text, place.wording, position, place.line))
        rows.append(
            ErratumRow(
                document=name,
                severity="notation",
                verdict="",
                problem=finding.said(language),
                places=tuple(places),
                claims=(),
                claim_pages=(),
                finding=finding.kind,
                page=f"documents/{document_slug(name)}.html#{_shown_at(finding)}",
                page_label=_at(name, finding.formula_line or finding.places[0].line, language),
            )
        )
    return rows


def example_rows(reading: DocumentReading) -> list[ErratumRow]:
    """A row for each word-order example whose grammar fixes the roles anyway (checks.written.examples)."""
    name, text, language = reading.name, reading.text, reading.language
    lines = text.splitlines()
    rows = []
    for reviewed in reading.examples:
        example = reviewed.example
        span = "\n".join(lines[example.first - 1 : example.last])
        shown = " / ".join(f"'{s.text}'" for s in example.sentences)
        good = " / ".join(f"'{s}'" for s in UNCASED[example.language])
        if language == "ko":
            problem = (
                f"예문이 보여 주려는 것을 보여 주지 못합니다({shown}). {example.korean}. 어순만 바꿔서 뜻이 달라지려면 "
                f"격 표시가 없는 말로 된 예({good})가 필요합니다."
            )
        else:
            problem = (
                f"The example ({shown}) does not show that order carries meaning: {example.roles}. An example whose "
                f"words carry no case shows it ({good})."
            )
        rows.append(
            ErratumRow(
                document=name,
                severity="error",
                verdict="",
                problem=problem,
                places=(
                    CorrectedSentence(
                        _section_at(text, example.first, name),
                        span,
                        reviewed.rewritten,
                        text.find(span, _line_start(text, example.first)),
                        example.first,
                    ),
                ),
                claims=(),
                claim_pages=(),
                finding="example's grammar fixes the roles",
                page=f"documents/{document_slug(name)}.html#text",
                page_label=_at(name, example.first, language),
            )
        )
    return rows


def not_corrected(seen: list[Blemish], rows: list[ErratumRow], text: str) -> list[Blemish]:
    """What a reader sees besides sentences, less the lines an erratum rewrites whole (one thing, said once; a
    rewrite of part of a line leaves the rest of it as it was)."""
    lines = text.splitlines()
    changed = {
        line
        for row in rows
        for place in row.places
        if place.wording and _whole_lines(place, lines)
        for line in _spanned(place)
    }
    kept = []
    for blemish in seen:
        places = tuple((a, b) for a, b in blemish.places if not set(range(a, b + 1)) <= changed)
        if places:
            kept.append(replace(blemish, places=places) if places != blemish.places else blemish)
    return kept


def _whole_lines(place: CorrectedSentence, lines: list[str]) -> bool:
    """Whether a place runs over whole lines of its document."""
    own = place.sentence.split("\n")
    spanned = lines[place.line - 1 : place.line - 1 + len(own)] if place.line else []
    return len(spanned) == len(own) and all(a.strip() == b.strip() for a, b in zip(own, spanned, strict=True))


def _changed_already(row: ErratumRow, rows: list[ErratumRow]) -> bool:
    """Whether another row already changes text this row would change (a claim's correction comes first): the
    same characters where both places were found in the text, else the same lines."""
    theirs = [place for other in rows for place in other.places if place.wording]
    return any(_overlap(mine, place) for mine in row.changed for place in theirs)


def _overlap(one: CorrectedSentence, other: CorrectedSentence) -> bool:
    if one.position >= 0 and other.position >= 0:
        return one.position < other.position + len(other.sentence) and other.position < one.position + len(one.sentence)
    return bool(_spanned(one) & _spanned(other))


def _spanned(place: CorrectedSentence) -> set[int]:
    """The lines a place runs over."""
    return set(range(place.line, place.line + place.sentence.count("\n") + 1)) if place.line else set()


def _shown_at(finding: NotationFinding) -> str:
    """The anchor on the document's page that shows a notation finding: its formula's row, else the text."""
    return f"formula-{finding.formula_line}" if finding.formula_line else "text"


def _line_start(text: str, line: int) -> int:
    """Where line ``line`` (from 1) starts in ``text``."""
    return sum(len(part) for part in text.splitlines(keepends=True)[: line - 1])


def _as_written_problem(formula: FormulaReview, language: str) -> str:
    """What the reader of a formula meets, in the document's language."""
    said = [problem.said(language) for problem in formula.problems]
    kinds = list(dict.fromkeys(kind for kind, _ in said))
    details = "; ".join(detail for _, detail in said)
    if language == "ko":
        by_kind: dict[str, list[str]] = {}
        for kind, detail in said:
            by_kind.setdefault(kind, []).append(f"{detail}.")
        return f"{formula.line}행의 식: " + " ".join(f"{kind}. {' '.join(found)}" for kind, found in by_kind.items())
    return f"As written (line {formula.line}), the formula {' and '.join(kinds)}: {details}."


def for_implementers(site: Site) -> dict[str, list[ErratumRow]]:
    """Each document's notes for implementers: precision limits, implementation details, remarks."""
    return _rows(site, FOR_IMPLEMENTERS)


def _rows(site: Site, severities: tuple[str, ...]) -> dict[str, list[ErratumRow]]:
    texts = {reading.name: reading.text for reading in site.documents}
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
                text = texts[quote.document]
                position = text.find(quote.text)
                line = text.count("\n", 0, position) + 1 if position >= 0 else 0
                place = CorrectedSentence(quote.section, quote.text, wording, position, line)
                entries[quote.document].append(_Entry(claim, quote, place, key, _stated(record, texts)))
    return {name: _numbered(_merged(found)) for name, found in entries.items()}


def _merged(entries: list[_Entry]) -> list[ErratumRow]:
    """One row per point (the erratum's ``point``, else its sentence): the most serious severity leads."""
    groups: dict[str, list[_Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.key, []).append(entry)
    rows = []
    for group in groups.values():
        group.sort(key=lambda e: (rank(_severity(e)), e.place.position, e.claim.id))
        places: dict[str, CorrectedSentence] = {}
        for entry in group:
            places.setdefault(entry.place.sentence, entry.place)
        rows.append(
            ErratumRow(
                document=group[0].quote.document,
                severity=_severity(group[0]),
                verdict=str(group[0].claim.verdict),
                problem=_problem(group[0]),  # one point, said once: the claim whose place comes first
                places=tuple(sorted(places.values(), key=lambda p: p.position)),
                claims=tuple(_unique(e.claim.id for e in group)),
                claim_pages=tuple(_unique(f"claims/{e.claim.slug}.html" for e in group)),
            )
        )
    return sorted(rows, key=_in_line_order)


def _in_line_order(row: ErratumRow) -> tuple[int, int, tuple[str, ...]]:
    """Where the row's first place stands in its document (an author edits top to bottom), then severity."""
    return (row.position if row.position >= 0 else 1 << 62, rank(row.severity), row.claims)


def _severity(entry: _Entry) -> str:
    erratum = entry.claim.record.erratum
    assert erratum is not None
    return erratum.severity


def _problem(entry: _Entry) -> str:
    """What the row says is wrong: for a document's reader, in the document's language where the claim gives it,
    citing the document that states the condition it borrows."""
    erratum = entry.claim.record.erratum
    assert erratum is not None
    korean = erratum.severity in FOR_READERS and bool(erratum.reader_problem)
    problem = erratum.reader_problem if korean else erratum.problem
    if entry.stated is not None:
        document, line, sentence = entry.stated
        where = short_name(document)
        problem += (
            f" 이 조건은 {where} {line}행에 있습니다: '{sentence}'"
            if korean
            else f" {where}, line {line}, states the condition: '{sentence}'"
        )
    return problem


def _stated(record: ClaimRecord, texts: dict[str, str]) -> tuple[str, int, str] | None:
    """Where the quote an erratum borrows its condition from stands (``Erratum.stated_by``)."""
    erratum = record.erratum
    if erratum is None or not erratum.stated_by:
        return None
    for quote in record.placed:
        if quote.text == erratum.stated_by and (text := texts.get(quote.document)):
            position = text.find(quote.text)
            return quote.document, text.count("\n", 0, position) + 1 if position >= 0 else 0, quote.text
    return None


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
    """Sentences to change per severity, every step of ``severities`` present: what the index, the document page and
    the errata files count."""
    return {severity: sum(len(r.changed) for r in rows if r.severity == severity) for severity in severities}


@dataclass(frozen=True)
class Tally:
    """A document's errata counted once, for every place that shows them."""

    changes: dict[str, int]
    """Sentences to change, per reader severity."""
    suggestions: int
    also: int
    """Places that make the same point as a changed one (named inside their suggestion)."""

    @property
    def total(self) -> int:
        return sum(self.changes.values())


def tally(rows: list[ErratumRow]) -> Tally:
    return Tally(counts(rows), len(rows), sum(len(r.repeated) for r in rows))


def downloads(name: str) -> list[tuple[str, str]]:
    """(label, path relative to the site's root) of a document's Markdown and CSV errata."""
    slug = document_slug(name)
    return [("Markdown", f"{FOLDER}/{slug}.md"), ("CSV", f"{FOLDER}/{slug}.csv")]


IMPLEMENTERS_DOWNLOADS = [("Markdown", f"{FOLDER}/{IMPLEMENTERS}.md"), ("CSV", f"{FOLDER}/{IMPLEMENTERS}.csv")]


def markdown(name: str, rows: list[ErratumRow], language: str = "en", seen: Iterable[Blemish] = ()) -> str:
    """A document's errata as Markdown, in the document's language and line order: a summary that counts each
    severity, then one section per suggestion with each sentence to change and the wording to paste; last, apart,
    what a reader sees besides sentences (``seen``)."""
    said = words(language)
    lines = [f"# {said.title.format(name=name)}", ""]
    lines += [_summary(tally(rows), said), "", *_markdown_rows(rows, said=said)] if rows else [said.nothing, ""]
    if seen := list(seen):
        lines += [f"## {said.surface}", ""]
        lines += [f"- {blemish.lines(language)}: {blemish.said(language)} ({blemish.text})" for blemish in seen]
        lines.append("")
    return "\n".join(lines)


def summary(rows: list[ErratumRow], language: str) -> str:
    """What a document's errata count, in its language: the same figures its errata file opens with (as plain
    text, for the page)."""
    said = words(language)
    return _summary(tally(rows), said).replace("**", "") if rows else said.nothing


def _summary(counted: Tally, said: Words) -> str:
    by_severity = ", ".join(f"{said.severity[s]} {n}" for s, n in counted.changes.items())
    text = said.summary.format(changes=counted.total, by_severity=by_severity, suggestions=counted.suggestions)
    text += said.repeated.format(also=counted.also) if counted.also else ""
    meanings = "; ".join(f"**{said.severity[s]}**: {said.meaning[s]}" for s in FOR_READERS)
    return f"{text} {meanings}. {said.apart}"


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


def _markdown_rows(rows: list[ErratumRow], level: str = "##", said: Words = ENGLISH) -> list[str]:
    lines = []
    for number, row in enumerate(rows, 1):
        first = next((place.line for place in row.changed if place.line), 0)
        at = f"{said.line.format(line=first)} · " if first else ""
        severity = said.severity.get(row.severity, row.severity)
        claims = ", ".join(f"`{c}`" for c in row.claims)
        shown = said.verdict(row.verdict, row.finding)
        lines += [f"{level} {number}. {at}{severity} · {shown}" + (f" · {claims}" if claims else ""), ""]
        lines += [f"**{said.problem}** {row.problem}", ""]
        for place in row.changed:
            where = (
                (said.where if place.section else said.line).format(line=place.line, section=place.section)
                if place.line
                else place.section
            )
            lines += [where, "", *_quoted(place.sentence), ""]
            if place.wording:
                lines += [f"**{said.could_read}**", "", *_quoted(place.wording), ""]
            else:
                lines += [f"*{said.no_wording}*", ""]
        if row.repeated:
            lines += [also_said(row, said), ""]
        lines += [f"{said.pages}: " + ", ".join(f"{page} ({label})" for label, page in row.links), ""]
    return lines


def also_said(row: ErratumRow, said: Words) -> str:
    """The line naming the places that make the same point as the row's changed ones ("also says it: lines 17, 25");
    a quote over several lines by its range."""
    places = [said.line.format(line=_lines(place)) if place.line else place.section for place in row.repeated]
    return said.also.format(places=", ".join(places))


def _lines(place: CorrectedSentence) -> str:
    last = place.line + place.sentence.count("\n")
    return str(place.line) if last == place.line else f"{place.line}–{last}"


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
    "also_at_lines",
    "claims",
    "claim_pages",
)


def csv_text(rows: list[ErratumRow], document: bool = False) -> str:
    """Errata as CSV: UTF-8 with a byte-order mark, a header row, one line per sentence to change (``suggestion``
    numbers the row it belongs to; ``also_at_lines``, the lines that make the same point); ``document`` adds the
    document's name as the first column."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow((("document",) if document else ()) + COLUMNS)
    for number, row in enumerate(rows, 1):
        also = " ".join(str(place.line) for place in row.repeated if place.line)
        for place in row.changed:
            cells = [number, row.severity, row.shown_verdict, place.line or "", place.section, place.sentence]
            cells += [row.problem, place.wording, also]
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


def files(
    by_document: dict[str, list[ErratumRow]],
    implementers: dict[str, list[ErratumRow]],
    languages: dict[str, str] | None = None,
    seen: dict[str, list[Blemish]] | None = None,
) -> dict[str, str]:
    """Every download, by its path in the site (each document's errata in its language, ``languages`` by name,
    with what its reader sees besides sentences, ``seen``)."""
    written = {f"{FOLDER}/errata.json": json_text(by_document, implementers)}
    for name, rows in by_document.items():
        (_, as_markdown), (_, as_csv) = downloads(name)
        language = (languages or {}).get(name, "en")
        written[as_markdown] = markdown(name, rows, language, (seen or {}).get(name, []))
        written[as_csv] = csv_text(rows)
    (_, as_markdown), (_, as_csv) = IMPLEMENTERS_DOWNLOADS
    written[as_markdown] = implementers_markdown(implementers)
    written[as_csv] = csv_text([row for rows in implementers.values() for row in rows], document=True)
    return written
