"""Run a check per implementation × device × dtype under Hypothesis, and say what failed at which sizes."""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import time
import warnings
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import hypothesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import (
    FlakyFailure,
    HypothesisDeprecationWarning,
    HypothesisException,
    Unsatisfiable,
    UnsatisfiedAssumption,
)

from checks.evidence.base import claim_line, without_locals
from checks.evidence.check.given import inputs_of
from checks.evidence.check.harness import Trial
from checks.evidence.check.record import CheckRun, CheckSpec
from checks.evidence.check.rows import BatchShapeError, BeyondResolution
from checks.evidence.check.shared import Inputs, Recording, SharedDraws
from checks.evidence.check.sizes import Attempt, FailedCell, search_sizes, unsearched
from checks.evidence.check.statistical import Plan
from checks.implementations.base import backend_name, is_reference, missing, unsupported
from checks.implementations.contract import breach, environment_problem
from checks.implementations.registry import by_name, offering
from checks.implementations.topic_records import topic
from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.current import CurrentRun, running
from checks.numerics.devices import available_devices
from checks.numerics.domain import Domain, DomainError
from checks.numerics.remade import made, recipes_of
from checks.settings.memory_ceiling import check_ceiling

Share = Callable[[str, Callable[[], object]], str]
"""Runs cells of an implementation on its share of the claim's time limit; empty, or why they did not run to the end
(checks.engine.limits.Guard.within_share)."""


def unshared(implementation: str, action: Callable[[], object]) -> str:
    """Run the cells with no share of a time limit (a check run outside a claim's evaluation)."""
    action()
    return ""


