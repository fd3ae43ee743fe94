"""Symbolic proof: ``@claim.proof`` functions fill one ``checks.symbolic.Proof`` (decisions with certificates)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from checks.evidence.base import Declaring, Evidence, RunContext
from checks.evidence.display import presentation
from checks.results.records import EvidenceRecord, Finding
from checks.verdicts import Weight

if TYPE_CHECKING:
    import sympy as sp

    from checks.symbolic import Decision, Proof

ProofStatus = Literal["proved", "refuted", "unknown"]


@dataclass
class ProofStep:
    """A displayed step: its label (two leading spaces: a step of the decision above), text and MathML."""

    label: str
    text: str
    mathml: str
    checked: bool = False
    """Part of a decision or fact the machine checked; otherwise an explanation that carries no verdict."""


@dataclass
class CertificateRecord:
    """polynomial = ε + Σ weight × square² + Σ quotient × relation, and whether re-expanding it confirmed that.

    An identity's (``relation`` "=") has no squares and ε = 0; an inequality's proves polynomial ≥ 0 or > 0.
    """

    polynomial: str
    relations: list[str]
    quotients: list[str]
    verified: bool
    relation: str = "="
    kernel: str = ""
    """The checker that re-checked it by multiplying out (checks.symbolic.kernel); empty in older results."""
    weights: list[str] = field(default_factory=list)
    squares: list[str] = field(default_factory=list)
    epsilon: str = "0"


@dataclass
class DecisionRecord:
    """One decided identity; ``expected`` "refuted" when the claim shows that it fails."""

    expected: ProofStatus
    status: ProofStatus
    statement: str
    mathml: str
    reason: str
    witness: dict[str, str] | None
    conditions: list[str]
    certificates: list[CertificateRecord]
    methods: list[str] = field(default_factory=list)
    """How it was decided (checks.symbolic.decision.METHODS keys), in the order used; empty in older results."""


@dataclass
class FactRecord:
    """A structural fact checked exactly (e.g. "M_k contains no pos")."""

    label: str
    holds: bool


@dataclass
class ProofRecord(EvidenceRecord):
    """The claim's symbolic argument: proved only if every decision is, never on "unknown"."""

    kind = "proof"
    status: ProofStatus
    seconds: float
    steps: list[ProofStep] = field(default_factory=list)
    facts: list[FactRecord] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    decisions: list[DecisionRecord] = field(default_factory=list)
    witness: dict[str, str] | None = None
    """The witness of a refuted decision (the claim's counterexample)."""
    gaps: list[str] = field(default_factory=list)
    """Steps the argument needs that nothing checked (``p.unchecked``): the proof is then unknown."""
    assumptions: list[str] = field(default_factory=list)
    """What the argument takes as given (``p.assume``), shown beside its status."""

    def methods(self) -> list[tuple[str, str]]:
        """(method, what it does) for each way its decisions were reached, in the order first used (what its page
        explains)."""
        from checks.symbolic.decision import METHODS

        used = dict.fromkeys(method for decision in self.decisions for method in decision.methods)
        return [(method, METHODS.get(method, method)) for method in used]

    def outline(self) -> list[tuple[ProofStep, list[ProofStep]]]:
        """Top-level steps, each with the decision's own steps under it (labels indented by two spaces)."""
        outline: list[tuple[ProofStep, list[ProofStep]]] = []
        for step in self.steps:
            if step.label.startswith("  ") and outline:
                outline[-1][1].append(ProofStep(step.label.strip(), step.text, step.mathml, step.checked))
            else:
                outline.append((ProofStep(step.label.strip(), step.text, step.mathml, step.checked), []))
        return outline


