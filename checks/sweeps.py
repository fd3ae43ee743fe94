"""Dense sweeps: a numeric identity checked once over a whole grid, as one chunked tensor program.

A sweep function ``def name(s, positions, d_model)`` receives a chunk of integer
positions (float64 on the device) and calls ``s.compare`` with elementwise
tolerances. The engine chunks positions to bound memory, and records cases
checked, cases per second, the largest error against its tolerance and the worst case.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from checks.backends import available_devices
from checks.profiles import sweep_elements
from checks.references import frequency_values
from checks.tolerances import position_limit, tolerance

CHUNK_ELEMENTS = 2**17
"""Positions × d_model per chunk: small enough to stay in cache, large enough to amortise dispatch."""


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


class SweepContext:
    """The ``s`` a sweep function receives."""

    def __init__(self, run: SweepRun) -> None:
        self.run = run
        self.device, self.dtype = run.device, run.dtype
        self.low = getattr(torch, run.dtype)
        self.tolerance = tolerance(run.dtype)
        self._worst_ratio = -1.0

    def frequencies(self, d_model: int) -> torch.Tensor:
        """ω_i as a row (1, pairs) in the sweep's dtype."""
        return torch.from_numpy(frequency_values(d_model)).to(self.device, self.low)[None, :]

    def allowed(self, scale: torch.Tensor) -> torch.Tensor:
        """Elementwise tolerance atol + rtol · scale; ``scale`` must cover |expected| and the rounded arguments."""
        return self.tolerance.atol + self.tolerance.rtol * scale

    def compare(
        self,
        error: torch.Tensor,
        allowed: torch.Tensor,
        inputs: dict[str, torch.Tensor],
        cases: int,
    ) -> None:
        """Record elementwise ``error`` against ``allowed`` (broadcastable); ``inputs`` name the worst case."""
        ratio = error / allowed
        worst = int(torch.argmax(ratio))
        self.run.cases += cases
        value = float(ratio.flatten()[worst])
        if value > self._worst_ratio:
            self._worst_ratio = value
            shape = ratio.shape
            self.run.max_error = float(torch.broadcast_to(error, shape).flatten()[worst])
            self.run.tolerance = float(torch.broadcast_to(allowed, shape).flatten()[worst])
            self.run.worst_input = {
                name: float(torch.broadcast_to(value, shape).flatten()[worst]) for name, value in inputs.items()
            }


def run_sweep(sweep: Sweep) -> list[SweepRun]:
    """The sweep on every available device, dtype and d_model it names."""
    runs = []
    for device in available_devices():
        for dtype in sweep.dtypes:
            for d_model in sweep.d_models:
                run = SweepRun(sweep.name, device, dtype, d_model)
                _execute(sweep, run)
                runs.append(run)
    return runs


def _execute(sweep: Sweep, run: SweepRun) -> None:
    context = SweepContext(run)
    count = min(sweep.positions, position_limit(run.dtype), max(1, sweep_elements() // run.d_model))
    chunk = max(1, CHUNK_ELEMENTS // run.d_model)
    started = time.perf_counter()
    try:
        for first in range(0, count, chunk):
            positions = torch.arange(first, min(first + chunk, count), dtype=torch.float64, device=run.device)
            sweep.function(context, positions, run.d_model)
        if run.device == "cuda":
            torch.cuda.synchronize()
        run.positions = count
        run.status = "passed" if context._worst_ratio <= 1.0 else "failed"
        if run.status == "failed":
            run.message = f"max error {run.max_error:.3g} > tolerance {run.tolerance:.3g} at {run.worst_input}"
    except Exception as crash:  # a crashing sweep is recorded as broken
        run.status, run.message = "error", f"{type(crash).__name__}: {crash}"[:2000]
    run.seconds = time.perf_counter() - started


def sweep_record(run: SweepRun) -> dict[str, Any]:
    return {**asdict(run), "cases_per_second": run.cases_per_second}
