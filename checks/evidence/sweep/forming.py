"""Values formed as the sweep's dtype forms them, in memory the sweep lends: products and results rounded."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TypeAlias

from checks.evidence.sweep.memory import Memory
from checks.evidence.sweep.worst_case import broadcast_shape
from checks.settings.extras import optional

torch = optional("torch")

Value: TypeAlias = "torch.Tensor | float"


@dataclass(frozen=True)
class Products:
    """a·x + b·y (a·x − b·y with ``minus``; a·x alone without b, y), formed only when an equation compares it.

    As the dtype forms it: float32 and float64 with fused multiply-adds (never rounding the
    combination on its own), a 16-bit dtype rounding each product and their sum to the dtype, as
    elementwise code in the dtype does; ``rounded=False`` keeps 16-bit products in float32 (for a
    check that widens the values first).
    """

    a: torch.Tensor
    x: torch.Tensor
    b: torch.Tensor | None = None
    y: torch.Tensor | None = None
    minus: bool = False
    rounded: bool = True

    @functools.cached_property
    def shape(self) -> tuple[int, ...]:
        operands = (self.a, self.x) if self.b is None or self.y is None else (self.a, self.x, self.b, self.y)
        return broadcast_shape(*(tuple(o.shape) for o in operands))


class Forming:
    """Rounding to the sweep's dtype (``low``) of values held in the wide dtype errors are formed in."""

    def __init__(self, memory: Memory, device: str, low: torch.dtype, wide: torch.dtype) -> None:
        self.memory, self.device, self.low, self.wide = memory, device, low, wide

    def widened(self, values: torch.Tensor) -> torch.Tensor:
        """``values`` in the wide dtype (a lent copy unless they are already)."""
        if values.dtype == self.wide:
            return values
        return self.memory.take(tuple(values.shape), self.wide).copy_(values)

    def wide_value(self, value: Value) -> Value:
        """An expected value in the wide dtype (float64 rounded once); a number stays as it is."""
        return value if not isinstance(value, torch.Tensor) else self.widened(value)

    def stored(self, values: torch.Tensor) -> torch.Tensor:
        """A result computed in the wide dtype, rounded once to the sweep's dtype (a no-op unless 16-bit)."""
        return values if self.low == self.wide else values.copy_(values.to(self.low))

    def like(self, values: torch.Tensor) -> torch.Tensor:
        """A lent tensor shaped as ``values``, laid out as it is when it is a transposed table."""
        if values.dim() == 2 and not values.is_contiguous() and values.T.is_contiguous():
            out = self.memory.take((values.shape[1], values.shape[0]), self.wide)
            return self.memory.adopt(out.T, out)
        return self.memory.take(tuple(values.shape), self.wide)

    def combination(self, p: Products) -> torch.Tensor:
        """a·x ± b·y as the dtype forms it."""
        out = self._like_shape(p)
        first = self.stored(torch.mul(p.a, p.x, out=out))
        if p.b is None or p.y is None:
            return first
        if self.low == self.wide:
            return first.addcmul_(p.b, p.y, value=-1 if p.minus else 1)
        return self.stored(first.add_(self.stored(p.b * p.y), alpha=-1 if p.minus else 1))

    def miss(self, target: Value, p: Products) -> torch.Tensor:
        """target − (a·x ± b·y) as the dtype forms the combination."""
        if self.low != self.wide and p.rounded:
            return self.combination(p).neg_().add_(target)
        start = torch.as_tensor(target, dtype=self.wide, device=self.device)
        missed = torch.addcmul(start, p.a, p.x, value=-1, out=self._like_shape(p))
        return missed if p.b is None or p.y is None else missed.addcmul_(p.b, p.y, value=1 if p.minus else -1)

    def formed(self, values: Products | torch.Tensor) -> torch.Tensor:
        return self.combination(values) if isinstance(values, Products) else values

    def _like_shape(self, p: Products) -> torch.Tensor:
        if p.shape == tuple(p.a.shape):
            return self.like(p.a)
        return self.memory.take(p.shape, self.wide)
