"""A claim: the quoted sentence, the statement, its proof, its checks, its expected verdict."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.sources import Quote
from checks.sweeps import Sweep
from checks.tolerances import FLOATS
from checks.verdicts import Verdict

CLAIM_ID = re.compile(r"^[a-z0-9]+(?:[.-][a-z0-9]+)+$")
IMPLEMENTATIONS = ("numpy", "torch")
DEVICES = ("cpu", "cuda")


@dataclass(frozen=True)
class Check:
    """A Hypothesis property run per implementation × device × dtype."""

    name: str
    test: Callable[..., Any]
    dtypes: tuple[str, ...]
    implementations: tuple[str, ...]
    devices: tuple[str, ...]
    uses: str | None = None
    """A capability (sinusoidal, rope, attention): run against every registered implementation offering it."""


@dataclass(frozen=True)
class Probe:
    """A measurement that may record findings (a boundary, a counterexample)."""

    name: str
    measure: Callable[..., Any]


@dataclass
class Claim:
    """One checkable statement of a document.

    ``expect`` is the verdict this file says the evidence gives; CI fails
    when the observed verdict differs.
    """

    id: str
    title: str
    statement: str
    sources: list[Quote]
    expect: Verdict | str
    depends: list[str] = field(default_factory=list)
    out_of_scope: str = ""
    proofs: list[Callable[..., Any]] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    sweeps: list[Sweep] = field(default_factory=list)
    derivation: Callable[..., Any] | None = None
    origin: Path | None = None
    """The file that declared the claim (set when it is loaded)."""

    def __post_init__(self) -> None:
        if not CLAIM_ID.match(self.id):
            raise ValueError(f"claim id {self.id!r} must look like 'pe.constant-norm'")
        self.expect = Verdict(self.expect)
        if not self.sources:
            raise ValueError(f"claim {self.id} quotes no source sentence")

    def proof(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Decorate ``def _(p: Proof)``: the symbolic argument."""
        self.proofs.append(function)
        return function

    def check(
        self,
        dtypes: tuple[str, ...] = FLOATS,
        implementations: tuple[str, ...] = IMPLEMENTATIONS,
        devices: tuple[str, ...] = DEVICES,
        uses: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorate a ``@given`` test ``def _(t, ...)`` run on every device and dtype.

        Without ``uses``, ``t.impl`` is the project's reference on each backend in ``implementations``.
        With ``uses="rope"`` (or sinusoidal, attention), the check concerns an implementation: it runs
        against every registered implementation offering that capability, ``t.impl`` being the adapter
        (checks.implementations) and ``t.ref`` the reference; only the references decide the verdict.
        """

        def register(test: Callable[..., Any]) -> Callable[..., Any]:
            if not hasattr(test, "hypothesis"):
                raise TypeError(f"{self.id}: a check must be decorated with @given first")
            name = _name(test, len(self.checks))
            self.checks.append(Check(name, test, dtypes, implementations, devices, uses))
            return test

        return register

    def sweep(
        self, dtypes: tuple[str, ...] = FLOATS, d_models: tuple[int, ...] = (64, 512, 4096), positions: int = 65_536
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorate ``def _(s, positions, d_model)``: a dense grid checked as one chunked tensor program.

        Positions stop at ``positions``, at the dtype's meaningful limit (checks.tolerances.position_limit)
        and at the profile's budget of positions × d_model (checks.profiles.SWEEP_ELEMENTS).
        """

        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            self.sweeps.append(Sweep(_name(function, len(self.sweeps)), function, dtypes, d_models, positions))
            return function

        return register

    def probe(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Decorate ``def _(r: ProbeRecord)``: a measurement that records findings."""
        self.probes.append(Probe(_name(function, len(self.probes)), function))
        return function

    def derive(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Decorate ``def _(r, verdicts) -> verdict``: a verdict taken from the claims in ``depends``.

        ``verdicts`` maps each id in ``depends`` to its observed Verdict; ``r`` records
        findings and measurements as in a probe.
        """
        if not self.depends:
            raise ValueError(f"{self.id}: a derived claim must name the claims it depends on")
        self.derivation = function
        return function


def _name(function: Callable[..., Any], index: int) -> str:
    name = function.__name__
    doc = (function.__doc__ or "").strip().splitlines()
    if name == "_" and doc:
        return doc[0]
    return name if name != "_" else f"#{index + 1}"
