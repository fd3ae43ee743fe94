"""The ``s`` a sweep function receives: one chunk of the grid, its tables, and the equations it checks.

The grid is positions × pairs (× offsets k = 1 … ``offsets``), laid out (k, pair, pos): ``s.pos``
(count,), ``s.pair`` (i, float64, (pairs, 1)), ``s.k`` (offsets, 1, 1), ``s.omega`` (ω_i, float64, (pairs, 1)).
A sweep states its equations (``s.equal``, ``s.within``) over the tables ``s.pe()`` gives and the
combinations ``s.products`` describes; the engine forms each equation's difference and tolerance
in memory it keeps (checks.evidence.sweep.memory), as the dtype forms it, and finds the worst case
(checks.evidence.sweep.worst_case). Values an equation compares are consumed by it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple

import sympy as sp
import torch

from checks.evidence.sweep.memory import Memory
from checks.evidence.sweep.scale import ScalePlan, plan
from checks.evidence.sweep.worst_case import Allowed, WorstCase, broadcast_shape
from checks.numerics.reference import frequency_values
from checks.numerics.tolerances import tolerance

Value = torch.Tensor | float
Tolerances = tuple[Allowed | Callable[[], Allowed], torch.Tensor | None, str]
"""What an equation is held to: the tolerance (or how to form it), its lowest value along k, its text."""


class Hand(NamedTuple):
    """sin and cos of pos · ω_i (x and y of the clock hand), in the sweep's dtype, held in the wide dtype."""

    sin: torch.Tensor
    cos: torch.Tensor


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


class SumTable:
    """f(ω_i · (2·pos + k)) for every pos and k of the chunk, computed once per distinct sum (``s.of_sum_angles``).

    Combine it with a per-(k, pair) tensor or a number by ``+`` or ``−``: ``half - swing``.
    """

    def __init__(self, grid: Grid, table: torch.Tensor) -> None:
        self.grid, self.table = grid, table

    def __radd__(self, other: Value) -> torch.Tensor:
        return self.grid.combine_sums(other, self, subtract=False)

    def __rsub__(self, other: Value) -> torch.Tensor:
        return self.grid.combine_sums(other, self, subtract=True)


