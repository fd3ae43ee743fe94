"""The built site in headless Chromium: clean loads, MathML laid out, links resolve, filters, screenshots.

Needs Debian's Chromium (/usr/bin/chromium) and Playwright; without them these tests FAIL and say
how to install (tox's tests environment and .ci/run install it). Screenshots go to
reports/html/screenshots/ unless THEORY_CLAIMS_SCREENSHOTS names another folder.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from checks.written.reading import read_documents
from reports import browser
from reports.build import build_site
from reports.chromium import missing
from tests.report_fixtures import ESCAPE_ID, ESCAPE_TITLE, write_fixture_results

pytestmark = pytest.mark.needs("torch")

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = Path(os.environ.get("THEORY_CLAIMS_SCREENSHOTS") or ROOT / "reports" / "html" / "screenshots")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("browser")
    cpu, cuda = write_fixture_results(folder / "results")
    build_site([cpu, cuda], folder / "html", documents=read_documents)
    return folder / "html"


@pytest.fixture(scope="module")
def context() -> Iterator[Any]:
    problem = missing()
    if problem:
        pytest.fail(problem, pytrace=False)
    with browser.chromium() as opened:
        yield opened


@pytest.fixture(scope="module")
def crawled(context: Any, site: Path) -> dict[Path, browser.PageReport]:
    return browser.crawl(context, site)


def test_every_page_loads_without_console_errors_or_requests(crawled, site):
    assert len(crawled) >= 9, "index, five claim pages and three document pages"
    assert browser.load_problems(crawled, site) == []


def test_mathml_is_laid_out_with_a_size(crawled, site):
    claim = crawled[(site / "claims" / "pe.constant-norm.html").resolve()]
    assert claim.math, "the proof steps are MathML"
    for report in crawled.values():
        for width, height, is_math in report.math:
            assert is_math and width > 0 and height > 0, report.path


def test_links_between_pages_resolve_and_every_page_is_reachable(crawled, site):
    assert browser.navigation_problems(crawled, site) == []
    index = crawled[(site / "index.html").resolve()]
    assert any(h.startswith("documents/002_86fa32f25d4c4c54.html#q-") for h in index.links)


def test_a_hostile_title_renders_as_text(crawled, site):
    page = crawled[(site / "claims" / f"{ESCAPE_ID}.html").resolve()]
    assert page.h1 == ESCAPE_TITLE
    assert page.scripts == 0 and page.errors == []


def test_filters_work_without_script(context, site):
    page = context.new_page()
    try:
        page.goto((site / "index.html").as_uri())
        rows = page.locator("tr.claim")
        assert sum(rows.nth(i).is_visible() for i in range(rows.count())) == 5
        page.click("label[for=fv-refuted]")
        visible = [rows.nth(i).get_attribute("id") for i in range(rows.count()) if rows.nth(i).is_visible()]
        assert visible == [f"row-{ESCAPE_ID}"]
        page.click("label[for=fv-all]")
        page.click("label[for=fd-000_1100ff0056b332e7]")
        visible = [rows.nth(i).get_attribute("id") for i in range(rows.count()) if rows.nth(i).is_visible()]
        assert visible == ["row-pe.shift-is-rotation", "row-rope.relative-score"]  # the two quoting document 000
    finally:
        page.close()


def test_screenshots_of_index_and_a_claim_page(context, site):
    saved = [
        browser.screenshot(context, site / "index.html", SCREENSHOTS / "index.png"),
        browser.screenshot(context, site / "claims" / "pe.shift-is-rotation.html", SCREENSHOTS / "claim.png"),
        browser.screenshot(context, site / "claims" / f"{ESCAPE_ID}.html", SCREENSHOTS / "claim-figures.png"),
        browser.screenshot(context, site / "documents" / "002_86fa32f25d4c4c54.html", SCREENSHOTS / "document.png"),
    ]
    for path in saved:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_each_documents_errata_section_and_its_downloads_load_in_chromium(context, site):
    """The errata lead each lesson document's page; its Markdown and CSV downloads are there, and the CSV holds
    the rows the table shows."""
    page = context.new_page()
    try:
        for name in ("000_1100ff0056b332e7", "001_53050abb35828e70", "002_86fa32f25d4c4c54"):
            page.goto((site / "documents" / f"{name}.html").as_uri())
            section = page.locator("section.errata")
            assert section.count() == 1 and section.locator("h2").inner_text() == "Errata", name
            first = page.locator("main section").first
            assert first.get_attribute("aria-labelledby") == "errata", f"{name}: the errata come first"
            rows = section.locator("tbody tr").count()
            raw = (site / "errata" / f"{name}.csv").read_text(encoding="utf-8").removeprefix("\ufeff")
            csv_rows = list(csv.DictReader(io.StringIO(raw)))  # a wording may span lines inside its cell
            assert rows == len(csv_rows), name
            markdown = (site / "errata" / f"{name}.md").read_text(encoding="utf-8")
            assert markdown.startswith(f"# 정오표: {name}.txt"), "a Korean document's errata speak Korean"
            for link in section.locator("a[download]").all():
                target = (site / "documents" / link.get_attribute("href")).resolve()
                assert target.is_file(), target
        page.goto((site / "documents" / "002_86fa32f25d4c4c54.html").as_uri())
        text = page.locator("section.errata").inner_text()
        assert "A <b>problem</b> & its markup stay text." in text and "<script>alert(9)</script>" in text
        assert page.locator("section.errata script").count() == 0
    finally:
        page.close()


@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "claims/pe.shift-is-rotation.html",
        "claims/rope.relative-score.html",
        "documents/002_86fa32f25d4c4c54.html",
    ],
    ids=["index", "claim", "long-formulas", "document"],
)
def test_the_index_a_claim_page_and_a_document_print_to_pdf_without_cut_columns(context, site, page):
    pdf, overflow = browser.printed(context, site / page, SCREENSHOTS / "print" / (page.replace("/", "_") + ".pdf"))
    assert overflow == 0, f"{page}: something runs {overflow} px past the printed page"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page") >= 1


def test_the_search_box_filters_claims_and_sentences_offline_under_the_csp(context, site):
    """Typing keeps only the entries holding every word; ?q= fills the box; the script runs under the page's CSP
    (a blocked script would leave the box disabled and log a violation)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        page.goto((site / "search.html").as_uri())
        box, entries = page.locator("#q"), page.locator("#entries > li")
        assert box.is_enabled(), "the script ran"
        total = entries.count()
        assert total > 20 and page.locator("#count").inner_text() == f"{total} entries"
        box.fill("constant-norm")
        visible = page.locator("#entries > li:not([hidden])")
        assert 1 <= visible.count() < total
        assert visible.first.locator("a").get_attribute("href") == "claims/pe.constant-norm.html"
        box.fill("위치와 상관없이")
        hrefs = [a.get_attribute("href") for a in page.locator("#entries > li:not([hidden]) a").all()]
        assert any(h.startswith("documents/002_86fa32f25d4c4c54.html#s-") for h in hrefs), hrefs
        target = next(h for h in hrefs if h.startswith("documents/"))
        assert (site / target.split("#")[0]).is_file()
        page.goto((site / "documents" / target.split("#")[0].split("/")[1]).as_uri() + "#" + target.split("#")[1])
        assert page.locator(f"#{target.split('#')[1]}").count() == 1, "the sentence's anchor exists"
        page.goto((site / "search.html").as_uri() + "?q=zzzz-no-such-word")
        assert page.locator("#count").inner_text() == f"0 of {total} entries match"
        assert errors == []
    finally:
        page.close()


WIDE = ["index.html", "implementations.html", "claims/rope.relative-score.html", "documents/002_86fa32f25d4c4c54.html"]


@pytest.mark.parametrize("page", WIDE)
def test_wide_tables_scroll_inside_the_page_in_a_narrow_window(context, site, page):
    """Issue 61: a wide table ran past the window; it scrolls inside its own box instead, so the page never does."""
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": 700, "height": 768})
        tab.goto((site / page).as_uri())
        overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{page} runs {overflow} px past a 700 px window (half a laptop screen)"
    finally:
        tab.close()
