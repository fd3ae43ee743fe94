"""Bad input: one clear message naming the file and the fault; the other claims still run; the report still builds.

tests/test_plugin.py already covers a syntax error, a duplicate id across files and a crashing check;
tests/test_report_build.py a missing, non-JSON, other-schema or incomplete results file. This file adds
the rest: a missing Claim field, a bad expected verdict, a file with no claim, a failing import, a quote
that is not in its document, a proof and a probe that raise, a check and a proof that hang (the per-claim
time limit), one id declared twice in one file, truncated, empty and binary results files, and an
interrupted run.
"""

from __future__ import annotations

import json
import os
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from checks.documents.sources import Quote
from checks.engine import limits
from checks.engine.limits import BACKSTOP, TIME_LIMIT_ENV, load_stretch
from checks.engine.report import main as reports_main
from checks.evidence.probe import ProbeRecord
from checks.results import SCHEMA_VERSION as SCHEMA
from checks.results import ResultsError, read_results, write_results
from checks.written.reading import read_documents
from reports.build import build_site
from reports.model import slug
from tests.records import claim_record, environment

HEADER = textwrap.dedent(
    """
    import time

    import sympy as sp
    from hypothesis import strategies as st
    from checks import given
    from checks import Claim, Quote

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    x = sp.Symbol("x", real=True)
    """
)

GOOD = """
    claim = Claim(id="bad.good-neighbour", title="t", statement="s", sources=[QUOTE], expect="proved")

    @claim.proof
    def _(p):
        p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
"""

BAD_FILES = {
    "missing_title": """
        claim = Claim(id="bad.missing-title", statement="s", sources=[QUOTE], expect="proved")
    """,
    "unknown_verdict": """
        claim = Claim(id="bad.unknown-verdict", title="t", statement="s", sources=[QUOTE], expect="true")
    """,
    "no_claim": """
        value = 1
    """,
    "failing_import": """
        import module_that_does_not_exist
    """,
    "misquoted": """
        claim = Claim(
            id="bad.misquoted", title="t", statement="s", expect="holds",
            sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "This sentence is in no document.")],
        )

        @claim.probe
        def _(r):
            r.measure("x", 1)
    """,
    "raising_proof": """
        claim = Claim(id="bad.raising-proof", title="t", statement="s", sources=[QUOTE], expect="proved")

        @claim.proof
        def shift_identity(p):
            raise ZeroDivisionError("the proof divides by zero")
    """,
    "raising_probe": """
        claim = Claim(id="bad.raising-probe", title="t", statement="s", sources=[QUOTE], expect="holds")

        @claim.probe
        def boundary(r):
            raise IndexError("the probe reads past its table")
    """,
    "hanging_check": """
        claim = Claim(id="bad.hanging-check", title="t", statement="s", sources=[QUOTE], expect="holds")

        @claim.check(dtypes=("float64",), backends=("numpy",))
        @given(v=st.floats(0, 1))
        def never_returns(t, v):
            while True:
                try:
                    time.sleep(0.01)
                except Exception:  # a check that swallows errors still stops
                    pass

        @claim.probe
        def never_reached(r):
            r.measure("x", 1)
    """,
    "hanging_proof": """
        claim = Claim(id="bad.hanging-proof", title="t", statement="s", sources=[QUOTE], expect="proved")

        @claim.proof
        def endless(p):
            while True:
                sp.expand((x + 1) ** 3)
    """,
    "twice_in_one_file": """
        first = Claim(id="bad.twice", title="t", statement="s", sources=[QUOTE], expect="holds")
        second = Claim(id="bad.twice", title="t", statement="s", sources=[QUOTE], expect="holds")

        @first.probe
        def _(r):
            r.measure("x", 1)
    """,
}
TIME_LIMIT = 1.0
GUARD = 2
"""How many times its backstop a stopped claim may take in all (it stops just past the limit; a hang runs on)."""


_RUNS: list[tuple[pytest.RunResult, dict[str, Any], Path]] = []


