"""What each page shows, prepared from the merged results (templates only lay it out)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from checks.documents.coverage import CATEGORIES, Classified
from checks.documents.markup import marked_up
from checks.documents.sources import Citation, Quote
from checks.numerics.tolerances import FLOATS
from checks.results import Figure, Run
from checks.written.reading import DocumentReading
from reports import documents, figures, mathml
from reports.model import ClaimView, ResultsSource, Shown, Site, document_slug, short_name

"""Documents named by a number and a hash (as this repository's lessons are)."""


@dataclass(frozen=True)
class DocumentInfo:
    """A document as the run read it (checks.written.reading: its name, title, text, entries …), with the names its
    pages give it."""

    reading: DocumentReading

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.reading, name)

    @property
    def slug(self) -> str:
        return document_slug(self.reading.name)

    @property
    def short(self) -> str:
        """The label the index gives it: "000" for a document named "000_<hash>.txt", else its file name (a .txt
        one without its suffix)."""
        return short_name(self.reading.name)

    @property
    def lang(self) -> str:
        """The language of its text, for the pages' lang attributes (checks.documents.segmentation)."""
        return self.reading.language


@dataclass(frozen=True)
class Drawn:
    """Markup to show (MathML or SVG), or why it is not shown."""

    markup: Markup | None
    problem: str = ""


def document_infos(site: Site) -> list[DocumentInfo]:
    """Every document the results read (the only documents a page shows: reports.model.load refuses a results file
    quoting any other)."""
    return [DocumentInfo(reading) for reading in site.documents]


def quote_anchor(claim: ClaimView, index: int) -> str:
    return f"q-{claim.slug}-{index + 1}"


def highlighted(info: DocumentInfo, site: Site) -> documents.HighlightedDocument:
    """The document's text with every claim's quotes placed."""
    quotes = [
        documents.PlacedQuote(
            claim_id=claim.id,
            href=f"../claims/{claim.slug}.html",
            verdict=claim.verdict,
            anchor=quote_anchor(claim, n),
            text=quote.text,
            in_scope=not claim.record.out_of_scope,
            control=bool(claim.record.control),
        )
        for claim in site.claims
        for n, quote in enumerate(claim.record.placed)
        if quote.document == info.name
    ]
    return documents.highlight(info.reading, quotes)


def document_page(info: DocumentInfo, highlighted: documents.HighlightedDocument | None) -> dict[str, Any]:
    placed = sorted((q for s in (highlighted.segments if highlighted else []) for q in s.ending), key=lambda q: q.start)
    used = {sentence.category for sentence in highlighted.coverage.sentences} if highlighted else set()
    return {
        "document": info,
        "highlighted": highlighted,
        "quotes": placed,
        "definition": (
            _sentence_rule(info),
            *documents.DEFINITION,
        ),
        "categories": {name: covers for name, covers in CATEGORIES.items() if name in used},
        "describe": documents.describe,
    }


def _sentence_rule(info: DocumentInfo) -> str:
    """How a document's sentences are cut: by line in plain text, by paragraph in Markdown and LaTeX."""
    return documents.MARKED_UP_SENTENCE if marked_up(info.name) else documents.PLAIN_TEXT_SENTENCE


def claim_page(claim: ClaimView, site: Site, infos: dict[str, DocumentInfo]) -> dict[str, Any]:
    return {
        "claim": claim,
        "quotes": [_quote(claim, n, quote, infos) for n, quote in enumerate(claim.record.sources)],
        "citations": [_citation(claim, n, citation, infos) for n, citation in enumerate(claim.record.citations)],
        "evidence": claim.evidence,
        "depends": [(d, site.claim(d)) for d in claim.record.depends],
        "used_by": [c for c in site.claims if claim.id in c.record.depends],
        "commands": reproduce(claim, [source for source, _ in claim.observed]),
        "machines": len(site.sources) > 1,
        "claim_file": claim_file(claim),
        "repository": next((s.environment.repository for s, _ in claim.observed if s.environment.repository), ""),
    }


def claim_file(claim: ClaimView) -> str | None:
    """The claim's file as the engine recorded it (``origin``, relative to its repository); for an unloadable
    file, its path."""
    origin = claim.record.origin or (claim.id.removeprefix("file:") if claim.id.startswith("file:") else "")
    return origin or None


def reproduce(claim: ClaimView, sources: list[ResultsSource]) -> list[str]:
    """The command that reruns this claim from its repository's root, once per distinct profile and seed."""
    if claim.id.startswith("file:"):
        return [f"pytest {claim.id.removeprefix('file:')}"]
    where = claim_file(claim)
    commands = []
    for source in sources:
        command = f"pytest {where + ' ' if where else ''}-k {claim.id} --hypothesis-profile {source.profile}"
        if source.seed not in ("", "derandomized", "random", "None"):
            command += f" --hypothesis-seed {source.seed}"
        if command not in commands:
            commands.append(command)
    return commands