def run_check(check: CheckSpec, within_share: Share = unshared) -> list[CheckRun]:
    """Every implementation × device × dtype the check names, the references first; what cannot run is skipped
    with the reason, as are the cells of an implementation past its share of the claim's time limit."""
    runs, shared = [], SharedDraws()
    for adapter in _adapters(check):
        backend = BACKENDS[backend_name(adapter)]
        domain, declared = _domain(adapter)
        for device in check.devices:
            failed: list[FailedCell] = []
            for dtype in check.dtypes:
                run = CheckRun(check.name, device, dtype, implementation=adapter.name, reference=is_reference(adapter))
                reason = (
                    _unavailable(device)
                    or missing(adapter)
                    or declared
                    or backend.unsupported(device, dtype)
                    or unsupported(adapter, device, dtype)
                    or domain.refuses_run(device, dtype)
                    or (None if run.reference else environment_problem(adapter))
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
                    execute = partial(_execute, check, run, backend(dtype, device), adapter, domain, failed, shared)
                    if late := within_share(adapter.name, execute):
                        run.status, run.message = "skipped", late
                runs.append(run)
            if failed and (late := within_share(adapter.name, partial(search_sizes, failed))):
                unsearched(failed, late)
    return runs


def _domain(adapter: Any) -> tuple[Domain, str | None]:
    """The adapter's declared domain, or why its declaration cannot be read."""
    try:
        return Domain.of(adapter), None
    except DomainError as error:
        return Domain(), f"{adapter.name}: {error}"


def _adapters(check: CheckSpec) -> list[Any]:
    """The implementations the check runs against, the references first (they decide the verdict)."""
    if check.uses:
        return sorted(offering(check.uses), key=lambda adapter: not is_reference(adapter))
    return [by_name(f"reference-{backend}") for backend in check.backends]


def implementations(check: CheckSpec) -> list[Any]:
    """The implementations besides the references whose cells the check runs."""
    return [adapter for adapter in _adapters(check) if not is_reference(adapter)]


def _unavailable(device: str) -> str | None:
    if device not in available_devices():
        return f"{device} is not available on this machine"
    return None


def _execute(
    check: CheckSpec,
    run: CheckRun,
    xp: Backend,
    adapter: Any,
    domain: Domain,
    failed: list[FailedCell],
    shared: SharedDraws,
) -> None:
    """The cell's run; an implementation's failure joins ``failed``, its sizes searched once every dtype has had its
    first run (checks.evidence.check.sizes.search_sizes): a failure costs the other dtypes none of their share."""
    started = time.perf_counter()
    try:
        attempt = _first_attempt(check, run, xp, adapter, domain, shared)
    finally:
        run.seconds += time.perf_counter() - started
    if attempt.unsatisfiable:
        run.message = attempt.unsatisfiable
    elif attempt.failure is None and attempt.trial.beyond and not run.examples:
        run.message = _beyond(attempt.trial, every=True)
    elif attempt.failure is None:
        run.status = "passed"
        run.message = _beyond(attempt.trial, every=False) if attempt.trial.beyond else ""
    else:
        run.status = "error" if _crashed(attempt.failure) else "failed"
        run.counterexample, run.whole_input = attempt.failing_input, attempt.whole_input
        run.message = _message(attempt.failure, _claim_file(check))
        if not run.reference:
            rerun = partial(_rerun, check, xp=xp, adapter=adapter)
            failed.append(FailedCell(check, run, adapter, rerun, attempt, said=run.message))


def _rerun(check: CheckSpec, run: CheckRun, domain: Domain, xp: Backend, adapter: Any) -> Attempt:
    """The check again on ``domain`` into ``run``, unshrunk: a failed cell's size rules only ask whether it fails."""
    return _attempt(check, run, xp, adapter, domain, shrink=False)


def _beyond(trial: Trial, every: bool) -> str:
    """What a cell says of the inputs beyond its dtype's resolution (Trial.within_resolution)."""
    tolerance, bound = min(trial.beyond, key=lambda pair: pair[0] / pair[1])
    said = f"{len(trial.beyond)} input(s) beyond {trial.dtype}'s resolution"
    narrowest = f"its tolerance there is at least {tolerance:.3g} against a range of {bound:.3g}"
    if every:
        return (
            f"not compared in {trial.dtype}: every input drawn is beyond its resolution ({narrowest}), so no "
            f"comparison could fail; no evidence either way (draw smaller inputs for this dtype)"
        )
    return f"{said} not compared ({narrowest})"


def _first_attempt(
    check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, domain: Domain, shared: SharedDraws
) -> Attempt:
    """The cell's run on the inputs an earlier cell of its dtype and domain drew (or of any dtype, where that cell's
    strategies did not read it: checks.evidence.check.shared), or on its own draws, kept for the later cells when
    the run holds.

    On the inputs kept, a run that holds is the cell's answer (on inputs drawn for any dtype, one that rejected at
    most 1 % of them: shared.REJECTED_SHARE).
    A failure goes to Hypothesis, which draws afresh and finds, shrinks and replays the failure as in a cell of its
    own (an output that depends on earlier calls is told as such); when its run finds nothing, the failure on the
    kept input stands. A run that cannot be answered from the inputs kept (each one rejected, or Hypothesis needed
    inside the property: ``note``, ``target``) draws its own."""
    inputs = shared.inputs(run.dtype, domain)
    if inputs is None:
        return _drawn(check, run, xp, adapter, domain, shared)
    allowed = shared.rejections_allowed(run.dtype, domain)
    replayed = _attempt(check, run, xp, adapter, domain, replay=inputs, rejections_allowed=allowed)
    if replayed.failure is None and run.examples >= shared.least_examples(run.dtype, domain):
        return replayed
    if replayed.failure is None or isinstance(replayed.failure, HypothesisException):
        _reset(run)
        return _drawn(check, run, xp, adapter, domain, shared, own_dtype=True)
    scratch = CheckRun(run.name, run.device, run.dtype, implementation=run.implementation, reference=run.reference)
    drawn = _attempt(check, scratch, xp, adapter, domain)
    if drawn.failure is None:
        return replayed
    _reset(run, scratch)
    return drawn


def _drawn(
    check: CheckSpec,
    run: CheckRun,
    xp: Backend,
    adapter: Any,
    domain: Domain,
    shared: SharedDraws,
    own_dtype: bool = False,
) -> Attempt:
    """The cell's run on its own draws, kept for the later cells if it held: for any dtype where its strategies did
    not read the dtype, unless ``own_dtype`` (it rejected too many of the inputs kept for any dtype)."""
    recording = shared.recording(run.dtype, domain, own_dtype)
    attempt = _attempt(check, run, xp, adapter, domain, record=recording)
    if recording is not None and attempt.failure is None and not attempt.unsatisfiable:
        any_dtype = not own_dtype and not attempt.read_dtype
        shared.keep(run.dtype, domain, recording, examples=run.examples, any_dtype=any_dtype)
    return attempt


def _reset(run: CheckRun, like: CheckRun | None = None) -> None:
    """What ``run`` saw, forgotten (or taken from ``like``): another run stands for the cell."""
    like = like or CheckRun(run.name, run.device, run.dtype, implementation=run.implementation)
    run.examples, run.max_error, run.tolerance = like.examples, like.max_error, like.tolerance
    run.worst_input, run.closest, run.statistics = like.worst_input, like.closest, like.statistics


def _attempt(
    check: CheckSpec,
    run: CheckRun,
    xp: Backend,
    adapter: Any,
    domain: Domain,
    shrink: bool = True,
    record: Recording | None = None,
    replay: Iterable[Inputs] | None = None,
    rejections_allowed: int | None = None,
) -> Attempt:
    """Run the check's property once against ``adapter`` restricted to ``domain`` (without shrinking a failure,
    when only whether it fails matters): under Hypothesis, each input it draws added to ``record``; or, given
    ``replay``, on those inputs in order, without Hypothesis, stopped once the property has rejected more than
    ``rejections_allowed`` of them (None: no limit)."""
    kept = check.settings or settings.default
    # an input outside the implementation's domain is discarded, never failed (docs/implementations.md): however
    # many are, the cell runs on the rest, and one whose every input fell outside ends Unsatisfiable (skipped)
    kept = settings(kept, suppress_health_check=(*kept.suppress_health_check, HealthCheck.filter_too_much))
    planned = kept.max_examples + len(inputs.examples) if (inputs := inputs_of(check.test)) else kept.max_examples
    trial = Trial(run, xp, adapter, domain, Plan(check.false_alarm, planned))
    attempt = Attempt(trial)
    inner = _uncounted_beyond_resolution(check.test, trial)
    batch = batch_size(kept.max_examples) if check.batched else 1
    # a failing batch is reported at its failing row (Trial); shrinking 100 examples one by one would cost
    # thousands of calls
    shrink = shrink and batch == 1
    phases = [phase for phase in kept.phases if shrink or phase not in (Phase.shrink, Phase.explain)]

    def recording(*drawn: Any, **named: Any) -> Any:
        # Hypothesis hands a topic's inputs as recipes (hypothesis_test), made here: the arrays live in this call
        # only, and a failure keeps its frames without their locals (what Hypothesis keeps of every failing test
        # case while it shrinks held each one's arrays: 9 GB for 16 MiB inputs)
        check_ceiling()
        args, kwargs = [made(value) for value in drawn], {name: made(value) for name, value in named.items()}
        if record is not None:
            record.add(kwargs)
        trial.begin(kwargs)
        called = len(trial.impl.d_models_seen)
        try:
            result = inner(*args, **kwargs)
        except UnsatisfiedAssumption:
            trial.rejected()
            raise
        except Exception as error:
            with contextlib.suppress(AttributeError):
                error.theory_claims_input = trial.current_input  # type: ignore[attr-defined]
                error.theory_claims_whole = trial.whole_input  # type: ignore[attr-defined]
            del args, kwargs  # the trial keeps the current example; this frame, kept by the failure, does not
            without_locals(error)
            raise
        attempt.passed.update(set(trial.impl.d_models_seen[called:]))  # test cases, not calls, per size
        return result

    def property_of(cases: int) -> Callable[[Trial], None]:
        """Hypothesis's @given over ``recording`` with this check's inputs, run ``cases`` times (fresh each time)."""
        return settings(kept, phases=phases, max_examples=cases)(hypothesis_test(check, recording))

    try:
        with running(current := CurrentRun(run.dtype, domain, batch)):
            if replay is not None:
                _call_each(recording, trial, replay, rejections_allowed)
            else:
                property_of(math.ceil(kept.max_examples / batch))(trial)
            for _ in range(TOP_UP_ROUNDS if batch > 1 and replay is None else 0):
                missing, seen = kept.max_examples - run.examples, run.examples
                if missing <= 0:
                    break
                # rows per test case as drawn (a small domain's whole range, rows a strategy dropped), not `batch`
                drawn = max(seen / max(trial.rows.test_cases, 1), 1.0)
                cases = min(max(math.ceil(TOP_UP_MARGIN * missing / drawn), TOP_UP_LEAST), TOP_UP_LIMIT)
                property_of(cases)(trial)
                if run.examples == seen:
                    break  # every input the strategies can draw was drawn (bfloat16's 9 positions × d_model)
        if check.batched and not trial.rows.batched and run.examples:
            raise BatchShapeError(f"{check.name} is declared batched=True but its examples hold no Batch")
        attempt.read_dtype = current.dtype_read
    except Unsatisfiable:
        size = topic(check.uses).size_name if check.uses else "d_model"
        attempt.unsatisfiable = f"every example fell outside {trial.impl.name}'s domain ({domain.describe(size)})"
    except Exception as failure:
        attempt.failure = without_locals(failure)  # its frames held Hypothesis's engine and every failing case
        attempt.failing_input = getattr(failure, "theory_claims_input", None) or _first_input(failure)
        attempt.whole_input = getattr(failure, "theory_claims_whole", None) or None
    trial.rows.end()  # a failed cell keeps its runs: each would keep its last example's arrays
    return attempt


def _uncounted_beyond_resolution(test: Callable[..., Any], trial: Trial) -> Callable[..., Any]:
    """``test`` with an example beyond the dtype's resolution (BeyondResolution) not counted and not rejected:
    Hypothesis goes on drawing instead of filtering (kept apart from ``recording``, whose source seeds the
    derandomized draws)."""

    @functools.wraps(test)
    def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return test(*args, **kwargs)
        except BeyondResolution:
            trial.rejected()
            return None

    return counted


def _call_each(
    recording: Callable[..., Any], trial: Trial, replay: Iterable[Inputs], rejections_allowed: int | None = None
) -> None:
    """The property on each input of ``replay`` in turn, as Hypothesis would call it (an input an ``assume``
    rejects is passed over); the first failure ends the run, and so do more than ``rejections_allowed`` rejected
    inputs (the cell will draw its own). This is a property-based test, run on inputs Hypothesis drew for another
    cell: Hypothesis's warning that ``assume`` is used outside one is not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", OUTSIDE_A_TEST, HypothesisDeprecationWarning)
        for inputs in replay:
            with contextlib.suppress(UnsatisfiedAssumption):
                recording(trial, **inputs)
            if rejections_allowed is not None and trial.rows.rejections > rejections_allowed:
                return


OUTSIDE_A_TEST = r"Using `(assume|reject)` outside a property-based test"
"""Hypothesis's deprecation warning for ``assume`` and ``reject`` called where it is not running a test."""


def hypothesis_test(check: CheckSpec, body: Callable[..., Any]) -> Callable[..., Any]:
    """``body`` under Hypothesis's own @given and @example, with the inputs the check declared
    (checks.evidence.check.given): built anew for every run, so no run sees another's settings."""
    inputs = inputs_of(check.test)
    if inputs is None:
        raise TypeError(f"{check.name}: declare its inputs with @given from checks (checks.given)")
    strategies = {name: recipes_of(strategy) for name, strategy in inputs.kwargs.items()}
    test = hypothesis.given(*map(recipes_of, inputs.args), **strategies)(body)
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


def _message(error: BaseException | None, origin: str | None = None) -> str:
    """What happened, in words: Hypothesis's FlakyFailure and ExceptionGroup unpacked, each failure with its input;
    a crash names the innermost line of the claim file ``origin`` on the way to it (checks.evidence.base)."""
    if error is None:
        return ""
    if isinstance(error, FlakyFailure):
        inner = "; ".join(_message(e, origin) for e in error.exceptions)
        text = f"output depends on earlier calls: the same input failed once and passed when repeated ({inner})"
    elif isinstance(error, ExceptionGroup):
        parts = [f"({i}) {_message(e, origin)}" for i, e in enumerate(error.exceptions, 1)]
        text = f"{len(parts)} distinct failures: " + "; ".join(parts)
    else:
        text = f"{type(error).__name__}: {error}"
        if not isinstance(error, AssertionError) and (line := claim_line(error, origin)):
            text += f" ({line})"
        where = getattr(error, "theory_claims_input", None)
        if where and not isinstance(error, AssertionError):
            text += f" at {where}"
    return text[:2000]


def _claim_file(check: CheckSpec) -> str | None:
    """The file that declares the check's property: its claim file."""
    code = getattr(inspect.unwrap(check.test), "__code__", None)
    return code.co_filename if code is not None else None
