"""The per-claim time limit, its shares for implementations, and the guard that turns a crash in any step of a
claim into its error.

The limit counts the claim's CPU time (the process's, every thread's: ITIMER_PROF), so that a machine loaded by
other work slows a claim without breaking it. A claim that waits instead of computing (a sleep, a lock, another
process) is stopped by a wall-clock backstop: BACKSTOP times its limit, stretched by the load measured when it is
armed (the 1-minute load average per core, when over 1).

A claim's limit is DEFAULT_TIME_LIMIT × an examples factor (the Hypothesis profile's max_examples / 40, at least 1) ×
an implementations factor (1 + IMPLEMENTATION_SHARE × the share factor of each implementation besides the
references that its checks run). THEORY_CLAIMS_TIME_LIMIT, when set, is the whole limit instead; 0 turns it off.
The limit is split: the claim's own part (limit / implementations factor: quotes, proofs, the references' cells,
sweeps, probes) runs on the claim's clock, and each implementation's cells run on a share of its own (own part ×
IMPLEMENTATION_SHARE × its share factor) while the claim's clock stops. An implementation that spends its share
loses only its remaining cells ("not run: ran past its share ..."); the references' cells and the verdict stand.
"""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from hypothesis import settings

from checks.implementations.speed import share_factor
from checks.settings.memory_ceiling import MemoryLimitExceeded, check_ceiling

TIME_LIMIT_ENV = "THEORY_CLAIMS_TIME_LIMIT"
DEFAULT_TIME_LIMIT = 120.0
"""Seconds of a claim's own work (quotes, proofs, the references' checks, sweeps, probes together) at 40 Hypothesis
examples (the ci profile), scaled up for profiles that try more; THEORY_CLAIMS_TIME_LIMIT overrides the whole
limit, 0 turns it off."""
IMPLEMENTATION_SHARE = 0.5
"""An implementation's share of a claim's time, as a fraction of the claim's own part: its cells in a check cost
about those of one of the check's two references (numpy, torch)."""

BACKSTOP = 5.0
"""How many times its CPU-time limit a claim may run by the wall clock (on an idle machine) before it is stopped."""


def cpu_clock() -> float:
    """The process's CPU time in seconds (every thread's): the clock a claim's limit runs on."""
    return time.process_time()