def _citation(claim: ClaimView, n: int, citation: Citation, infos: dict[str, DocumentInfo]) -> dict[str, Any]:
    """A cited sentence; with a local text it is placed (and anchored) after the claim's quotes."""
    placed = _quote(claim, len(claim.record.sources) + n, quote, infos) if (quote := citation.as_quote()) else None
    return {"citation": citation, "placed": placed}


def sources_page(site: Site, infos: list[DocumentInfo], coverage: dict[str, Any]) -> dict[str, Any]:
    """The sources index: every document with its coverage and claims, every cited work with its claims."""
    listed = [ListedDocument(info, coverage.get(info.name), _claims_placing(site, info.name)) for info in infos]
    works: dict[tuple[str, str, int], CitedWork] = {}
    for claim in site.claims:
        for citation in claim.record.citations:
            work = works.setdefault((citation.title, citation.authors, citation.year), CitedWork(citation))
            if claim not in work.claims:
                work.claims.append(claim)
            if citation.section not in work.sections:
                work.sections.append(citation.section)
    return {"listed": listed, "works": sorted(works.values(), key=lambda work: work.citation.label)}


@dataclass
class ListedDocument:
    """A row of the sources index: a document, its coverage (None without text) and the claims quoting it."""

    document: DocumentInfo
    coverage: Classified | None
    claims: list[ClaimView]


@dataclass
class CitedWork:
    """A row of the sources index: a published work, the sections cited and the claims citing it."""

    citation: Citation
    claims: list[ClaimView] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)


def _claims_placing(site: Site, document: str) -> list[ClaimView]:
    return [claim for claim in site.claims if any(q.document == document for q in claim.record.placed)]


def _quote(claim: ClaimView, n: int, quote: Quote, infos: dict[str, DocumentInfo]) -> dict[str, Any]:
    info = infos.get(quote.document)
    return {
        "text": quote.text,
        "section": quote.section,
        "document": info,
        "name": quote.document,
        "href": f"../documents/{info.slug}.html#{quote_anchor(claim, n)}" if info and info.text else None,
        "found": bool(info and info.text and quote.text and quote.text in info.text),
    }


# Filters the evidence partials use.


def math(text: str) -> Drawn:
    """Presentation MathML as a display block, or why it is not shown."""
    markup, problem = mathml.block(text)
    return Drawn(markup, problem)


def drawing(figure: Figure) -> Drawn:
    """A figure as inline SVG, or why it cannot be drawn."""
    try:
        return Drawn(figures.render(figure))
    except (figures.FigureError, TypeError, ValueError) as problem:
        return Drawn(None, str(problem))


def in_run_order(shown: list[Shown]) -> list[Shown]:
    """Runs that ran, by name, implementation, device, dtype (widest first) and machine."""
    ran = [s for s in shown if isinstance(s.record, Run) and s.record.ran]
    return sorted(ran, key=_run_order)


def not_run(shown: list[Shown]) -> list[tuple[str, str]]:
    """(which runs, why) of the runs that did not run, grouped by reason."""
    reasons: dict[str, list[str]] = {}
    skipped = [s for s in shown if isinstance(s.record, Run) and not s.record.ran]
    for item in sorted(skipped, key=_run_order):
        run = item.record
        assert isinstance(run, Run)
        which = f"{run.implementation or run.name} {run.device} {run.dtype}"
        reasons.setdefault(run.message or "not run", []).append(which)
    return [(", ".join(dict.fromkeys(which)), why) for why, which in reasons.items()]


def _run_order(item: Shown) -> tuple:
    run = item.record
    assert isinstance(run, Run)
    dtype = FLOATS.index(run.dtype) if run.dtype in FLOATS else len(FLOATS)
    return (run.name, run.implementation or "", run.device, dtype, run.dtype, run.order, item.source.index)


MARKDOWN_HEADING = re.compile(r"(^|\n)#{1,6}[ \t]+")


def unmarked(text: str, name: str) -> str:
    """A run of a Markdown document's text as its reader sees it: its headings without their ``#`` markers."""
    return MARKDOWN_HEADING.sub(r"\1", text) if name.lower().endswith(".md") else text


def classification_file(name: str) -> str:
    """The name of a document's classification file: its name with ``.toml`` for its suffix."""
    return name.rsplit(".", 1)[0] + ".toml"


FILTERS = {
    "unmarked": unmarked,
    "classification_file": classification_file,
    "math": math,
    "drawing": drawing,
    "in_run_order": in_run_order,
    "not_run": not_run,
}
