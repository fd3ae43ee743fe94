"""Each pytest-xdist worker takes its share of the machine's cores for PyTorch's threads.

PyTorch starts as many intra-op threads as there are cores in every process, and its OpenMP threads wait for work
by spinning: two workers on two cores ran four spinning threads, and a check's small tensor operations took 4.5×
as long as in one process (0.92 against 0.21 ms per multi-head attention call and its reference, measured on the
2-core machine, docs/performance.md). A worker therefore sets ``torch.set_num_threads`` to the cores divided by the
workers (at least one), unless the run already chose: ``OMP_NUM_THREADS`` or ``MKL_NUM_THREADS`` set. Sweeps,
experiments and timed attention set one thread for their own run, as before (checks.evidence.sweep.runner).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from checks.settings import extras

CHOSEN = ("OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Variables by which a run chooses its own thread count: a worker then leaves PyTorch's threads alone."""


def worker_threads(cores: int, workers: int, environ: Mapping[str, str]) -> int | None:
    """The intra-op threads of one of ``workers`` processes sharing ``cores``; None where the run chose its own."""
    if any(environ.get(name) for name in CHOSEN):
        return None
    return max(1, cores // max(1, workers))


def available_cores() -> int:
    """The cores this process may run on (its affinity where the platform says, else every core)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def share_cores(workerinput: Mapping[str, Any] | None) -> int | None:
    """In an xdist worker (``workerinput`` given), PyTorch's threads set to the worker's share of the cores; the
    count set, or None (not a worker, the run chose its own, or PyTorch is not installed)."""
    if workerinput is None or not extras.installed("torch"):
        return None
    workers = int(workerinput.get("workercount", 1))
    threads = worker_threads(available_cores(), workers, os.environ)
    if threads is not None:
        extras.optional("torch").set_num_threads(threads)
    return threads
