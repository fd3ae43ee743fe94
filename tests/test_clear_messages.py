"""One clear message, never a raw traceback: each case found by trying the project as a new user would.

Each case keeps the rest of the catalog running and loses nothing previous.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import checks.engine.report as reports_cli
from checks.engine import cli
from checks.engine.cli import main as checks_main
from checks.results import Figure, read_results, write_results
from checks.results.records import Series
from checks.written.reading import read_documents
from reports import views
from reports.build import build_site
from tests.records import claim_record, environment

ROOT = Path(__file__).resolve().parent.parent
QUOTE = 'Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")'
GOOD = f"""
from checks import Claim, Quote

claim = Claim(id="clear.good", title="t", statement="s", expect="holds", sources=[{QUOTE}])

@claim.probe
def _(r):
    r.measure("x", 1)
"""


def _claims(pytester: pytest.Pytester, **files: str) -> None:
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    folder = pytester.mkdir("claims")
    for name, body in {"good": GOOD, **files}.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(body))


def test_a_proof_that_exits_is_a_broken_claim_not_a_vanished_one(pytester):
    _claims(
        pytester,
        exits=f"""
        from checks import Claim, Quote

        claim = Claim(id="clear.exits", title="t", statement="s", expect="proved", sources=[{QUOTE}])

        @claim.proof
        def leaves(p):
            raise SystemExit(3)
        """,
    )
    pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider").assert_outcomes(
        passed=1, failed=1
    )
    records = {c.id: c for c in read_results(pytester.path / "r.json").claims}
    assert records["clear.exits"].observed == "broken" and records["clear.good"].observed == "holds"
    assert records["clear.exits"].errors[0].startswith("proof leaves: SystemExit: 3")


def test_a_claim_file_that_hangs_at_import_stops_at_the_time_limit(pytester, monkeypatch):
    monkeypatch.setenv("THEORY_CLAIMS_TIME_LIMIT", "1")
    _claims(pytester, hangs="import time\nwhile True:\n    time.sleep(0.05)\n", exits_at_import="raise SystemExit(2)\n")
    outcome = pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1, failed=2)
    errors = {c.id.rsplit("/", 1)[-1]: c.errors[0] for c in read_results(pytester.path / "r.json").claims if c.errors}
    assert errors["hangs.py"] == (
        "ClaimFileError: importing it ran past the claims' time limit of 1 s "
        "(environment variable THEORY_CLAIMS_TIME_LIMIT)"
    )
    assert errors["exits_at_import.py"] == "ClaimFileError: it called exit (2) while it was imported"


def test_a_claim_file_with_a_syntax_error_named_on_the_command_line_is_one_failure(pytester):
    _claims(pytester, broken="claim = Claim(id=\n")
    outcome = pytester.runpytest_inprocess("claims/broken.py", "--results", "r.json", "-p", "no:cacheprovider")
    outcome.assert_outcomes(failed=1)
    text = outcome.stdout.str()
    assert "ERROR collecting" not in text and "Traceback" not in text
    assert "claims/broken.py: SyntaxError: '(' was never closed" in text


def test_a_time_limit_that_is_not_a_number_is_one_usage_error(pytester, monkeypatch):
    _claims(pytester)
    monkeypatch.setenv("THEORY_CLAIMS_TIME_LIMIT", "abc")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    outcome = pytester.runpytest_subprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    assert [line for line in outcome.stderr.lines if line] == [
        "ERROR: THEORY_CLAIMS_TIME_LIMIT='abc' is not a number of seconds"
    ]
    assert not (pytester.path / "r.json").exists()


def test_a_figure_with_huge_values_says_it_is_not_drawn():
    huge = Figure("f", "lines", "t", "a", series={"s": Series(y=[1e308, -1e308], x=[0, 1])})
    drawn = views.drawing(huge)
    assert drawn.markup is None and drawn.problem == "a value of magnitude 1e+308 is too large to draw (at most 1e+300)"


def test_a_malformed_mutation_file_is_left_out_saying_why(tmp_path, capsys):
    results = tmp_path / "r.json"
    write_results(results, [claim_record("clear.one")], environment())
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "mutants.json").write_text(json.dumps({"killed": "many", "mutants": [{}]}))
    build_site([results], tmp_path / "html", documents=read_documents)
    said = capsys.readouterr().out
    assert "warning:" in said and "mutants.json" in said and "leaves the mutation score out" in said
    assert "The mutation results could not be read" in (tmp_path / "html" / "implementations.html").read_text()


def test_ctrl_c_ends_each_command_with_one_line(tmp_path, capsys, monkeypatch):
    def interrupt(*_args, **_options):
        raise KeyboardInterrupt

    monkeypatch.setattr(reports_cli, "run_claims", interrupt)
    assert reports_cli.main(["--out", str(tmp_path / "html")]) == 130
    assert capsys.readouterr().err == "interrupted: the previous results and report are kept\n"
    monkeypatch.setattr(cli, "list_claims", interrupt)
    assert checks_main(["list", "--results", str(tmp_path / "r.json")]) == 130


@pytest.mark.parametrize(("claims", "reader"), [(2000, "head -1"), (3, "true")])
def test_listing_into_a_closed_pipe_stops_quietly(tmp_path, claims, reader):
    """Also when the whole listing sits in stdout's buffer until the end (CI runs without PYTHONUNBUFFERED)."""
    results = tmp_path / "r.json"
    write_results(results, [claim_record(f"clear.c{n}") for n in range(claims)], environment())
    pipeline = f"{sys.executable} -m checks list --results {results} | {reader}"
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    done = subprocess.run(pipeline, shell=True, cwd=ROOT, capture_output=True, text=True, check=False, env=buffered)
    assert done.stderr == ""
    assert done.stdout.startswith(str(results)) or reader == "true"


@pytest.mark.parametrize(
    ("claim_id", "extra", "message"),
    [
        ("pe.trailing-newline\n", (), "claim id 'pe.trailing-newline\\n' must look like 'pe.constant-norm'"),
        ("pe.empty-quote", ("--quote", ""), "--quote is empty"),
        ("pe.surrogate", ("--title", "bad \udcff title"), "cannot be written as UTF-8 (surrogates not allowed"),
    ],
    ids=["newline-in-id", "empty-quote", "lone-surrogate"],
)
def test_new_refuses_bad_input_with_one_line_and_writes_nothing(tmp_path, capsys, claim_id, extra, message):
    arguments = ["new", claim_id, "--document", "002", "--section", "5. k칸 이동 = 회전 행렬"]
    arguments += ["--quote", "M_k는 k에만 달려 있습니다.", *extra, "--claims-dir", str(tmp_path)]
    assert checks_main(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == [], "nothing written: a retry is not blocked"
