"""Run a check per implementation × device × dtype under Hypothesis, and say what failed at which sizes."""

from __future__ import annotations

import contextlib
import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import hypothesis
from hypothesis import Phase, settings
from hypothesis.errors import FlakyFailure, Unsatisfiable, UnsatisfiedAssumption

from checks.evidence.base import claim_line
from checks.evidence.check.given import inputs_of
from checks.evidence.check.harness import Trial
from checks.evidence.check.record import CheckRun, CheckSpec
from checks.evidence.check.rows import BatchShapeError
from checks.evidence.check.statistical import Plan
from checks.helpers.current import CurrentRun, running
from checks.implementations.base import backend_name, is_reference, missing, unsupported
from checks.implementations.contract import breach, environment_problem
from checks.implementations.registry import by_name, offering
from checks.implementations.topics import topic
from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.devices import available_devices
from checks.numerics.domain import Domain, DomainError
from checks.numerics.size_rules import separating

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
                    execute = partial(_execute, check, run, backend(dtype, device), adapter, domain)
                    if late := within_share(adapter.name, execute):
                        run.status, run.message = "skipped", late
                runs.append(run)
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
            run.message = _message(attempt.failure, _claim_file(check))
            if not run.reference:
                run.message = _sub_domain(check, run, xp, adapter, attempt)
    finally:
        run.seconds = time.perf_counter() - started


def _attempt(
    check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, domain: Domain, shrink: bool = True
) -> Attempt:
    """Run the check's property once against ``adapter`` restricted to ``domain`` (without shrinking a failure,
    when only whether it fails matters)."""
    inner, kept = check.test, check.settings or settings.default
    planned = kept.max_examples + len(inputs.examples) if (inputs := inputs_of(check.test)) else kept.max_examples
    trial = Trial(run, xp, adapter, domain, Plan(check.false_alarm, planned))
    attempt = Attempt(trial)
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
                drawn = max(seen / max(trial.rows.test_cases, 1), 1.0)
                cases = min(max(math.ceil(TOP_UP_MARGIN * missing / drawn), TOP_UP_LEAST), TOP_UP_LIMIT)
                property_of(cases)(trial)
                if run.examples == seen:
                    break  # every input the strategies can draw was drawn (bfloat16's 9 positions × d_model)
        if check.batched and not trial.rows.batched and run.examples:
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
            return _as_rule(check, run, xp, adapter, first, failing, sizes) or (
                f"{run.message}. It fails for d_model = {_listed(failing)}; holds for d_model "
                f"{min(sizes)} … {max(sizes)} over {scratch.examples} examples with those sizes set aside"
            )
    if len(failing) < 2:
        return _by_position(check, run, xp, adapter, first) or run.message
    return (
        _as_rule(check, run, xp, adapter, first, failing, [])
        or _by_position(check, run, xp, adapter, first)
        or f"{run.message}. It fails at every size tried (d_model = {_listed(failing)}, each set aside in turn)"
    )


def _by_position(check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, first: Attempt) -> str | None:
    """A failure no size explains, stated as a threshold on the position: the check again with every position from
    the failing call's largest one on set aside, lower each time it fails again (up to RULE_TRIES runs); None when
    no such run holds (or the failure took no position)."""
    domain, seen = first.trial.impl.domain, first.trial.impl.positions_seen
    tried: list[int] = []
    while seen and len(tried) < RULE_TRIES and seen[-1] > (domain.min_position or 0):
        if tried and seen[-1] >= tried[-1]:
            return None
        tried.append(seen[-1])
        scratch = CheckRun(run.name, run.device, run.dtype, implementation=run.implementation, reference=False)
        attempt = _attempt(check, scratch, xp, adapter, domain.below_position(tried[-1]), shrink=False)
        seen = attempt.trial.impl.positions_seen
        if attempt.unsatisfiable or not seen:
            return None
        if attempt.failure is None and len(set(seen)) < 2:
            return None  # held at one position only (position 0, say): no threshold to state
        if attempt.failure is None:
            return (
                f"{run.message}. It fails once a call holds a position ≥ {tried[-1]} (the largest position of the "
                f"failing call; tried: {_listed(tried)}); holds at every position below it drawn, up to "
                f"{max(seen)}, over {scratch.examples} examples"
            )
    return None


RULE_TRIES = 4
"""How many rules (checks.numerics.size_rules) are tried, each by a run with every size it names set aside."""


def _as_rule(
    check: CheckSpec, run: CheckRun, xp: Backend, adapter: Any, first: Attempt, failing: list[int], holding: list[int]
) -> str | None:
    """The failure as the simplest rule separating the failing sizes from the holding ones, confirmed by a run
    that sets aside every size the rule names and holds; None when no rule of the family is confirmed. A rule
    that leaves nothing to draw (every even d_model, for a check that draws even sizes only) is passed over."""
    failed, held, untestable = list(failing), list(holding), set()
    share = topic(check.uses).rotated_fraction if check.uses else None
    pairs = share(adapter) if share else None
    for _ in range(RULE_TRIES):
        rule = separating(failed, held, untestable, pairs)
        if rule is None:
            return None
        scratch = CheckRun(run.name, run.device, run.dtype, implementation=run.implementation, reference=False)
        attempt = _attempt(check, scratch, xp, adapter, first.trial.impl.domain.excluding_rule(rule), shrink=False)
        seen = attempt.trial.impl.d_models_seen
        if attempt.unsatisfiable or not seen:
            untestable.add(rule)
            continue
        if attempt.failure is None:
            return (
                f"{run.message}. It fails for {rule.describe()} (tried: d_model = {_listed(sorted(failed))}); holds "
                f"at the other sizes drawn, d_model {min(seen)} … {max(seen)}, over {scratch.examples} examples"
            )
        if seen[-1] in failed:
            return None
        failed.append(seen[-1])
        held += [d for d in seen[:-1] if d not in failed]
    return None


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
