"""What a check records (``CheckRun``) and what its runner needs of a declaration (``CheckSpec``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from checks.evidence.check.statistical import StatisticalTest
from checks.results.codec import JSON
from checks.results.records import Run


class CheckSpec(Protocol):
    """A declared check, as the harness reads it (checks.evidence.check.Check)."""

    name: str
    test: Callable[..., Any]
    dtypes: tuple[str, ...]
    backends: tuple[str, ...]
    devices: tuple[str, ...]
    uses: str | None
    batched: bool
    settings: Any
    """Hypothesis settings each run starts from (None: the loaded profile's)."""
    false_alarm: float
    """The chance that a run of a true statistical sentence fails (checks.evidence.check.statistical)."""


BACKENDS = ("numpy", "torch")


@dataclass
class CheckRun(Run):
    """What one check saw on one implementation, device and dtype: examples, worst error against its tolerance."""

    kind = "check"
    examples: int = 0
    counterexample: dict[str, JSON] | None = None
    """The input the property failed at (Hypothesis's shrunk example); an array of more than 32 entries as its
    summary (dtype, shape, range), a topic's inputs as the recipe they are made from."""
    whole_input: dict[str, JSON] | None = None
    """The arrays ``counterexample`` summarises, whole: in results.json only, never on a page."""
    closest: float | None = None
    """For a bound (``t.at_most``): the smallest limit − value over every example (negative: past the limit)."""
    statistics: StatisticalTest | None = None
    """For a statistical comparison (``t.mean_is``): the one nearest its threshold, or the one that failed."""

    unit = "examples"

    @property
    def count(self) -> int:
        return self.examples

    @property
    def label(self) -> str:
        return f"{self.implementation}: {self.name}"

    @property
    def failing_input(self) -> dict[str, JSON]:
        return self.counterexample or self.worst_input
