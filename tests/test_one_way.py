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

from checks.engine.report import main as report_main
from checks.results import read_results
from checks.settings import config

POST = """# A post

## Results

Half of one is $\\frac{1}{2$, written without its closing brace.

The identity holds for every real x.
"""
CLAIM = """
import sympy as sp

from checks import Claim, Document

claim = Claim(
    id="post.identity",
    title="t",
    statement="s",
    sources=[Document("post.md").quote("Results", "The identity holds for every real x.")],
    expect="proved",
)


@claim.proof
def _(p):
    x = sp.Symbol("x", real=True)
    p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
"""
ROOT = Path(__file__).resolve().parents[1]
BUILT = re.compile(r"Built \S+ from")
"""The footer's build time: the one thing two builds of the same results may tell apart."""


@pytest.fixture
def repository(pytester, monkeypatch) -> Path:
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    pytester.makepyprojecttoml('[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nprofile = "dev"\n')
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.mkdir("docs").joinpath("post.md").write_text(POST, encoding="utf-8")
    pytester.mkdir("claims").joinpath("identity.py").write_text(CLAIM, encoding="utf-8")
    earlier = config.chosen()
    config.use(pytester.path)
    yield pytester.path
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
    assert reading.name == "post.md" and "$\\frac{1}{2$" in reading.text
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
    assert "does not render" in before["documents/post.md.html"] and "does not render" in before["errata/post.md.md"]
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
    assert "does not render" in (repository / "older" / "documents" / "post.md.html").read_text(encoding="utf-8")
