"""How evidence becomes a verdict; broken is never refuted."""

from checks.verdicts import Verdict, observe

BASE = {
    "crashed": False,
    "out_of_scope": False,
    "proof_status": None,
    "run_statuses": [],
    "finding_kinds": [],
    "probes_ran": False,
}


def verdict(**changes):
    return observe(**{**BASE, **changes})


def test_proved_needs_a_proof_and_agreeing_runs():
    assert verdict(proof_status="proved", run_statuses=["passed"]) == Verdict.PROVED
    assert verdict(proof_status="proved", run_statuses=["failed"]) == Verdict.REFUTED


def test_numeric_evidence_alone_holds():
    assert verdict(run_statuses=["passed", "skipped"]) == Verdict.HOLDS
    assert verdict(proof_status="unknown", run_statuses=["passed"]) == Verdict.HOLDS


def test_a_crash_is_broken_even_when_a_run_failed():
    assert verdict(crashed=True, run_statuses=["failed"]) == Verdict.BROKEN
    assert verdict(run_statuses=["failed", "error"]) == Verdict.BROKEN


def test_conditions_qualify_and_counterexamples_refute():
    assert verdict(proof_status="proved", finding_kinds=["condition"]) == Verdict.QUALIFIED
    assert verdict(proof_status="proved", finding_kinds=["condition", "counterexample"]) == Verdict.REFUTED


def test_no_evidence_is_broken_and_out_of_scope_is_its_own_verdict():
    assert verdict(run_statuses=["skipped"]) == Verdict.BROKEN
    assert verdict(out_of_scope=True) == Verdict.OUT_OF_SCOPE
