"""Render results files into a static site: index, one page per claim, one per document."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from checks.results import DEFAULT_RESULTS, MutationResults, read_mutation_results
from reports import formatting, views
from reports.model import Site, document_slug, implementation_matrix, load

OUTPUT = DEFAULT_RESULTS.parent
"""reports/html: the report, beside the results file a run writes by default."""
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
        **views.FILTERS,
    )
    env.globals.update(csp=CSP)
    return env


def build_site(sources: list[Path], out: Path) -> Path:
    """Write the site for the claims in ``sources`` (ResultsError on a bad file); return index.html."""
    site = load(sources)
    infos = views.document_infos()
    by_name = {info.name: info for info in infos}
    env = environment()
    common = {
        "site": site,
        "documents": infos,
        "document_by_name": by_name,
        "generated": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    pages: dict[Path, str] = {}
    for claim in site.claims:
        context = views.claim_page(claim, site, by_name)
        pages[Path("claims") / f"{claim.slug}.html"] = _render(env, "claim.html.j2", root="../", **common, **context)
    coverage = {}
    for info in infos:
        highlighted = views.highlighted(info, site)
        coverage[info.name] = highlighted.coverage if highlighted else None
        context = views.document_page(info, highlighted)
        pages[Path("documents") / f"{info.slug}.html"] = _render(
            env, "document.html.j2", root="../", **common, **context
        )
    names, matrix = implementation_matrix(site)
    mutants = _mutants(out / "mutants.json")
    pages[Path("implementations.html")] = _render(
        env, "implementations.html.j2", root="", names=names, matrix=matrix, mutants=mutants, **common
    )
    extras = [name for name in ("results.json", "junit.xml", "mutants.json") if (out / name).is_file()]
    pages[Path("index.html")] = _render(env, "index.html.j2", root="", coverage=coverage, extras=extras, **common)
    _write(out, pages)
    return out / "index.html"


def _mutants(path: Path) -> MutationResults | None:
    """The mutation run's results (python -m checks.engine.mutation), when the folder has them."""
    return read_mutation_results(path) if path.is_file() else None


def _render(env: Environment, template: str, **context: object) -> str:
    return env.get_template(template).render(**context)


def _write(out: Path, pages: dict[Path, str]) -> None:
    """Write every page, and remove pages a previous build left that this one did not write."""
    for folder in ("claims", "documents"):
        for stale in (out / folder).glob("*.html"):
            if stale.relative_to(out) not in pages:
                stale.unlink()
    for relative, text in pages.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


__all__ = ["OUTPUT", "Site", "build_site"]
