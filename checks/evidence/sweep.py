"""Dense sweep: equations checked at every point of a grid (positions × offsets × pairs), chunked by the engine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from checks.evidence.base import RunContext, RunEvidence, name_of
from checks.helpers.tolerances import FLOATS
from checks.results.records import EvidenceRecord, Run

if TYPE_CHECKING:
    from checks.engine.claim import Claim


@dataclass
class Equation:
    """One equation a sweep checks at every grid point, and the tolerance it is held to."""

    label: str
    tolerance: str
    """e.g. "atol + rtol · (pos + k)", or "|value| ≤ 1"."""


@dataclass
class SweepRun(Run):
    """What one sweep saw on one device, dtype and d_model: cases checked, the worst against its tolerance."""

    kind = "sweep"
    d_model: int = 0
    positions: int = 0
    """Positions 0 … positions − 1 were swept."""
    offsets: int = 0
    """Offsets k = 1 … offsets at each position (0: none)."""
    cases: int = 0
    """Scalar equations checked: every equation at every grid point."""
    cases_per_second: float = 0.0
    equations: list[Equation] = field(default_factory=list)
    worst_equation: str = ""

    unit = "grid cases"

    @property
    def count(self) -> int:
        return self.cases

    @property
    def detail(self) -> str:
        return f"d_model={self.d_model}"

    @property
    def order(self) -> tuple[int, ...]:
        return (self.d_model,)

    @property
    def label(self) -> str:
        return f"sweep {self.name} ({self.device} {self.dtype} d_model={self.d_model}, {self.worst_equation})"


class Sweep(RunEvidence):
    """``def _(s)``: the equations, stated on the grid tools ``s`` (checks.engine.sweep_grid.Grid)."""

    kind, decorator, order = "sweep", "sweep", 30
    title = "Dense sweeps"
    template = "evidence/sweep.html.j2"
    record_type = SweepRun

    def __init__(
        self,
        name: str,
        function: Callable[[Any], object],
        dtypes: tuple[str, ...],
        d_models: tuple[int, ...],
        positions: int,
        offsets: int,
    ) -> None:
        self.name, self.function, self.dtypes = name, function, dtypes
        self.d_models, self.positions, self.offsets = d_models, positions, offsets

    @classmethod
    def declare(
        cls,
        claim: Claim,
        dtypes: tuple[str, ...] = FLOATS,
        d_models: tuple[int, ...] = (64, 512, 4096),
        positions: int = 65_536,
        offsets: int = 0,
    ) -> Callable[[Callable[[Any], object]], Callable[[Any], object]]:
        """Decorate ``def _(s)``: the grid positions × pairs (× offsets k = 1 … ``offsets``), per device and dtype.

        Positions stop at ``positions``, at the dtype's meaningful limit (checks.helpers.tolerances.position_limit)
        and at the profile's budget of positions × d_model (checks.engine.profiles.SWEEP_ELEMENTS).
        """

        def register(function: Callable[[Any], object]) -> Callable[[Any], object]:
            name = name_of(function, len(claim.declared(cls)))
            claim.add(cls(name, function, tuple(dtypes), tuple(d_models), positions, offsets))
            return function

        return register

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        from checks.engine.sweeps import run_sweep

        return list(run_sweep(self))
