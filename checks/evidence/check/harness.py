"""Run checks per implementation × device × dtype and record what each run saw (the ``t`` a check receives)."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import hypothesis
import numpy as np
from hypothesis import Phase, assume, reject, settings
from hypothesis.errors import FlakyFailure, Unsatisfiable, UnsatisfiedAssumption

from checks.evidence.check.given import inputs_of
from checks.evidence.check.record import CheckRun, CheckSpec
from checks.helpers.current import CurrentRun, running
from checks.helpers.rope import relative_score, score_scale
from checks.helpers.similarity import dot_scale
from checks.helpers.strategies import Batch
from checks.implementations.base import Implementation, backend_name, is_reference, missing, unsupported
from checks.implementations.contract import breach
from checks.implementations.fingerprint import layout_of
from checks.implementations.registry import by_name, offering
from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.devices import available_devices
from checks.numerics.domain import Domain, DomainError
from checks.numerics.reference import Reference
from checks.numerics.tolerances import Tolerance, angle_scale, tolerance


class VacuousTolerance(RuntimeError):
    """The tolerance is as wide as the quantity's range: the comparison could not fail."""


class BatchShapeError(TypeError):
    """A batched check compared values that do not have one row per example."""


def _batch_parts(value: Any) -> tuple[Batch, ...]:
    """The Batches a drawn value holds: itself, or the members of a tuple of Batches (rows of q, k and positions)."""
    if isinstance(value, Batch):
        return (value,)
    if isinstance(value, tuple) and value and all(isinstance(part, Batch) for part in value):
        return value
    return ()


def _row_key(row: Any) -> Hashable:
    """A row of a Batch as a set member: its bytes, or the text of an object in a Batch of objects (a Sentence:
    keeping the object would keep the arrays it caches alive for the whole run)."""
    return row.tobytes() if isinstance(row, np.ndarray) else repr(row)


def _row_of(value: Any, row: int) -> Any:
    """One example of a drawn value: row ``row`` of each Batch in it, the value itself when it holds none."""
    parts = _batch_parts(value)
    if not parts:
        return value
    rows = tuple(part[row] if part.dtype == object else part[row].tolist() for part in parts)
    return rows[0] if isinstance(value, Batch) else rows


