"""A claim's time limit grows with the implementations its checks run, and each implementation's cells run on a
share of their own: a slow adapter is named, and running out of its share costs it its own cells only; the
references' cells and the claim's verdict stand (checks/engine/limits.py).

No assertion on wall-clock time: the adapters compute (``burn``: the limits count CPU time), so their cells take at
least what each test needs.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import hypothesis
import numpy as np
import pytest
from hypothesis import strategies as st

from checks import Claim, given
from checks.engine import limits
from checks.engine.evaluate import evaluate, implementations_run
from checks.engine.limits import IMPLEMENTATION_SHARE, TIME_LIMIT_ENV, Guard, time_limit
from checks.evidence.check import Check, CheckRun, runner
from checks.implementations import speed
from checks.implementations.contract import checked
from checks.implementations.registry import register, unregister
from checks.implementations.speed import CALL_BUDGET, LONGEST_SHARE, slow_note
from checks.implementations.third_party import THIRD_PARTY_ENV
from checks.results import ClaimRecord, ImplementationRecord, write_results
from checks.rope import rope_rows
from checks.written.reading import read_documents
from claims.catalog.works import LESSON_002
from reports.build import build_site
from tests.faulty_adapters import SlowRope, burn, rotate
from tests.records import claim_record, environment

QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
QUICK, SLOW = CALL_BUDGET / 10, 2 * CALL_BUDGET
"""Seconds a call of an implementation within the call budget, and of one twice over it."""


@pytest.fixture
def ci_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default rule at the ci profile's 40 examples, whatever THEORY_CLAIMS_TIME_LIMIT says here."""
    monkeypatch.delenv(TIME_LIMIT_ENV, raising=False)
    monkeypatch.setattr(limits, "settings", lambda: SimpleNamespace(max_examples=40))


def test_the_limit_grows_with_the_implementations_a_claim_runs(ci_examples):
    base = time_limit()
    assert time_limit([QUICK] * 15) == base * (1 + 15 * IMPLEMENTATION_SHARE)
    assert time_limit([QUICK, SLOW]) == base * (1 + 3 * IMPLEMENTATION_SHARE), "a slow one counts by its slowness"
    assert time_limit([math.inf]) == base * (1 + LONGEST_SHARE * IMPLEMENTATION_SHARE), "up to the longest share"


def test_a_given_limit_is_the_whole_claims_split_between_the_claim_and_its_implementations(monkeypatch):
    monkeypatch.setenv(TIME_LIMIT_ENV, "30")
    guard = Guard("test.split")
    guard.share_among(lambda: {"quick": QUICK, "slow": SLOW})
    own = 30 / (1 + 3 * IMPLEMENTATION_SHARE)
    assert (guard.limit, guard.own) == (30, pytest.approx(own))
    assert guard.shares == pytest.approx({"quick": own * IMPLEMENTATION_SHARE, "slow": 2 * own * IMPLEMENTATION_SHARE})
    assert guard.own + sum(guard.shares.values()) == pytest.approx(30)
    monkeypatch.setenv(TIME_LIMIT_ENV, "0")
    assert time_limit([QUICK] * 15) == 0


def test_an_implementation_slower_than_the_budget_is_named():
    assert slow_note(0.0709) == (
        "slow: 70.9 ms a call (budget 50 ms); its cells get a 1.4× longer share of the time limit"
    )
    assert slow_note(QUICK) == ""


def test_an_implementations_cells_run_on_its_share_while_the_claims_clock_stops(monkeypatch):
    """A claim's own part of 0.5 s, an implementation's share of 1 s: cells longer than the claim's own part finish;
    cells that hang end at the share, and only they; the claim's own steps still run after both."""
    monkeypatch.setenv(TIME_LIMIT_ENV, "1.5")
    guard = Guard("test.shares")
    guard.share_among(lambda: {"slow": 1.0})  # the longest share: 1.5 s = 0.5 s of its own + 1 s of the share
    assert (guard.own, guard.shares) == (pytest.approx(0.5), {"slow": pytest.approx(1.0)})
    late: list[str] = []
    guard("check", lambda: late.append(guard.within_share("slow", lambda: burn(0.7))))
    guard("check", lambda: late.append(guard.within_share("slow", _hang)))
    guard("check", lambda: late.append(guard.within_share("slow", _hang)))
    ran: list[str] = []
    guard("probe", lambda: ran.append("the claim's own step"))
    spent = "not run: slow ran past its share of the time limit (1 s)"
    assert late == ["", spent, spent]
    assert ran == ["the claim's own step"] and guard.errors == []


def _hang() -> None:
    while True:
        burn(0.01)


