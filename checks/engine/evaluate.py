"""Evaluate one claim: verify its quotes, run each piece of evidence, weigh it all into the observed verdict."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import checks.written as written
from checks.claim import Claim
from checks.documents.sources import document_text
from checks.engine.discovery import repository_path
from checks.engine.limits import Guard
from checks.evidence import Dependency, kinds
from checks.evidence.base import claim_line, crash_text
from checks.results.records import ClaimRecord, EvidenceRecord, Finding
from checks.settings import extras
from checks.settings.extras import MissingExtra
from checks.verdicts import Verdict, observe
from checks.verdicts.errata import Erratum

Resolve = Callable[[str], Dependency]
"""The outcome of another claim, by id (checks.engine.outcomes evaluates each once per run)."""


class _ClaimGuard(Guard):
    """The claim's guard: a step that raises is one error line naming the claim file's innermost line on the way
    to the exception (checks.evidence.base.crash_text), not a line deep inside SymPy or torch."""

    def __init__(self, claim: Claim) -> None:
        super().__init__(claim.id)
        self.origin = claim.origin
        self.needs: list[str] = []
        """Each step that needed an extra this install lacks, with its line (checks.settings.extras): that step is
        left out, the others run, and the claim is skipped rather than judged on part of its evidence."""

    def __call__(self, what: str, action: Callable[[], object]) -> None:
        def pointed() -> None:
            try:
                action()
            except (Exception, SystemExit) as error:  # a step that exits is broken, never a vanished claim
                if isinstance(error, Exception) and (module := extras.needed(error)):
                    self.needs.append(f"{what}: {MissingExtra(module)}")
                else:
                    self.errors.append(f"{what}: {crash_text(error, self.origin)}")

        super().__call__(what, pointed)


class _Context:
    """What the engine lends each piece of evidence of one claim while it runs (checks.evidence.RunContext)."""

    def __init__(self, claim: Claim, guard: Guard, resolve: Resolve | None) -> None:
        self.claim_id, self.guard, self._resolve = claim.id, guard, resolve
        self.within_share = guard.within_share
        self.waited = 0.0
        """Seconds spent getting the outcomes of other claims (evaluating them, when no one had): not this claim's."""

    def dependency(self, claim_id: str) -> Dependency:
        if self._resolve is None:
            raise LookupError(f"{self.claim_id}: no other claims to depend on in this evaluation")
        started = time.perf_counter()
        try:
            return self._resolve(claim_id)
        finally:
            self.waited += time.perf_counter() - started


def evaluate(claim: Claim, resolve: Resolve | None = None) -> ClaimRecord:
    """Run everything the claim declares; a crash anywhere makes it broken, never refuted. A step that needs an
    extra this install lacks is left out and named in the record's ``needs``; the rest still runs and is recorded.

    The record's ``seconds`` are the claim's own: the time spent evaluating the claims it depends on is theirs
    (a derived claim is not billed for its dependencies, nor a dependency left at nothing because another claim
    evaluated it first)."""
    started = time.perf_counter()
    guard = _ClaimGuard(claim)
    context = _Context(claim, guard, resolve)
    guard("sources", lambda: [quote.verify() for quote in claim.sources])
    records: list[EvidenceRecord] = []
    if not claim.out_of_scope:
        guard.share_among(lambda: _seconds_per_call(claim))
        for evidence in sorted(claim.evidence, key=lambda e: type(e).order):
            guard(f"{evidence.kind} {evidence.name}", lambda e=evidence: records.extend(e.run(context)))
    present = [kind for kind in kinds() if any(isinstance(r, kind.record_type) for r in records)]
    mine = {kind: [r for r in records if isinstance(r, kind.record_type)] for kind in present}
    findings = [finding for kind, found in mine.items() for finding in kind.findings(found)]
    erratum = _erratum(claim, findings, guard) if claim.erratum and not guard.errors else claim.erratum
    verdict = observe(
        [kind.weigh(found) for kind, found in mine.items()],
        crashed=bool(guard.errors),
        out_of_scope=bool(claim.out_of_scope),
    )
    return ClaimRecord(
        id=claim.id,
        origin=repository_path(claim.origin),
        title=claim.title,
        statement=claim.statement,
        sources=claim.quotes,
        citations=claim.citations,
        depends=list(claim.depends),
        expected=Verdict(claim.expect),
        observed=verdict,
        out_of_scope=claim.out_of_scope,
        evidence=records,
        findings=[replace(finding, severity=severity_of(finding, claim.erratum)) for finding in findings],
        erratum=erratum,
        control=claim.control,
        topics=sorted(claim.topics),
        errors=guard.errors,
        seconds=time.perf_counter() - started - context.waited,
        date=_now(),
        needs="; ".join(guard.needs),
    )