class SymbolicProof(Evidence):
    """Every ``@claim.proof`` function of a claim, run in order on one shared Proof."""

    kind, order = "proof", 10
    title = "Symbolic proof"
    template = "evidence/proof.html.j2"
    record_type = ProofRecord

    def __init__(self) -> None:
        self.name = "proof"
        self.functions: list[Callable[[Proof], object]] = []

    @classmethod
    def declare(cls, claim: Declaring, function: Callable[[Proof], object]) -> Callable[[Proof], object]:
        """Decorate ``def _(p: Proof)``: the symbolic argument (p.decide, p.refute, p.free_of, p.step)."""
        proofs = claim.declared(cls)
        proof = proofs[0] if proofs else claim.add(cls())
        proof.functions.append(function)
        return function

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        from checks.symbolic import Proof

        proof = Proof()
        started = time.perf_counter()
        for function in self.functions:
            context.guard(f"proof {getattr(function, '__name__', '_')}", lambda function=function: function(proof))
        return [record_of(proof, time.perf_counter() - started)]

    @classmethod
    def status_of(cls, records: Sequence[EvidenceRecord]) -> str | None:
        return next((record.status for record in records if isinstance(record, ProofRecord)), None)

    @classmethod
    def explain(cls, records: Sequence[EvidenceRecord]) -> list[str]:
        """Each unknown decision's reason, each refutation's witness, each unchecked step."""
        lines = []
        for proof in (record for record in records if isinstance(record, ProofRecord)):
            for decision in proof.decisions:
                if decision.status == decision.expected:
                    continue
                what = f"proof: {decision.statement}: {decision.status}"
                if decision.expected == "refuted":
                    what += " (the claim expects it refuted)"
                if decision.reason:
                    what += f"; {decision.reason}"
                if decision.witness:
                    point = ", ".join(f"{key} = {value}" for key, value in decision.witness.items())
                    what += f"; witness ({point[:400]})"
                lines.append(what)
            lines += [f"proof rests on an unchecked step: {gap}" for gap in proof.gaps]
        return lines

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        statuses = {record.status for record in records if isinstance(record, ProofRecord)}
        return Weight(refutes="refuted" in statuses, support="proved" if statuses == {"proved"} else None)

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return [
            Finding("counterexample", "the symbolic decision refutes the identity", dict(record.witness or {}))
            for record in records
            if isinstance(record, ProofRecord) and record.status == "refuted"
        ]


def record_of(proof: Proof, seconds: float) -> ProofRecord:
    """The record of a filled-in Proof: every expression as text and as presentation MathML."""
    decisions = [_decision(d, "proved") for d in proof.decisions]
    decisions += [_decision(d, "refuted") for d in proof.refutations]
    return ProofRecord(
        status=proof.status,
        seconds=seconds,
        steps=[ProofStep(step.label, _text(step.expr), presentation(step.expr), step.checked) for step in proof.steps],
        facts=[FactRecord(fact.label, fact.holds) for fact in proof.facts],
        conditions=list(proof.conditions),
        decisions=decisions,
        witness=proof.witness,
        gaps=list(proof.gaps),
        assumptions=list(proof.assumptions),
    )


def _decision(decision: Decision, expected: ProofStatus) -> DecisionRecord:
    from checks.symbolic.kernel import NAME as KERNEL  # sympy is loaded by now: a decision is made of it

    equation = decision.statement
    return DecisionRecord(
        expected=expected,
        status=decision.status,
        statement=_text(equation),
        mathml=presentation(equation),
        reason=decision.reason,
        witness=decision.witness,
        conditions=list(decision.conditions),
        methods=list(decision.methods),
        certificates=[
            CertificateRecord(
                polynomial=_text(c.polynomial),
                relations=[_text(r) for r in c.relations],
                quotients=[_text(q) for q in c.quotients],
                verified=c.verify(),
                relation=c.relation,
                kernel=KERNEL,
                weights=[_text(w) for w in c.weights],
                squares=[_text(f) for f in c.squares],
                epsilon=_text(c.epsilon),
            )
            for c in decision.certificates
        ],
    )


def _text(expr: sp.Basic) -> str:
    import sympy as sp

    return sp.sstr(expr)