def _rope_claim() -> Claim:
    """One check on every RoPE implementation: 2 dtypes × 40 examples, a call each (1.6 s of a 20 ms adapter)."""
    claim = Claim(
        "test.rope-keeps-lengths",
        "t",
        "s",
        [LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")],
        "holds",
    )

    @claim.check(
        dtypes=("float32", "float64"),
        devices=("cpu",),
        uses="rope",
        settings=hypothesis.settings(max_examples=40, derandomize=True, database=None),
    )
    @given(position=st.integers(0, 1000))
    def keeps_lengths(t, position):
        x = np.linspace(-1, 1, 8)[None]
        rotated = t.xp.to_float64(t.impl.rope(t.xp.array(x), [position]))
        t.close(np.linalg.norm(rotated), np.linalg.norm(x), label="‖R(mθ)x‖")

    return claim


def _evaluated(claim: Claim) -> ClaimRecord:
    """The claim's record, its implementations' contract checks first, as the plugin runs them before the claims
    (they take seconds, longer than the claim's own part here)."""
    for adapter in implementations_run(claim).values():
        checked(adapter)
    return evaluate(claim)


def _reference_cells(record: ClaimRecord) -> list[tuple[str | None, str, str, int]]:
    return sorted((r.implementation, r.dtype, r.status, r.examples) for r in record.of(CheckRun) if r.reference)


def test_a_slow_adapter_runs_out_of_its_share_and_the_references_cells_and_verdict_stand(monkeypatch, ci_examples):
    """Limits scaled down so that it happens within a second: a claim's own part of 2 s, an implementation's share a
    tenth of it, a call budget of 5 ms. A 20 ms adapter is slow: its share is the longest, 0.8 s, and its cells need
    at least 1.6 s."""
    monkeypatch.setenv(THIRD_PARTY_ENV, "0")  # the project's own adapters only
    for name, value in (("DEFAULT_TIME_LIMIT", 2.0), ("IMPLEMENTATION_SHARE", 0.1)):
        monkeypatch.setattr(limits, name, value)
    monkeypatch.setattr(speed, "CALL_BUDGET", 0.005)
    before = _evaluated(_rope_claim())
    slow = SlowRope(delay=0.02)
    register(slow)
    try:
        after = _evaluated(_rope_claim())
    finally:
        unregister(slow)
    assert after.errors == before.errors == []
    assert after.observed == before.observed == "holds"
    assert _reference_cells(after) == _reference_cells(before)
    # its share from its measured calls: 0.8 s at 20 ms a call; burn() counts the process's CPU time, which other
    # threads (torch's, outside xdist's one per worker) advance too, so a call can measure less by the wall clock
    share = 2.0 * 0.1 * speed.share_factor(checked(slow).seconds_per_call)
    cut = [r for r in after.of(CheckRun) if r.implementation == "slow-rope" and r.status == "skipped"]
    expected = f"not run: slow-rope ran past its share of the time limit ({share:.3g} s)"
    assert cut and all(r.message == expected for r in cut), (cut[:1], expected)
    assert checked(slow).slow.startswith("slow: ")
    assert checked(slow).slow.endswith(
        f"a call (budget 5 ms); its cells get a {share / 0.2:.2g}× longer share of the time limit"
    )


def test_the_implementations_page_shows_each_ones_time_a_call_and_names_a_slow_one(tmp_path):
    def record(name: str, seconds_per_call: float) -> ImplementationRecord:
        return ImplementationRecord(
            name,
            False,
            "torch",
            ["rope"],
            "",
            "everything",
            1,
            [],
            {},
            [],
            0.1,
            [],
            seconds_per_call,
            slow_note(seconds_per_call),
        )

    results = tmp_path / "results.json"
    implementations = [record("quick-rope", 0.00031), record("slow-rope", 0.0709)]
    write_results(results, [claim_record("a.claim")], environment(), implementations=implementations)
    build_site([results], tmp_path / "site", say=lambda line: None, documents=read_documents)
    page = (tmp_path / "site" / "implementations.html").read_text(encoding="utf-8")
    assert ">0.31 ms<" in page
    assert "slow: 70.9 ms a call (budget 50 ms); its cells get a 1.4× longer share of the time limit" in page


class SlowOddRope:
    """Raises at d_model 1 after ``delay`` seconds of CPU a call, as a slow faulty library does."""

    name, pairing = "slow-odd-rope", "interleaved"

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def rope(self, x, positions):
        burn(self.delay)
        if x.shape[-1] == 1:
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


def test_a_failure_costs_the_other_dtypes_none_of_the_share(monkeypatch):
    """Issue 65: a failing adapter's reruns of its first failing cell spent its share, and its other dtypes read
    "not run". Each dtype's first run comes first (measured here: about 0.25 s each of a 0.75 s share, where the
    first dtype's sizes searched at once took 0.47 s more); the search for the sizes (2 s in all) comes after, and
    where the share ends it the failures stand with why no size is stated."""
    monkeypatch.setenv(TIME_LIMIT_ENV, "2.25")
    adapter = SlowOddRope(delay=0.01)
    checked(adapter)  # its contract check, off the claim's clock as in a run
    guard = Guard("test.failure-shares")
    guard.share_among(lambda: {"slow-odd-rope": 0.01})  # within the call budget: a share of a third of 2.25 s
    assert guard.shares == {"slow-odd-rope": pytest.approx(0.75)}
    monkeypatch.setattr(runner, "offering", lambda uses: [adapter])
    claim = Claim("test.odd-share", "t", "s", [QUOTE], "holds")

    @claim.check(
        dtypes=("float32", "float64"),
        backends=("torch",),
        devices=("cpu",),
        uses="rope",
        settings=hypothesis.settings(max_examples=40, derandomize=True, database=None),
    )
    @given(d_model=st.integers(1, 64))
    def keeps_norms(t, d_model):
        row = np.linspace(-1.0, 1.0, d_model)[None]
        t.close(np.linalg.norm(rope_rows(t.impl, row, [3])), np.linalg.norm(row), label="‖x‖")

    runs: list[CheckRun] = []
    guard("check", lambda: runs.extend(runner.run_check(claim.declared(Check)[0], guard.within_share)))
    assert guard.errors == [] and [run.status for run in runs] == ["failed", "failed"], (guard.errors, runs)
    unsearched = "(the sizes it fails at were not searched: slow-odd-rope ran past its share of the time limit"
    assert all(run.message.startswith("ImplementationFailure: slow-odd-rope.rope(") for run in runs), runs
    assert all(unsearched in run.message for run in runs), [run.message for run in runs]
