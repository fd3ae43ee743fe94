"""Evaluate one claim: quotes, proof, checks and probes, then the observed verdict."""

from __future__ import annotations

import math
import os
import signal
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from hypothesis import settings

from checks.claim import Claim
from checks.discovery import CLAIMS_DIR, find_claim
from checks.harness import Finding, NumericRun, ProbeRecord, run_check
from checks.sweeps import SweepRun, run_sweep
from checks.symbolic import Proof
from checks.verdicts import Verdict, observe

TIME_LIMIT_ENV = "THEORY_CLAIMS_TIME_LIMIT"
DEFAULT_TIME_LIMIT = 120.0
"""Seconds one claim may run (quotes, proofs, checks, sweeps, probes together) at 40 Hypothesis
examples (the ci profile), scaled up for profiles that try more; THEORY_CLAIMS_TIME_LIMIT
overrides it, 0 turns the limit off."""


class TimeLimitExceeded(BaseException):
    """A claim ran past its time limit (SIGALRM in the main thread).

    A BaseException, so that neither Hypothesis nor a check's own ``except Exception`` swallows it.
    """


@dataclass
class ClaimOutcome:
    """Everything one evaluation of a claim produced."""

    claim: Claim
    verdict: Verdict
    proof: Proof | None = None
    proof_seconds: float = 0.0
    runs: list[NumericRun] = field(default_factory=list)
    sweeps: list[SweepRun] = field(default_factory=list)
    probes: list[ProbeRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    deadline: float = math.inf
    """time.monotonic() at which the claim's time limit runs out."""

    @property
    def findings(self) -> list[Finding]:
        found = [f for probe in self.probes for f in probe.findings]
        if self.proof and self.proof.status == "refuted":
            found.append(
                Finding("counterexample", "the symbolic decision refutes the identity", self.proof.witness or {})
            )
        for run in self.runs:
            if run.status == "failed":
                kind = "counterexample" if run.reference else "implementation"
                found.append(
                    Finding(kind, f"{run.implementation}: {run.check}: {run.message}", run.counterexample or {})
                )
        for sweep in self.sweeps:
            if sweep.status == "failed":
                where = f"{sweep.device} {sweep.dtype} d_model={sweep.d_model}"
                found.append(
                    Finding("counterexample", f"sweep {sweep.sweep} ({where}): {sweep.message}", sweep.worst_input)
                )
        return found

    @property
    def passed(self) -> bool:
        return self.verdict == self.claim.expect


def evaluate(claim: Claim) -> ClaimOutcome:
    """Run everything the claim declares; a crash anywhere makes it broken, not refuted."""
    started = time.perf_counter()
    outcome = ClaimOutcome(claim, Verdict.BROKEN)
    outcome.deadline = time.monotonic() + (time_limit() if time_limit() > 0 else math.inf)
    _guard(outcome, "sources", lambda: [quote.verify() for quote in claim.sources])
    if not claim.out_of_scope:
        _run_proofs(outcome)
        for check in claim.checks:
            _guard(outcome, f"check {check.name}", lambda check=check: outcome.runs.extend(run_check(check)))
        for sweep in claim.sweeps:
            _guard(outcome, f"sweep {sweep.name}", lambda sweep=sweep: outcome.sweeps.extend(run_sweep(sweep)))
        for probe in claim.probes:
            _guard(outcome, f"probe {probe.name}", lambda probe=probe: _run_probe(outcome, probe))
    derived = _derive(outcome) if claim.derivation and not claim.out_of_scope else None
    outcome.verdict = observe(
        crashed=bool(outcome.errors),
        out_of_scope=bool(claim.out_of_scope),
        proof_status=outcome.proof.status if outcome.proof else None,
        run_statuses=[run.status for run in outcome.runs if run.reference] + [run.status for run in outcome.sweeps],
        finding_kinds=[f.kind for f in outcome.findings],
        probes_ran=bool(outcome.probes),
    )
    if derived is not None and outcome.verdict != Verdict.BROKEN:
        outcome.verdict = derived
    outcome.seconds = time.perf_counter() - started
    return outcome


def _run_proofs(outcome: ClaimOutcome) -> None:
    if not outcome.claim.proofs:
        return
    proof = Proof()
    started = time.perf_counter()
    for function in outcome.claim.proofs:
        _guard(outcome, f"proof {function.__name__}", lambda function=function: function(proof))
    outcome.proof_seconds = time.perf_counter() - started
    outcome.proof = proof


def _derive(outcome: ClaimOutcome) -> Verdict | None:
    """The verdict a derived claim takes from the claims it depends on."""
    record = ProbeRecord(f"derived from {', '.join(outcome.claim.depends)}")
    verdicts: dict[str, Verdict] = {}
    derived: list[Verdict] = []

    def derive() -> None:
        directory = outcome.claim.origin.parent if outcome.claim.origin else CLAIMS_DIR
        for claim_id in outcome.claim.depends:
            verdicts[claim_id] = evaluate_once(find_claim(claim_id, directory)).verdict
        record.measure("dependency verdicts", {k: str(v) for k, v in verdicts.items()})
        derived.append(Verdict(outcome.claim.derivation(record, verdicts)))

    _guard(outcome, "derivation", derive)
    outcome.probes.append(record)
    return derived[0] if derived else None


_evaluated: dict[str, ClaimOutcome] = {}


def forget_outcomes() -> None:
    """Start a run afresh: outcomes are shared within one run, never across runs."""
    _evaluated.clear()


def evaluate_once(claim: Claim) -> ClaimOutcome:
    """Evaluate a claim at most once per process (a derived claim reuses its dependencies)."""
    if claim.id not in _evaluated:
        _evaluated[claim.id] = evaluate(claim)
    return _evaluated[claim.id]


def _run_probe(outcome: ClaimOutcome, probe) -> None:
    record = ProbeRecord(probe.name)
    started = time.perf_counter()
    probe.measure(record)
    record.seconds = time.perf_counter() - started
    outcome.probes.append(record)


def time_limit() -> float:
    """The per-claim time limit in seconds (0: none)."""
    text = os.environ.get(TIME_LIMIT_ENV, "").strip()
    try:
        return float(text) if text else DEFAULT_TIME_LIMIT * max(1.0, settings().max_examples / 40)
    except ValueError:
        raise ValueError(f"{TIME_LIMIT_ENV}={text!r} is not a number of seconds") from None


@contextmanager
def _alarm(seconds: float) -> Iterator[bool]:
    """Raise TimeLimitExceeded after ``seconds``; yields whether the alarm is armed.

    Not armed off the main thread, without a limit, or when a timer already runs (an outer
    claim's, while a derived claim evaluates its dependencies: the outer one then applies).
    """
    if (
        math.isinf(seconds)
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0]
    ):
        yield False
        return

    def expire(signum: int, frame: object) -> None:
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _guard(outcome: ClaimOutcome, what: str, action) -> None:
    if time.monotonic() >= outcome.deadline:
        _out_of_time(outcome, what)
        return
    armed = False
    try:
        with _alarm(outcome.deadline - time.monotonic()) as armed:
            action()
    except TimeLimitExceeded:
        if not armed:
            raise
        _out_of_time(outcome, what)
    except Exception as error:
        where = traceback.extract_tb(error.__traceback__)[-1]
        outcome.errors.append(f"{what}: {type(error).__name__}: {error} ({where.filename}:{where.lineno})")


def _out_of_time(outcome: ClaimOutcome, what: str) -> None:
    """Record once, naming the step it happened in, that the claim used up its time limit."""
    if not any("TimeLimitExceeded" in error for error in outcome.errors):
        outcome.errors.append(
            f"{what}: TimeLimitExceeded: claim {outcome.claim.id} ran past its time limit of {time_limit():g} s "
            f"(environment variable {TIME_LIMIT_ENV}); the rest of the claim did not run"
        )
