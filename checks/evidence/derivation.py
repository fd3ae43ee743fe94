"""Derivation: a verdict taken from the claims a claim depends on (``Claim(depends=[...])``, ``@claim.derive``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from checks.evidence.base import Declaring, Dependency, Evidence, RunContext
from checks.evidence.probe import Recorder
from checks.results.codec import JSON
from checks.results.records import EvidenceRecord, Finding
from checks.verdicts import Verdict, Weight

Derive = Callable[[Recorder, dict[str, Dependency]], Verdict | str]


@dataclass
class DerivationRecord(EvidenceRecord):
    """The dependencies' verdicts as the derivation saw them, and the verdict it took from them."""

    kind = "derivation"
    name: str
    dependencies: dict[str, Verdict]
    verdict: Verdict
    measurements: dict[str, JSON] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


class Derivation(Evidence):
    """``def _(r, dependencies) -> verdict``: ``dependencies`` maps each id in ``depends`` to its outcome."""

    kind, order = "derivation", 50
    title = "Derived from other claims"
    template = "evidence/derivation.html.j2"
    record_type = DerivationRecord

    def __init__(self, depends: list[str], function: Derive) -> None:
        self.name = f"derived from {', '.join(depends)}"
        self.depends, self.function = list(depends), function

    @classmethod
    def declare(cls, claim: Declaring, function: Derive) -> Derive:
        """Decorate ``def _(r, dependencies)``: each dependency's ``.verdict`` and ``.findings``; r records as a
        probe's does. The dependencies are evaluated once per run (also across pytest-xdist workers)."""
        if not claim.depends:
            raise ValueError(f"{claim.id}: a derived claim must name the claims it depends on")
        if claim.declared(cls):
            raise ValueError(f"{claim.id}: a claim takes its verdict from one derivation")
        claim.add(cls(claim.depends, function))
        return function

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        dependencies = {claim_id: context.dependency(claim_id) for claim_id in self.depends}
        recorder = Recorder(self.name)
        verdict = Verdict(self.function(recorder, dependencies))
        return [
            DerivationRecord(
                name=self.name,
                dependencies={claim_id: d.verdict for claim_id, d in dependencies.items()},
                verdict=verdict,
                measurements=recorder.record.measurements,
                findings=recorder.record.findings,
            )
        ]

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        verdicts = [record.verdict for record in records if isinstance(record, DerivationRecord)]
        return Weight(decides=verdicts[0] if verdicts else None)

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return [f for record in records if isinstance(record, DerivationRecord) for f in record.findings]
