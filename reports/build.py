"""Render results files into a static site: index, one page per claim, one per document."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

import checks.settings.config as config
from checks.documents.coverage import CATEGORIES, Classified
from checks.results import MutationResults, ResultsError, read_mutation_results, read_results
from checks.results.compare import compare
from checks.results.files import write_json, write_text
from checks.verdicts.errata import FOR_IMPLEMENTERS, FOR_READERS, SEVERITIES
from checks.written.reading import DocumentReading
from reports import documents, errata, errata_words, formatting, glossary, mathml, search, views
from reports.model import Site, contract_cells, document_slug, implementation_matrix, load, slug
from reports.precision import precision_views

COVERAGE = "coverage.json"
"""Every sentence of every document with its class, written beside the pages (checks.documents.coverage)."""
MANIFEST = ".pages.json"
"""The pages the last build wrote: the only ones a later build may remove."""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"


def environment() -> Environment:
    """Autoescaping everywhere; MathML and SVG arrive as Markup from reports.mathml and reports.figures."""
    env = Environment(
        loader=PackageLoader("reports"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(
        number=formatting.number,
        seconds=formatting.seconds,
        count=formatting.count,
        ratio=formatting.ratio,
        compact=formatting.compact,
        dtype=formatting.dtype,
        docslug=document_slug,
        slug=slug,
        tex=mathml.with_tex,
        **views.FILTERS,
    )
    env.globals.update(csp=CSP)
    return env


def build_site(
    sources: list[Path],
    out: Path,
    say: Callable[[str], object] = print,
    baseline: Path | None = None,
    documents: Callable[[], list[DocumentReading]] | None = None,
) -> Path:
    """Write the site for the claims in ``sources`` (ResultsError on a bad file) from those files alone; return
    index.html. ``documents``: reads the documents where no file holds them (results written before readings were
    recorded). With a ``baseline`` results file, also changes.html and changes.md: what the first of ``sources``
    changed against it."""
    site = load(sources, documents)
    changes = compare(read_results(baseline), read_results(sources[0]), runs=True) if baseline else None
    infos = views.document_infos(site)
    by_name = {info.name: info for info in infos}
    env = environment()
    settings = config.current()
    corrections, notes = errata.errata(site), errata.for_implementers(site)
    seen = {
        info.name: errata.not_corrected(info.reading.blemishes, corrections.get(info.name, []), info.text)
        for info in infos
    }
    common = {
        "errata": corrections,
        "notes": notes,
        "for_readers": FOR_READERS,
        "for_implementers": FOR_IMPLEMENTERS,
        "implementers_downloads": errata.IMPLEMENTERS_DOWNLOADS,
        "sources_folder": settings.shown(settings.sources),
        "sentences_folder": settings.shown(settings.sentences),
        "site": site,
        "documents": infos,
        "document_by_name": by_name,
        "generated": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "severities": SEVERITIES,
    }
    pages: dict[Path, str] = {}
    for claim in site.claims:
        context = views.claim_page(claim, site, by_name)
        pages[Path("claims") / f"{claim.slug}.html"] = _render(env, "claim.html.j2", root="../", **common, **context)
    coverage, placed = {}, []
    for info in infos:
        highlighted = views.highlighted(info, site)
        placed.append((info, highlighted))
        coverage[info.name] = highlighted.coverage if highlighted else None
        if highlighted and (problems := highlighted.coverage.problems()):
            say(f"warning: {len(problems)} classification problem(s), listed on the document's page; {problems[0]}")
        context = views.document_page(info, highlighted)
        pages[Path("documents") / f"{info.slug}.html"] = _render(
            env,
            "document.html.j2",
            root="../",
            corrections=corrections[info.name],
            errata_summary=errata.summary(corrections[info.name], info.lang),
            said=errata_words.words(info.lang),
            also_said=errata.also_said,
            seen=seen[info.name],
            erratum_anchors=errata.anchors(corrections[info.name]),
            corrections_downloads=errata.downloads(info.name),
            formulas=info.reading.formulas,
            **common,
            **context,
        )
    pages[Path("sources.html")] = _render(
        env, "sources.html.j2", root="", **common, **views.sources_page(site, infos, coverage)
    )
    names, matrix = implementation_matrix(site)
    contract = contract_cells(site)
    mutants, unreadable = _mutants(out / "mutants.json")
    if unreadable:
        say(f"warning: {unreadable}; the report leaves the mutation score out")
    pages[Path("implementations.html")] = _render(
        env,
        "implementations.html.j2",
        root="",
        names=names,
        matrix=matrix,
        contract=contract,
        checked=site.implementations,
        precision=precision_views(site),
        mutants=mutants,
        unreadable=unreadable,
        **common,
    )
    terms = glossary.used(pages.values())
    pages[Path("glossary.html")] = _render(env, "glossary.html.j2", root="", terms=terms, **common)
    pages[Path(search.PAGE)] = _render(
        env,
        "search.html.j2",
        root="",
        entries=search.entries(site, placed),
        script=search.SCRIPT,
        csp=search.csp(CSP),
        **common,
    )
    languages = {info.name: info.lang for info in infos}
    pages.update({Path(path): text for path, text in errata.files(corrections, notes, languages, seen).items()})
    if changes is not None:
        pages[Path("changes.md")] = changes.markdown()
        pages[Path("changes.html")] = _render(
            env, "changes.html.j2", root="", changes=changes, baseline=baseline.name, **common
        )
        say(f"report: against {baseline}: " + changes.report().splitlines()[0])
    write_json(out / COVERAGE, coverage_data(coverage))
    extras = [name for name in ("results.json", "junit.xml", "mutants.json", COVERAGE) if (out / name).is_file()]
    extras += ["changes.md"] if changes is not None else []
    pages[Path("index.html")] = _render(
        env, "index.html.j2", root="", coverage=coverage, extras=extras, changes=changes, **common
    )
    _write(out, pages, say)
    return out / "index.html"


def coverage_data(coverage: dict[str, Classified | None]) -> dict[str, object]:
    """coverage.json: per document, its counts and every sentence with its class, and claims and verdicts."""
    return {
        "definition": list(documents.DEFINITION),
        "categories": CATEGORIES,
        "documents": {
            name: None
            if classified is None
            else {
                **classified.summary(),
                "problems": classified.problems(),
                "sentences": [
                    {
                        "index": s.index,
                        "text": s.text,
                        "class": s.sentence_class,
                        **({"category": s.category} if s.category else {}),
                        **({"note": s.note} if s.note else {}),
                        **({"claims": s.claims} if s.claims else {}),
                    }
                    for s in classified.sentences
                ],
            }
            for name, classified in coverage.items()
        },
    }


def _mutants(path: Path) -> tuple[MutationResults | None, str]:
    """The mutation run's results (python -m checks.engine.mutation) when the folder has them, or why not."""
    if not path.exists():
        return None, ""
    try:
        return read_mutation_results(path), ""
    except ResultsError as error:
        return None, str(error)


def _render(env: Environment, template: str, **context: object) -> str:
    return env.get_template(template).render(**context)


def _write(out: Path, pages: dict[Path, str], say: Callable[[str], object]) -> None:
    """Write every page atomically, then remove the pages the previous build wrote and this one did not.

    Only pages a build wrote are ever removed: each build lists its pages in OUT/.pages.json, and
    other files in OUT (a page someone put there) stay, whatever their name.
    """
    manifest = out / MANIFEST
    earlier = _pages_listed(manifest)
    for relative, text in pages.items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        write_text(out / relative, text)
    written = {relative.as_posix() for relative in pages}
    stale = sorted(earlier - written)
    for relative in stale:
        (out / relative).unlink(missing_ok=True)
    write_json(manifest, sorted(written))
    if stale:
        say(f"report: removed {len(stale)} page(s) of an earlier build that this one did not write: {', '.join(stale)}")


def _pages_listed(manifest: Path) -> set[str]:
    """The pages an earlier build listed (none when there is no list, or it is unreadable)."""
    try:
        listed = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return (
        {entry for entry in listed if isinstance(entry, str) and not entry.startswith(("/", ".."))}
        if isinstance(listed, list)
        else set()
    )


__all__ = ["Site", "build_site"]
