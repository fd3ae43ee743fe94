"""The ``t`` a check receives: the backend, the implementation under test, the tolerance and the comparators."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from checks.evidence.check.record import CheckRun
from checks.evidence.check.rows import BeyondResolution, Rows, shown
from checks.evidence.check.statistical import Plan, StatisticalTest, StatisticalUse, z_test
from checks.implementations.base import Implementation
from checks.numerics.backends import Backend
from checks.numerics.batch import Batch
from checks.numerics.domain import Domain
from checks.numerics.reference_implementations import Reference
from checks.numerics.tolerances import Tolerance, tolerance


class VacuousTolerance(RuntimeError):
    """The tolerance is as wide as the quantity's range: the comparison could not fail."""


class Trial:
    """The ``t`` a check receives: backend, implementation, tolerance, recorder.

    In a batched check (an example holding a ``Batch``) every comparison is made row by row, one row per example:
    each row gets the tolerance at its own magnitude and scale, and the row with the worst ratio is the worst input.
    """

    def __init__(
        self, run: CheckRun, xp: Backend, adapter: Any, domain: Domain | None = None, plan: Plan | None = None
    ) -> None:
        self.run = run
        self.xp = xp
        self.ref = Reference(xp)
        """The project's reference on this backend (angles, frequencies, M_k, ...), whatever is under test."""
        self.impl = Implementation(adapter, xp, domain)
        """The implementation under test: the reference without ``uses=``, each registered one with it."""
        self.device, self.dtype = run.device, run.dtype
        self.tolerance: Tolerance = tolerance(run.dtype)
        self.rows = Rows()
        self._worst_ratio = -math.inf
        self.plan = plan or Plan()
        """The statistical comparisons' thresholds, fixed before the run (checks.evidence.check.statistical)."""
        self._comparisons = 0
        self._worst_statistic = -math.inf
        self.beyond: list[tuple[float, float]] = []
        """(tolerance, range) of each example beyond this dtype's resolution (within_resolution)."""

    def begin(self, example: dict[str, Any]) -> None:
        """A new example (a batch of them in a batched check): the run counts the distinct inputs it has seen."""
        self.rows.begin(example)
        self._comparisons = 0
        self.run.examples = self.rows.distinct

    def rejected(self) -> None:
        """The current test case was rejected (``assume``): what it alone held is not counted as examples."""
        self.rows.rejected()
        self.run.examples = self.rows.distinct

    def each(self, batch: Batch, check: Callable[[Any], None]) -> None:
        """``check(row)`` for each row of ``batch``, for a property that cannot take them all at once (an
        implementation's attention takes one sentence): inside, a comparison takes that one example and a failure
        or the worst case names that row; an ``assume`` that fails there drops that row alone (Trial.keep)."""
        self.rows.each(batch, check)
        self.run.examples = self.rows.distinct

    def keep(self, rows: object) -> None:
        """An ``assume`` per example of a batch: only the rows where ``rows`` is true count as examples, and later
        comparisons take one row per kept example. Outside a batch it is ``assume(rows)``; a batch with no row
        kept is rejected as a whole."""
        try:
            self.rows.keep(rows)
        finally:
            self.run.examples = self.rows.distinct

    @property
    def current_input(self) -> dict[str, str]:
        """The current example as text, the row at fault alone in a batch: written only when a message or the worst
        case needs it (repr of an array costs more than many a check's arithmetic)."""
        return self.rows.shown(lambda value: isinstance(value, Trial))

    @property
    def whole_input(self) -> dict[str, Any]:
        """The current example's arrays too long for ``current_input``, whole: a failed run keeps them in results."""
        return self.rows.whole(lambda value: isinstance(value, Trial))

    def close(
        self,
        actual: object,
        expected: object,
        *,
        scale: object = 0.0,
        bound: float | None = None,
        label: str = "values",
    ) -> None:
        """Assert max |actual − expected| ≤ atol + rtol · max(|expected|, scale), per example.

        ``scale`` is the size of the arguments the computation rounds (an angle; one per row in a batch);
        ``bound`` is the range of the compared quantity: a tolerance that wide
        would make the comparison vacuous, so it raises instead.
        """
        got, want = self.xp.to_float64(actual), self.xp.to_float64(expected)
        if got.shape != want.shape:
            raise AssertionError(f"{label}: shape {got.shape} != expected {want.shape}")
        want = self.rows.by_row(want, label)
        allowed = self._allowed(want, scale, bound, label)
        errors = np.max(np.abs(got.reshape(want.shape) - want), axis=1, initial=0.0)
        errors[np.isnan(errors)] = math.inf
        row = self._track(errors / allowed, errors, allowed)
        if not errors[row] <= allowed[row]:
            raise AssertionError(
                f"{label}: max error {errors[row]:.3g} > tolerance {allowed[row]:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self.current_input}"
            )

    def at_most(
        self, value: object, limit: object, *, scale: object = 0.0, bound: float | None = None, label: str = "value"
    ) -> None:
        """Assert value ≤ limit + tolerance, elementwise (a one-sided bound; the excess is the error).

        The run records the closest approach, the smallest limit − value over every example, and the worst input
        is where it happened. ``scale`` and ``bound`` as for ``close``.
        """
        got, top = np.broadcast_arrays(self.xp.to_float64(value), self.xp.to_float64(limit))
        top = self.rows.by_row(top, label)
        allowed = self._allowed(top, scale, bound, label)
        gaps = np.min(top - got.reshape(top.shape), axis=1, initial=math.inf)
        gaps[np.isnan(gaps)] = -math.inf
        excess = np.maximum(-gaps, 0.0)
        worst = self._worst_ratio
        row = self._track(1.0 - gaps / allowed, excess, allowed)
        if self._worst_ratio > worst or self.run.closest is None:
            self.run.closest = float(gaps[row])
        if not excess[row] <= allowed[row]:
            raise AssertionError(
                f"{label}: exceeds its limit by {excess[row]:.3g} > tolerance {allowed[row]:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self.current_input}"
            )

    def resolves(self, expected: object, *, scale: float = 0.0, bound: float) -> bool:
        """Whether this dtype's tolerance at max(|expected|, scale) is narrower than ``bound``: whether a comparison
        there could fail. A check ``assume``s it where rounding can cover a quantity's whole range (an example
        that would only raise VacuousTolerance carries no evidence either way)."""
        magnitude = max(float(np.max(np.abs(self.xp.to_float64(expected)), initial=0.0)), abs(scale))
        return self.tolerance.at(magnitude) < bound

    def within_resolution(self, expected: object, *, scale: float = 0.0, bound: float) -> None:
        """Go on only where a comparison at ``expected`` could fail in this dtype (``resolves``); else the example
        is beyond the dtype: not counted, and a cell where every input is beyond it is skipped, saying so. Use it in
        place of ``assume(t.resolves(...))``, which starves Hypothesis where a dtype resolves few inputs."""
        if not self.resolves(expected, scale=scale, bound=bound):
            magnitude = max(float(np.max(np.abs(self.xp.to_float64(expected)), initial=0.0)), abs(scale))
            self.beyond.append((self.tolerance.at(magnitude), bound))
            raise BeyondResolution(f"tolerance {self.tolerance.at(magnitude):.3g} ≥ range {bound:.3g}")

    def _allowed(self, reference: np.ndarray, scale: object, bound: float | None, label: str) -> np.ndarray:
        """The tolerance of each row at max(|reference row|, its scale); VacuousTolerance when one is as wide as
        ``bound``."""
        rows = reference.shape[0]
        scales = np.broadcast_to(np.abs(np.asarray(scale, dtype=np.float64)).reshape(-1), (rows,))
        allowed = self.tolerance.at(np.maximum(np.max(np.abs(reference), axis=1, initial=0.0), scales))
        if bound is not None and (allowed >= bound).any():
            widest = int(np.argmax(allowed))
            self.rows.name(widest)
            raise VacuousTolerance(
                f"{label}: tolerance {allowed[widest]:.3g} ≥ range {bound:.3g} in {self.dtype} "
                f"at {self.current_input}; narrow the inputs for this dtype (see checks.tolerances.position_limit)"
            )
        return allowed

    def equal(self, actual: object, expected: object, *, label: str = "values") -> None:
        """Assert exact equality (counts, shapes, integers): the tolerance is zero."""
        got, want = np.asarray(actual), np.asarray(expected)
        if got.shape != want.shape:
            raise AssertionError(f"{label}: {shown(got)} != {shown(want)} at {self.current_input}")
        want = self.rows.by_row(want.astype(np.float64), label)
        errors = np.max(np.abs(got.astype(np.float64).reshape(want.shape) - want), axis=1, initial=0.0)
        row = self._track(errors, errors, np.zeros_like(errors))
        if errors[row]:
            expected_text = shown(want.reshape(got.shape))
            raise AssertionError(f"{label}: {shown(got)} != {expected_text} at {self.current_input}")

    def differ(self, actual: object, other: object, *, scale: object = 0.0, label: str = "values") -> None:
        """Assert max |actual − other| exceeds the tolerance, per example: the two are told apart in this dtype.

        Recorded as the inverse margin (tolerance / difference), so the worst case is the closest call.
        """
        got, away = self.xp.to_float64(actual), self.xp.to_float64(other)
        away = self.rows.by_row(away, label)
        allowed = self._allowed(away, scale, None, label)
        differences = np.max(np.abs(got.reshape(away.shape) - away), axis=1, initial=0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(differences > 0, allowed / differences, math.inf)
        row = self._track(ratios, differences, allowed)
        if not differences[row] > allowed[row]:
            raise AssertionError(
                f"{label}: difference {differences[row]:.3g} is within tolerance {allowed[row]:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self.current_input}"
            )

    def mean_is(self, samples: object, expected: float, *, label: str = "mean") -> None:
        """Assert the mean of ``samples`` (every entry one sample) is ``expected``, by a z test whose threshold the
        run fixed before it started from its false-alarm rate (checks.evidence.check.statistical); every entry is
        one sample, at least 1,000 of them. The page shows |z| and its threshold."""
        self._statistical(self.xp.to_float64(samples).ravel(), float(expected), label)

    def variance_is(self, samples: object, expected: float, *, mean: float, label: str = "variance") -> None:
        """Assert the variance of ``samples`` is ``expected``: the mean of (X − ``mean``)² by the same z test, about
        the sentence's own mean (``mean_is`` checks that one)."""
        values = self.xp.to_float64(samples).ravel()
        self._statistical((values - float(mean)) ** 2, float(expected), label)

    def _statistical(self, values: np.ndarray, expected: float, label: str) -> None:
        """One z test: recorded when it comes nearer its threshold than any before; AssertionError past it."""
        if self.rows.taken is not None:
            raise StatisticalUse(f"{label}: a statistical comparison takes one example per test case, not a batch")
        self._comparisons += 1
        rounding = self.tolerance.at(float(np.mean(np.abs(values)))) if values.size else 0.0
        estimate, standard_error, statistic = z_test(values, expected, rounding)
        threshold = self.plan.threshold(self._comparisons)
        if statistic / threshold > self._worst_statistic:
            self._worst_statistic = statistic / threshold
            self.run.statistics = StatisticalTest(
                label,
                statistic,
                threshold,
                estimate,
                expected,
                standard_error,
                values.size,
                self.plan.false_alarm,
                self.plan.test_cases,
                self._comparisons,
                self.current_input,
            )
        if not statistic <= threshold:
            spread = (
                f"zero spread: every sample is {estimate:.6g}"
                if standard_error == 0
                else (f"standard error {standard_error:.3g}")
            )
            raise AssertionError(
                f"{label}: sample mean {estimate:.6g} over {values.size} samples, expected {expected:.6g} ({spread}): "
                f"|z| = {statistic:.3g} > threshold {threshold:.3g} (false-alarm rate {self.plan.false_alarm:g} for "
                f"the run) ({self.impl.name}, {self.device}, {self.dtype}) at {self.current_input}"
            )

    def __getattr__(self, name: str) -> Any:
        """``t.<comparator>(...)``: a topic's comparator or expectation (checks.topics.Topic.comparators) with this
        trial, such as ``t.close_pe`` of the sinusoidal topic."""
        if not name.startswith("_"):
            from checks.implementations.topic_records import comparator

            found = comparator(name)
            if found is not None:
                bound = functools.partial(found, self)
                setattr(self, name, bound)  # looked up once per trial: a check calls it per example
                return bound
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _track(self, ratios: np.ndarray, errors: np.ndarray, allowed: np.ndarray) -> int:
        """The row with the largest ratio (the one a comparison reports); kept as the run's worst when it beats
        every earlier example."""
        row = int(np.argmax(ratios))
        self.rows.name(row)
        if ratios[row] > self._worst_ratio:
            self._worst_ratio = float(ratios[row])
            self.run.max_error, self.run.tolerance = float(errors[row]), float(allowed[row])
            self.run.worst_input = self.current_input
        return row
