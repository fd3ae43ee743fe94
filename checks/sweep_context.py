"""The ``s`` a sweep function receives: its dtype's tables and combinations, and ``compare``.

Speed: a sweep should cost a few passes over its grid beyond the sin and cos it needs. Tables
are laid out (pair, position), so positions run along the contiguous axis and PE(pos + k) for
every k is a strided view of one table (checks.sweeps.ahead); two-term combinations are formed
with fused multiply-adds, and every full-size tensor of a chunk lives in a scratch tensor kept
for the process (``s.scratch``: fresh pages cost more than the arithmetic on them); a tolerance
constant along an axis lets ``compare`` reduce that axis before dividing, and a tolerance that
grows along one is given with its lowest value there (``compare``'s ``lowest``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

from checks.references import frequency_values
from checks.tolerances import tolerance
from checks.worst_case import Allowed, WorstCase, broadcast_shape

_SCRATCH: dict[tuple[str, torch.dtype, int], torch.Tensor] = {}
"""Scratch tensors by (device, dtype, slot), shared by the runs of every sweep in the process."""

_RATIO_SLOT, _SIN_SLOT, _COS_SLOT = -1, -2, -3
"""The engine's scratch slots (sweep functions number theirs from 0)."""


class SweepContext:
    """Tools for one run of a sweep (one device, dtype and d_model); ``worst`` holds what it found."""

    def __init__(self, device: str, dtype: str) -> None:
        self.device, self.dtype = device, dtype
        self.low = getattr(torch, dtype)
        self.wide = torch.float64 if self.low == torch.float64 else torch.float32
        """The dtype errors are formed in: float32 for the 16-bit types, so an error is not rounded to 8 bits."""
        self.tolerance = tolerance(dtype)
        self.cases = 0
        self.largest_compared = 0
        """The most elements one ``compare`` has received (the engine sizes chunks by it)."""
        self.worst = WorstCase(lambda *shape: self.scratch(_RATIO_SLOT, *shape))
        self._frequencies: dict[int, torch.Tensor] = {}

    def frequencies(self, d_model: int) -> torch.Tensor:
        """ω_i as a row (1, pairs) in the sweep's dtype."""
        return self.exact_frequencies(d_model).T.to(self.low)

    def sinusoid(
        self, positions: torch.Tensor, d_model: int, by_position: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(sin, cos) of pos · ω_i, each (pairs, positions) or, ``by_position``, (positions, pairs).

        Every step in the sweep's dtype, as checks.references.Reference forms them: pos and ω_i
        rounded to the dtype, their product rounded, then sin and cos. Both live in scratch
        tensors, valid until the next call.
        """
        row, low = self.frequencies(d_model), positions.to(self.low)
        first, second = (low[:, None], row) if by_position else (row.T, low[None, :])
        shape = (first.shape[0], second.shape[1])
        angles = torch.mul(first, second, out=self.scratch(_COS_SLOT, *shape, dtype=self.low))
        sin = torch.sin(angles, out=self.scratch(_SIN_SLOT, *shape, dtype=self.low))
        return sin, angles.cos_()

    def exact_frequencies(self, d_model: int) -> torch.Tensor:
        """ω_i in float64 as a column (pairs, 1) on the device: for expected values."""
        if d_model not in self._frequencies:
            self._frequencies[d_model] = torch.from_numpy(frequency_values(d_model)).to(self.device)[:, None]
        return self._frequencies[d_model]

    def widened(self, values: torch.Tensor) -> torch.Tensor:
        """Values in the dtype errors are formed in (a no-op for float32 and float64)."""
        return values if values.dtype == self.wide else values.to(self.wide)

    def expected(self, slot: int, values: torch.Tensor) -> torch.Tensor:
        """Expected values computed in float64, rounded once to the wide dtype (into scratch tensor ``slot``)."""
        return values if values.dtype == self.wide else self.scratch(slot, *values.shape).copy_(values)

    def stored(self, values: torch.Tensor) -> torch.Tensor:
        """A result computed in the wide dtype, rounded once to the sweep's dtype (a no-op unless 16-bit)."""
        return values if self.low == self.wide else values.copy_(values.to(self.low))

    def offsets(self, reach: int) -> torch.Tensor:
        """k = 1 … reach as a float64 column (reach, 1) on the device."""
        return torch.arange(1, reach + 1, dtype=torch.float64, device=self.device)[:, None]

    def allowed(self, scale: torch.Tensor | float) -> torch.Tensor | float:
        """Elementwise tolerance atol + rtol · scale; ``scale`` must cover |expected| and the rounded arguments."""
        return self.tolerance.atol + self.tolerance.rtol * scale

    def allowed_product(self, slot: int, base: float, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        """atol + rtol · (base + a · b) over the broadcast shape, in the wide dtype, in scratch tensor ``slot``.

        A product, then an add in place: on the CPU an addcmul whose operands broadcast along the
        innermost axis is not vectorised (0.6 ns per element here, against 0.2 for the two passes).
        """
        out = self.scratch(slot, *broadcast_shape(a.shape, b.shape))
        return torch.mul(self.widened(a) * self.tolerance.rtol, self.widened(b), out=out).add_(self.allowed(base))

    def scratch(self, slot: int, *shape: int, dtype: torch.dtype | None = None) -> torch.Tensor:
        """An uninitialised tensor (the wide dtype unless given), reused by every chunk and every later run.

        Kept for the process (_SCRATCH): fresh pages cost a chunk more than its arithmetic (a 1 MB
        sin table: 0.8 ms fresh against 0.3 ms reused on this machine).
        """
        size, dtype = math.prod(shape), dtype or self.wide
        key = (self.device, dtype, slot)
        kept = _SCRATCH.get(key)
        if kept is None or kept.numel() < size:
            kept = _SCRATCH[key] = torch.empty(size, dtype=dtype, device=self.device)
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
        out = self.scratch(slot, *broadcast_shape(*(operand.shape for operand in operands)))
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
        out = self.scratch(slot, *broadcast_shape(*(operand.shape for operand in operands)))
        start = torch.as_tensor(target, dtype=self.wide, device=self.device)
        missed = torch.addcmul(start, a, x, value=-1, out=out)
        return missed if b is None or y is None else missed.addcmul_(b, y, value=1 if minus else -1)

    def compare(
        self,
        difference: torch.Tensor,
        allowed: Allowed | Callable[[], Allowed],
        inputs: dict[str, torch.Tensor],
        lowest: torch.Tensor | None = None,
    ) -> None:
        """Record |difference| against ``allowed``, elementwise; ``inputs`` name the worst case.

        Every element is a case: one scalar equation checked at one grid point (a sweep that checks
        two components of a rotation, or three identities, at each point counts each).
        ``difference`` may be signed (actual − expected). ``allowed`` and every input broadcast to its
        shape. A chunk is located (its worst case found) only when it beats the worst ratio so far.
        NaN counts as an infinite error.

        ``lowest``, a tensor nowhere above ``allowed`` and constant along an axis ``allowed`` grows
        on, spares forming and dividing by a full-size tolerance: a chunk whose |difference| against
        ``lowest`` does not beat the worst ratio so far cannot beat it against ``allowed`` and is only
        counted; one that may is located at the end of the run (checks.worst_case). ``allowed`` may
        then be a function; wherever it is formed it is checked to be nowhere below ``lowest``.
        """
        if not self.worst.replaying:
            self.cases += difference.numel()
            self.largest_compared = max(self.largest_compared, difference.numel())
        self.worst.compare(difference, allowed, inputs, lowest)
