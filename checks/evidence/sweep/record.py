"""What a sweep records (``SweepRun``, its ``Equation``s) and what its runner needs of a declaration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from checks.results.records import Run


class SweepSpec(Protocol):
    """A declared sweep, as its runner reads it (checks.evidence.sweep.Sweep)."""

    name: str
    function: Callable[[Any], object]
    dtypes: tuple[str, ...]
    d_models: tuple[int, ...]
    positions: int
    offsets: int


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
