"""Dense sweep: equations checked at every point of a grid (positions × offsets × pairs), chunked by the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checks.evidence.base import Declaring, RunContext, RunEvidence, name_of
from checks.evidence.sweep.record import Equation, SweepRun, SweepSpec
from checks.numerics.tolerances import FLOATS
from checks.results.records import EvidenceRecord


class Sweep(RunEvidence):
    """``def _(s)``: the equations, stated on the grid tools ``s`` (checks.evidence.sweep.grid.Grid)."""

    kind, order = "sweep", 30
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
        claim: Declaring,
        dtypes: tuple[str, ...] = FLOATS,
        d_models: tuple[int, ...] = (64, 512, 4096),
        positions: int = 65_536,
        offsets: int = 0,
    ) -> Callable[[Callable[[Any], object]], Callable[[Any], object]]:
        """Decorate ``def _(s)``: the grid positions × pairs (× offsets k = 1 … ``offsets``), per device and dtype.

        Positions stop at ``positions``, at the dtype's meaningful limit (checks.numerics.tolerances.position_limit)
        and at the profile's budget of positions × d_model (checks.settings.profiles.SWEEP_ELEMENTS).
        """

        def register(function: Callable[[Any], object]) -> Callable[[Any], object]:
            name = name_of(function, len(claim.declared(cls)))
            claim.add(cls(name, function, tuple(dtypes), tuple(d_models), positions, offsets))
            return function

        return register

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        from checks.evidence.sweep.runner import run_sweep

        return list(run_sweep(self))


__all__ = ["Equation", "Sweep", "SweepRun", "SweepSpec"]
