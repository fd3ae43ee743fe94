"""The worst case of a dense sweep: the largest |difference| / tolerance over every chunk, found exactly.

A chunk compared against a cheap lower bound of its tolerance (``lowest``) is deferred: its bound
is kept, and only the chunks whose bound could still beat the worst ratio found are run again and
located at the end (``settle``), highest bound first. The worst ratio found is the one comparing
every chunk against its full tolerance gives; only where several cases share it exactly may
another of them be the one reported (without deferral, the first in grid order). Each comparison
is named by its equation's label, so a replayed chunk records the one it was deferred for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeAlias

from checks.settings.extras import optional

torch = optional("torch")


Allowed: TypeAlias = "torch.Tensor | float"
"""A tolerance that broadcasts to the compared tensor (a number: one for every case)."""

LOCATE_BLOCK = 4096
"""Elements per block when locating a maximum: block extremes in vectorised passes, then one block's argmax."""


class WorstCase:
    """The largest ratio so far, its error, tolerance and inputs, and the chunks compared on a bound only."""

    def __init__(self, divide_into: Callable[..., torch.Tensor]) -> None:
        self.ratio, self.error, self.tolerance = -1.0, 0.0, 0.0
        self.inputs: dict[str, float] = {}
        self.label = ""
        """The equation the worst case is in."""
        self._divide_into = divide_into
        """Returns a reusable tensor of the given shape to hold full-size ratios."""
        self._chunk, self._final = (0, 0), True
        self._labels: set[str] = set()
        self._deferred: list[tuple[float, tuple[int, int], str]] = []
        """(bound, the chunk's first and last position, equation) of each deferred comparison."""
        self._replaying: str | None = None

    @property
    def replaying(self) -> bool:
        """Whether a deferred chunk is being run again (its cases were counted the first time)."""
        return self._replaying is not None

    def begin(self, first: int, last: int, final: bool) -> None:
        """Start the chunk of positions first … last − 1 (``final``: no chunk follows it)."""
        self._chunk, self._final = (first, last), final
        self._labels.clear()

    def compare(
        self,
        label: str,
        difference: torch.Tensor,
        allowed: Allowed | Callable[[], Allowed],
        inputs: dict[str, torch.Tensor],
        lowest: torch.Tensor | None,
    ) -> None:
        """Take in a chunk's comparison of equation ``label`` (see Grid.compare): record, defer or skip it."""
        if label in self._labels:
            raise ValueError(f"equation {label!r} is compared twice in one chunk: give each its own label")
        self._labels.add(label)
        if self._replaying is not None:
            if label == self._replaying:
                self._record(label, difference, _formed(allowed, lowest), inputs)
            return
        if lowest is not None:
            bound = self._extreme(difference, lowest)[0]
            if not _beats(bound, self.ratio):
                return
            if not self._final:
                self._deferred.append((bound, self._chunk, label))
                return
        elif callable(allowed):
            raise TypeError("a tolerance given as a function needs its lower bound, lowest")
        self._record(label, difference, _formed(allowed, lowest), inputs)

    def settle(self, replay: Callable[[int, int], None]) -> None:
        """Locate the deferred chunks that may hold the worst case, highest bound first.

        ``replay(first, last)`` runs the sweep function again on that chunk. Once a bound does not
        beat the worst ratio found, no later one can (they are sorted), so the rest are skipped.
        """
        for bound, (first, last), label in sorted(self._deferred, key=_highest_bound_first):
            if not _beats(bound, self.ratio):
                break
            self._replaying = label
            self.begin(first, last, final=True)
            replay(first, last)
        self._replaying = None

    def _record(self, label: str, difference: torch.Tensor, allowed: Allowed, inputs: dict[str, torch.Tensor]) -> None:
        """Compare a chunk exactly; locate its worst case if it beats the worst ratio so far."""
        value, ratio, allowed, constant = self._extreme(difference, allowed)
        if not _beats(value, self.ratio):
            return
        shape = difference.shape
        if ratio is difference:
            index = _largest_magnitude(difference)
        else:
            index = _largest_magnitude(ratio)
            if constant:
                within = difference[
                    tuple(slice(None) if axis in constant else index[axis] for axis in range(len(shape)))
                ]
                inner = iter(_largest_magnitude(within))
                index = tuple(next(inner) if axis in constant else index[axis] for axis in range(len(shape)))
        self.ratio = math.inf if math.isnan(value) else value
        self.label = label
        self.error = abs(_element(difference, index))
        self.tolerance = _element(allowed, index)
        self.inputs = {name: _element(torch.as_tensor(given), index) for name, given in inputs.items()}

    def _extreme(
        self, difference: torch.Tensor, allowed: Allowed
    ) -> tuple[float, torch.Tensor, torch.Tensor, list[int]]:
        """The largest |difference| / ``allowed`` of a chunk, the ratios it was taken from (``difference`` itself
        when ``allowed`` is one number), ``allowed`` as a tensor and the axes it is constant along.

        Along an axis where ``allowed`` is constant the largest |difference| is taken first (two
        reductions: no full-size write, no division).
        """
        shape = difference.shape
        allowed = torch.as_tensor(allowed, dtype=difference.dtype, device=difference.device)
        allowed = allowed.reshape((1,) * (difference.dim() - allowed.dim()) + allowed.shape)
        if broadcast_shape(allowed.shape, shape) != shape:
            raise ValueError(f"allowed {tuple(allowed.shape)} does not broadcast to {tuple(shape)}")
        constant = [axis for axis in range(difference.dim()) if allowed.shape[axis] == 1 and shape[axis] > 1]
        if allowed.numel() == 1:  # one tolerance for the whole chunk: divide the two extremes only
            value = max(float(difference.amax()), -float(difference.amin())) / float(allowed.reshape(()))
            return value, difference, allowed, constant
        if constant:
            largest = difference.amax(dim=constant, keepdim=True)
            ratio = torch.maximum(largest, difference.amin(dim=constant, keepdim=True).neg_(), out=largest)
            ratio = ratio.div_(allowed)
        else:
            ratio = torch.div(difference, allowed, out=self._divide_into(*shape))
        return max(float(ratio.amax()), -float(ratio.amin())), ratio, allowed, constant


def _beats(value: float, worst: float) -> bool:
    """Whether ``value`` replaces ``worst``: larger, or NaN (an infinite error) while the worst is finite."""
    return value > worst or (math.isnan(value) and worst < math.inf)


def _formed(allowed: Allowed | Callable[[], Allowed], lowest: torch.Tensor | None) -> Allowed:
    """The tolerance, formed if given as a function, checked to be nowhere below ``lowest``."""
    allowed = allowed() if callable(allowed) else allowed
    if lowest is not None and float((torch.as_tensor(allowed, device=lowest.device) - lowest).amin()) < 0:
        raise ValueError("lowest exceeds allowed: it must bound the tolerance from below")
    return allowed


def _highest_bound_first(deferred: tuple[float, tuple[int, int], str]) -> tuple[bool, float, int]:
    """Sort key of deferred comparisons: NaN first, then from the highest bound, then in grid order."""
    bound, (first, _), _ = deferred
    return (not math.isnan(bound), 0.0 if math.isnan(bound) else -bound, first)


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
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


def _largest_magnitude(values: torch.Tensor) -> tuple[int, ...]:
    """The index of max |values| (NaN counts as +inf), without a full-size argmax (slow on the CPU)."""
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
    index = []
    for size in reversed(values.shape):
        position, place = divmod(position, size)
        index.append(place)
    return tuple(reversed(index))
