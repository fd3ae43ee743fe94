"""The per-claim time limit, and the guard that turns a crash in any step of a claim into its error."""

from __future__ import annotations

import math
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from hypothesis import settings

TIME_LIMIT_ENV = "THEORY_CLAIMS_TIME_LIMIT"
DEFAULT_TIME_LIMIT = 120.0
"""Seconds one claim may run (quotes, proofs, checks, sweeps, probes together) at 40 Hypothesis
examples (the ci profile), scaled up for profiles that try more; THEORY_CLAIMS_TIME_LIMIT
overrides it, 0 turns the limit off."""


class TimeLimitExceeded(BaseException):
    """A claim ran past its time limit (SIGALRM in the main thread).

    A BaseException, so that neither Hypothesis nor a check's own ``except Exception`` swallows it.
    """


def time_limit() -> float:
    """The per-claim time limit in seconds (0: none)."""
    text = os.environ.get(TIME_LIMIT_ENV, "").strip()
    try:
        return float(text) if text else DEFAULT_TIME_LIMIT * max(1.0, settings().max_examples / 40)
    except ValueError:
        raise ValueError(f"{TIME_LIMIT_ENV}={text!r} is not a number of seconds") from None


class Guard:
    """Runs the steps of one claim: a crash, or running out of the claim's time, becomes one error line."""

    def __init__(self, claim_id: str) -> None:
        self.claim_id = claim_id
        self.errors: list[str] = []
        limit = time_limit()
        self.deadline = time.monotonic() + (limit if limit > 0 else math.inf)

    def __call__(self, what: str, action: Callable[[], object]) -> None:
        if time.monotonic() >= self.deadline:
            self._out_of_time(what)
            return
        armed = False
        try:
            with alarm(self.deadline - time.monotonic()) as armed:
                action()
        except TimeLimitExceeded:
            self._out_of_time(what)  # named by the innermost step (a step of a proof, say)
            if not armed:
                raise
        except (Exception, SystemExit) as error:  # a step that exits is broken, never a vanished claim
            where = traceback.extract_tb(error.__traceback__)[-1]
            self.errors.append(f"{what}: {type(error).__name__}: {error} ({where.filename}:{where.lineno})")

    @property
    def remaining(self) -> float:
        """Seconds left of the claim's time limit."""
        return max(0.0, self.deadline - time.monotonic())

    def _out_of_time(self, what: str) -> None:
        """Record once, naming the step it happened in, that the claim used up its time limit."""
        if not any("TimeLimitExceeded" in error for error in self.errors):
            self.errors.append(
                f"{what}: TimeLimitExceeded: claim {self.claim_id} ran past its time limit of {time_limit():g} s "
                f"(environment variable {TIME_LIMIT_ENV}); the rest of the claim did not run"
            )


@contextmanager
def alarm(seconds: float) -> Iterator[bool]:
    """Raise TimeLimitExceeded after ``seconds``; yields whether the alarm is armed.

    Not armed off the main thread, without a limit, or when a timer already runs (an outer
    claim's, while a derived claim evaluates its dependencies: the outer one then applies).
    """
    if (
        math.isinf(seconds)
        or seconds <= 0
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0]
    ):
        yield False
        return

    def expire(signum: int, frame: object) -> None:
        raise TimeLimitExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3))
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
