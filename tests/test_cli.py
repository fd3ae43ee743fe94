"""python -m checks: new (a claim skeleton that passes), list (the last run's verdicts), flake (seeds compared)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks.documents.sources import Quote
from checks.engine.cli import main
from checks.engine.scaffold import claim_path, skeleton
from checks.results import read_results, write_results
from tests.records import claim_record, environment

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = "002_86fa32f25d4c4c54.txt"
SECTION = "5. k칸 이동 = 회전 행렬"
SENTENCE = "M_k는 k에만 달려 있습니다."
RUFF = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))


TITLE = "위치 인코딩 — sin과 cos를 함께 쓰는 이유"
"""The heading document 002's long opening paragraph stands under."""


def _new(claims: Path, claim_id: str, *extra: str, quote: str = SENTENCE, section: str = SECTION) -> int:
    arguments = ["new", claim_id, "--document", "002", "--section", section, "--quote", quote]
    return main([*arguments, *extra, "--claims-dir", str(claims)])


@pytest.fixture
def claims(tmp_path: Path) -> Path:
    folder = tmp_path / "claims"
    folder.mkdir()
    return folder


def test_new_writes_a_skeleton_that_passes_as_out_of_scope(pytester: pytest.Pytester, monkeypatch, capsys):
    folder = pytester.mkdir("claims")
    assert _new(folder, "demo.new-skeleton") == 0
    path = folder / "demo_new_skeleton.py"
    assert f"wrote {path}" in capsys.readouterr().out
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    outcome = pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1)
    [record] = read_results(pytester.path / "r.json").claims
    assert (record.id, record.observed, record.expected) == (
        "demo.new-skeleton",
        "out-of-scope",
        "out-of-scope",
    )
    assert record.sources == [Quote(DOCUMENT, SECTION, SENTENCE)]
    assert record.out_of_scope.startswith("TODO")


@pytest.mark.skipif(not Path(RUFF).exists(), reason="ruff is not installed")
def test_new_writes_ruff_clean_files_even_for_long_and_quoted_text(claims):
    long_sentence = next(line for line in (ROOT / "sources" / DOCUMENT).read_text().splitlines() if len(line) > 150)
    assert _new(claims, "demo.long", "--title", 'A "quoted" \\ title', "--statement", long_sentence * 2) == 0
    assert _new(claims, "demo.long-quote", quote=long_sentence, section=TITLE) == 0
    lint = subprocess.run([RUFF, "check", "--no-cache", str(claims)], capture_output=True, text=True, cwd=ROOT)
    assert lint.returncode == 0, lint.stdout
    form = subprocess.run([RUFF, "format", "--check", "--no-cache", str(claims)], capture_output=True, text=True)
    assert form.returncode == 0, form.stdout + form.stderr