def implementations_run(claim: Claim) -> dict[str, Any]:
    """By name, the implementations besides the references whose cells the claim's evidence runs."""
    return {adapter.name: adapter for evidence in claim.evidence for adapter in evidence.implementations()}


def _seconds_per_call(claim: Claim) -> dict[str, float]:
    """By name, each implementation of ``implementations_run`` that can run here with its seconds a call."""
    if not (adapters := implementations_run(claim)):
        return {}
    from checks.implementations.contract import seconds_per_call  # loads torch: only for a claim that runs adapters

    return seconds_per_call(adapters.values())


def _erratum(claim: Claim, findings: list[Finding], guard: Guard) -> Erratum | None:
    """The claim's erratum with its figures filled from what the findings recorded; withheld (an error of the
    claim, so broken) when it cites a value the run did not record or recorded twice with different values."""
    assert claim.erratum is not None
    values: dict[str, object] = {}
    twice: set[str] = set()
    for finding in findings:
        for name, value in finding.data.items():
            if name in values and values[name] != value:
                twice.add(name)
            values.setdefault(name, value)
    cited = claim.erratum.fields
    if ambiguous := sorted(twice & set(cited)):
        guard.errors.append(
            f"erratum withheld: {', '.join(ambiguous)} recorded by several findings with different values; "
            "give each a name of its own"
        )
        return None
    try:
        filled = claim.erratum.filled(values)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        recorded = ", ".join(sorted(values)) or "none"
        guard.errors.append(
            f"erratum withheld: it cites {{{error.args[0] if error.args else error}}}, which this run did not "
            f"record as given (recorded: {recorded})"
        )
        return None
    if problem := correction_problem(claim, filled):
        guard.errors.append(f"erratum withheld: {problem}")
        return None
    return filled


def correction_problem(claim: Claim, erratum: Erratum) -> str:
    """What fails when each corrected sentence is checked again, or empty: the document with the sentence replaced
    by its wording has no formula problem on those lines (checks.written), and each ``@claim.corrected`` check
    passes on the wording."""
    if not erratum.for_readers:
        return ""
    for sentence, wording in erratum.corrections(claim.quotes[0].text if claim.quotes else ""):
        quote = next((q for q in claim.quotes if q.text == sentence), None)
        if not wording or quote is None:
            continue
        try:
            text = document_text(quote.document)
        except (OSError, ValueError):
            continue
        if sentence in text and (problems := _written_problems(quote.document, text, sentence, wording)):
            return f"its wording of {sentence!r} {problems[0]}"
        for recheck in claim.rechecks:
            try:
                recheck(sentence, wording)
            except AssertionError as failure:
                return f"its wording of {sentence!r} fails {recheck.__name__}: {failure}"
            except Exception as error:  # a claim file's own function: one message, never a traceback
                where = claim_line(error, claim.origin)
                return f"{recheck.__name__} raised {type(error).__name__} on its wording of {sentence!r}: {error}" + (
                    f" ({where})" if where else ""
                )
    return ""


def _written_problems(document: str, text: str, sentence: str, wording: str) -> list[str]:
    """The formula problems of the lines that hold ``wording`` once it replaces ``sentence`` in the document."""
    start = text.index(sentence)
    corrected = text[:start] + wording + text[start + len(sentence) :]
    first_line = corrected.count("\n", 0, start) + 1
    last_line = first_line + wording.count("\n")
    return [
        f"(as written, line {formula.line}) {problem.kind}: {problem.detail}"
        for formula in written.review_text(document, corrected, written.code_lines(document))
        if first_line <= formula.line <= last_line
        for problem in formula.problems
    ]


def broken_file(path: Path, error: str) -> ClaimRecord:
    """The record of a claim file that could not even be loaded (its id: ``file:`` and its repository path)."""
    where = repository_path(path)
    return ClaimRecord(
        id=f"file:{where}",
        origin=where,
        title=f"claim file {where} did not load",
        statement="",
        sources=[],
        depends=[],
        expected=Verdict.PROVED,
        observed=Verdict.BROKEN,
        out_of_scope="",
        evidence=[],
        findings=[],
        errors=[error],
        seconds=0.0,
        date=_now(),
    )


def severity_of(finding: Finding, erratum: Erratum | None) -> str:
    """A finding's own severity: an implementation departing from the statement is an implementation finding
    whatever the claim's erratum says of the document's sentence; a condition or counterexample is what that
    erratum is about."""
    if finding.kind == "implementation":
        return "implementation"
    return erratum.severity if erratum else ""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def dependency_of(record: ClaimRecord) -> Dependency:
    """What a derivation sees of an evaluated claim."""
    return Dependency(record.id, record.observed, [Finding(f.kind, f.text, dict(f.data)) for f in record.findings])


__all__ = ["Resolve", "broken_file", "dependency_of", "evaluate", "implementations_run", "repository_path"]
