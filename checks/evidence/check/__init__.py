"""Numeric check: a Hypothesis property run per implementation × device × dtype (checks.evidence.check.harness)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from checks.evidence.base import Declaring, RunContext, RunEvidence, name_of
from checks.evidence.check.given import inputs_of
from checks.evidence.check.record import BACKENDS, CheckRun, CheckSpec
from checks.evidence.check.statistical import FALSE_ALARM, Plan
from checks.numerics.devices import DEVICES
from checks.numerics.tolerances import FLOATS
from checks.results.records import EvidenceRecord


class Check(RunEvidence):
    """A ``@given`` property ``def _(t, ...)`` and where it runs."""

    kind, order = "check", 20
    title = "Numeric checks"
    template = "evidence/check.html.j2"
    record_type = CheckRun

    def __init__(
        self,
        name: str,
        test: Callable[..., Any],
        dtypes: tuple[str, ...],
        backends: tuple[str, ...],
        devices: tuple[str, ...],
        uses: str | None,
        batched: bool = False,
        settings: Any = None,
        false_alarm: float = FALSE_ALARM,
    ) -> None:
        self.name, self.test, self.dtypes, self.backends, self.devices, self.uses = (
            name,
            test,
            dtypes,
            backends,
            devices,
            uses,
        )
        self.batched = batched
        self.settings = settings
        """Hypothesis settings every run starts from (None: the loaded profile's)."""
        self.false_alarm = false_alarm
        """The chance that a run of a true statistical sentence fails (checks.evidence.check.statistical)."""

    @classmethod
    def declare(
        cls,
        claim: Declaring,
        dtypes: tuple[str, ...] = FLOATS,
        backends: tuple[str, ...] = BACKENDS,
        devices: tuple[str, ...] = DEVICES,
        uses: str | None = None,
        batched: bool = False,
        settings: Any = None,
        false_alarm: float = FALSE_ALARM,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorate a ``@given`` test ``def _(t, ...)``, run on every device and dtype.

        Without ``uses``, ``t.impl`` is the project's reference on each of ``backends``. With
        ``uses="rope"`` (a topic's name: checks.topics) the check concerns an implementation: it runs
        against every registered implementation offering that capability; only the references'
        runs decide the verdict, the others fill the claims × implementations matrix.

        ``batched=True``: the property draws a ``Batch`` (checks.helpers.variable_strategies.position_batches) and
        compares one row per example; under thorough each of its 100 test cases holds 100 examples
        (checks.evidence.check.harness).

        ``false_alarm``: for a statistical check (``t.mean_is``, ``t.variance_is``), the chance that one run of a true
        sentence fails; each comparison's threshold is fixed from it before the run
        (checks.evidence.check.statistical).
        """
        from checks.implementations.topic_records import names

        Plan(false_alarm)  # a rate outside (0, 1) is refused where the claim declares it
        unknown = set(backends) - set(BACKENDS) or ({uses} - {None, *names()})
        if unknown:
            raise ValueError(
                f"{claim.id}: {sorted(map(str, unknown))} not among the backends {BACKENDS} and the topics {names()}"
            )

        def register(test: Callable[..., Any]) -> Callable[..., Any]:
            if inputs_of(test) is None:
                hypothesis_own = " (Hypothesis's own @given runs by itself: use checks.given)"
                raise TypeError(
                    f"{claim.id}: a check must be decorated with @given from checks (checks.given) first"
                    + (hypothesis_own if getattr(test, "is_hypothesis_test", False) else "")
                )
            name = name_of(test, len(claim.declared(cls)))
            claim.add(
                cls(name, test, tuple(dtypes), tuple(backends), tuple(devices), uses, batched, settings, false_alarm)
            )
            return test

        return register

    def examines_implementations(self) -> bool:
        return self.uses is not None

    def implementations(self) -> list[Any]:
        from checks.evidence.check.runner import implementations

        return implementations(self)

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        from checks.evidence.check.runner import run_check  # the runner loads Hypothesis and torch: not the report

        return list(run_check(self, context.within_share))


__all__ = ["BACKENDS", "Check", "CheckRun", "CheckSpec"]
