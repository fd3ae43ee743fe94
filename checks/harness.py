"""Run checks per implementation × device × dtype and record what each run saw."""

from __future__ import annotations

import contextvars
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from checks.backends import BACKENDS, Backend, available_devices
from checks.claim import Check
from checks.implementations import Bound, by_name, offering
from checks.implementations.base import backend_name, is_reference, missing, unsupported
from checks.references import Reference
from checks.tolerances import Tolerance, tolerance

CURRENT_TRIAL: contextvars.ContextVar[Trial | None] = contextvars.ContextVar("trial", default=None)


class VacuousTolerance(RuntimeError):
    """The tolerance is as wide as the quantity's range: the comparison could not fail."""


@dataclass
class Finding:
    """A condition the document leaves unstated, or a counterexample to it."""

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class NumericRun:
    """What one check saw on one implementation, device and dtype."""

    check: str
    implementation: str
    device: str
    dtype: str
    status: str = "skipped"
    examples: int = 0
    max_error: float = 0.0
    tolerance: float = 0.0
    worst_input: dict[str, str] = field(default_factory=dict)
    counterexample: dict[str, str] | None = None
    message: str = ""
    seconds: float = 0.0
    reference: bool = True
    """The project's own implementation: only these runs decide the claim's verdict."""


class Trial:
    """The ``t`` a check receives: backend, implementation, tolerance, recorder."""

    def __init__(self, run: NumericRun, xp: Backend, adapter: Any = None) -> None:
        self.run = run
        self.xp = xp
        self.ref = Reference(xp)
        self.impl: Any = Bound(adapter, xp) if adapter is not None else self.ref
        self.max_position: int | None = getattr(adapter, "max_position", None)
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
                f"({self.run.implementation}, {self.device}, {self.dtype}) at {self._input}"
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
                f"({self.run.implementation}, {self.device}, {self.dtype}) at {self._input}"
            )

    def _track(self, ratio: float, error: float, allowed: float) -> None:
        if ratio > self._worst_ratio:
            self._worst_ratio = ratio
            self.run.max_error, self.run.tolerance = error, allowed
            self.run.worst_input = self.current_input


def run_check(check: Check) -> list[NumericRun]:
    """Every implementation × device × dtype the check names; what cannot run is skipped with the reason."""
    runs = []
    for adapter in _adapters(check):
        backend = BACKENDS[backend_name(adapter)]
        for device in check.devices:
            for dtype in check.dtypes:
                run = NumericRun(check.name, adapter.name, device, dtype, reference=is_reference(adapter))
                reason = (
                    _unavailable(device)
                    or missing(adapter)
                    or backend.unsupported(device, dtype)
                    or unsupported(adapter, device, dtype)
                )
                if reason:
                    run.message = reason
                else:
                    _execute(check, run, backend(dtype, device), adapter if check.uses else None)
                runs.append(run)
    return runs


def _adapters(check: Check) -> list[Any]:
    if check.uses:
        return offering(check.uses)
    return [by_name(name if name.startswith("reference-") else f"reference-{name}") for name in check.implementations]


def _unavailable(device: str) -> str | None:
    if device not in available_devices():
        return f"{device} is not available on this machine"
    return None


def _execute(check: Check, run: NumericRun, xp: Backend, adapter: Any) -> None:
    trial = Trial(run, xp, adapter)
    test = check.test
    inner = test.hypothesis.inner_test

    def recording(*args: Any, **kwargs: Any) -> Any:
        trial.begin(kwargs)
        return inner(*args, **kwargs)

    token = CURRENT_TRIAL.set(trial)
    test.hypothesis.inner_test = recording
    started = time.perf_counter()
    try:
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
        CURRENT_TRIAL.reset(token)


def _crashed(failure: BaseException) -> bool:
    """A group that holds anything but assertion failures is a crash."""
    if isinstance(failure, ExceptionGroup):
        return any(not isinstance(e, AssertionError) or _crashed(e) for e in failure.exceptions)
    return False


def _message(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text[:2000]


def current_trial() -> Trial | None:
    return CURRENT_TRIAL.get()


@dataclass
class Figure:
    """Data for one figure; the report draws it as inline SVG.

    kind "lines": ``series`` maps a label to {"x": [...], "y": [...]};
    kind "scatter": the same, drawn as points; kind "heatmap": ``matrix`` rows.
    ``marks`` are labelled vertical lines (a boundary, say); ``alt`` describes the picture.
    """

    name: str
    kind: str
    title: str
    alt: str
    x_label: str = ""
    y_label: str = ""
    series: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    matrix: list[list[float]] = field(default_factory=list)
    marks: dict[str, float] = field(default_factory=dict)
    log_x: bool = False
    log_y: bool = False


@dataclass
class ProbeRecord:
    """The ``r`` a probe receives: it records findings, measurements and figures."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    measurements: dict[str, Any] = field(default_factory=dict)
    figures: list[Figure] = field(default_factory=list)
    seconds: float = 0.0

    def condition(self, text: str, **data: Any) -> None:
        """The statement needs a condition the document does not state."""
        self.findings.append(Finding("condition", text, data))

    def counterexample(self, text: str, **data: Any) -> None:
        """The statement is false as written: here is where."""
        self.findings.append(Finding("counterexample", text, data))

    def implementation(self, text: str, **data: Any) -> None:
        """An implementation under test (not the document) gets something wrong: a matrix cell, not the verdict."""
        self.findings.append(Finding("implementation", text, data))

    def measure(self, key: str, value: Any) -> None:
        self.measurements[key] = value

    def figure(self, name: str, kind: str, title: str, alt: str, **data: Any) -> None:
        """Record a figure's data (see ``Figure``); measured here, drawn by the report."""
        if kind not in ("lines", "scatter", "heatmap"):
            raise ValueError(f"figure kind {kind!r} is not one of lines, scatter, heatmap")
        self.figures.append(Figure(name, kind, title, alt, **data))
