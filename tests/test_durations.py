"""Each claim's test is billed for its own evaluation: a derived claim that runs first and evaluates its dependency
is not billed for it, and the dependency's own test (which only reads the shared record) is billed its full time.
pytest-split balances shards on these durations (``--store-durations``).

The evaluation's clock is a fake one that only the parent's proof advances (by ``SLEEP``), so the figures are exact and
no assertion depends on how loaded the machine is."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from checks.results import read_results

ROOT = Path(__file__).resolve().parent.parent
SLEEP = 1000.0
"""Seconds of the fake clock the parent's proof takes: far beyond any real setup or teardown a stored duration adds."""
CLAIMS = textwrap.dedent(
    f"""
    import fakeclock

    from checks import Claim, Quote

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")

    # first in the file, so its test runs first and evaluates the parent
    derived = Claim(id="billed.derived", title="t", statement="s", sources=[QUOTE], expect="proved",
                    depends=["billed.parent"])
    derived.derive(lambda r, dependencies: dependencies["billed.parent"].verdict)

    parent = Claim(id="billed.parent", title="t", statement="s", sources=[QUOTE], expect="proved")

    @parent.proof
    def _(p):
        fakeclock.sleep({SLEEP})
        p.decide(1, 1)
    """
)
FAKE_CLOCK = """
\"\"\"A clock that stands still unless a claim sleeps on it.\"\"\"
NOW = [0.0]


def perf_counter():
    return NOW[0]


def sleep(seconds):
    NOW[0] += seconds
"""
PATCHING_CONFTEST = """
import fakeclock

import checks.engine.evaluate

checks.engine.evaluate.time = fakeclock  # each worker's evaluations read the fake clock
pytest_plugins = ["checks.engine.plugin"]
"""


@pytest.mark.parametrize("workers", [0, 2], ids=["serial", "xdist"])
def test_each_claim_is_billed_for_its_own_evaluation(pytester: pytest.Pytester, monkeypatch, workers):
    (pytester.path / "fakeclock.py").write_text(FAKE_CLOCK, encoding="utf-8")
    (pytester.mkdir("claims") / "billed.py").write_text(CLAIMS, encoding="utf-8")
    durations = pytester.path / "durations.json"
    arguments = ["claims", "--results", "r.json", "-p", "no:cacheprovider", "--store-durations"]
    arguments += ["--durations-path", str(durations), *(["-n", str(workers)] if workers else [])]
    if workers:
        pytester.makeconftest(PATCHING_CONFTEST)
        monkeypatch.setenv("PYTHONPATH", f"{ROOT}:{pytester.path}")
        outcome = pytester.runpytest_subprocess(*arguments)
    else:
        pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
        monkeypatch.syspath_prepend(str(pytester.path))
        monkeypatch.delitem(sys.modules, "fakeclock", raising=False)
        import fakeclock

        monkeypatch.setattr("checks.engine.evaluate.time", fakeclock)
        outcome = pytester.runpytest_inprocess(*arguments)
        monkeypatch.delitem(sys.modules, "fakeclock")
    outcome.assert_outcomes(passed=2)

    stored = json.loads(durations.read_text(encoding="utf-8"))
    parent, derived = stored["claims/billed.py::billed.parent"], stored["claims/billed.py::billed.derived"]
    # pytest-split adds the real setup and teardown to the billed call: tiny beside SLEEP
    assert parent >= SLEEP, "the parent's test is billed its proof, though the derived claim's test evaluated it"
    assert derived < SLEEP, "the derived claim is not billed for evaluating its dependency"
    seconds = {record.id: record.seconds for record in read_results(pytester.path / "r.json").claims}
    assert seconds == pytest.approx({"billed.derived": 0.0, "billed.parent": SLEEP}), "the records say the same"
