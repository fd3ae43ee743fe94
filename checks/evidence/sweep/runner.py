"""Run dense sweeps: each sweep function over the whole grid, chunk by chunk, per device, dtype and d_model.

The function ``def _(s)`` states its equations on one chunk of positions (checks.evidence.sweep.grid);
the runner sizes the chunks to bound memory, records cases checked, cases per second, the largest
error against its tolerance and the worst case (checks.evidence.sweep.worst_case).
"""

from __future__ import annotations

import gc
import time

from checks.evidence.base import crash_text
from checks.evidence.sweep.grid import Grid
from checks.evidence.sweep.record import Equation, SweepRun, SweepSpec
from checks.numerics.devices import available_devices
from checks.numerics.tolerances import position_limit
from checks.settings.extras import optional
from checks.settings.profiles import sweep_elements

torch = optional("torch")

COMPARED_ELEMENTS = 2**21
"""Elements per comparison a chunk is sized for (8 MB in float32).

Smaller chunks pay per-operation dispatch (some 40 operations a chunk, 3 to 5 µs each); larger
ones fall out of cache. The first chunk assumes 4 · d_model elements per position (8 offsets ×
d_model/2 pairs); later chunks are scaled by the largest comparison it made.
"""


def run_sweep(sweep: SweepSpec, elements: int | None = None) -> list[SweepRun]:
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
                    run = SweepRun(sweep.name, device, dtype, d_model=d_model, offsets=sweep.offsets)
                    _execute(sweep, run, elements or sweep_elements())
                    runs.append(run)
    finally:
        torch.set_num_threads(threads)
        if collecting:
            gc.enable()
    return runs


def _execute(sweep: SweepSpec, run: SweepRun, elements: int) -> None:
    """Run ``sweep`` chunk by chunk into ``run``; a crash makes the run an error, never a failure."""
    grid = Grid(run.device, run.dtype, run.d_model, sweep.offsets)
    count = min(sweep.positions, position_limit(run.dtype), max(1, elements // run.d_model))
    span = max(1, COMPARED_ELEMENTS // (4 * run.d_model))

    def chunk_at(first: int, last: int) -> None:
        grid.begin(torch.arange(first, last, dtype=torch.float64, device=run.device))
        sweep.function(grid)

    started = time.perf_counter()
    try:
        first = 0
        while first < count:
            last = min(first + span, count)
            grid.worst.begin(first, last, final=last == count)
            chunk_at(first, last)
            if first == 0 and grid.largest_compared:
                span = max(1, span * COMPARED_ELEMENTS // grid.largest_compared)
            first = last
        grid.worst.settle(chunk_at)
        if run.device == "cuda":
            torch.cuda.synchronize()
        run.positions = count
        run.status = "passed" if grid.worst.ratio <= 1.0 else "failed"
    except Exception as crash:  # a crashing sweep is recorded as broken, with the claim file's line on the way
        origin = getattr(getattr(sweep.function, "__code__", None), "co_filename", None)
        run.status, run.message = "error", crash_text(crash, origin)[:2000]
    run.seconds = time.perf_counter() - started
    worst = grid.worst
    run.cases, run.max_error, run.tolerance = grid.cases, worst.error, worst.tolerance
    run.worst_input = {name: int(value) if float(value).is_integer() else value for name, value in worst.inputs.items()}
    run.worst_equation = worst.label
    run.equations = [Equation(label, text) for label, text in grid.equations.items()]
    run.cases_per_second = run.cases / run.seconds if run.seconds else 0.0
    if run.status == "failed":
        run.message = f"{worst.label}: max error {run.max_error:.3g} > tolerance {run.tolerance:.3g}"
        run.message += f" at {run.worst_input}"
    if run.status != "error" and not run.cases:
        run.status, run.message = "error", "the sweep compared no case"
