"""Probe: a measurement ``def _(r)`` that records findings (a boundary, a counterexample), values and figures."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from checks.evidence.base import Declaring, Evidence, RunContext, name_of
from checks.results.codec import JSON, plain
from checks.results.records import EvidenceRecord, Figure, Finding, FindingKind, Series
from checks.verdicts import Weight

FIGURE_KINDS = ("lines", "scatter", "heatmap", "intervals")


@dataclass
class ProbeRecord(EvidenceRecord):
    """What one probe measured and found."""

    kind = "probe"
    name: str
    seconds: float = 0.0
    measurements: dict[str, JSON] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)


class Recorder:
    """The ``r`` a probe (or a derivation) receives: it records findings, measurements and figures."""

    def __init__(self, name: str, uses: str | None = None) -> None:
        self.record = ProbeRecord(name)
        self.uses = uses

    def condition(self, text: str, **data: Any) -> None:
        """The statement needs a condition the document does not state: the verdict becomes qualified."""
        self._find("condition", text, data)

    def counterexample(self, text: str, **data: Any) -> None:
        """The statement is false as written, here: the verdict becomes refuted."""
        self._find("counterexample", text, data)

    def implementation(self, text: str, **data: Any) -> None:
        """An implementation under test (not the document) gets something wrong: a matrix cell, not the verdict."""
        self._find("implementation", text, data)

    def measure(self, key: str, value: Any) -> None:
        """A measured value (numbers, text, lists and mappings of them), shown as measured."""
        self.record.measurements[key] = plain(value)

    def figure(self, name: str | Figure, kind: str = "", title: str = "", alt: str = "", **data: Any) -> None:
        """Data for a figure the report draws: a ``Figure`` built by checks.figures (``lines``, ``scatter``,
        ``heatmap``), or its fields as plain data (see checks.results.Figure). Measured here, drawn there."""
        if isinstance(name, Figure):
            self.record.figures.append(name)
            return
        if kind not in FIGURE_KINDS:
            raise ValueError(f"figure kind {kind!r} is not one of {', '.join(FIGURE_KINDS)}")
        data = plain(data)
        data["series"] = {str(label): Series(**points) for label, points in data.get("series", {}).items()}
        self.record.figures.append(Figure(name, kind, title, alt, **data))  # type: ignore[arg-type]

    def implementations(self, capability: str) -> list[Any]:
        """Every registered implementation adapter offering ``capability`` (sinusoidal, rope, attention): the probe
        declares it, ``@claim.probe(uses=capability)``, so that runs of the implementation claims include it."""
        if capability != self.uses:
            raise ValueError(
                f"probe {self.record.name!r} asks for the {capability} implementations but declares "
                f"uses={self.uses!r}: write @claim.probe(uses={capability!r})"
            )
        from checks.implementations.registry import offering

        return offering(capability)

    @contextmanager
    def guarded(self, adapter: Any, capability: str) -> Iterator[None]:
        """Around what a probe does with one implementation: whatever another implementation raises ends
        that block only, as its finding (naming it, the capability, the input and the exception); an input
        outside its declared domain is noted as skipped. The project's own references are not guarded: a
        crash there breaks the claim.
        """
        from checks.implementations.base import ImplementationFailure, OutsideDomain, is_reference

        if is_reference(adapter):
            yield
            return
        try:
            yield
        except OutsideDomain as outside:
            self.record.measurements.setdefault("skipped", {})[adapter.name] = outside.reason
        except ImplementationFailure as failure:
            self.implementation(str(failure), implementation=adapter.name, capability=capability)
        except Exception as error:
            self.implementation(
                f"{adapter.name}.{capability}: probing it failed with {type(error).__name__}: {error}",
                implementation=adapter.name,
                capability=capability,
            )

    @property
    def findings(self) -> list[Finding]:
        return self.record.findings

    def _find(self, kind: FindingKind, text: str, data: dict[str, Any]) -> None:
        self.record.findings.append(Finding(kind, text, plain(data)))


class Probe(Evidence):
    """A measurement run once per claim evaluation."""

    kind, order = "probe", 40
    title = "Probes and measurements"
    template = "evidence/probe.html.j2"
    record_type = ProbeRecord

    def __init__(self, name: str, measure: Callable[[Recorder], object], uses: str | None = None) -> None:
        self.name, self.measure, self.uses = name, measure, uses

    @classmethod
    def declare(
        cls, claim: Declaring, function: Callable[[Recorder], object] | None = None, *, uses: str | None = None
    ) -> Any:
        """Decorate ``def _(r)``: r.measure, r.condition, r.counterexample, r.implementation, r.figure.

        ``@claim.probe(uses="rope")``: the probe examines the registered implementations of a capability."""

        def register(measure: Callable[[Recorder], object]) -> Callable[[Recorder], object]:
            claim.add(cls(name_of(measure, len(claim.declared(cls))), measure, uses))
            return measure

        return register if function is None else register(function)

    def examines_implementations(self) -> bool:
        return self.uses is not None

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        recorder = Recorder(self.name, self.uses)
        started = time.perf_counter()
        self.measure(recorder)
        recorder.record.seconds = time.perf_counter() - started
        return [recorder.record]

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        return weigh_findings(cls.findings(records), ran=bool(records))

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return [f for record in records if isinstance(record, ProbeRecord) for f in record.findings]


def weigh_findings(findings: Sequence[Finding], ran: bool) -> Weight:
    """Counterexamples refute, conditions qualify; a measurement that ran is structural support."""
    kinds = {finding.kind for finding in findings}
    return Weight(refutes="counterexample" in kinds, qualifies="condition" in kinds, support="holds" if ran else None)
