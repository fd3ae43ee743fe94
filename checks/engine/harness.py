"""Run checks per implementation × device × dtype and record what each run saw (the ``t`` a check receives)."""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import Phase, settings
from hypothesis.errors import FlakyFailure, Unsatisfiable, UnsatisfiedAssumption

from checks.evidence.check import Check, CheckRun
from checks.helpers.backends import BACKENDS, Backend
from checks.helpers.current import CurrentRun, running
from checks.helpers.devices import available_devices
from checks.helpers.tolerances import Tolerance, tolerance
from checks.implementations.base import Implementation, backend_name, is_reference, missing, unsupported
from checks.implementations.contract import breach
from checks.implementations.domain import Domain, DomainError
from checks.implementations.references import Reference
from checks.implementations.registry import by_name, offering


class VacuousTolerance(RuntimeError):
    """The tolerance is as wide as the quantity's range: the comparison could not fail."""


class Trial:
    """The ``t`` a check receives: backend, implementation, tolerance, recorder."""

    def __init__(self, run: CheckRun, xp: Backend, adapter: Any, domain: Domain | None = None) -> None:
        self.run = run
        self.xp = xp
        self.ref = Reference(xp)
        """The project's reference on this backend (angles, frequencies, M_k, ...), whatever is under test."""
        self.impl = Implementation(adapter, xp, domain)
        """The implementation under test: the reference without ``uses=``, each registered one with it."""
        self.device, self.dtype = run.device, run.dtype
        self.tolerance: Tolerance = tolerance(run.dtype)
        self._example: dict[str, Any] = {}
        self._worst_ratio = -math.inf

    def begin(self, example: dict[str, Any]) -> None:
        self.run.examples += 1
        self._example = example

    @property
    def _input(self) -> dict[str, str]:
        """The current example as text: written only when a message or the worst case needs it (repr of an array
        costs more than many a check's arithmetic)."""
        return {name: repr(value) for name, value in self._example.items() if not isinstance(value, Trial)}

    @property
    def current_input(self) -> dict[str, str]:
        return self._input

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
        allowed = self._allowed(want, scale, bound, label)
        error = float(np.max(np.abs(got - want), initial=0.0)) if got.size else 0.0
        error = math.inf if math.isnan(error) else error
        self._track(error / allowed, error, allowed)
        if not error <= allowed:
            raise AssertionError(
                f"{label}: max error {error:.3g} > tolerance {allowed:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def at_most(
        self, value: object, limit: object, *, scale: float = 0.0, bound: float | None = None, label: str = "value"
    ) -> None:
        """Assert value ≤ limit + tolerance, elementwise (a one-sided bound; the excess is the error).

        The run records the closest approach, the smallest limit − value over every example, and the worst input
        is where it happened. ``scale`` and ``bound`` as for ``close``.
        """
        got, top = np.broadcast_arrays(self.xp.to_float64(value), self.xp.to_float64(limit))
        allowed = self._allowed(top, scale, bound, label)
        gaps = top - got
        gap = -math.inf if np.isnan(gaps).any() else float(np.min(gaps, initial=math.inf))
        excess = max(-gap, 0.0)
        if self._track(1.0 - gap / allowed, excess, allowed) or self.run.closest is None:
            self.run.closest = gap
        if not excess <= allowed:
            raise AssertionError(
                f"{label}: exceeds its limit by {excess:.3g} > tolerance {allowed:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def resolves(self, expected: object, *, scale: float = 0.0, bound: float) -> bool:
        """Whether this dtype's tolerance at max(|expected|, scale) is narrower than ``bound``: whether a comparison
        there could fail. A check ``assume``s it where rounding can cover a quantity's whole range (an example
        that would only raise VacuousTolerance carries no evidence either way)."""
        return self._tolerance_at(self.xp.to_float64(expected), scale) < bound

    def _tolerance_at(self, reference: np.ndarray, scale: float) -> float:
        return self.tolerance.at(max(float(np.max(np.abs(reference), initial=0.0)), abs(scale)))

    def _allowed(self, reference: np.ndarray, scale: float, bound: float | None, label: str) -> float:
        """The tolerance at max(|reference|, scale); VacuousTolerance when it is as wide as ``bound``."""
        allowed = self._tolerance_at(reference, scale)
        if bound is not None and allowed >= bound:
            raise VacuousTolerance(
                f"{label}: tolerance {allowed:.3g} ≥ range {bound:.3g} in {self.dtype} at {self._input}; "
                "narrow the inputs for this dtype (see checks.tolerances.position_limit)"
            )
        return allowed

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

    def _track(self, ratio: float, error: float, allowed: float) -> bool:
        """Keep the example with the largest ratio as the run's worst; True when this one is."""
        if ratio > self._worst_ratio:
            self._worst_ratio = ratio
            self.run.max_error, self.run.tolerance = error, allowed
            self.run.worst_input = self.current_input
            return True
        return False


def run_check(check: Check) -> list[CheckRun]:
    """Every implementation × device × dtype the check names; what cannot run is skipped with the reason."""
    runs = []
    for adapter in _adapters(check):
        backend = BACKENDS[backend_name(adapter)]
        domain, declared = _domain(adapter)
        for device in check.devices:
            for dtype in check.dtypes:
                run = CheckRun(check.name, device, dtype, implementation=adapter.name, reference=is_reference(adapter))
                reason = (
                    _unavailable(device)
                    or missing(adapter)
                    or declared
                    or backend.unsupported(device, dtype)
                    or unsupported(adapter, device, dtype)
                    or domain.refuses_run(device, dtype)
                )
                broken = (
                    None if reason or run.reference or not check.uses else breach(adapter, check.uses, device, dtype)
                )
                if reason:
                    run.message = reason
                elif broken:
                    run.status, run.message = (
                        "failed",
                        f"not run: it broke its contract in {dtype} on {device}: {broken}",
                    )
                else:
                    _execute(check, run, backend(dtype, device), adapter, domain)
                runs.append(run)
    return runs


def _domain(adapter: Any) -> tuple[Domain, str | None]:
    """The adapter's declared domain, or why its declaration cannot be read."""
    try:
        return Domain.of(adapter), None
    except DomainError as error:
        return Domain(), f"{adapter.name}: {error}"


def _adapters(check: Check) -> list[Any]:
    if check.uses:
        return offering(check.uses)
    return [by_name(f"reference-{backend}") for backend in check.backends]


def _unavailable(device: str) -> str | None:
    if device not in available_devices():
        return f"{device} is not available on this machine"
    return None


@dataclass
class Attempt:
    """One Hypothesis run of a check: what failed (None: it held), at which input, and the sizes it called with."""

    trial: Trial
    failure: BaseException | None = None
    failing_input: dict[str, str] | None = None
    unsatisfiable: str = ""


def _execute(check: Check, run: CheckRun, xp: Backend, adapter: Any, domain: Domain) -> None:
    started = time.perf_counter()
    try:
        attempt = _attempt(check, run, xp, adapter, domain)
        if attempt.unsatisfiable:
            run.message = attempt.unsatisfiable
        elif attempt.failure is None:
            run.status = "passed"
        else:
            run.status = "error" if _crashed(attempt.failure) else "failed"
            run.counterexample = attempt.failing_input
            run.message = _message(attempt.failure)
            if not run.reference:
                run.message = _sub_domain(check, run, xp, adapter, attempt)
    finally:
        run.seconds = time.perf_counter() - started


def _attempt(check: Check, run: CheckRun, xp: Backend, adapter: Any, domain: Domain, shrink: bool = True) -> Attempt:
    """Run the check's property once against ``adapter`` restricted to ``domain`` (without shrinking a failure,
    when only whether it fails matters)."""
    trial = Trial(run, xp, adapter, domain)
    attempt = Attempt(trial)
    test = check.test
    inner, kept = test.hypothesis.inner_test, test._hypothesis_internal_use_settings
    if not shrink:
        phases = [phase for phase in kept.phases if phase not in (Phase.shrink, Phase.explain)]
        test._hypothesis_internal_use_settings = settings(kept, phases=phases)

    def recording(*args: Any, **kwargs: Any) -> Any:
        trial.begin(kwargs)
        try:
            return inner(*args, **kwargs)
        except Exception as error:
            if not isinstance(error, UnsatisfiedAssumption):
                with contextlib.suppress(AttributeError):
                    error.theory_claims_input = trial.current_input  # type: ignore[attr-defined]
            raise

    test.hypothesis.inner_test = recording
    try:
        with running(CurrentRun(run.dtype, domain)):
            test(trial)
    except Unsatisfiable:
        attempt.unsatisfiable = f"every example fell outside {trial.impl.name}'s domain ({domain.describe()})"
    except Exception as failure:
        attempt.failure = failure
        attempt.failing_input = getattr(failure, "theory_claims_input", None) or _first_input(failure)
    finally:
        test.hypothesis.inner_test, test._hypothesis_internal_use_settings = inner, kept
    return attempt


SUB_DOMAIN_TRIES = 3
"""How many failing sizes are set aside, one after the other, to look for the answer at the other sizes."""


def _sub_domain(check: Check, run: CheckRun, xp: Backend, adapter: Any, first: Attempt) -> str:
    """An implementation's failure, with the sizes it fails at and the evidence for the rest.

    The failing d_model is set aside (as if the implementation had declared it outside its domain) and the
    check runs again, up to SUB_DOMAIN_TRIES times: "fails for d_model = 2; holds for d_model 4 … 128 over
    40 examples". A domain error never hides the answer at the sizes the implementation supports.
    """
    failing: list[int] = []
    attempt = first
    for _ in range(SUB_DOMAIN_TRIES):
        seen = attempt.trial.impl.d_models_seen
        if not seen or seen[-1] in failing:
            break
        failing.append(seen[-1])
        scratch = CheckRun(run.name, run.device, run.dtype, implementation=run.implementation, reference=False)
        attempt = _attempt(check, scratch, xp, adapter, first.trial.impl.domain.excluding(failing), shrink=False)
        if attempt.unsatisfiable:
            return f"{run.message} (d_model = {_listed(failing)}: no other size inside its domain to try)"
        if attempt.failure is None:
            sizes = attempt.trial.impl.d_models_seen
            return (
                f"{run.message}. It fails for d_model = {_listed(failing)}; holds for d_model "
                f"{min(sizes)} … {max(sizes)} over {scratch.examples} examples with those sizes set aside"
            )
    if len(failing) < 2:
        return run.message
    return f"{run.message}. It fails at every size tried (d_model = {_listed(failing)}, each set aside in turn)"


def _listed(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))