@pytest.fixture
def bad_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """One pytest run over a good claim and every bad file: the outcome, the records by id, the results file.

    Run once per process (two claims wait out the time limit), though pytester is per test.
    """
    if not _RUNS:
        monkeypatch.setenv(TIME_LIMIT_ENV, str(TIME_LIMIT))
        pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
        claims = pytester.mkdir("claims")
        (claims / "good_neighbour.py").write_text(HEADER + textwrap.dedent(GOOD))
        for name, body in BAD_FILES.items():
            (claims / f"{name}.py").write_text(HEADER + textwrap.dedent(body))
        results = tmp_path_factory.mktemp("bad-run") / "results.json"
        outcome = pytester.runpytest_inprocess("claims", "--results", str(results), "-p", "no:cacheprovider")
        _RUNS.append((outcome, {c.id: c for c in read_results(results).claims}, results))
    return _RUNS[0]


def _file_error(claims: dict, name: str) -> str:
    [record] = [r for key, r in claims.items() if key.startswith("file:") and key.endswith(f"/{name}.py")]
    assert record.observed == "broken"
    return record.errors[0]


def test_the_good_claim_still_runs_and_every_bad_one_fails(bad_run):
    outcome, claims, _ = bad_run
    assert claims["bad.good-neighbour"].observed == "proved"
    outcome.assert_outcomes(passed=2, failed=len(BAD_FILES))  # the good claim and the first bad.twice


def test_a_missing_field_names_the_field(bad_run):
    _, claims, _ = bad_run
    error = _file_error(claims, "missing_title")
    assert error == "TypeError: Claim.__init__() missing 1 required positional argument: 'title'"


def test_a_bad_expected_verdict_names_the_value(bad_run):
    _, claims, _ = bad_run
    assert _file_error(claims, "unknown_verdict") == (
        "ValueError: 'true' is not a valid Verdict; "
        "expect one of: proved, holds, qualified, refuted, broken, out-of-scope"
    )


def test_a_file_without_a_claim_or_with_a_failing_import(bad_run):
    _, claims, _ = bad_run
    assert "defines no Claim" in _file_error(claims, "no_claim")
    assert _file_error(claims, "failing_import") == "ModuleNotFoundError: No module named 'module_that_does_not_exist'"


def test_a_quote_not_in_its_document_is_broken_naming_document_and_text(bad_run):
    _, claims, _ = bad_run
    record = claims["bad.misquoted"]
    assert record.observed == "broken" and record.origin.endswith("misquoted.py")
    [error] = record.errors
    assert error.startswith(
        "sources: ValueError: quote not found verbatim in 002_86fa32f25d4c4c54.txt (5. k칸 이동 = 회전 행렬): "
    )
    assert "'This sentence is in no document.'" in error


@pytest.mark.parametrize(
    ("claim_id", "start", "where"),
    [
        ("bad.raising-proof", "proof shift_identity: ZeroDivisionError: the proof divides by zero", "raising_proof.py"),
        ("bad.raising-probe", "probe boundary: IndexError: the probe reads past its table", "raising_probe.py"),
    ],
)
def test_a_raising_proof_or_probe_is_broken_with_its_line(bad_run, claim_id, start, where):
    _, claims, _ = bad_run
    [error] = claims[claim_id].errors
    assert claims[claim_id].observed == "broken"
    assert error.startswith(start) and f"{where}:" in error


@pytest.mark.parametrize(
    ("claim_id", "step"), [("bad.hanging-check", "check never_returns"), ("bad.hanging-proof", "proof endless")]
)
def test_a_hanging_claim_stops_at_the_time_limit(bad_run, claim_id, step):
    _, claims, _ = bad_run
    record = claims[claim_id]
    assert record.observed == "broken"
    [error] = record.errors
    said = f"{step}: TimeLimitExceeded: claim {claim_id} ran past its time limit of {TIME_LIMIT:g} s "
    said += f"(environment variable {TIME_LIMIT_ENV})"
    assert error.startswith(said) and error.endswith("; the rest of the claim did not run")
    if claim_id == "bad.hanging-check":  # it sleeps: its CPU time hardly grows, the wall-clock backstop stops it
        assert "waiting: " in error and "by the wall clock" in error, error
    # a guard, not a budget: stopped near the limit (the backstop, stretched by the load), not after the hang's minutes
    assert TIME_LIMIT <= record.seconds < GUARD * BACKSTOP * TIME_LIMIT * max(1.0, load_stretch())
    assert record.of(ProbeRecord) == [], "nothing after the hang ran"


