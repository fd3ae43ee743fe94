"""``--memory-limit MIB``: a claim whose process grows past the limit is stopped with one line, the others run
(checks.settings.memory_ceiling), and a run fails when a process that ran claims peaked above the limit.

Each pytest-xdist worker reports its peak resident memory (``ru_maxrss``) when it finishes; the controller (or
pytest itself, without xdist) lists every peak in the terminal summary and fails the run when one exceeds the limit.
A thorough run of a whole catalog runs with ``--memory-limit 953``: the whole catalog
is then the test that a worker stays within 1 GB (10⁹ bytes, 953.7 MiB).
"""

from __future__ import annotations

import resource
import sys
from typing import Any

import pytest

from checks.settings.memory_ceiling import set_ceiling

PEAK = "theory_claims_peak_rss_mib"
"""The key under which a worker sends the controller its peak RSS in MiB."""


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (``ru_maxrss`` is in bytes on macOS, kilobytes elsewhere)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10


class MemoryLimit:
    """Gathers each worker's peak and fails the session when one is over ``limit`` MiB."""

    def __init__(self, config: pytest.Config, limit: float) -> None:
        self.config, self.limit = config, limit
        self.peaks: dict[str, float] = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: object) -> None:
        peak = getattr(node, "workeroutput", {}).get(PEAK)
        if peak is not None:
            self.peaks[node.gateway.id] = float(peak)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[PEAK] = peak_rss_mib()
            return
        if getattr(self.config.option, "dist", "no") == "no":
            self.peaks["pytest"] = peak_rss_mib()
        if self.over() and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        set_ceiling(None)  # an in-process run (pytester) leaves no ceiling to the process that ran it

    def over(self) -> dict[str, float]:
        return {name: peak for name, peak in self.peaks.items() if peak > self.limit}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.peaks:
            return
        listed = ", ".join(f"{name} {peak:,.0f} MiB" for name, peak in sorted(self.peaks.items()))
        terminalreporter.write_line(f"theory-claims: peak RSS per process: {listed} (limit {self.limit:,.0f} MiB)")
        for name, peak in sorted(self.over().items()):
            terminalreporter.write_line(
                f"theory-claims: FAILED --memory-limit: {name} peaked at {peak:,.0f} MiB, over {self.limit:,.0f} MiB",
                red=True,
            )


def configure(config: pytest.Config) -> None:
    """Register the limit when ``--memory-limit`` is given."""
    limit = config.getoption("--memory-limit")
    if limit is None:
        return
    if limit <= 0:
        raise pytest.UsageError(f"--memory-limit must be a positive number of MiB, not {limit}")
    config.pluginmanager.register(MemoryLimit(config, limit), "theory-claims-memory-limit")
    set_ceiling(limit)
