"""The results format has one owner: typed records, their generated JSON Schema, and the files on disk."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest

from checks.engine.report import main as reports_main
from checks.results import SCHEMA_VERSION, ClaimRecord, read_results
from checks.results.codec import DecodeError, from_json, to_json
from checks.results.schema import MUTANTS_SCHEMA, RESULTS_SCHEMA, committed, mutants_schema, render, results_schema
from tests.report_fixtures import escaping_record, real_records, write_fixture_results


def test_the_committed_schema_files_are_what_the_records_generate():
    """Run `python -m checks.engine.developer schema` after changing a record, and commit both files."""
    assert RESULTS_SCHEMA.read_text(encoding="utf-8") == render(results_schema())
    assert MUTANTS_SCHEMA.read_text(encoding="utf-8") == render(mutants_schema())


@pytest.mark.needs("torch")
def test_the_report_fixtures_validate_against_the_schema_file(tmp_path):
    schema = committed(RESULTS_SCHEMA)
    for path in write_fixture_results(tmp_path):
        jsonschema.validate(json.loads(path.read_text(encoding="utf-8")), schema)


def test_a_real_run_validates_and_every_record_reads_back_unchanged(pytester: pytest.Pytester):
    """A run with a proved claim, a check, a probe and a derivation: its file fits the schema and round-trips."""
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    (claims / "demo.py").write_text(DEMO)
    pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    document = json.loads((pytester.path / "r.json").read_text(encoding="utf-8"))
    jsonschema.validate(document, committed(RESULTS_SCHEMA))
    kinds = {item["kind"] for claim in document["claims"] for item in claim["evidence"]}
    assert kinds == {"proof", "check", "probe", "derivation"}
    for claim in document["claims"]:
        assert to_json(from_json(ClaimRecord, claim)) == claim


@pytest.mark.needs("torch")
def test_the_catalog_fixture_records_round_trip():
    for record in [*real_records(), escaping_record()]:
        decoded = from_json(ClaimRecord, record)
        assert _holds(to_json(decoded), record)  # every field written comes back; one left out takes its default
        assert from_json(ClaimRecord, to_json(decoded)) == decoded


def _holds(full: object, part: object) -> bool:
    """``full`` has every key of ``part`` with the same value, at every depth."""
    if isinstance(part, dict):
        return isinstance(full, dict) and all(k in full and _holds(full[k], v) for k, v in part.items())
    if isinstance(part, list):
        return isinstance(full, list) and len(full) == len(part) and all(map(_holds, full, part))
    return full == part


def test_a_results_file_of_another_schema_version_is_refused_with_one_message(tmp_path, capsys):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"schema": "theory-claims/results/1", "environment": {}, "claims": []}))
    assert reports_main(["--from", str(path), "--out", str(tmp_path / "html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"schema 'theory-claims/results/1' is not '{SCHEMA_VERSION}'" in err
    assert "run the claims again" in err and not (tmp_path / "html").exists()


def test_a_record_that_breaks_the_schema_is_named_with_the_place(tmp_path):
    record = {**escaping_record(), "evidence": [{"kind": "check", "name": "c"}]}
    path = tmp_path / "r.json"
    document = {
        "schema": SCHEMA_VERSION,
        "environment": _environment(),
        "claims": [record],
        "reran": [],
        "implementations": [],
    }
    path.write_text(json.dumps(document))
    with pytest.raises(Exception, match=r"claim 'report\.escaping' is malformed \(\$\.claims\[0\]\.evidence\[0\]"):
        read_results(path)


def test_decoding_names_the_field_that_does_not_fit():
    record = {**escaping_record(), "seconds": "slow"}
    with pytest.raises(DecodeError, match=r"\$\.seconds: 'slow' is not a number"):
        from_json(ClaimRecord, record)


def _environment() -> dict:
    from tests.records import environment

    return to_json(environment())


DEMO = textwrap.dedent(
    """
    import sympy as sp
    from hypothesis import strategies as st
    from checks import given
    from checks import Claim, Quote, Verdict

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    x = sp.Symbol("x", real=True)

    proved = Claim(id="demo.proved", title="t", statement="s", sources=[QUOTE], expect="qualified")

    @proved.proof
    def _(p):
        p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)

    @proved.check(dtypes=("float64",), backends=("numpy",))
    @given(v=st.floats(-1, 1))
    def _(t, v):
        t.close(t.xp.sin(t.xp.array(v)), __import__("math").sin(v))

    @proved.probe
    def _(r):
        r.measure("values", [1.0, float("nan"), float("inf")])
        r.figure("f", "lines", "t", "a", series={"s": {"x": [0, 1], "y": [0.5, float("inf")]}})
        r.condition("a condition", at=1)

    derived = Claim(id="demo.derived", title="t", statement="s", sources=[QUOTE], expect="qualified",
                    depends=["demo.proved"])

    @derived.derive
    def _(r, dependencies):
        return dependencies["demo.proved"].verdict
    """
)


def test_this_repositorys_results_go_to_its_configured_output_folder():
    from checks.settings import config

    root = Path(__file__).resolve().parent.parent
    assert config.load(root).results == root / "reports" / "html" / "results.json"