def _keywords(source: str) -> dict[str, str]:
    """The string keywords of the Claim(...) call, the Document(...) name and the .quote(...) arguments, read with
    ast (nothing is evaluated)."""
    tree = ast.parse(source)
    found = {"docstring": ast.get_docstring(tree) or ""}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Claim":
            found |= {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Document":
            found["document"] = node.args[0].value
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "quote":
            found |= dict(zip(("section", "quote"), (a.value for a in node.args), strict=True))
    return found


@settings(max_examples=200, deadline=None)
@given(title=st.text(min_size=1, max_size=300), quote=st.text(min_size=1, max_size=300))
def test_skeleton_literals_round_trip_any_text(title, quote):
    source = skeleton("demo.any-text", title, title, Quote(DOCUMENT, SECTION, quote))
    found = _keywords(source)
    assert (found["title"], found["statement"], found["quote"]) == (title, title, quote)
    printable = " ".join("".join(c if c.isprintable() else " " for c in title).split())
    assert found["docstring"] == printable or found["docstring"].endswith("…")


@pytest.mark.parametrize(
    ("claim_id", "extra", "message"),
    [
        ("Demo_Bad", {}, "error: claim id 'Demo_Bad' must look like 'pe.constant-norm'"),
        ("demo.taken", {}, "error: {claims}/demo_taken.py exists already; choose another id or edit that file"),
        ("demo.reused", {}, "error: claim id 'demo.reused' is already declared in {claims}/zz_other.py"),
        ("demo.misquoted", {"quote": "M_k 는"}, "error: quote not found verbatim in 002_86fa32f25d4c4c54.txt (5. k"),
    ],
    ids=["bad-id", "file-exists", "id-in-another-file", "quote-not-in-document"],
)
def test_new_refuses_with_one_line(claims, capsys, claim_id, extra, message):
    (claims / "demo_taken.py").write_text("# someone's claim\n")
    other = 'from checks import Claim, Quote\n\nc = Claim(id="demo." + "reused", title="t", statement="s",'
    other += f' sources=[Quote("{DOCUMENT}", "{SECTION}", "{SENTENCE}")], out_of_scope="x", expect="out-of-scope")\n'
    (claims / "zz_other.py").write_text(other)
    before = sorted(p.name for p in claims.iterdir())
    assert _new(claims, claim_id, **extra) == 2
    err = capsys.readouterr().err
    assert err.startswith(message.format(claims=claims)) and err.count("\n") == 1, err
    assert sorted(p.name for p in claims.iterdir()) == before
    assert (claims / "demo_taken.py").read_text() == "# someone's claim\n"


def test_new_names_the_documents_when_the_prefix_is_ambiguous(claims, capsys):
    assert (
        main(["new", "demo.x", "--document", "00", "--section", "s", "--quote", "q", "--claims-dir", str(claims)]) == 2
    )
    assert "document '00' matches 3 of ['000_1100ff0056b332e7.txt'" in capsys.readouterr().err


def test_new_refuses_a_section_that_is_not_a_heading_and_names_the_nearest(claims, capsys):
    assert _new(claims, "demo.section") == 0 and "warning" not in capsys.readouterr().err
    for section, nearest in (("x", ""), ("§5 k칸 이동 = 회전 행렬", "; nearest: '5. k칸 이동 = 회전 행렬'")):
        arguments = ["new", "demo.other-section", "--document", "002", "--section", section, "--quote", SENTENCE]
        assert main([*arguments, "--claims-dir", str(claims)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: section {section!r} is not a heading of 002_86fa32f25d4c4c54.txt{nearest}")
    assert not (claims / "demo_other_section.py").exists()


def test_a_quote_not_found_suggests_the_nearest_sentence(claims, capsys):
    assert _new(claims, "demo.near", quote="M_k는 k에만 달려 있다.") == 2
    assert "nearest sentence: 'M_k는 k에만 달려 있습니다.'" in capsys.readouterr().err


def test_claim_path_replaces_dots_and_dashes():
    assert claim_path("pe.sin-ambiguous", Path("claims")) == Path("claims/pe_sin_ambiguous.py")


# list


def _results(path: Path) -> Path:
    claims = [claim_record("pe.b-second", "refuted", "holds"), claim_record("pe.a-first", "proved", "proved")]
    write_results(path, claims, environment(date="2026-01-01", hypothesis_profile="ci", commit="abc"))
    return path


def test_list_prints_every_claim_with_observed_and_expected(tmp_path, capsys):
    assert main(["list", "--results", str(_results(tmp_path / "r.json"))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{tmp_path / 'r.json'}: 2 claims, run 2026-01-01 (profile ci")
    assert lines[1].split() == ["claim", "observed", "expected"]
    assert lines[2].split() == ["pe.a-first", "proved", "proved"]
    assert lines[3].split() == ["pe.b-second", "refuted", "holds", "(differs)"]
    assert lines[4] == "observed: proved 1, refuted 1; 1 differ from expected"


def test_list_refuses_a_bad_results_file_with_one_line(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text('{"schema": ')
    assert main(["list", "--results", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: corrupt results file") and err.count("\n") == 1


def test_list_does_not_import_torch(tmp_path):
    results = _results(tmp_path / "r.json")
    script = f"import sys\nfrom checks.engine.cli import main\nmain(['list', '--results', {str(results)!r}])\n"
    script += "assert 'torch' not in sys.modules, 'torch was imported'\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "pe.a-first" in done.stdout


# flake

FLAKE_CONFTEST = """
from checks.settings.profiles import register_profiles

register_profiles()
pytest_plugins = ["checks.engine.plugin"]
"""

FLAKE_CLAIMS = {
    "steady.py": """
        import sympy as sp
        from checks import Claim, Quote

        x = sp.Symbol("x", real=True)
        claim = Claim(id="flake.steady", title="t", statement="s", expect="proved",
                      sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬",
                                     "M_k는 k에만 달려 있습니다.")])

        @claim.proof
        def _(p):
            p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    """,
    "wobbly.py": """
        from pathlib import Path
        from checks import Claim, Quote

        claim = Claim(id="flake.wobbly", title="t", statement="s", expect="holds",
                      sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬",
                                     "M_k는 k에만 달려 있습니다.")])

        @claim.probe
        def _(r):
            counter = Path(__file__).with_suffix(".count")
            runs = int(counter.read_text()) + 1 if counter.exists() else 1
            counter.write_text(str(runs))
            r.measure("run", runs)
            if runs % 2 == 0:
                r.counterexample("every second run", run=runs)
    """,
    "seeded.py": """
        from pathlib import Path
        from checks import Claim, Quote
        from checks.evidence.experiment import Design

        claim = Claim(id="flake.seeded", title="t", statement="s", expect="holds",
                      sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬",
                                     "M_k는 k에만 달려 있습니다.")])

        @claim.experiment(Design(hypothesis="h", task="t", models="m", budget="b", metric="m", better="higher",
                                 treatment="a", control="b", threshold=0.5, seeds={"ci": 2}))
        def _(arm, regime, seed, log):
            calls = Path(__file__).with_suffix(".calls")
            calls.write_text(str(int(calls.read_text()) + 1 if calls.exists() else 1))
            return 1.0 if arm == "a" else 0.0
    """,
}


def _flake_catalog(tmp_path: Path) -> Path:
    """FLAKE_CLAIMS in tmp_path/claims, beside a conftest that loads the plugin; the claims folder."""
    folder = tmp_path / "claims"
    folder.mkdir()
    (tmp_path / "conftest.py").write_text(FLAKE_CONFTEST)
    for name, body in FLAKE_CLAIMS.items():
        (folder / name).write_text(textwrap.dedent(body))
    return folder


def test_flake_prints_the_table_and_fails_on_a_changed_verdict(tmp_path, capsys):
    folder = _flake_catalog(tmp_path)
    keep = tmp_path / "kept"
    code = main(["flake", "--runs", "2", "--claims-dir", str(folder), "--keep", str(keep)])
    out = capsys.readouterr().out
    assert code == 1, out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("flake.")}
    assert rows["flake.steady"].split() == ["flake.steady", "proved", "proved", "×2"]
    assert "holds ×1, refuted ×1  FLAKY: {2: 'refuted'}" in rows["flake.wobbly"]
    assert "1 claim(s) changed verdict: flake.wobbly" in out
    assert "flake.seeded" not in rows and not (folder / "seeded.calls").exists(), "seeded experiments are not rerun"
    assert "not run: claims made only of seeded, untimed experiments" in out
    assert sorted(p.name for p in keep.iterdir()) == ["results-seed-1.json", "results-seed-2.json"]
    kept = read_results(keep / "results-seed-2.json").environment
    assert (kept.hypothesis_profile, kept.hypothesis_seed) == ("dev", "2")


@pytest.mark.slow  # 31 s; CI's slow tier runs the command itself against the gate's results (.ci/slow)
def test_flake_against_another_runs_results_compares_one_seeded_run_with_it(tmp_path, capsys):
    """tox's flake step: one seeded run beside the results of another run (the derandomized ci run); the
    repeating claims the seeded run skips stay out of the table, and a changed verdict still fails."""
    folder = _flake_catalog(tmp_path)
    keep = tmp_path / "kept"
    main(["flake", "--runs", "2", "--claims-dir", str(folder), "--keep", str(keep)])  # wobbly: holds, refuted
    earlier = keep / "results-seed-1.json"  # wobbly holds there, and in every odd-numbered run
    capsys.readouterr()
    against = ["flake", "--runs", "1", "--first-seed", "3", "--claims-dir", str(folder), "--against", str(earlier)]
    assert main(against) == 0, capsys.readouterr().out  # the third run: holds, as in the earlier one
    out = capsys.readouterr().out
    assert f"2 runs (seeds 3…3, profile dev; and {earlier})" in out
    assert main(against) == 1  # the fourth: refuted
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.startswith("flake.")}
    assert rows["flake.steady"].split() == ["flake.steady", "proved", "proved", "×2"]
    assert "refuted ×1, holds ×1  FLAKY" in rows["flake.wobbly"], rows
    assert "flake.seeded" not in rows


def test_flake_needs_two_runs_or_one_against_a_results_file(capsys):
    assert main(["flake", "--runs", "1"]) == 2
    assert "at least 2" in capsys.readouterr().err


def test_the_old_python_m_reports_names_the_command_that_replaced_it():
    """`python -m reports` ran the claims until the report command joined the others; it now builds nothing and
    says which command to run, with the arguments it was given."""
    done = subprocess.run(
        [sys.executable, "-m", "reports", "--from", "shard1.json"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        "error: the report command is now `python -m checks report --from shard1.json` (theory-claims report)"
    )
