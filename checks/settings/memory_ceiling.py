"""The worker's memory limit as a ceiling on each claim (``--memory-limit MIB``).

A claim whose process grows past the ceiling is stopped, with one line saying so, before its next test case or
step; the claims after it run (the plugin gives back what it freed). The check reads the process's current
resident memory (``/proc/self/statm``, a few microseconds); where the system has no such file, nothing is stopped
and the run's peak alone is checked (checks.engine.memory_limit).
"""

from __future__ import annotations

import os
from pathlib import Path

STATM = Path("/proc/self/statm")
_ceiling: float | None = None


class MemoryLimitExceeded(BaseException):
    """A claim's process grew past the memory limit. A BaseException, so that neither Hypothesis nor a check's own
    ``except Exception`` swallows it."""


def set_ceiling(mib: float | None) -> None:
    """Stop each claim whose process grows past ``mib`` MiB (None: no ceiling)."""
    global _ceiling
    _ceiling = mib


def resident_mib() -> float | None:
    """The process's resident memory now, in MiB (None where the system does not say)."""
    try:
        pages = int(STATM.read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def check_ceiling() -> None:
    """Raise MemoryLimitExceeded when the process is past the ceiling."""
    if _ceiling is None:
        return
    resident = resident_mib()
    if resident is not None and resident > _ceiling:
        raise MemoryLimitExceeded(
            f"its process held {resident:,.0f} MiB, over the memory limit of {_ceiling:,.0f} MiB (--memory-limit)"
        )
