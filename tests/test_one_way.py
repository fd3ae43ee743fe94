"""One way through (issue 64 item 2): the run records what the pages show, the report builds from results files
alone. A site rebuilt from results.json, with the documents gone from disk, equals the one the run built."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import checks.documents.sources as sources_module
from checks.engine.report import main as report_main
from checks.results import read_results
from checks.settings import config
from tests.benchmarks.research_repository import write_repository

PROBLEM = "\nHalf of one is $\\frac{1}{2$, written without its closing brace.\n"
"""A formula no renderer can set: the document page and its errata show it."""
ROOT = Path(__file__).resolve().parents[1]
BUILT = re.compile(r"Built \S+ from")
"""The footer's build time: the one thing two builds of the same results may tell apart."""


@pytest.fixture
def repository(tmp_path, monkeypatch) -> Path:
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    write_repository(tmp_path, claims=1)
    with (tmp_path / "docs" / "paper.md").open("a", encoding="utf-8") as paper:
        paper.write(PROBLEM)
    earlier = config.chosen()
    config.use(tmp_path)
    yield tmp_path
    config.restore(earlier)


def _pages(site: Path) -> dict[str, str]:
    return {
        str(path.relative_to(site)): BUILT.sub("Built … from", path.read_text(encoding="utf-8"))
        for path in sorted(site.rglob("*"))
        if path.is_file() and path.suffix in (".html", ".md", ".csv", ".json") and path.name != "results.json"
    }


def test_a_site_rebuilt_from_results_alone_equals_the_runs(repository):
    ran = repository / "reports" / "html"
    assert report_main(["--out", str(ran)]) == 0
    results = read_results(ran / "results.json")
    (reading,) = results.documents
    assert reading.name == "paper.md" and "$\\frac{1}{2$" in reading.text
    assert [f.problems[0].kind for f in reading.formulas if f.problems] == ["does not render"]
    shutil.rmtree(repository / "docs")  # the report may read nothing but the results
    rebuilt = repository / "rebuilt"
    rebuilt.mkdir()
    for raw in ("results.json", "junit.xml"):  # the raw files the index links to, beside the pages
        shutil.copy(ran / raw, rebuilt / raw)
    command = [sys.executable, "-m", "checks", "report", "--from", str(rebuilt / "results.json"), "--out", str(rebuilt)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    built = subprocess.run(command, cwd=repository, env=environment, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr  # a fresh process: nothing read before is remembered
    before, after = _pages(ran), _pages(rebuilt)
    assert "does not render" in before["documents/paper.md.html"] and "does not render" in before["errata/paper.md.md"]
    assert after == before


def test_results_written_before_documents_were_recorded_read_them_from_the_sources(repository):
    """The report command reads the documents itself only for a results file that lacks them."""
    ran = repository / "reports" / "html"
    assert report_main(["--out", str(ran)]) == 0
    document = (ran / "results.json").read_text(encoding="utf-8")
    older = repository / "older.json"
    older.write_text(re.sub(r',\s*"documents": \[.*\]\s*}\s*$', "}", document, flags=re.DOTALL), encoding="utf-8")
    assert not read_results(older).documents
    assert report_main(["--from", str(older), "--out", str(repository / "older")]) == 0
    assert "does not render" in (repository / "older" / "documents" / "paper.md.html").read_text(encoding="utf-8")


def test_the_readings_are_kept_between_runs_until_a_document_or_the_tool_changes(tmp_path, monkeypatch):
    """Reading the lessons takes about a second, which every run in a fresh process paid again."""
    from checks.engine import readings

    read: list[int] = []
    real = readings.read_documents
    monkeypatch.setattr(readings, "read_documents", lambda: read.append(1) or real())
    monkeypatch.setenv(readings.CACHE_VARIABLE, str(tmp_path / "cache"))
    sources = tmp_path / "docs"
    sources.mkdir()
    (sources / "post.md").write_text("# A post\n\n" + PROBLEM, encoding="utf-8")
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(sources))
    first = readings.documents_read()
    assert readings.documents_read() == first and len(read) == 1, "the second run read the cache"
    (sources / "post.md").write_text("# A post, edited\n\n" + PROBLEM, encoding="utf-8")
    sources_module._document_text.cache_clear()  # the text this process read before (a new run is a new process)
    assert readings.documents_read()[0].title == "A post, edited" and len(read) == 2
    for kept in (tmp_path / "cache").iterdir():
        kept.write_text("{not json", encoding="utf-8")
    assert readings.documents_read()[0].title == "A post, edited" and len(read) == 3, "a broken cache is read past"
