"""Errata per document: every sentence a claim finds wrong or incomplete, with what to change it to.

A row comes from a claim that declares an erratum (checks.errata) for a sentence of a document: its verdict,
its severity, one line on the problem and the corrected wording. Rows are ordered most serious first, then by
where the sentence stands. Beside the site, each document's errata are written as Markdown and CSV, and all of
them as JSON (``errata/``).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass

from checks.errata import SEVERITIES, rank
from reports.model import Site, document_slug

FOLDER = "errata"
"""The downloads' folder in the site."""


@dataclass(frozen=True)
class ErratumRow:
    """One sentence to fix, as a document's author reads it."""

    document: str
    section: str
    sentence: str
    severity: str
    verdict: str
    problem: str
    wording: str
    claim: str
    claim_page: str
    """The claim's page, relative to the site's root."""
    position: int
    """Where the sentence starts in the document (-1: not found in its text)."""


def errata(site: Site, texts: dict[str, str | None]) -> dict[str, list[ErratumRow]]:
    """Each document's rows (``texts``: the documents' texts by name, None where unreadable), ordered."""
    rows: dict[str, list[ErratumRow]] = {name: [] for name in texts}
    for claim in site.claims:
        record, quote = claim.record, claim.record.corrects
        if record.erratum is None or quote is None or quote.document not in rows:
            continue
        text = texts[quote.document] or ""
        rows[quote.document].append(
            ErratumRow(
                document=quote.document,
                section=quote.section,
                sentence=quote.text,
                severity=record.erratum.severity,
                verdict=str(claim.verdict),
                problem=record.erratum.problem,
                wording=record.erratum.wording,
                claim=claim.id,
                claim_page=f"claims/{claim.slug}.html",
                position=text.find(quote.text),
            )
        )
    return {name: sorted(found, key=lambda r: (rank(r.severity), r.position, r.claim)) for name, found in rows.items()}


def counts(rows: list[ErratumRow]) -> dict[str, int]:
    """Rows per severity, every step of the scale present."""
    return {severity: sum(r.severity == severity for r in rows) for severity in SEVERITIES}


def downloads(name: str) -> list[tuple[str, str]]:
    """(label, path relative to the site's root) of a document's Markdown and CSV errata."""
    slug = document_slug(name)
    return [("Markdown", f"{FOLDER}/{slug}.md"), ("CSV", f"{FOLDER}/{slug}.csv")]


def markdown(name: str, rows: list[ErratumRow]) -> str:
    """A document's errata as Markdown: one section per sentence, the wording to paste in a block quote."""
    lines = [f"# Errata: {name}", ""]
    if not rows:
        return "\n".join([*lines, "No sentence of this document is refuted or qualified.", ""])
    summary = ", ".join(f"{n} {severity}" for severity, n in counts(rows).items() if n)
    lines += [
        f"{len(rows)} sentence(s) to fix: {summary}. Severities: "
        + "; ".join(f"**{s}**: {meaning}" for s, meaning in SEVERITIES.items())
        + ".",
        "",
    ]
    for number, row in enumerate(rows, 1):
        lines += [
            f"## {number}. {row.severity} · {row.verdict} · `{row.claim}`",
            "",
            f"Section: {row.section}",
            "",
            f"> {row.sentence}",
            "",
            f"**Problem.** {row.problem}",
            "",
            "**Could read:**",
            "",
            f"> {row.wording}",
            "",
            f"Claim page: {row.claim_page}",
            "",
        ]
    return "\n".join(lines)


COLUMNS = ("severity", "verdict", "section", "sentence", "problem", "wording", "claim", "claim_page")


def csv_text(rows: list[ErratumRow]) -> str:
    """A document's errata as CSV (UTF-8, a header row, the columns of COLUMNS)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([getattr(row, column) for column in COLUMNS])
    return buffer.getvalue()


def json_text(by_document: dict[str, list[ErratumRow]]) -> str:
    """Every document's errata, with the scale."""
    document = {
        "severities": SEVERITIES,
        "documents": {name: [asdict(row) for row in rows] for name, rows in by_document.items()},
    }
    return json.dumps(document, indent=1, ensure_ascii=False)


def files(by_document: dict[str, list[ErratumRow]]) -> dict[str, str]:
    """Every download, by its path in the site."""
    written = {f"{FOLDER}/errata.json": json_text(by_document)}
    for name, rows in by_document.items():
        (_, as_markdown), (_, as_csv) = downloads(name)
        written[as_markdown] = markdown(name, rows)
        written[as_csv] = csv_text(rows)
    return written
