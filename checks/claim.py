"""A claim: the quoted sentence, the statement, the evidence it declares, its expected verdict.

Part of the public face for claim files (``from checks import Claim`` is the usual spelling)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from checks.documents.sources import Citation, Quote, Source
from checks.evidence import Evidence
from checks.evidence.check import BACKENDS, Check
from checks.evidence.check.statistical import FALSE_ALARM
from checks.evidence.derivation import Derivation, Derive
from checks.evidence.experiment import Design, Experiment, TrialFunction
from checks.evidence.probe import Probe, Recorder
from checks.evidence.proof import SymbolicProof
from checks.evidence.sweep import Sweep
from checks.numerics.devices import DEVICES
from checks.numerics.tolerances import FLOATS
from checks.verdicts import Verdict
from checks.verdicts.errata import AGREES_WITH, SEVERITIES, Erratum

CLAIM_ID = re.compile(r"[a-z0-9]+(?:[.-][a-z0-9]+)+")
E = TypeVar("E", bound=Evidence)
F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Claim:
    """One checkable statement of a document.

    ``expect`` is the verdict this file says the evidence gives; CI fails when the observed verdict
    differs. Evidence is declared with its decorators: ``@claim.proof``, ``@claim.check(...)``,
    ``@claim.sweep(...)``, ``@claim.probe``, ``@claim.derive``, ``@claim.experiment(design)``; a kind
    defined elsewhere with ``claim.declare(kind, ...)``.
    """

    id: str
    title: str
    statement: str
    sources: list[Source]
    """Quotes of the documents of sources/ and citations of published works (at least one)."""
    expect: Verdict | str
    depends: list[str] = field(default_factory=list)
    out_of_scope: str = ""
    erratum: Erratum | None = None
    """For a refuted or qualified claim: the severity, what is wrong, and the corrected wording
    (checks.verdicts.errata)."""
    control: str = ""
    """A control: a reading the document does not make (a deliberately wrong variant, a misconception it warns
    against), and why it must be refuted. A control expects refuted, has no erratum, and neither colours the
    sentences it quotes nor counts as an erratum or as their check."""
    evidence: list[Evidence] = field(default_factory=list)
    origin: Path | None = None
    """The file that declared the claim (set when it is loaded)."""
    rechecks: list[Callable[[str, str], object]] = field(default_factory=list, repr=False)
    """``@claim.corrected`` functions: each checks a corrected sentence as the evidence checked the original."""

    def __post_init__(self) -> None:
        if not CLAIM_ID.fullmatch(self.id):
            raise ValueError(f"claim id {self.id!r} must look like 'pe.constant-norm'")
        try:
            self.expect = Verdict(self.expect)
        except ValueError:
            valid = ", ".join(verdict.value for verdict in Verdict)
            raise ValueError(f"{self.expect!r} is not a valid Verdict; expect one of: {valid}") from None
        if not self.sources:
            raise ValueError(
                f"claim {self.id} has no source: give a Quote of sources/ or a Citation of a published work"
            )
        texts = [s.text for s in self.sources if isinstance(s, Quote | Citation)]
        named = [self.erratum.sentence, self.erratum.stated_by, *self.erratum.also] if self.erratum is not None else []
        if strangers := [sentence for sentence in named if sentence and sentence not in texts]:
            raise ValueError(f"claim {self.id}: its erratum names a sentence it does not quote: {strangers[0]!r}")
        if self.erratum is not None and not self.erratum.agrees_with(self.expect):
            agreeing = [s for s, verdicts in AGREES_WITH.items() if self.expect in verdicts]
            raise ValueError(
                f"claim {self.id}: a {self.erratum.severity} erratum says '{SEVERITIES[self.erratum.severity]}', "
                f"which an expected verdict {self.expect} contradicts; "
                + (f"its severity is one of {', '.join(agreeing)}" if agreeing else f"a {self.expect} claim has none")
            )
        if self.erratum is not None:
            try:
                self.erratum.fields  # noqa: B018 - parsed now, so a malformed field fails at declaration
            except ValueError as error:
                raise ValueError(f"claim {self.id}: {error}") from None
        if self.control and (self.expect != Verdict.REFUTED or self.erratum is not None):
            raise ValueError(
                f"claim {self.id}: a control (a reading the document does not make) expects refuted and has no "
                f"erratum; this one expects {self.expect}" + (" and has an erratum" if self.erratum else "")
            )
        strangers = [s for s in self.sources if not isinstance(s, Quote | Citation)]
        if strangers:
            raise ValueError(
                f"claim {self.id}: a source must be a Quote or a Citation, not {type(strangers[0]).__name__}"
            )

    @property
    def quotes(self) -> list[Quote]:
        return [source for source in self.sources if isinstance(source, Quote)]

    @property
    def topics(self) -> set[str]:
        """The topics its evidence runs against the registered implementations (``uses=``)."""
        return {
            uses
            for evidence in self.evidence
            if evidence.examines_implementations() and (uses := getattr(evidence, "uses", None))
        }

    @property
    def citations(self) -> list[Citation]:
        return [source for source in self.sources if isinstance(source, Citation)]

    def proof(self, function: F) -> F:
        """``def _(p)``: the symbolic argument (p.decide, p.refute, p.free_of, p.step; checks.symbolic.Proof)."""
        return SymbolicProof.declare(self, function)

    def check(
        self,
        test: F | None = None,
        *,
        dtypes: tuple[str, ...] = FLOATS,
        backends: tuple[str, ...] = BACKENDS,
        devices: tuple[str, ...] = DEVICES,
        uses: str | None = None,
        batched: bool = False,
        settings: Any = None,
        false_alarm: float = FALSE_ALARM,
    ) -> Any:
        """A ``@given`` property ``def _(t, ...)`` run per implementation × device × dtype (see ``Check.declare``):
        ``@claim.check`` on every float dtype, backend and device, or ``@claim.check(dtypes=..., uses="rope")``;
        ``settings=`` a ``hypothesis.settings`` every run starts from instead of the loaded profile's;
        ``false_alarm=`` the chance that a run of a true statistical sentence fails (``t.mean_is``)."""
        register = Check.declare(self, dtypes, backends, devices, uses, batched, settings, false_alarm)
        return register if test is None else register(test)

    def sweep(
        self,
        *,
        dtypes: tuple[str, ...] = FLOATS,
        d_models: tuple[int, ...] = (64, 512, 4096),
        positions: int = 65_536,
        offsets: int = 0,
    ) -> Callable[[F], F]:
        """``def _(s)``: equations checked at every point of a dense grid (see ``Sweep.declare``)."""
        return Sweep.declare(self, dtypes, d_models, positions, offsets)

    def probe(self, function: Callable[[Recorder], object] | None = None, *, uses: str | None = None) -> Any:
        """``def _(r)``: a measurement run once (r.measure, r.condition, r.counterexample, r.figure).

        ``@claim.probe(uses="rope")``: the probe examines the registered implementations of that capability
        (``r.implementations("rope")``)."""
        return Probe.declare(self, function, uses=uses)

    def derive(self, function: Derive) -> Derive:
        """``def _(r, dependencies)``: the verdict taken from the claims named in ``depends``."""
        return Derivation.declare(self, function)

    def experiment(self, design: Design) -> Callable[[TrialFunction], TrialFunction]:
        """``def _(arm, regime, seed, log) -> float``: one arm of a designed, seeded experiment."""
        return Experiment.declare(self, design)

    def corrected(self, function: Callable[[str, str], object]) -> Callable[[str, str], object]:
        """``def _(sentence, wording)``: check the erratum's corrected wording of ``sentence`` as the evidence
        checked the sentence (raise AssertionError saying what fails); a failure withholds the erratum."""
        self.rechecks.append(function)
        return function

    def declare(self, kind: type[Evidence], *args: Any, **options: Any) -> Any:
        """Evidence of a kind defined outside checks/evidence (``checks.evidence.register``)."""
        return kind.declare(self, *args, **options)

    def add(self, evidence: E) -> E:
        """Add a piece of evidence (what the decorators do)."""
        self.evidence.append(evidence)
        return evidence

    def declared(self, kind: type[E]) -> list[E]:
        """The evidence of one kind this claim declares, in declaration order."""
        return [e for e in self.evidence if isinstance(e, kind)]


__all__ = ["Claim"]