def _first_input(failure: BaseException) -> dict[str, str] | None:
    for inner in getattr(failure, "exceptions", ()):
        found = getattr(inner, "theory_claims_input", None) or _first_input(inner)
        if found:
            return found
    return None


def _crashed(failure: BaseException) -> bool:
    """Anything but assertion failures (a group: any member) is a crash."""
    if isinstance(failure, ExceptionGroup):
        return any(_crashed(e) for e in failure.exceptions)
    return not isinstance(failure, AssertionError)


def _message(error: BaseException | None) -> str:
    """What happened, in words: Hypothesis's FlakyFailure and ExceptionGroup unpacked, each failure with its input."""
    if error is None:
        return ""
    if isinstance(error, FlakyFailure):
        inner = "; ".join(_message(e) for e in error.exceptions)
        text = f"output depends on earlier calls: the same input failed once and passed when repeated ({inner})"
    elif isinstance(error, ExceptionGroup):
        parts = [f"({i}) {_message(e)}" for i, e in enumerate(error.exceptions, 1)]
        text = f"{len(parts)} distinct failures: " + "; ".join(parts)
    else:
        text = f"{type(error).__name__}: {error}"
        where = getattr(error, "theory_claims_input", None)
        if where and not isinstance(error, AssertionError):
            text += f" at {where}"
    return text[:2000]
