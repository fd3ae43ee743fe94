"""Results never mix: one report run at a time per folder, subset runs merged not written over, pages atomic."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import checks.engine.report as reports_cli
from checks.results import read_results, write_results
from checks.written.reading import read_documents
from reports.build import MANIFEST, build_site
from tests.records import claim_record, environment

ROOT = Path(__file__).resolve().parent.parent
CLAIM = textwrap.dedent(
    """
    from checks import Claim, Quote

    claim = Claim(id="integrity.{name}", title="t", statement="s", expect="holds",
                  sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")])

    @claim.probe
    def _(r):
        r.measure("x", 1)
    """
)


@pytest.fixture
def catalog(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    for name in ("one", "two", "three"):
        (claims / f"{name}.py").write_text(CLAIM.format(name=name))
    return pytester


def _run(pytester: pytest.Pytester, *arguments: str) -> pytest.RunResult:
    return pytester.runpytest_inprocess(*arguments, "--results", "r.json", "-p", "no:cacheprovider")


def test_a_run_of_one_claim_leaves_the_catalogs_results_whole(catalog):
    _run(catalog, "claims").assert_outcomes(passed=3)
    whole = read_results(catalog.path / "r.json")
    assert len(whole.claims) == 3 and whole.reran == []
    one = _run(catalog, "claims", "-k", "integrity.two")
    one.assert_outcomes(passed=1, deselected=2)
    merged = read_results(catalog.path / "r.json")
    assert [c.id for c in merged.claims] == ["integrity.one", "integrity.three", "integrity.two"]
    assert merged.reran == ["integrity.two"], "the file says which claims the last run re-ran"
    assert {c.id: c.date for c in merged.claims}["integrity.one"] == {c.id: c.date for c in whole.claims}[
        "integrity.one"
    ]
    assert any("merged in" in line for line in one.outlines)


def test_a_run_of_one_file_merges_too_and_a_full_run_writes_afresh(catalog):
    _run(catalog, "claims").assert_outcomes(passed=3)
    _run(catalog, "claims/one.py").assert_outcomes(passed=1)
    assert len(read_results(catalog.path / "r.json").claims) == 3
    _run(catalog, "claims").assert_outcomes(passed=3)
    assert read_results(catalog.path / "r.json").reran == []


def test_a_partial_run_beside_an_unreadable_file_goes_beside_it(catalog):
    (catalog.path / "r.json").write_text("{damaged")
    _run(catalog, "claims", "-k", "integrity.one").assert_outcomes(passed=1, deselected=2)
    assert (catalog.path / "r.json").read_text() == "{damaged", "the damaged file is left as it was"
    assert [c.id for c in read_results(catalog.path / "r-partial.json").claims] == ["integrity.one"]


def test_a_build_keeps_pages_it_did_not_write_and_says_which_it_removes(tmp_path, capsys):
    out = tmp_path / "html"
    (out / "claims").mkdir(parents=True)
    foreign = out / "claims" / "someone-elses.html"
    foreign.write_text("<p>kept</p>")
    results = tmp_path / "r.json"
    write_results(results, [claim_record("keep.a"), claim_record("keep.b")], environment())
    build_site([results], out, documents=read_documents)
    write_results(results, [claim_record("keep.a")], environment())
    build_site([results], out, documents=read_documents)
    assert foreign.read_text() == "<p>kept</p>" and not (out / "claims" / "keep.b.html").exists()
    assert (
        "removed 1 page(s) of an earlier build that this one did not write: claims/keep.b.html"
        in capsys.readouterr().out
    )
    assert "claims/keep.a.html" in (out / MANIFEST).read_text()


def test_two_report_builds_into_one_folder_end_with_a_consistent_site(tmp_path):
    results = tmp_path / "r.json"
    write_results(results, [claim_record(f"both.c{n}") for n in range(30)], environment())
    command = [sys.executable, "-m", "checks", "report", "--from", str(results), "--out", str(tmp_path / "html")]
    runs = [subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    assert [run.wait(timeout=120) for run in runs] == [0, 0]
    index = (tmp_path / "html" / "index.html").read_text()
    linked = set(re.findall(r'href="(claims/[^"#]+\.html)"', index))
    pages = {p.relative_to(tmp_path / "html").as_posix() for p in (tmp_path / "html" / "claims").glob("*.html")}
    assert linked == pages and len(pages) == 30, "no dead link, no orphan page"


def test_junit_is_moved_in_only_when_pytest_finished(tmp_path, monkeypatch):
    """An interrupted pytest child leaves a partial junit.xml in its own folder; OUT keeps the previous one."""
    out = tmp_path / "html"
    out.mkdir()
    (out / "junit.xml").write_text("<previous/>")

    def interrupted(command, **options):
        junit = Path(next(a for a in command if a.startswith("--junitxml=")).split("=", 1)[1])
        junit.write_text("<partial")
        return subprocess.CompletedProcess(command, 2)

    monkeypatch.setattr(reports_cli, "run_pytest", interrupted)
    assert reports_cli.run_claims(out, []) == 2
    assert (out / "junit.xml").read_text() == "<previous/>" and not list(out.glob(".run-*"))


def test_under_xdist_a_run_of_one_claim_is_merged_too(catalog, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}:{catalog.path}")
    arguments = ("--results", "r.json", "-p", "no:cacheprovider", "-n", "2")
    catalog.runpytest_subprocess("claims", *arguments).assert_outcomes(passed=3)
    assert read_results(catalog.path / "r.json").reran == []
    catalog.runpytest_subprocess("claims", "-k", "integrity.one", *arguments).assert_outcomes(passed=1)
    merged = read_results(catalog.path / "r.json")
    assert len(merged.claims) == 3 and merged.reran == ["integrity.one"]