def test_one_id_twice_in_one_file_is_broken_once(bad_run):
    _, claims, _ = bad_run
    assert claims["bad.twice"].observed == "holds", "the first declaration still runs"
    error = _file_error(claims, "twice_in_one_file")
    assert error.startswith("claim id 'bad.twice' is also declared in ") and error.endswith("twice_in_one_file.py")


def test_the_report_builds_with_every_bad_claim_marked_broken(bad_run, tmp_path):
    _, claims, results = bad_run
    index = build_site([results], tmp_path, documents=read_documents).read_text()
    broken = {key: record for key, record in claims.items() if record.observed == "broken"}
    assert len(broken) == len(BAD_FILES)
    for key, record in broken.items():
        page = (tmp_path / "claims" / f"{slug(key)}.html").read_text()
        assert "broken" in page and str(escape(record.errors[0].split(": ", 1)[-1][:40])) in page, key
        assert f'id="row-{slug(key)}"' in index
    assert claims["bad.good-neighbour"].observed == "proved" and "bad.good-neighbour" in index


def test_a_time_limit_that_is_not_a_number_is_named(monkeypatch):
    from checks.engine.limits import time_limit

    monkeypatch.setenv(TIME_LIMIT_ENV, "two minutes")
    with pytest.raises(ValueError, match="THEORY_CLAIMS_TIME_LIMIT='two minutes' is not a number of seconds"):
        time_limit()
    monkeypatch.setenv(TIME_LIMIT_ENV, "0")
    assert time_limit() == 0


def test_the_default_time_limit_scales_with_the_examples_a_profile_tries(monkeypatch):
    from types import SimpleNamespace

    from checks.engine.limits import DEFAULT_TIME_LIMIT, time_limit

    monkeypatch.delenv(TIME_LIMIT_ENV, raising=False)
    for examples, limit in [(15, DEFAULT_TIME_LIMIT), (40, DEFAULT_TIME_LIMIT), (10_000, 250 * DEFAULT_TIME_LIMIT)]:
        monkeypatch.setattr(limits, "settings", lambda examples=examples: SimpleNamespace(max_examples=examples))
        assert time_limit() == limit


# Results files the report builder refuses: exit 2, one line naming the file and the fault.


