"""A claim broken by an exception names the innermost line of its claim file on the way to it, with the exception:
a TypeError raised deep inside SymPy from a proof says which line of the proof called SymPy."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from checks.engine.discovery import load_claims
from checks.engine.evaluate import dependency_of, evaluate
from checks.evidence.base import claim_line, crash_text
from checks.evidence.check import CheckRun
from checks.results.records import ClaimRecord

CLAIMS = textwrap.dedent(
    """
    import sympy as sp
    from hypothesis import strategies as st

    from checks import Claim, Quote, Verdict, given

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


    def width(symbol):
        return int(symbol)  # a helper of the claim file: the innermost line of the file


    proof = Claim(id="where.proof", title="t", statement="s", sources=[QUOTE], expect="proved")

    @proof.proof
    def _(p):
        p.decide(sp.Integer(1), 1)
        int(sp.Symbol("d"))  # the proof's line


    helped = Claim(id="where.helper", title="t", statement="s", sources=[QUOTE], expect="holds")

    @helped.probe
    def _(r):
        r.measure("width", width(sp.Symbol("d")))


    check = Claim(id="where.check", title="t", statement="s", sources=[QUOTE], expect="holds")

    @check.check(dtypes=("float64",), backends=("numpy",), devices=("cpu",))
    @given(v=st.floats(0, 1))
    def _(t, v):
        int(sp.Symbol("d") + v)  # the check's line


    derived = Claim(id="where.derived", title="t", statement="s", sources=[QUOTE], expect="holds",
                    depends=["where.proof"])

    @derived.derive
    def _(r, dependencies):
        return Verdict(sp.Symbol("d"))  # the derivation's line
    """
)


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, ClaimRecord]]:
    path = tmp_path_factory.mktemp("claims") / "pointing.py"
    path.write_text(CLAIMS, encoding="utf-8")
    claims = {claim.id: claim for claim in load_claims(path)}
    records: dict[str, ClaimRecord] = {}
    for claim_id, claim in claims.items():
        records[claim_id] = evaluate(claim, lambda other: dependency_of(records[other]))
    return path, records


def line_of(path: Path, marker: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if marker in line)


@pytest.mark.parametrize(
    ("claim_id", "marker", "function", "exception"),
    [
        ("where.proof", "# the proof's line", "_", "TypeError: Cannot convert symbols to int"),
        ("where.helper", "# a helper of the claim file", "width", "TypeError: Cannot convert symbols to int"),
    ],
)
def test_an_exception_inside_sympy_names_the_claim_files_line(evaluated, claim_id, marker, function, exception):
    path, records = evaluated
    record = records[claim_id]
    assert record.observed == "broken"
    [error] = record.errors
    assert exception in error
    assert f"{path.name}:{line_of(path, marker)} in {function}" in error, error


def test_a_crashing_check_names_the_claim_files_line(evaluated):
    path, records = evaluated
    record = records["where.check"]
    assert record.observed == "broken"
    [run] = [run for run in record.of(CheckRun) if run.reference]
    assert run.status == "error"
    assert run.message.startswith("TypeError: Cannot convert symbols to int")
    assert f"{path.name}:{line_of(path, '# the check')} in _" in run.message, run.message


def test_a_raising_derivation_names_the_claim_files_line(evaluated):
    path, records = evaluated
    record = records["where.derived"]
    assert record.observed == "broken"
    [error] = record.errors
    assert error.startswith("derivation derived from where.proof: ValueError: ")
    assert f"{path.name}:{line_of(path, '# the derivation')} in _" in error, error


def test_the_line_is_relative_to_the_working_directory_when_under_it(tmp_path, monkeypatch):
    path = tmp_path / "claims" / "local.py"
    path.parent.mkdir()
    path.write_text("def fails():\n    return int('x')\n", encoding="utf-8")
    namespace: dict[str, object] = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    with pytest.raises(ValueError) as raised:
        namespace["fails"]()  # type: ignore[operator]
    monkeypatch.chdir(tmp_path)
    assert claim_line(raised.value, path) == "claims/local.py:2 in fails"
    assert crash_text(raised.value, path).startswith("ValueError: invalid literal for int()")
    assert crash_text(raised.value, path).endswith("(claims/local.py:2 in fails)")


def test_without_a_line_of_the_claim_file_the_innermost_line_is_named(tmp_path):
    with pytest.raises(ZeroDivisionError) as raised:
        _ = 1 / 0
    assert claim_line(raised.value, tmp_path / "elsewhere.py") is None
    assert crash_text(raised.value, tmp_path / "elsewhere.py").startswith("ZeroDivisionError: division by zero (")
    assert f"{Path(__file__).name}:" in crash_text(raised.value, None)