def _key(value: Any) -> Hashable:
    """A value as a set member: what makes two examples the same input."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


class Trial:
    """The ``t`` a check receives: backend, implementation, tolerance, recorder.

    In a batched check (an example holding a ``Batch``) every comparison is made row by row, one row per example:
    each row gets the tolerance at its own magnitude and scale, and the row with the worst ratio is the worst input.
    """

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
        self._rows: int | None = None
        self._row: int | None = None
        self._index = np.zeros(0, dtype=np.int64)
        """Which row of the drawn batch each row a comparison takes stands for (Trial.keep drops some)."""
        self._focus: int | None = None
        """The drawn row a per-row loop (Trial.each) is on."""
        self._fresh: list[Hashable] = []
        """The inputs of the current batch not seen before, by row (None for a repeat)."""
        self._seen: set[Hashable] = set()
        self.batched = False
        """Whether any example held a Batch."""
        self.test_cases = 0
        """Hypothesis test cases run (each one example, or one batch of them)."""
        self._worst_ratio = -math.inf

    def begin(self, example: dict[str, Any]) -> None:
        """A new example (a batch of them in a batched check): the run counts the distinct inputs it has seen."""
        self._example, self._row = example, None
        self.test_cases += 1
        batches = {name: parts for name, value in example.items() if (parts := _batch_parts(value))}
        lengths = {len(part) for parts in batches.values() for part in parts}
        if len(lengths) > 1:
            raise BatchShapeError(f"batches of different lengths {sorted(lengths)} in one example")
        self._rows = lengths.pop() if lengths else None
        self.batched |= self._rows is not None
        fixed = tuple(_key(value) for name, value in example.items() if name not in batches and name != "t")
        if self._rows is None:
            self._seen.add(fixed)
        else:
            self._index = np.arange(self._rows)
            columns = [[_row_key(row) for row in part] for parts in batches.values() for part in parts]
            keys = [(fixed, *row) for row in zip(*columns, strict=True)]
            self._fresh = [None if key in self._seen else key for key in keys]
            self._seen.update(keys)
        self.run.examples = len(self._seen)

    def each(self, batch: Batch, check: Callable[[Any], None]) -> None:
        """``check(row)`` for each row of ``batch``, for a property that cannot take them all at once (an
        implementation's attention takes one sentence): inside, a comparison takes that one example and a failure
        or the worst case names that row; an ``assume`` that fails there drops that row alone (Trial.keep)."""
        rows, index, dropped = self._rows, self._index, np.zeros(len(batch), dtype=bool)
        try:
            for row, value in enumerate(batch):
                self._rows, self._focus = None, int(index[row])
                try:
                    check(value)
                except UnsatisfiedAssumption:
                    dropped[row] = True
        finally:
            self._rows, self._index, self._focus = rows, index, None
        if dropped.any():
            self.keep(~dropped)

    def keep(self, rows: object) -> None:
        """An ``assume`` per example of a batch: only the rows where ``rows`` is true count as examples, and later
        comparisons take one row per kept example. Outside a batch it is ``assume(rows)``; a batch with no row
        kept is rejected as a whole."""
        kept = np.asarray(rows, dtype=bool)
        if self._rows is None:
            assume(bool(kept.all()))
            return
        if kept.shape != (self._rows,):
            raise BatchShapeError(f"keep: {kept.shape} flags for a batch of {self._rows}")
        self._seen.difference_update(key for key, stays in zip(self._fresh, kept, strict=True) if key and not stays)
        self._fresh = [key for key, stays in zip(self._fresh, kept, strict=True) if stays]
        self._index, self._rows = self._index[kept], int(kept.sum())
        self.run.examples = len(self._seen)
        if not self._rows:
            reject()

    @property
    def _input(self) -> dict[str, str]:
        """The current example as text, the row at fault alone in a batch: written only when a message or the worst
        case needs it (repr of an array costs more than many a check's arithmetic)."""
        return {
            name: repr(value if self._shown is None else _row_of(value, self._shown))
            for name, value in self._example.items()
            if not isinstance(value, Trial)
        }

    @property
    def _shown(self) -> int | None:
        """The drawn row the current comparison is about (None: the whole example)."""
        if self._focus is not None:
            return self._focus
        return None if self._row is None else int(self._index[self._row])

    @property
    def current_input(self) -> dict[str, str]:
        return self._input

    def _by_row(self, values: np.ndarray, label: str) -> np.ndarray:
        """``values`` as (examples, entries): one row per example of the batch, one row in all outside a batch."""
        if self._rows is None:
            return values.reshape(1, -1)
        if values.ndim == 0 or values.shape[0] != self._rows:
            raise BatchShapeError(
                f"{label}: a batched check compares one row per example; got shape {values.shape} "
                f"for a batch of {self._rows}"
            )
        return values.reshape(self._rows, -1)

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
        want = self._by_row(want, label)
        allowed = self._allowed(want, scale, bound, label)
        errors = np.max(np.abs(got.reshape(want.shape) - want), axis=1, initial=0.0)
        errors[np.isnan(errors)] = math.inf
        row = self._track(errors / allowed, errors, allowed)
        if not errors[row] <= allowed[row]:
            raise AssertionError(
                f"{label}: max error {errors[row]:.3g} > tolerance {allowed[row]:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def at_most(
        self, value: object, limit: object, *, scale: object = 0.0, bound: float | None = None, label: str = "value"
    ) -> None:
        """Assert value ≤ limit + tolerance, elementwise (a one-sided bound; the excess is the error).

        The run records the closest approach, the smallest limit − value over every example, and the worst input
        is where it happened. ``scale`` and ``bound`` as for ``close``.
        """
        got, top = np.broadcast_arrays(self.xp.to_float64(value), self.xp.to_float64(limit))
        top = self._by_row(top, label)
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
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def close_pe(self, actual: object, expected: object, *positions: object, label: str = "PE entries") -> None:
        """PE entries (sin and cos, range 2) computed from angles at ``positions``: the tolerance scales with
        Σ |position| (each position's angles are rounded; ``t.close_pe(a, b, pos, k)`` for a turn by k)."""
        self.close(actual, expected, scale=_total(positions), bound=2.0, label=label)

    def close_angle(self, actual: object, expected: object, *angles: object, label: str = "sin and cos") -> None:
        """sin or cos of ``angles`` formed in the dtype (each rounded three times: ``angle_scale``), range 2."""
        self.close(actual, expected, scale=angle_scale(*angles), bound=2.0, label=label)

    def close_dot(
        self, actual: object, expected: object, d_model: int, *positions: object, label: str = "PE · PE"
    ) -> None:
        """A dot product of PE rows at ``positions``: scale ``dot_scale`` (their angles and d_model products),
        range d_model."""
        self.close(actual, expected, scale=dot_scale(d_model, *positions), bound=float(d_model), label=label)

    def close_score(
        self, actual: object, expected: object, q: np.ndarray, key: np.ndarray, positions: list, label: str = "score"
    ) -> None:
        """A RoPE score of rows of q and k rotated at ``positions``: scale ``score_scale`` (‖q‖‖k‖ times the angles
        rounded)."""
        self.close(actual, expected, scale=score_scale(q, key, positions), label=label)

    def relative_score(self, q: np.ndarray, key: np.ndarray, distance: np.ndarray | int) -> np.ndarray:
        """qᵀ R(distance · θ) k in float64 as the implementation under test lays out its rotation: its pairs, and
        the dimensions it rotates (a partial rotation leaves the rest as plain q · k). Rows of q and k, one
        distance each."""
        layout = layout_of(self.impl, q.shape[-1])
        q_in, key_in, turned = q[..., layout.order], key[..., layout.order], layout.rotated
        kept = np.sum(q_in[..., turned:] * key_in[..., turned:], axis=-1)
        return relative_score(q_in[..., :turned], key_in[..., :turned], distance) + kept

    def resolves(self, expected: object, *, scale: float = 0.0, bound: float) -> bool:
        """Whether this dtype's tolerance at max(|expected|, scale) is narrower than ``bound``: whether a comparison
        there could fail. A check ``assume``s it where rounding can cover a quantity's whole range (an example
        that would only raise VacuousTolerance carries no evidence either way)."""
        magnitude = max(float(np.max(np.abs(self.xp.to_float64(expected)), initial=0.0)), abs(scale))
        return self.tolerance.at(magnitude) < bound

    def _allowed(self, reference: np.ndarray, scale: object, bound: float | None, label: str) -> np.ndarray:
        """The tolerance of each row at max(|reference row|, its scale); VacuousTolerance when one is as wide as
        ``bound``."""
        rows = reference.shape[0]
        scales = np.broadcast_to(np.abs(np.asarray(scale, dtype=np.float64)).reshape(-1), (rows,))
        allowed = self.tolerance.at(np.maximum(np.max(np.abs(reference), axis=1, initial=0.0), scales))
        if bound is not None and (allowed >= bound).any():
            widest = int(np.argmax(allowed))
            self._row = widest if self._rows is not None else None
            raise VacuousTolerance(
                f"{label}: tolerance {allowed[widest]:.3g} ≥ range {bound:.3g} in {self.dtype} at {self._input}; "
                "narrow the inputs for this dtype (see checks.tolerances.position_limit)"
            )
        return allowed

    def equal(self, actual: object, expected: object, *, label: str = "values") -> None:
        """Assert exact equality (counts, shapes, integers): the tolerance is zero."""
        got, want = np.asarray(actual), np.asarray(expected)
        if got.shape != want.shape:
            raise AssertionError(f"{label}: {got.tolist()} != {want.tolist()} at {self._input}")
        want = self._by_row(want.astype(np.float64), label)
        errors = np.max(np.abs(got.astype(np.float64).reshape(want.shape) - want), axis=1, initial=0.0)
        row = self._track(errors, errors, np.zeros_like(errors))
        if errors[row]:
            raise AssertionError(f"{label}: {got.tolist()} != {want.reshape(got.shape).tolist()} at {self._input}")

    def differ(self, actual: object, other: object, *, scale: object = 0.0, label: str = "values") -> None:
        """Assert max |actual − other| exceeds the tolerance, per example: the two are told apart in this dtype.

        Recorded as the inverse margin (tolerance / difference), so the worst case is the closest call.
        """
        got, away = self.xp.to_float64(actual), self.xp.to_float64(other)
        away = self._by_row(away, label)
        allowed = self._allowed(away, scale, None, label)
        differences = np.max(np.abs(got.reshape(away.shape) - away), axis=1, initial=0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratios = np.where(differences > 0, allowed / differences, math.inf)
        row = self._track(ratios, differences, allowed)
        if not differences[row] > allowed[row]:
            raise AssertionError(
                f"{label}: difference {differences[row]:.3g} is within tolerance {allowed[row]:.3g} "
                f"({self.impl.name}, {self.device}, {self.dtype}) at {self._input}"
            )

    def _track(self, ratios: np.ndarray, errors: np.ndarray, allowed: np.ndarray) -> int:
        """The row with the largest ratio (the one a comparison reports); kept as the run's worst when it beats
        every earlier example."""
        row = int(np.argmax(ratios))
        self._row = row if self._rows is not None else None
        if ratios[row] > self._worst_ratio:
            self._worst_ratio = float(ratios[row])
            self.run.max_error, self.run.tolerance = float(errors[row]), float(allowed[row])
            self.run.worst_input = self.current_input
        return row


def _total(positions: tuple[object, ...]) -> object:
    """Σ |position| (arrays: one per row)."""
    return sum((np.abs(np.asarray(p, dtype=np.float64)) for p in positions), np.float64(0.0))


def run_check(check: CheckSpec) -> list[CheckRun]:
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


def _adapters(check: CheckSpec) -> list[Any]:
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


def _execute(check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, domain: Domain) -> None:
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


def _attempt(
    check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, domain: Domain, shrink: bool = True
) -> Attempt:
    """Run the check's property once against ``adapter`` restricted to ``domain`` (without shrinking a failure,
    when only whether it fails matters)."""
    trial = Trial(run, xp, adapter, domain)
    attempt = Attempt(trial)
    inner, kept = check.test, check.settings or settings.default
    batch = batch_size(kept.max_examples) if check.batched else 1
    # a failing batch is reported at its failing row (Trial); shrinking 100 examples one by one would cost
    # thousands of calls
    shrink = shrink and batch == 1
    phases = [phase for phase in kept.phases if shrink or phase not in (Phase.shrink, Phase.explain)]

    def recording(*args: Any, **kwargs: Any) -> Any:
        trial.begin(kwargs)
        try:
            return inner(*args, **kwargs)
        except Exception as error:
            if not isinstance(error, UnsatisfiedAssumption):
                with contextlib.suppress(AttributeError):
                    error.theory_claims_input = trial.current_input  # type: ignore[attr-defined]
            raise

    def property_of(cases: int) -> Callable[[Trial], None]:
        """Hypothesis's @given over ``recording`` with this check's inputs, run ``cases`` times (fresh each time)."""
        return settings(kept, phases=phases, max_examples=cases)(hypothesis_test(check, recording))

    try:
        with running(CurrentRun(run.dtype, domain, batch)):
            property_of(math.ceil(kept.max_examples / batch))(trial)
            for _ in range(TOP_UP_ROUNDS if batch > 1 else 0):
                missing, seen = kept.max_examples - run.examples, run.examples
                if missing <= 0:
                    break
                # rows per test case as drawn (a small domain's whole range, rows a strategy dropped), not `batch`
                drawn = max(seen / max(trial.test_cases, 1), 1.0)
                cases = min(max(math.ceil(TOP_UP_MARGIN * missing / drawn), TOP_UP_LEAST), TOP_UP_LIMIT)
                property_of(cases)(trial)
                if run.examples == seen:
                    break  # every input the strategies can draw was drawn (bfloat16's 9 positions × d_model)
        if check.batched and not trial.batched and run.examples:
            raise BatchShapeError(f"{check.name} is declared batched=True but its examples hold no Batch")
    except Unsatisfiable:
        attempt.unsatisfiable = f"every example fell outside {trial.impl.name}'s domain ({domain.describe()})"
    except Exception as failure:
        attempt.failure = failure
        attempt.failing_input = getattr(failure, "theory_claims_input", None) or _first_input(failure)
    return attempt


def hypothesis_test(check: CheckSpec, body: Callable[..., Any]) -> Callable[..., Any]:
    """``body`` under Hypothesis's own @given and @example, with the inputs the check declared
    (checks.evidence.check.given): built anew for every run, so no run sees another's settings."""
    inputs = inputs_of(check.test)
    if inputs is None:
        raise TypeError(f"{check.name}: declare its inputs with @given from checks (checks.given)")
    test = hypothesis.given(*inputs.args, **inputs.kwargs)(body)
    for args, kwargs in reversed(inputs.examples):
        test = hypothesis.example(*args, **kwargs)(test)
    return test


BATCHED_TEST_CASES = 100
"""Hypothesis test cases a batched check runs when its profile asks for more examples than that."""
TOP_UP_ROUNDS, TOP_UP_MARGIN, TOP_UP_LEAST, TOP_UP_LIMIT = 10, 1.25, 10, 10 * BATCHED_TEST_CASES
"""Test cases repeat inputs (Hypothesis mutates earlier ones, and each run starts from the simplest example): a
batched run that has seen fewer distinct inputs than the profile's max_examples draws again, 25 % over what is
missing at the rows its test cases have held (10 … 1,000 test cases a round: a round of two or three can hold only
repeats), until it has them or a round adds none (the domain was drawn whole)."""


def batch_size(max_examples: int) -> int:
    """Examples per test case of a batched check: 1 under dev and ci (each test case one example, as unbatched),
    max_examples // 100 under thorough (100 test cases of 100 examples: 10,000, drawn distinct in each batch)."""
    return max(1, max_examples // BATCHED_TEST_CASES)


SUB_DOMAIN_TRIES = 3
"""How many failing sizes are set aside, one after the other, to look for the answer at the other sizes."""


def _sub_domain(check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, first: Attempt) -> str:
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
