"""How evidence becomes a verdict (each kind's weight, then checks.verdicts.observe); broken is never refuted."""

from checks.evidence.base import weigh_runs
from checks.evidence.check import CheckRun
from checks.evidence.probe import weigh_findings
from checks.evidence.proof import ProofRecord, SymbolicProof
from checks.results import Finding
from checks.verdicts import Verdict, Weight, observe


def proof(status):
    return SymbolicProof.weigh([ProofRecord(status, 0.0)])


def runs(*statuses):
    return weigh_runs([CheckRun("c", "cpu", "float64", status=status) for status in statuses])


def findings(*kinds):
    return weigh_findings([Finding(kind, "text") for kind in kinds], ran=False)


def verdict(*weights, crashed=False, out_of_scope=False):
    return observe(list(weights), crashed=crashed, out_of_scope=out_of_scope)


def test_proved_needs_a_proof_and_agreeing_runs():
    assert verdict(proof("proved"), runs("passed")) == Verdict.PROVED
    assert verdict(proof("proved"), runs("failed")) == Verdict.REFUTED


def test_numeric_evidence_alone_holds():
    assert verdict(runs("passed", "skipped")) == Verdict.HOLDS
    assert verdict(proof("unknown"), runs("passed")) == Verdict.HOLDS


def test_a_crash_is_broken_even_when_a_run_failed():
    assert verdict(runs("failed"), crashed=True) == Verdict.BROKEN
    assert verdict(runs("failed", "error")) == Verdict.BROKEN


def test_conditions_qualify_and_counterexamples_refute():
    assert verdict(proof("proved"), findings("condition")) == Verdict.QUALIFIED
    assert verdict(proof("proved"), findings("condition", "counterexample")) == Verdict.REFUTED


def test_no_evidence_is_broken_and_out_of_scope_is_its_own_verdict():
    assert verdict(runs("skipped")) == Verdict.BROKEN
    assert verdict(out_of_scope=True) == Verdict.OUT_OF_SCOPE


def test_only_the_references_runs_weigh_and_a_derivation_decides_unless_broken():
    other = weigh_runs([CheckRun("c", "cpu", "float64", status="failed", implementation="x", reference=False)])
    assert verdict(runs("passed"), other) == Verdict.HOLDS
    assert verdict(Weight(decides=Verdict.QUALIFIED), runs("failed")) == Verdict.QUALIFIED
    assert verdict(Weight(decides=Verdict.HOLDS), crashed=True) == Verdict.BROKEN
