"""Load a built site in headless Chromium (Playwright) and report what a reviewer would hit.

Every page: no console error, no failed request, no request leaving file://, no script (but the search page's one),
no dialog; every MathML element laid out with a non-zero size; every link between pages
resolving to a file (and to an element, for #fragments); every page reachable from the index.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from reports.chromium import ARGS, CHROMIUM, missing
from reports.search import PAGE as SEARCH_PAGE

VIEWPORT = {"width": 1400, "height": 900}
PROBE = """() => ({
  math: [...document.querySelectorAll('math')].map(m => {
    const r = m.getBoundingClientRect();
    return [r.width, r.height, m instanceof MathMLElement];
  }),
  links: [...document.querySelectorAll('a[href]:not([rel~="external"])')].map(a => a.getAttribute('href')),
  external: [...document.querySelectorAll('a[href][rel~="external"]')].map(a => a.getAttribute('href')),
  ids: [...document.querySelectorAll('[id]')].map(e => e.id),
  scripts: document.querySelectorAll('script').length,
  unlabelled: document.querySelectorAll('img:not([alt]), svg:not([aria-label])').length,
  h1: (document.querySelector('h1') || {textContent: ''}).textContent,
})"""


class BrowserUnavailable(RuntimeError):
    """Chromium or Playwright is missing; the message says how to install it."""


@dataclass
class PageReport:
    path: Path
    errors: list[str] = field(default_factory=list)
    math: list[tuple[float, float, bool]] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    """Links marked rel="external" (a cited work's page): followed only by the reader, never loaded."""
    ids: set[str] = field(default_factory=set)
    scripts: int = 0
    unlabelled: int = 0
    h1: str = ""


@contextmanager
def chromium(color_scheme: str = "light") -> Iterator[Any]:
    """A Playwright browser context on Debian's Chromium; BrowserUnavailable if it cannot start."""
    problem = missing()
    if problem:
        raise BrowserUnavailable(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(ARGS))
        try:
            yield browser.new_context(viewport=VIEWPORT, color_scheme=color_scheme, java_script_enabled=True)
        finally:
            browser.close()


def pages(site: Path) -> list[Path]:
    site = site.resolve()
    return sorted(p for p in site.rglob("*.html") if "screenshots" not in p.relative_to(site).parts)


def crawl(context: Any, site: Path) -> dict[Path, PageReport]:
    """Open every page of the site in one tab and record its problems and structure."""
    page = context.new_page()
    current = [PageReport(site)]

    def note(message: str) -> None:
        current[0].errors.append(message)

    page.on("console", lambda m: m.type == "error" and note(f"console error: {m.text}"))
    page.on("pageerror", lambda e: note(f"page error: {e}"))
    page.on("requestfailed", lambda r: note(f"failed request: {r.url} ({r.failure})"))
    page.on("request", lambda r: _foreign(r.url) and note(f"request leaves the site: {r.url}"))
    page.on("dialog", lambda d: (note(f"dialog opened: {d.message}"), d.dismiss()))
    reports = {}
    try:
        for path in pages(site):
            report = current[0] = PageReport(path)
            page.goto(path.as_uri(), wait_until="load")
            found = page.evaluate(PROBE)
            report.math = [tuple(m) for m in found["math"]]
            report.links, report.external, report.ids = found["links"], found["external"], set(found["ids"])
            report.scripts, report.unlabelled, report.h1 = found["scripts"], found["unlabelled"], found["h1"]
            reports[path] = report
    finally:
        page.close()
    return reports


def problems(reports: dict[Path, PageReport], site: Path) -> list[str]:
    """Everything wrong across the crawled pages, one line each."""
    return load_problems(reports, site) + navigation_problems(reports, site)


def load_problems(reports: dict[Path, PageReport], site: Path) -> list[str]:
    """Console errors, failed or off-site requests, scripts, unlabelled images, MathML without layout."""
    site = site.resolve()
    found = []
    for path, report in reports.items():
        name = path.relative_to(site).as_posix()
        found += [f"{name}: {e}" for e in report.errors]
        allowed = 1 if name == SEARCH_PAGE else 0
        if report.scripts > allowed:
            found.append(f"{name}: {report.scripts} <script> element(s), {allowed} allowed")
        if report.unlabelled:
            found.append(f"{name}: {report.unlabelled} image(s) without alt text or aria-label")
        for n, (width, height, is_math) in enumerate(report.math):
            if not is_math or width <= 0 or height <= 0:
                found.append(f"{name}: <math> #{n + 1} has no layout ({width}×{height}, MathML element: {is_math})")
    return found


def navigation_problems(reports: dict[Path, PageReport], site: Path) -> list[str]:
    """Links that resolve to no file or no element, and pages the index does not lead to."""
    site = site.resolve()
    found = []
    for path, report in reports.items():
        found += [f"{path.relative_to(site).as_posix()}: {p}" for p in link_problems(path, report, reports)]
    reached = reachable(site / "index.html", reports)
    found += [f"{p.relative_to(site).as_posix()}: not reachable from index.html" for p in reports if p not in reached]
    return found


def link_problems(path: Path, report: PageReport, reports: dict[Path, PageReport]) -> list[str]:
    found = []
    for href in report.links:
        target, fragment = _target(path, href)
        if target is None:
            found.append(f"link {href!r} leaves the site")
        elif not target.exists():
            found.append(f"link {href!r}: no file {target}")
        elif fragment and target in reports and fragment not in reports[target].ids:
            found.append(f"link {href!r}: no element with id {fragment!r}")
    found += [f"external link {href!r} is not an https address" for href in report.external if not _https(href)]
    return found


def reachable(start: Path, reports: dict[Path, PageReport]) -> set[Path]:
    seen: set[Path] = set()
    todo = [start.resolve()]
    resolved = {p.resolve(): p for p in reports}
    while todo:
        current = todo.pop()
        if current in seen or current not in resolved:
            continue
        seen.add(current)
        for href in reports[resolved[current]].links:
            target, _ = _target(resolved[current], href)
            if target is not None:
                todo.append(target.resolve())
    return {resolved[p] for p in seen}


def screenshot(context: Any, path: Path, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    try:
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.screenshot(path=str(out), full_page=True)
    finally:
        page.close()
    return out


def check_site(site: Path, screenshots: Path, claim: str | None = None) -> list[str]:
    """Crawl the whole site, save index and one claim page as screenshots (light, and the index dark)."""
    site = site.resolve()
    with chromium() as context:
        reports = crawl(context, site)
        found = problems(reports, site)
        claims = sorted((site / "claims").glob("*.html"))
        chosen = site / "claims" / f"{claim}.html" if claim else _richest(claims, reports)
        screenshot(context, site / "index.html", screenshots / "index.png")
        if chosen is not None:
            screenshot(context, chosen, screenshots / "claim.png")
    with chromium("dark") as context:
        screenshot(context, site / "index.html", screenshots / "index-dark.png")
    return found


def _richest(claims: list[Path], reports: dict[Path, PageReport]) -> Path | None:
    """The claim page with the most MathML, for the screenshot."""
    return max(claims, key=lambda p: len(reports[p].math) if p in reports else 0, default=None)


def _target(page: Path, href: str) -> tuple[Path | None, str]:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return (Path(unquote(parts.path)), parts.fragment) if parts.scheme == "file" else (None, "")
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
    return target, unquote(parts.fragment)


def _https(href: str) -> bool:
    parts = urlsplit(href)
    return parts.scheme == "https" and bool(parts.netloc)


def _foreign(url: str) -> bool:
    return not url.startswith(("file:", "data:", "about:"))


def printed(context: Any, path: Path, out: Path) -> tuple[Path, int]:
    """Print ``path`` to PDF (A4, the site's print stylesheet) at ``out``; the widest overflow of any element past
    the printed page's width in CSS pixels (0: no column cut)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    try:
        page.set_viewport_size({"width": 718, "height": 1000})  # A4 less 2 × 12 mm margins, at 96 dpi
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.emulate_media(media="print")
        overflow = page.evaluate(
            """() => {
                const width = document.documentElement.clientWidth;
                let worst = document.documentElement.scrollWidth - width;
                for (const element of document.querySelectorAll('table, pre, math, figure, svg, img')) {
                    const box = element.getBoundingClientRect();
                    if (box.width > 0) worst = Math.max(worst, Math.ceil(box.right - width));
                }
                return Math.max(worst, 0);
            }"""
        )
        page.pdf(path=str(out), format="A4", margin={"top": "12mm", "bottom": "12mm", "left": "12mm", "right": "12mm"})
    finally:
        page.close()
    return out, int(overflow)
