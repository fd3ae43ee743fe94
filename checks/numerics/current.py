"""The run in progress, as strategies see it: its dtype, the domain the implementation under test declares and
how many examples a batch strategy draws per Hypothesis test case.

The engine's harness sets it around each run of a check; strategies read it as their default (an explicit ``dtype``
argument wins; outside a check there is no run, so a strategy that depends on the dtype asks for one). It sits in
numerics, below both the runner that sets it and the strategies that read it.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

from checks.numerics.domain import Domain


class CurrentRun:
    """The run in progress: its dtype, the implementation's domain and the batch, as strategies see them."""

    def __init__(self, dtype: str, domain: Domain | None = None, batch: int = 1) -> None:
        self._dtype = dtype
        self.domain = domain if domain is not None else Domain()
        """What the implementation under test takes (positions, d_model): strategies draw inside it."""
        self.batch = batch
        """Examples per test case in a batched check (checks.helpers.variable_strategies.position_batches); 1
        elsewhere."""
        self.dtype_read = False
        """Whether anything read the dtype during the run: inputs drawn without reading it are any dtype's
        (checks.evidence.check.shared)."""

    @property
    def dtype(self) -> str:
        self.dtype_read = True
        return self._dtype

    @property
    def max_position(self) -> int | None:
        return self.domain.max_position


_CURRENT: contextvars.ContextVar[CurrentRun | None] = contextvars.ContextVar("current_run", default=None)


def current_run() -> CurrentRun | None:
    """The run in progress, or None outside a check (a strategy that depends on the dtype then needs its ``dtype``
    argument: checks.helpers.variable_strategies.run_dtype)."""
    return _CURRENT.get()


@contextmanager
def running(run: CurrentRun) -> Iterator[None]:
    token = _CURRENT.set(run)
    try:
        yield
    finally:
        _CURRENT.reset(token)