class Grid:
    """One run of a sweep (one device, dtype and d_model), chunk by chunk; ``worst`` holds what it found."""

    def __init__(self, device: str, dtype: str, d_model: int, offsets: int = 0) -> None:
        self.device, self.dtype, self.d_model, self.offsets = device, dtype, d_model, offsets
        self.low = getattr(torch, dtype)
        self.wide = torch.float64 if self.low == torch.float64 else torch.float32
        """The dtype errors are formed in: float32 for the 16-bit types, so an error is not rounded to 8 bits."""
        self.tolerance = tolerance(dtype)
        self.memory = Memory(device)
        self.worst = WorstCase(lambda *shape: self.memory.take(shape, self.wide))
        self.cases = 0
        self.largest_compared = 0
        """The most elements one comparison has held (the runner sizes chunks by it)."""
        self.equations: dict[str, str] = {}
        """Each equation's label and the tolerance it is held to."""
        self.omega = torch.from_numpy(frequency_values(d_model)).to(device)[:, None]
        self.pair = torch.arange(len(self.omega), dtype=torch.float64, device=device)[:, None]
        self.k = torch.arange(1, offsets + 1, dtype=torch.float64, device=device)[:, None, None] if offsets else None
        self.pos = torch.zeros(0, dtype=torch.float64, device=device)
        self._tables: dict[bool, Hand] = {}
        self._consumed: list[torch.Tensor] = []
        self._wide_axes: dict[str, torch.Tensor] | None = None
        self._wide_pos: torch.Tensor | None = None
        self._tolerances: dict[tuple[object, tuple[int, ...]], Tolerances] = {}

    def begin(self, positions: torch.Tensor) -> None:
        """Start a chunk of consecutive positions (float64 on the device)."""
        self.memory.reset()
        self.pos, self._tables, self._consumed, self._wide_pos, self._tolerances = positions, {}, [], None, {}

    # The tables and exact values a sweep states its equations with.

    def pe(self, ahead: bool = False, pairs_innermost: bool = False) -> Hand:
        """PE(pos) as (pairs, count) tables, or with ``ahead`` PE(pos + k) as (offsets, pairs, count) views.

        Every step in the dtype, as checks.numerics.reference.Reference forms it: pos and
        ω_i rounded to the dtype, their product rounded, then sin and cos. ``pairs_innermost`` lays
        the tables out with pairs adjacent in memory (same shapes), for a running sum over pairs.
        """
        if pairs_innermost not in self._tables:
            self._tables[pairs_innermost] = self._table(pairs_innermost)
        table, count = self._tables[pairs_innermost], len(self.pos)
        if not ahead:
            return Hand(table.sin[:, :count], table.cos[:, :count])
        if not self.offsets:
            raise ValueError("s.pe(ahead=True) needs offsets: declare @claim.sweep(offsets=...)")
        return Hand(*(_ahead(values, count, self.offsets) for values in table))

    def sinusoid(self, values: torch.Tensor) -> Hand:
        """sin and cos of values · ω_i formed in the dtype (e.g. M_k's entries at ``s.k``), held in the wide dtype."""
        angles = values.to(self.low) * self.omega.to(self.low)
        return Hand(torch.sin(angles).to(self.wide), torch.cos(angles).to(self.wide))

    def of_sum_angles(self, function: Callable[[torch.Tensor], torch.Tensor]) -> SumTable:
        """``function`` of the exact angles ω_i · (2·pos + k), for every pos and k, rounded once to the wide dtype.

        It receives the angles at each distinct sum as a (2, pairs, width) float64 tensor it may change
        in place (``lambda angle: angle.cos_()``), and returns values of that shape.
        """
        if not self.offsets or self.offsets % 2:
            raise ValueError("s.of_sum_angles needs an even number of offsets: declare @claim.sweep(offsets=...)")
        sums = _sums(self.pos, self.offsets)
        angles = self.memory.take((2, len(self.omega), sums.shape[-1]), torch.float64)
        values = function(torch.mul(self.omega, sums, out=angles))
        return SumTable(self, self._wide(values) if values.dtype != self.wide else values)

    def combine_sums(self, base: Value, sums: SumTable, subtract: bool) -> torch.Tensor:
        """base ± sums over (offsets, pairs, count); ``base`` a number or (offsets, pairs, 1)."""
        reach, count = self.offsets, len(self.pos)
        view = _by_sum(sums.table, count, reach)
        if isinstance(base, torch.Tensor):
            base = base.to(self.wide).reshape(reach // 2, 2, *base.shape[1:])
        out = self.memory.take(tuple(view.shape), self.wide)
        (torch.sub if subtract else torch.add)(base, view, out=out)
        return self.memory.adopt(out.view(reach, view.shape[2], count), out)

    # Values formed as the dtype forms them.

    def products(
        self,
        a: torch.Tensor,
        x: torch.Tensor,
        b: torch.Tensor | None = None,
        y: torch.Tensor | None = None,
        minus: bool = False,
        rounded: bool = True,
    ) -> Products:
        """a·x ± b·y, formed when compared (see Products)."""
        return Products(a, x, b, y, minus, rounded)

    def cumsum(self, values: Products | torch.Tensor, dim: int) -> torch.Tensor:
        """The running sum along ``dim``, rounded to the dtype."""
        values = self._formed(values)
        out = torch.cumsum(values, dim=dim, out=self._like(values))
        self._consume(values)
        return self._stored(out)

    def sqrt(self, values: torch.Tensor) -> torch.Tensor:
        """The square root, rounded to the dtype (in place when the engine lent ``values``)."""
        if self.memory.lent(values):
            return self._stored(values.sqrt_())
        return self._stored(torch.sqrt(values, out=self._like(values)))

    # Equations.

    def equal(
        self,
        label: str,
        actual: Products | torch.Tensor,
        expected: Value,
        *,
        scale: sp.Expr | Value,
        inputs: dict[str, torch.Tensor] | None = None,
    ) -> None:
        """|expected − actual| ≤ atol + rtol · scale at every grid point; ``expected`` exact (float64 is rounded
        once to the wide dtype). ``scale`` is a number, a tensor, or a SymPy formula of pos, k, omega, i
        (checks.evidence.sweep.scale); it must cover |expected| and the arguments the computation rounds."""
        with self._equation():
            target = self._wide(expected)
            if isinstance(actual, Products):
                difference = self._miss(target, actual)
            else:
                self._fresh(actual)
                difference = actual.sub_(target) if self.memory.lent(actual) else torch.sub(actual, target)
            allowed, lowest, text = self._allowed(scale, difference)
            self.compare(label, difference, allowed, inputs, lowest, text)
            self._consume(actual, expected)

    def within(self, label: str, values: torch.Tensor, limit: float, inputs: dict[str, torch.Tensor] | None = None):
        """|values| ≤ limit at every grid point, exactly (no tolerance)."""
        with self._equation():
            self._fresh(values)
            self.compare(label, values, float(limit), inputs, text=f"|value| ≤ {limit:g}")
            self._consume(values)

    def compare(
        self,
        label: str,
        difference: torch.Tensor,
        allowed: Allowed | Callable[[], Allowed],
        inputs: dict[str, torch.Tensor] | None = None,
        lowest: torch.Tensor | None = None,
        text: str = "given per case",
    ) -> None:
        """Record |difference| against ``allowed`` elementwise for equation ``label`` (each element a case).

        ``inputs`` (default: the grid's axes) name the worst case. ``allowed`` may be a function when
        ``lowest``, nowhere above it and constant along an axis it grows on, bounds it
        (checks.evidence.sweep.worst_case).
        NaN counts as an infinite error.
        """
        if not self.worst.replaying:
            self.cases += difference.numel()
            self.largest_compared = max(self.largest_compared, difference.numel())
        self.equations.setdefault(label, text)
        self.worst.compare(label, difference, allowed, inputs or self._axes_of(difference), lowest)

    # Internals.

    def _table(self, pairs_innermost: bool) -> Hand:
        positions = self.pos[0] + torch.arange(len(self.pos) + self.offsets, dtype=torch.float64, device=self.device)
        row, low = self.omega.to(self.low), positions.to(self.low)
        first, second = (low[:, None], row.T) if pairs_innermost else (row, low[None, :])
        shape = (first.shape[0], second.shape[1])
        angles = torch.mul(first, second, out=self.memory.take(shape, self.low))
        sin = torch.sin(angles, out=self.memory.take(shape, self.low))
        hand = Hand(self._widened(sin), self._widened(angles.cos_()))
        return Hand(hand.sin.T, hand.cos.T) if pairs_innermost else hand

    def _widened(self, values: torch.Tensor) -> torch.Tensor:
        if values.dtype == self.wide:
            return values
        return self.memory.take(tuple(values.shape), self.wide).copy_(values)

    def _wide(self, value: Value) -> Value:
        """An expected value in the wide dtype (float64 rounded once)."""
        if not isinstance(value, torch.Tensor) or value.dtype == self.wide:
            return value
        return self.memory.take(tuple(value.shape), self.wide).copy_(value)

    def _stored(self, values: torch.Tensor) -> torch.Tensor:
        """A result computed in the wide dtype, rounded once to the sweep's dtype (a no-op unless 16-bit)."""
        return values if self.low == self.wide else values.copy_(values.to(self.low))

    def _like(self, values: torch.Tensor) -> torch.Tensor:
        """A lent tensor shaped as ``values``, laid out as it is when it is a transposed table."""
        if values.dim() == 2 and not values.is_contiguous() and values.T.is_contiguous():
            out = self.memory.take((values.shape[1], values.shape[0]), self.wide)
            return self.memory.adopt(out.T, out)
        return self.memory.take(tuple(values.shape), self.wide)

    def _combination(self, p: Products) -> torch.Tensor:
        out = self._like_shape(p)
        first = self._stored(torch.mul(p.a, p.x, out=out))
        if p.b is None or p.y is None:
            return first
        if self.low == self.wide:
            return first.addcmul_(p.b, p.y, value=-1 if p.minus else 1)
        return self._stored(first.add_(self._stored(p.b * p.y), alpha=-1 if p.minus else 1))

    def _miss(self, target: Value, p: Products) -> torch.Tensor:
        """target − (a·x ± b·y) as the dtype forms the combination."""
        if self.low != self.wide and p.rounded:
            return self._combination(p).neg_().add_(target)
        start = torch.as_tensor(target, dtype=self.wide, device=self.device)
        missed = torch.addcmul(start, p.a, p.x, value=-1, out=self._like_shape(p))
        return missed if p.b is None or p.y is None else missed.addcmul_(p.b, p.y, value=1 if p.minus else -1)

    def _like_shape(self, p: Products) -> torch.Tensor:
        if p.shape == tuple(p.a.shape):
            return self._like(p.a)
        return self.memory.take(p.shape, self.wide)

    def _formed(self, values: Products | torch.Tensor) -> torch.Tensor:
        return self._combination(values) if isinstance(values, Products) else values

    def _allowed(self, scale: sp.Expr | Value, difference: torch.Tensor) -> Tolerances:
        """The tolerance, its lowest value along k when it grows there as large as the grid, and its text.

        A formula's tolerance is formed once per chunk and shape, for every equation held to it.
        """
        if not isinstance(scale, sp.Expr):
            given = scale.to(self.wide) if isinstance(scale, torch.Tensor) else float(scale)
            text = f"atol + rtol · {scale:g}" if isinstance(scale, float | int) else "atol + rtol · scale per case"
            return self.tolerance.atol + self.tolerance.rtol * given, None, text
        key = (scale, tuple(difference.shape))
        if key not in self._tolerances:
            with self.memory.held():
                self._tolerances[key] = self._formed_tolerance(plan(scale, self.tolerance), key[1])
        return self._tolerances[key]

    def _formed_tolerance(self, formula: ScalePlan, shape: tuple[int, ...]) -> Tolerances:
        axes = self._axes()
        if formula.grows_with_k and "k" in formula.symbols and formula.shape(axes) == shape:
            lowest = torch.as_tensor(formula.form(axes, self._take, first_offset=True))
            return functools.cache(lambda: formula.form(axes, self._held_take)), lowest, formula.text
        return formula.form(axes, self._take), None, formula.text

    def _held_take(self, shape: tuple[int, ...]) -> torch.Tensor:
        with self.memory.held():
            return self._take(shape)

    def _axes(self) -> dict[str, torch.Tensor]:
        """The grid's axes in the wide dtype, as a scale formula uses them (the constant ones cast once)."""
        if self._wide_axes is None:
            k = {"k": self.k.to(self.wide)} if self.k is not None else {}
            self._wide_axes = {"omega": self.omega.to(self.wide), "i": self.pair.to(self.wide), **k}
        if self._wide_pos is None:
            self._wide_pos = self.pos.to(self.wide)
        return {**self._wide_axes, "pos": self._wide_pos}

    def _take(self, shape: tuple[int, ...]) -> torch.Tensor:
        return self.memory.take(shape, self.wide)

    def _axes_of(self, difference: torch.Tensor) -> dict[str, torch.Tensor]:
        named = {"k": self.k, "pair": self.pair, "pos": self.pos}
        return {name: axis for name, axis in named.items() if axis is not None and axis.dim() <= difference.dim()}

    @contextmanager
    def _equation(self) -> Iterator[None]:
        """Everything lent while an equation is formed and compared is given back after it."""
        before = self.memory.holding()
        try:
            yield
        finally:
            self.memory.give_back_since(before)

    def _fresh(self, value: object) -> None:
        if any(value is used for used in self._consumed):
            raise ValueError("this value was compared already (an equation consumes it): compute it again")

    def _consume(self, *values: object) -> None:
        for value in values:
            if self.memory.lent(value):
                self._consumed.append(value)  # type: ignore[arg-type]
                self.memory.give(value)


def _ahead(table: torch.Tensor, count: int, reach: int) -> torch.Tensor:
    """PE(pos_j + k) of pair i at [k − 1, i, j] for k = 1 … reach: a view of the table over count + reach positions."""
    pair_stride, position_stride = table.stride()
    return table.as_strided(
        (reach, table.shape[0], count),
        (position_stride, pair_stride, position_stride),
        table.storage_offset() + position_stride,
    )


def _sums(positions: torch.Tensor, reach: int) -> torch.Tensor:
    """2·pos + k over the chunk's positions and k = 1 … reach, as a (2, 1, count + reach/2) table.

    Row 0 holds the odd sums 2·pos_0 + 1, + 3, …; row 1 the even ones 2·pos_0, + 2, …: a table
    computed from it is read per (pos, k) by ``_by_sum``.
    """
    width = len(positions) + reach // 2
    steps = torch.arange(2 * width, dtype=positions.dtype, device=positions.device).view(width, 2).T.flip(0)
    return (2 * positions[0] + steps).contiguous()[:, None, :]


def _by_sum(table: torch.Tensor, count: int, reach: int) -> torch.Tensor:
    """A (2, pairs, width) table over ``_sums`` as a (reach/2, 2, pairs, count) view: [t, r, i, j] is its entry
    for pos_j and k = 2t + r + 1 (so .view(reach, …) of a tensor laid out alike runs over k = 1 … reach).

    Every axis steps forwards, unlike a stride-2 view of one table over 2·pos + k, which the CPU
    kernels do not vectorise (3× slower a pass).
    """
    table = table.contiguous()
    _, pairs, width = table.shape
    return table.as_strided((reach // 2, 2, pairs, count), (1, pairs * width + 1, width, 1), table.storage_offset())
