"""Dense sweeps: a numeric identity checked once over a whole grid, as one chunked tensor program.

A sweep function ``def name(s, positions, d_model)`` receives a chunk of consecutive integer
positions (float64 on the device) and calls ``s.compare`` with elementwise tolerances. The
engine chunks positions to bound memory, and records cases checked, cases per second, the
largest error against its tolerance and the worst case.

Speed: a sweep should cost a few passes over its grid beyond the sin and cos it needs. Tables
are laid out (pair, position), so positions run along the contiguous axis and PE(pos + k) for
every k is a strided view of one table (``ahead``); two-term combinations are formed with fused
multiply-adds into scratch tensors reused by every chunk (``s.miss``, ``s.scratch``); a tolerance
that is constant along an axis lets ``s.compare`` reduce that axis before dividing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import torch

from checks.backends import available_devices
from checks.profiles import sweep_elements
from checks.references import frequency_values
from checks.tolerances import position_limit, tolerance

_SCRATCH: dict[tuple[str, torch.dtype, int], torch.Tensor] = {}
"""Scratch tensors by (device, dtype, slot), shared by the runs of every sweep in the process."""

CHUNK_ELEMENTS = 2**19
"""Positions × d_model per chunk: enough to amortise per-operation dispatch (2^17 and 2^18 ran slower)."""


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
        self.wide = torch.float64 if self.low == torch.float64 else torch.float32
        """The dtype errors are formed in: float32 for the 16-bit types, so an error is not rounded to 8 bits."""
        self.tolerance = tolerance(run.dtype)
        self._worst_ratio = -1.0
        self._frequencies: dict[int, torch.Tensor] = {}

    def frequencies(self, d_model: int) -> torch.Tensor:
        """ω_i as a row (1, pairs) in the sweep's dtype."""
        return self.exact_frequencies(d_model).T.to(self.low)

    def sinusoid(
        self, positions: torch.Tensor, d_model: int, by_position: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(sin, cos) of pos · ω_i, each (pairs, positions) or, ``by_position``, (positions, pairs).

        Every step in the sweep's dtype, as checks.references.Reference forms them: pos and ω_i
        rounded to the dtype, their product rounded, then sin and cos.
        """
        row = self.frequencies(d_model)
        low = positions.to(self.low)
        angles = low[:, None] * row if by_position else row.T * low[None, :]
        return torch.sin(angles), torch.cos(angles)

    def exact_frequencies(self, d_model: int) -> torch.Tensor:
        """ω_i in float64 as a column (pairs, 1) on the device: for expected values."""
        if d_model not in self._frequencies:
            self._frequencies[d_model] = torch.from_numpy(frequency_values(d_model)).to(self.device)[:, None]
        return self._frequencies[d_model]

    def widened(self, values: torch.Tensor) -> torch.Tensor:
        """Values in the dtype errors are formed in (a no-op for float32 and float64)."""
        return values if values.dtype == self.wide else values.to(self.wide)

    def stored(self, values: torch.Tensor) -> torch.Tensor:
        """A result computed in the wide dtype, rounded once to the sweep's dtype (a no-op unless 16-bit)."""
        return values if self.low == self.wide else values.copy_(values.to(self.low))

    def offsets(self, reach: int) -> torch.Tensor:
        """k = 1 … reach as a float64 column (reach, 1) on the device."""
        return torch.arange(1, reach + 1, dtype=torch.float64, device=self.device)[:, None]

    def allowed(self, scale: torch.Tensor | float) -> torch.Tensor | float:
        """Elementwise tolerance atol + rtol · scale; ``scale`` must cover |expected| and the rounded arguments."""
        return self.tolerance.atol + self.tolerance.rtol * scale

    def allowed_product(self, base: float, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """atol + rtol · (base + a · b) over the broadcast shape, in one pass, in the wide dtype."""
        start = torch.as_tensor(self.allowed(base), dtype=self.wide, device=self.device)
        return torch.addcmul(start, self.widened(a) * self.tolerance.rtol, self.widened(b))

    def scratch(self, slot: int, *shape: int) -> torch.Tensor:
        """An uninitialised tensor in the wide dtype, reused by every chunk and every later run.

        Kept for the process (_SCRATCH): fresh pages cost a sweep's first chunk more than the chunk's
        arithmetic (8 MB scratch tensors: 12 ms against 5 ms warm on this machine).
        """
        size = math.prod(shape)
        key = (self.device, self.wide, slot)
        kept = _SCRATCH.get(key)
        if kept is None or kept.numel() < size:
            kept = _SCRATCH[key] = torch.empty(size, dtype=self.wide, device=self.device)
        return kept[:size].view(shape)

    def combination(
        self,
        slot: int,
        a: torch.Tensor,
        x: torch.Tensor,
        b: torch.Tensor | None = None,
        y: torch.Tensor | None = None,
        minus: bool = False,
    ) -> torch.Tensor:
        """a·x + b·y (a·x − b·y when ``minus``; a·x alone without b, y), broadcast, in scratch tensor ``slot``.

        As the dtype computes it: float32 and float64 form one product, then a fused multiply-add;
        a 16-bit dtype rounds each product and their sum to the dtype (held in float32), as
        elementwise code in the dtype does.
        """
        operands = (a, x) if b is None or y is None else (a, x, b, y)
        out = self.scratch(slot, *_broadcast(*(operand.shape for operand in operands)))
        first = self.stored(torch.mul(a, x, out=out))
        if b is None or y is None:
            return first
        if self.low == self.wide:
            return first.addcmul_(b, y, value=-1 if minus else 1)
        return self.stored(first.add_(self.stored(b * y), alpha=-1 if minus else 1))

    def miss(
        self,
        slot: int,
        target: torch.Tensor | float,
        a: torch.Tensor,
        x: torch.Tensor,
        b: torch.Tensor | None = None,
        y: torch.Tensor | None = None,
        minus: bool = False,
        rounded: bool = True,
    ) -> torch.Tensor:
        """target − (a·x ± b·y), broadcast, in scratch tensor ``slot``: how far a combination misses its target.

        float32 and float64 form it with fused multiply-adds, so the combination is never rounded on
        its own (the result is within two units in the last place of the terms of the rounded one, far
        below any tolerance). A 16-bit dtype rounds each product and their sum to the dtype, as
        elementwise code in the dtype does (a 16-bit matmul rounds only the sum: never more error);
        ``rounded=False`` keeps them in float32 instead, for a check that widens the values first.
        """
        if self.low != self.wide and rounded:
            return self.combination(slot, a, x, b, y, minus).neg_().add_(target)
        operands = (a, x) if b is None or y is None else (a, x, b, y)
        out = self.scratch(slot, *_broadcast(*(operand.shape for operand in operands)))
        start = torch.as_tensor(target, dtype=self.wide, device=self.device)
        missed = torch.addcmul(start, a, x, value=-1, out=out)
        return missed if b is None or y is None else missed.addcmul_(b, y, value=1 if minus else -1)

    def compare(
        self,
        difference: torch.Tensor,
        allowed: torch.Tensor | float,
        inputs: dict[str, torch.Tensor],
    ) -> None:
        """Record |difference| against ``allowed``, elementwise; ``inputs`` name the worst case.

        Every element is a case: one scalar equation checked at one grid point (a sweep that checks
        two components of a rotation, or three identities, at each point counts each).
        ``difference`` may be signed (actual − expected). ``allowed`` and every input broadcast to its
        shape. Along an axis where ``allowed`` is constant (size 1) the largest |difference| is taken
        first (two reductions: no full-size write, no division). A chunk is located (its worst case
        found) only when it beats the worst ratio so far. NaN counts as an infinite error.
        """
        self.run.cases += difference.numel()
        shape = difference.shape
        allowed = torch.as_tensor(allowed, dtype=difference.dtype, device=difference.device)
        allowed = allowed.reshape((1,) * (difference.dim() - allowed.dim()) + allowed.shape)
        if _broadcast(allowed.shape, shape) != shape:
            raise ValueError(f"allowed {tuple(allowed.shape)} does not broadcast to {tuple(shape)}")
        constant = [axis for axis in range(difference.dim()) if allowed.shape[axis] == 1 and shape[axis] > 1]
        if allowed.numel() == 1:
            ratio = difference  # one tolerance for the whole chunk: divide the two extremes only
            value = max(float(difference.amax()), -float(difference.amin())) / float(allowed.reshape(()))
        else:
            if constant:
                largest = difference.amax(dim=constant, keepdim=True)
                ratio = torch.maximum(largest, difference.amin(dim=constant, keepdim=True).neg_(), out=largest)
                ratio = ratio.div_(allowed)
            else:
                ratio = torch.div(difference, allowed, out=self.scratch(_RATIO_SLOT, *shape))
            value = max(float(ratio.amax()), -float(ratio.amin()))
        if not value > self._worst_ratio and not math.isnan(value):
            return
        if ratio is difference:
            index = _largest_magnitude(difference)[1]
        else:
            index = _largest_magnitude(ratio)[1]
            if constant:
                within = difference[
                    tuple(slice(None) if axis in constant else index[axis] for axis in range(len(shape)))
                ]
                inner = iter(_largest_magnitude(within)[1])
                index = tuple(next(inner) if axis in constant else index[axis] for axis in range(len(shape)))
        self._worst_ratio = math.inf if math.isnan(value) else value
        self.run.max_error = abs(_element(difference, index))
        self.run.tolerance = _element(allowed, index)
        self.run.worst_input = {name: _element(torch.as_tensor(given), index) for name, given in inputs.items()}


_RATIO_SLOT = -1
"""The scratch slot ``compare`` divides into (sweep functions number theirs from 0)."""


def _broadcast(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape ``shapes`` broadcast to (torch.broadcast_shapes imports torch.fx on first use: 0.1 s)."""
    rank = max(len(shape) for shape in shapes)
    padded = [(1,) * (rank - len(shape)) + tuple(shape) for shape in shapes]
    result = []
    for sizes in zip(*padded, strict=True):
        larger = set(sizes) - {1}
        if len(larger) > 1:
            raise ValueError(f"shapes {shapes} do not broadcast")
        result.append(larger.pop() if larger else 1)
    return tuple(result)


def _element(values: torch.Tensor, index: tuple[int, ...]) -> float:
    """The element of ``values`` (broadcast to the grid) at grid ``index``."""
    offset = len(index) - values.dim()
    return float(values[tuple(0 if size == 1 else index[offset + axis] for axis, size in enumerate(values.shape))])


LOCATE_BLOCK = 4096
"""Elements per block when locating a maximum: block extremes in vectorised passes, then one block's argmax."""


def _largest_magnitude(values: torch.Tensor) -> tuple[float, tuple[int, ...]]:
    """max |values| (NaN counts as +inf) and its index, without a full-size argmax (slow on the CPU)."""
    flat = values.reshape(-1)
    whole = flat.numel() - flat.numel() % LOCATE_BLOCK
    start, span = 0, flat.numel()
    if whole > LOCATE_BLOCK:
        blocks = flat[:whole].view(-1, LOCATE_BLOCK)
        extremes = torch.maximum(blocks.amax(dim=1), blocks.amin(dim=1).neg_())
        if whole < flat.numel():
            extremes = torch.cat([extremes, flat[whole:].abs().amax()[None]])
        start, span = int(torch.argmax(extremes)) * LOCATE_BLOCK, LOCATE_BLOCK
    position = start + int(torch.argmax(flat[start : start + span].abs()))
    value = abs(float(flat[position]))
    index = []
    for size in reversed(values.shape):
        position, place = divmod(position, size)
        index.append(place)
    return (math.inf if math.isnan(value) else value), tuple(reversed(index))


def run_sweep(sweep: Sweep, elements: int | None = None) -> list[SweepRun]:
    """The sweep on every available device, dtype and d_model it names, on one intra-op CPU thread.

    Each run covers up to ``elements`` positions × d_model (default: the profile's budget).

    On chunks of this size a second thread gains little (all sweeps: at most 1.3× on an idle
    2-core machine), while on a busy one (pytest-xdist workers, other jobs) threads that wait for a
    core cost milliseconds per operation (all sweeps: 10 to 30× slower with 2 threads than with 1).
    """
    runs = []
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for device in available_devices():
            for dtype in sweep.dtypes:
                for d_model in sweep.d_models:
                    run = SweepRun(sweep.name, device, dtype, d_model)
                    _execute(sweep, run, elements or sweep_elements())
                    runs.append(run)
    finally:
        torch.set_num_threads(threads)
    return runs


def _execute(sweep: Sweep, run: SweepRun, elements: int) -> None:
    context = SweepContext(run)
    count = min(sweep.positions, position_limit(run.dtype), max(1, elements // run.d_model))
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
        if not run.cases:
            run.status, run.message = "error", "the sweep compared no case"
    except Exception as crash:  # a crashing sweep is recorded as broken
        run.status, run.message = "error", f"{type(crash).__name__}: {crash}"[:2000]
    run.seconds = time.perf_counter() - started


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