def load_stretch() -> float:
    """How much slower the wall clock runs a process here than on an idle machine: the 1-minute load average per
    core, at least 1 (1 where the system does not say)."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


def time_limit(seconds_per_call: Iterable[float] = ()) -> float:
    """A claim's whole time limit in seconds (0: none), for a claim whose checks run implementations besides the
    references with these seconds a call (none: the claim's own part, also the limit on importing a claim file)."""
    text = os.environ.get(TIME_LIMIT_ENV, "").strip()
    try:
        given = float(text) if text else None
    except ValueError:
        raise ValueError(f"{TIME_LIMIT_ENV}={text!r} is not a number of seconds") from None
    if given is not None:
        return given
    examples = max(1.0, settings().max_examples / 40)
    return DEFAULT_TIME_LIMIT * examples * implementations_factor(seconds_per_call)


def longest_time_limit(implementations: int) -> float:
    """The most a claim's limit can be when its checks run this many implementations besides the references, each
    on its longest share (how long another process may wait for the claim's record)."""
    return time_limit([math.inf] * implementations)


def implementations_factor(seconds_per_call: Iterable[float]) -> float:
    """How many times its own part a claim's limit is: 1 + IMPLEMENTATION_SHARE × each implementation's share factor."""
    return 1 + IMPLEMENTATION_SHARE * sum(map(share_factor, seconds_per_call))


def _seconds(value: float) -> str:
    """Seconds of a limit in words: three digits (1, 46.2, 120; 1560 whole)."""
    return f"{value:.3g}" if value < 1000 else f"{value:.0f}"


class TimeLimitExceeded(BaseException):
    """A claim ran past its time limit (SIGALRM in the main thread).

    A BaseException, so that neither Hypothesis nor a check's own ``except Exception`` swallows it.
    """


class Guard:
    """Runs the steps of one claim: a crash, or running out of the claim's time, becomes one error line; runs each
    implementation's cells on its own share of the time (``within_share``)."""

    def __init__(self, claim_id: str) -> None:
        self.claim_id = claim_id
        self.errors: list[str] = []
        self.limit = self.own = time_limit()
        """The whole limit, and the claim's own part of it (the same until ``share_among``)."""
        self.shares: dict[str, float] = {}
        """Seconds of each implementation's share, by name."""
        self._spent: dict[str, float] = {}
        self.deadline = cpu_clock() + (self.own if self.own > 0 else math.inf)
        self._ticking = False
        """Whether one of this guard's steps armed the alarm (so that a share may take the timer over)."""
        self.expired = False
        """Whether the claim ran out of time (its CPU time, or the wall-clock backstop while it waited)."""
        self.over_memory = False
        """Whether the claim was stopped for its process's memory (checks.settings.memory_ceiling)."""

    def __call__(self, what: str, action: Callable[[], object]) -> None:
        if self.over_memory:
            return
        if self.expired or cpu_clock() >= self.deadline:
            self._out_of_time(what)
            return
        armed = False
        try:
            with alarm(self.deadline - cpu_clock()) as armed:
                self._ticking = self._ticking or armed
                check_ceiling()
                action()
            if armed and _TIMER.went_off:  # the exception turned into another on the way (the step's error)
                self._out_of_time(what)
        except TimeLimitExceeded:
            self._out_of_time(what)  # named by the innermost step (a step of a proof, say)
            if not armed:
                raise
        except MemoryLimitExceeded as error:
            self.over_memory = True
            self.errors.append(f"{what}: claim {self.claim_id} stopped: {error}; the rest of the claim did not run")
        except (Exception, SystemExit) as error:  # a step that exits is broken, never a vanished claim
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.errors.append(f"{what}: {type(error).__name__}: {error} ({where.filename}:{where.lineno})")
        finally:
            if armed:
                self._ticking = False

    def share_among(self, measure: Callable[[], Mapping[str, float]]) -> None:
        """Give each implementation besides the references that the claim's checks run its share: ``measure`` gives
        their seconds a call by name (their contract checks, once per process and shared by every claim: a step
        off the claim's clock). The claim's own part is what the whole limit leaves."""
        measured: dict[str, float] = {}

        def off_the_clock() -> None:
            started = cpu_clock()
            measured.update(measure())
            self.deadline += cpu_clock() - started

        self("implementations", off_the_clock)
        limit = time_limit(measured.values())
        if limit <= 0:
            return
        own = limit / implementations_factor(measured.values())
        self.deadline += own - self.own
        self.limit, self.own = limit, own
        self.shares = {name: own * IMPLEMENTATION_SHARE * share_factor(s) for name, s in measured.items()}

    def within_share(self, implementation: str, action: Callable[[], object]) -> str:
        """Run ``action``, cells of ``implementation``, on what is left of its share while the claim's clock stops;
        empty when it finished, else why it did not run (to the end). Without a share (a reference, or no alarm of
        this guard's running) it runs on the claim's clock."""
        share = self.shares.get(implementation)
        if share is None or not self._ticking:
            action()
            return ""
        spent = self._spent.get(implementation, 0.0)
        late = f"not run: {implementation} ran past its share of the time limit ({_seconds(share)} s)"
        if spent >= share:
            return late
        started = cpu_clock()
        _TIMER.arm(share - spent)
        try:
            try:
                action()
            finally:
                _TIMER.disarm()
        except TimeLimitExceeded:  # its share's (the claim's own timer is off meanwhile): ``went_off`` says so
            pass
        finally:
            used = cpu_clock() - started
            expired = _TIMER.went_off  # also when Hypothesis turned the exception into another
            self._spent[implementation] = share if expired else spent + used
            self.deadline += used
            _TIMER.arm(self.deadline - cpu_clock())
        return late if expired else ""

    @property
    def remaining(self) -> float:
        """CPU seconds left of the claim's own part of its time limit."""
        return max(0.0, self.deadline - cpu_clock())

    def _out_of_time(self, what: str) -> None:
        """Record once, naming the step it happened in, that the claim used up its time limit."""
        self.expired = True
        if any("TimeLimitExceeded" in error for error in self.errors):
            return
        limit = f"{_seconds(self.own)} s"
        if self.shares:
            limit += (
                f" (of {_seconds(self.limit)} s in all: the rest are its {len(self.shares)} implementations' shares)"
            )
        waited = (
            f", waiting: {_seconds(_TIMER.backstop)} s by the wall clock ({BACKSTOP:g}× the limit, at a load of "
            f"{_TIMER.stretch:.2g}× the cores) used little CPU"
            if _TIMER.by_wall
            else ""
        )
        self.errors.append(
            f"{what}: TimeLimitExceeded: claim {self.claim_id} ran past its time limit of {limit} "
            f"(environment variable {TIME_LIMIT_ENV}){waited}; the rest of the claim did not run"
        )


RETRY = 0.05
"""Seconds between the times a timer that went off goes off again, until it is stopped."""


class _Timer:
    """The process's CPU-time timer (SIGPROF) with its wall-clock backstop (SIGALRM): when either goes off it raises
    TimeLimitExceeded once, so that no second one lands in the cleanup of the first. Python swallows one raised
    where none can propagate (a garbage-collection callback, a __del__): sys.unraisablehook then receives it, and it
    is raised again when the timer next goes off (every RETRY seconds). Hypothesis may turn it into another
    exception (FlakyStrategyDefinition, when it arrives while an example is drawn): ``went_off`` still says that the
    time ran out."""

    def __init__(self) -> None:
        self.pending = self.went_off = self.by_wall = False
        self.kept_hook = sys.unraisablehook
        self.backstop = self.stretch = 0.0

    def arm(self, seconds: float) -> None:
        self.pending, self.went_off, self.by_wall = True, False, False
        self.stretch = load_stretch()
        self.backstop = max(seconds, 1e-3) * BACKSTOP * self.stretch
        signal.setitimer(signal.ITIMER_PROF, max(seconds, 1e-3), RETRY)
        signal.setitimer(signal.ITIMER_REAL, self.backstop, RETRY)

    def disarm(self) -> None:
        self.pending = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)

    def expire(self, signum: int, frame: object) -> None:
        if self.pending:
            self.pending, self.went_off, self.by_wall = False, True, signum == signal.SIGALRM
            raise TimeLimitExceeded

    def unraisable(self, unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, TimeLimitExceeded):
            self.pending = True
        else:
            self.kept_hook(unraisable)


_TIMER = _Timer()


@contextmanager
def alarm(seconds: float) -> Iterator[bool]:
    """Raise TimeLimitExceeded after ``seconds`` of CPU time (or the wall-clock backstop); yields whether the alarm
    is armed.

    Not armed off the main thread, without a limit, or when a timer already runs (an outer
    claim's, while a derived claim evaluates its dependencies: the outer one then applies).
    """
    if (
        math.isinf(seconds)
        or seconds <= 0
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_PROF)[0]
        or signal.getitimer(signal.ITIMER_REAL)[0]
    ):
        yield False
        return
    previous = signal.signal(signal.SIGALRM, _TIMER.expire), signal.signal(signal.SIGPROF, _TIMER.expire)
    _TIMER.kept_hook, sys.unraisablehook = sys.unraisablehook, _TIMER.unraisable
    _TIMER.arm(seconds)
    try:
        yield True
    finally:
        _TIMER.disarm()
        sys.unraisablehook = _TIMER.kept_hook
        signal.signal(signal.SIGALRM, previous[0])
        signal.signal(signal.SIGPROF, previous[1])
