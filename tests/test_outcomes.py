"""A derived claim receives its dependencies' outcomes, each claim evaluated once per run, also under xdist."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from checks.results import read_results

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = textwrap.dedent(
    """
    from pathlib import Path

    from checks import Claim, Quote, Verdict

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    COUNTER = Path(__file__).with_name("evaluations.log")

    base = Claim(id="once.base", title="t", statement="s", sources=[QUOTE], expect="qualified")

    @base.probe
    def _(r):
        with COUNTER.open("a") as log:
            log.write("evaluated\\n")
        r.condition("only for even d_model", d_model=5)


    def taken(r, dependencies):
        outcome = dependencies["once.base"]
        r.measure("findings seen", [f.text for f in outcome.findings])
        return outcome.verdict if outcome.findings else Verdict.BROKEN


    first = Claim(id="once.first", title="t", statement="s", sources=[QUOTE], expect="qualified",
                  depends=["once.base"])
    first.derive(taken)
    second = Claim(id="once.second", title="t", statement="s", sources=[QUOTE], expect="qualified",
                   depends=["once.base"])
    second.derive(taken)
    third = Claim(id="once.third", title="t", statement="s", sources=[QUOTE], expect="qualified",
                  depends=["once.first"])
    third.derive(lambda r, dependencies: dependencies["once.first"].verdict)
    """
)


@pytest.mark.parametrize("workers", [0, 2], ids=["serial", "xdist"])
def test_each_dependency_is_evaluated_once_per_run(pytester: pytest.Pytester, monkeypatch, workers):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    (claims / "once.py").write_text(CLAIMS)
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}:{pytester.path}")
    arguments = ["claims", "--results", "r.json", "-p", "no:cacheprovider", *(["-n", str(workers)] if workers else [])]
    outcome = pytester.runpytest_subprocess(*arguments)
    outcome.assert_outcomes(passed=4)
    assert (claims / "evaluations.log").read_text().count("evaluated") == 1
    records = {c.id: c for c in read_results(pytester.path / "r.json").claims}
    assert {claim_id: str(r.observed) for claim_id, r in records.items()} == dict.fromkeys(records, "qualified")
    first = records["once.first"].evidence[0]
    assert first.measurements["findings seen"] == ["only for even d_model"], "the dependency's findings arrive"


def test_a_dependency_cycle_is_broken_with_the_cycle_named(pytester: pytest.Pytester):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    (pytester.mkdir("claims") / "cycle.py").write_text(
        textwrap.dedent(
            """
            from checks import Claim, Quote

            QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
            a = Claim(id="cycle.a", title="t", statement="s", sources=[QUOTE], expect="broken", depends=["cycle.b"])
            a.derive(lambda r, dependencies: dependencies["cycle.b"].verdict)
            b = Claim(id="cycle.b", title="t", statement="s", sources=[QUOTE], expect="broken", depends=["cycle.a"])
            b.derive(lambda r, dependencies: dependencies["cycle.a"].verdict)
            """
        )
    )
    pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider").assert_outcomes(passed=2)
    records = {c.id: c for c in read_results(pytester.path / "r.json").claims}
    errors = [error for record in records.values() for error in record.errors]
    assert any("in a cycle: cycle.a → cycle.b → cycle.a" in error for error in errors), errors
    assert {str(record.observed) for record in records.values()} == {"broken"}
