"""Run checks per implementation × device × dtype and record what each run saw (the ``t`` a check receives)."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from checks.evidence.check import Check, CheckRun
from checks.helpers.backends import BACKENDS, Backend
from checks.helpers.current import CurrentRun, running
from checks.helpers.devices import available_devices
from checks.helpers.tolerances import Tolerance, tolerance
from checks.implementations.base import Implementation, backend_name, is_reference, missing, unsupported
from checks.implementations.references import Reference
from checks.implementations.registry import by_name, offering


class VacuousTolerance(RuntimeError):
    """The tolerance is as wide as the quantity's range: the comparison could not fail."""


class Trial:
    """The ``t`` a check receives: backend, implementation, tolerance, recorder."""

    def __init__(self, run: CheckRun, xp: Backend, adapter: Any) -> None:
        self.run = run
        self.xp = xp
        self.ref = Reference(xp)
        """The project's reference on this backend (angles, frequencies, M_k, ...), whatever is under test."""
        self.impl = Implementation(adapter, xp)
        """The implementation under test: the reference without ``uses=``, each registered one with it."""
        self.device, self.dtype = run.device, run.dtype
        self.tolerance: Tolerance = tolerance(run.dtype)
        self._input: dict[str, str] = {}
        self._worst_ratio = -1.0

    def begin(self, example: dict[str, Any]) -> None:
        self.run.examples += 1
        self._input = {name: repr(value) for name, value in example.items() if not isinstance(value, Trial)}

    @property
    def current_input(self) -> dict[str, str]:
        return dict(self._input)

    def close(
        self,
        actual: object,
        expected: object,
        *,
        scale: float = 0.0,
        bound: float | None = None,
        label: str = "values",
    ) -> None:
        """Assert max |actual − expected| ≤ atol + rtol · max(|expected|, scale).

        ``scale`` is the size of the arguments the computation rounds (an angle);
        ``bound`` is the range of the compared quantity: a tolerance that wide
        would make the comparison vacuous, so it raises instead.
        """
        got, want = self.xp.to_float64(actual), self.xp.to_float64(expected)
        if got.shape != want.shape:
            raise AssertionError(f"{label}: shape {got.shape} != expected {want.shape}")
        magnitude = max(float(np.max(np.abs(want), initial=0.0)), abs(scale))
        allowed = self.tolerance.at(magnitude)
        if bound is not None and allowed >= bound:
            raise VacuousTolerance(
                f"{label}: tolerance {allowed:.3g} ≥ range {bound:.3g} in {self.dtype} at {self._input}; "
                "narrow the inputs for this dtype (see checks.tolerances.position_limit)"
            )
        error = float(np.max(np.abs(got - want), initial=0.0)) if got.size else 0.0
        error = math.inf if math.isnan(error) else error
        self._track(error / allowed, error, allowed)
        if not error <= allowed:
            raise AssertionError(
                f"{label}: max error {error:.3g} > tolerance {allowed:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def at_most(self, value: object, limit: object, *, scale: float = 0.0, label: str = "value") -> None:
        """Assert value ≤ limit + tolerance, elementwise (a one-sided bound; the excess is the error)."""
        excess = np.maximum(self.xp.to_float64(value) - self.xp.to_float64(limit), 0.0)
        self.close(
            excess,
            np.zeros_like(excess),
            scale=max(scale, float(np.max(np.abs(self.xp.to_float64(limit)), initial=0.0))),
            label=label,
        )

    def equal(self, actual: object, expected: object, *, label: str = "values") -> None:
        """Assert exact equality (counts, shapes, integers): the tolerance is zero."""
        got, want = np.asarray(actual), np.asarray(expected)
        error = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)), initial=0.0))
        self._track(error, error, 0.0)
        if got.shape != want.shape or error:
            raise AssertionError(f"{label}: {got.tolist()} != {want.tolist()} at {self._input}")

    def differ(self, actual: object, other: object, *, scale: float = 0.0, label: str = "values") -> None:
        """Assert max |actual − other| exceeds the tolerance: the two are told apart in this dtype.

        Recorded as the inverse margin (tolerance / difference), so the worst case is the closest call.
        """
        got, away = self.xp.to_float64(actual), self.xp.to_float64(other)
        magnitude = max(float(np.max(np.abs(away), initial=0.0)), abs(scale))
        allowed = self.tolerance.at(magnitude)
        difference = float(np.max(np.abs(got - away), initial=0.0))
        self._track(allowed / difference if difference else math.inf, difference, allowed)
        if not difference > allowed:
            raise AssertionError(
                f"{label}: difference {difference:.3g} is within tolerance {allowed:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def _track(self, ratio: float, error: float, allowed: float) -> None:
        if ratio > self._worst_ratio:
            self._worst_ratio = ratio
            self.run.max_error, self.run.tolerance = error, allowed
            self.run.worst_input = self.current_input


def run_check(check: Check) -> list[CheckRun]:
    """Every implementation × device × dtype the check names; what cannot run is skipped with the reason."""
    runs = []
    for adapter in _adapters(check):
        backend = BACKENDS[backend_name(adapter)]
        for device in check.devices:
            for dtype in check.dtypes:
                run = CheckRun(check.name, device, dtype, implementation=adapter.name, reference=is_reference(adapter))
                reason = (
                    _unavailable(device)
                    or missing(adapter)
                    or backend.unsupported(device, dtype)
                    or unsupported(adapter, device, dtype)
                )
                if reason:
                    run.message = reason
                else:
                    _execute(check, run, backend(dtype, device), adapter)
                runs.append(run)
    return runs


def _adapters(check: Check) -> list[Any]:
    if check.uses:
        return offering(check.uses)
    return [by_name(f"reference-{backend}") for backend in check.backends]


def _unavailable(device: str) -> str | None:
    if device not in available_devices():
        return f"{device} is not available on this machine"
    return None


def _execute(check: Check, run: CheckRun, xp: Backend, adapter: Any) -> None:
    trial = Trial(run, xp, adapter)
    test = check.test
    inner = test.hypothesis.inner_test

    def recording(*args: Any, **kwargs: Any) -> Any:
        trial.begin(kwargs)
        return inner(*args, **kwargs)

    test.hypothesis.inner_test = recording
    started = time.perf_counter()
    try:
        with running(CurrentRun(run.dtype, trial.impl.max_position)):
            test(trial)
        run.status = "passed"
    except (AssertionError, ExceptionGroup) as failure:
        run.status = "error" if _crashed(failure) else "failed"
        run.counterexample = trial.current_input
        run.message = _message(failure)
    except Exception as crash:
        run.status = "error"
        run.message = _message(crash)
    finally:
        run.seconds = time.perf_counter() - started
        test.hypothesis.inner_test = inner


def _crashed(failure: BaseException) -> bool:
    """A group that holds anything but assertion failures is a crash."""
    if isinstance(failure, ExceptionGroup):
        return any(not isinstance(e, AssertionError) or _crashed(e) for e in failure.exceptions)
    return False


def _message(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text[:2000]
