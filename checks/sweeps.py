"""Dense sweeps: a numeric identity checked once over a whole grid, as one chunked tensor program.

A sweep function ``def name(s, positions, d_model)`` receives a chunk of consecutive integer
positions (float64 on the device) and calls ``s.compare`` (checks.sweep_context) with elementwise
tolerances. The engine chunks positions to bound memory, and records cases checked, cases per
second, the largest error against its tolerance and the worst case (checks.worst_case).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from checks.backends import available_devices
from checks.profiles import sweep_elements
from checks.sweep_context import SweepContext
from checks.tolerances import position_limit

__all__ = ["Sweep", "SweepContext", "SweepRun", "ahead", "by_sum", "extended", "run_sweep", "sums", "sweep_record"]

COMPARED_ELEMENTS = 2**21
"""Elements per ``compare`` a chunk is sized for (8 MB in float32).

Smaller chunks pay per-operation dispatch (some 40 operations a chunk, 3 to 5 µs each); larger
ones fall out of cache. The first chunk assumes 4 · d_model elements per position (8 offsets ×
d_model/2 pairs); later chunks are scaled by the largest ``compare`` it made.
"""


@dataclass(frozen=True)
class Sweep:
    """A grid over positions × d_model (× whatever the function adds), per device and dtype."""

    name: str
    function: Callable[..., None]
    dtypes: tuple[str, ...]
    d_models: tuple[int, ...]
    positions: int


@dataclass
class SweepRun:
    """What one sweep saw on one device, dtype and d_model."""

    sweep: str
    device: str
    dtype: str
    d_model: int
    positions: int = 0
    cases: int = 0
    seconds: float = 0.0
    max_error: float = 0.0
    tolerance: float = 0.0
    worst_input: dict[str, float] = field(default_factory=dict)
    status: str = "skipped"
    message: str = ""

    @property
    def cases_per_second(self) -> float:
        return self.cases / self.seconds if self.seconds else 0.0


def run_sweep(sweep: Sweep, elements: int | None = None) -> list[SweepRun]:
    """The sweep on every available device, dtype and d_model it names, on one intra-op CPU thread.

    Each run covers up to ``elements`` positions × d_model (default: the profile's budget).

    On chunks of this size a second thread gains little (all sweeps: at most 1.3× on an idle
    2-core machine), while on a busy one (pytest-xdist workers, other jobs) threads that wait for a
    core cost milliseconds per operation (all sweeps: 10 to 30× slower with 2 threads than with 1).
    Python's cyclic garbage collector is paused meanwhile: a chunk creates tensors by the dozen and
    no cycles, and a collection in a pytest process walks its whole heap.
    """
    runs = []
    threads, collecting = torch.get_num_threads(), gc.isenabled()
    torch.set_num_threads(1)
    gc.disable()
    try:
        for device in available_devices():
            for dtype in sweep.dtypes:
                for d_model in sweep.d_models:
                    run = SweepRun(sweep.name, device, dtype, d_model)
                    _execute(sweep, run, elements or sweep_elements())
                    runs.append(run)
    finally:
        torch.set_num_threads(threads)
        if collecting:
            gc.enable()
    return runs


def _execute(sweep: Sweep, run: SweepRun, elements: int) -> None:
    """Run ``sweep`` chunk by chunk into ``run``; a crash makes the run an error, never a failure."""
    context = SweepContext(run.device, run.dtype)
    count = min(sweep.positions, position_limit(run.dtype), max(1, elements // run.d_model))
    span = max(1, COMPARED_ELEMENTS // (4 * run.d_model))

    def chunk_at(first: int, last: int) -> None:
        sweep.function(context, torch.arange(first, last, dtype=torch.float64, device=run.device), run.d_model)

    started = time.perf_counter()
    try:
        first = 0
        while first < count:
            last = min(first + span, count)
            context.worst.begin(first, last, final=last == count)
            chunk_at(first, last)
            if first == 0 and context.largest_compared:
                span = max(1, span * COMPARED_ELEMENTS // context.largest_compared)
            first = last
        context.worst.settle(chunk_at)
        if run.device == "cuda":
            torch.cuda.synchronize()
        run.positions = count
        run.status = "passed" if context.worst.ratio <= 1.0 else "failed"
    except Exception as crash:  # a crashing sweep is recorded as broken
        run.status, run.message = "error", f"{type(crash).__name__}: {crash}"[:2000]
    run.seconds = time.perf_counter() - started
    worst = context.worst
    run.cases, run.max_error, run.tolerance, run.worst_input = context.cases, worst.error, worst.tolerance, worst.inputs
    if run.status == "failed":
        run.message = f"max error {run.max_error:.3g} > tolerance {run.tolerance:.3g} at {run.worst_input}"
    if run.status != "error" and not run.cases:
        run.status, run.message = "error", "the sweep compared no case"


def sweep_record(run: SweepRun) -> dict[str, Any]:
    return {**asdict(run), "cases_per_second": run.cases_per_second}


def extended(positions: torch.Tensor, reach: int) -> torch.Tensor:
    """The chunk's consecutive positions followed by the next ``reach`` integers."""
    return torch.arange(len(positions) + reach, dtype=positions.dtype, device=positions.device) + positions[0]


def ahead(table: torch.Tensor, count: int, reach: int) -> torch.Tensor:
    """Columns k … k + count − 1 of a contiguous (pairs, count + reach) table for k = 1 … reach.

    A (reach, pairs, count) view: entry [k − 1, i, j] is table[i, j + k], PE(pos_j + k) of pair i.
    """
    pairs, width = table.shape
    return table.as_strided((reach, pairs, count), (1, width, 1), table.storage_offset() + 1)


def sums(positions: torch.Tensor, reach: int) -> torch.Tensor:
    """2·pos + k over the chunk's positions and k = 1 … reach, as a (2, 1, count + reach/2) table.

    Row 0 holds the odd sums 2·pos_0 + 1, + 3, …; row 1 the even ones 2·pos_0, + 2, …: a table
    computed from it is read per (pos, k) by ``by_sum``.
    """
    width = len(positions) + reach // 2
    steps = torch.arange(2 * width, dtype=positions.dtype, device=positions.device).view(width, 2).T.flip(0)
    return (2 * positions[0] + steps).contiguous()[:, None, :]


def by_sum(table: torch.Tensor, count: int, reach: int) -> torch.Tensor:
    """A (2, pairs, width) table over ``sums`` as a (reach/2, 2, pairs, count) view: [t, r, i, j] is its
    entry for pos_j and k = 2t + r + 1 (so .view(reach, …) of a tensor laid out alike runs over k = 1 … reach).

    Every axis steps forwards, unlike a stride-2 view of one table over 2·pos + k, which the CPU
    kernels do not vectorise (3× slower a pass).
    """
    table = table.contiguous()
    _, pairs, width = table.shape
    return table.as_strided((reach // 2, 2, pairs, count), (1, pairs * width + 1, width, 1), table.storage_offset())