def _real_results(tmp_path: Path) -> Path:
    path = tmp_path / "good.json"
    write_results(path, [claim_record("bad.record")], environment(date="today"))
    return path


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b[: b.index(b"\n", len(b) // 2)], "corrupt results file (Expecting"),
        (lambda b: b"", "corrupt results file (Expecting value: line 1 column 1 (char 0))"),
        (lambda b: b"\xff\xfe\x00garbage", "corrupt results file ('utf-8' codec can't decode byte 0xff"),
        (lambda b: b"[1, 2]", "schema 'list' is not"),
    ],
    ids=["truncated", "empty", "binary", "a-list"],
)
def test_a_damaged_results_file_exits_2_with_one_line(tmp_path, capsys, damage, message):
    path = _real_results(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    assert reports_main(["--from", str(path), "--out", str(tmp_path / "html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "html").exists()


def test_a_citation_linking_to_a_script_is_refused_with_one_line(tmp_path, capsys):
    path = _real_results(tmp_path)
    document = json.loads(path.read_text())
    citation = {"title": "t", "authors": "a", "year": 2021, "section": "s", "text": "x", "url": "javascript:alert(1)"}
    document["claims"][0]["citations"] = [citation]
    path.write_text(json.dumps(document))
    assert reports_main(["--from", str(path), "--out", str(tmp_path / "html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: ") and "must be an https address" in err and err.count("\n") == 1, err
    assert not (tmp_path / "html").exists()


def test_a_folder_given_as_results_file_exits_2(tmp_path, capsys):
    assert reports_main(["--from", str(tmp_path), "--out", str(tmp_path / "html")]) == 2
    assert "error: " in capsys.readouterr().err


def test_a_claim_record_without_an_id_is_refused(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"schema": SCHEMA, "environment": {}, "claims": [{"title": "no id"}, 3]}))
    with pytest.raises(ResultsError):
        build_site([path], tmp_path / "html", documents=read_documents)


# Interrupted runs: the previous results file (and the report built from it) stay as they were.


class Poison:
    """A value whose serialization is interrupted."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __str__(self) -> str:
        raise self.error


@pytest.mark.parametrize("error", [KeyboardInterrupt(), RuntimeError("serializer crashed")], ids=type)
def test_an_interrupted_write_keeps_the_previous_results_and_report(tmp_path, error):
    results = _real_results(tmp_path)
    site = tmp_path / "html"
    build_site([results], site, documents=read_documents)
    before = {p: p.read_bytes() for p in [results, *site.rglob("*.html")]}
    with pytest.raises(type(error)):
        write_results(results, [claim_record("bad.poisoned", title=Poison(error))], environment(date="later"))
    assert {p: p.read_bytes() for p in [results, *site.rglob("*.html")]} == before
    assert sorted(os.listdir(tmp_path)) == ["good.json", "html"], "no temporary file is left behind"
    assert read_results(results).claims[0].id == "bad.record"


def test_an_interrupted_pytest_run_keeps_the_previous_results(pytester: pytest.Pytester):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    (claims / "good_neighbour.py").write_text(HEADER + textwrap.dedent(GOOD))
    results = pytester.path / "results.json"
    pytester.runpytest_inprocess("claims", "--results", str(results), "-p", "no:cacheprovider")
    before = results.read_bytes()
    (claims / "zz_interrupted.py").write_text(
        HEADER
        + textwrap.dedent(
            """
            claim = Claim(id="bad.interrupted", title="t", statement="s", sources=[QUOTE], expect="holds")

            @claim.probe
            def _(r):
                raise KeyboardInterrupt
            """
        )
    )
    (claims / "aa_first.py").write_text(HEADER + textwrap.dedent(GOOD).replace("bad.good-neighbour", "bad.first"))
    interrupted = pytester.runpytest_inprocess(
        "claims", "--results", str(results), "-p", "no:cacheprovider", no_reraise_ctrlc=True
    )
    assert interrupted.ret == pytest.ExitCode.INTERRUPTED
    assert results.read_bytes() == before


# Documents by name only: a results file cannot make the report publish a file from elsewhere.


@pytest.mark.parametrize("name", ["../../../../tmp/secret.txt", "/tmp/secret.txt", "secret.bin"])
def test_a_record_naming_a_document_outside_sources_is_refused_and_publishes_nothing(tmp_path, capsys, name):
    secret = Path("/tmp/secret.txt")
    secret.write_text("the first line of a local file\n", encoding="utf-8")
    record = claim_record("bad.traversal", sources=[Quote(name, "§1", "the first line")])
    results = tmp_path / "results.json"
    write_results(results, [record], environment())
    assert reports_main(["--from", str(results), "--out", str(tmp_path / "html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"claim 'bad.traversal' quotes document {name!r}" in err
    assert "not a file of sources/" in err and str(results) in err
    assert not (tmp_path / "html").exists() or not any((tmp_path / "html").rglob("*.html"))


def test_a_document_of_sources_that_is_not_text_is_refused_with_its_name(tmp_path):
    (tmp_path / "000_binary.txt").write_bytes(b"\xff\xfe\x00binary")
    (reading,) = read_documents(tmp_path)
    said = rf"sources/000_binary.txt: cannot be shown \({tmp_path}/000_binary.txt is not UTF-8"
    assert re.match(said, reading.problem) and not reading.text
    results = tmp_path / "results.json"
    write_results(results, [claim_record("a.claim", sources=[])], environment(), documents=[reading])
    with pytest.raises(ResultsError, match=said):
        build_site([results], tmp_path / "html")


def test_a_quote_names_a_document_not_a_path():
    with pytest.raises(FileNotFoundError, match=r"no document '\.\./sources/000_1100ff0056b332e7\.txt'"):
        Quote("../sources/000_1100ff0056b332e7.txt", "§1", "x").verify()
