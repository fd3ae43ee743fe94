"""The tables a sweep states its equations with: PE(pos), PE(pos + k) and functions of ω_i · (2·pos + k)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from checks.evidence.sweep.forming import Forming, Value
from checks.evidence.sweep.memory import Memory
from checks.settings.extras import optional

torch = optional("torch")


class Hand(NamedTuple):
    """sin and cos of pos · ω_i (x and y of the clock hand), in the sweep's dtype, held in the wide dtype."""

    sin: torch.Tensor
    cos: torch.Tensor


class SumTable:
    """f(ω_i · (2·pos + k)) for every pos and k of the chunk, computed once per distinct sum (``s.of_sum_angles``).

    Combine it with a per-(k, pair) tensor or a number by ``+`` or ``−``: ``half - swing``.
    """

    def __init__(self, tables: Tables, table: torch.Tensor) -> None:
        self.tables, self.table = tables, table

    def __radd__(self, other: Value) -> torch.Tensor:
        return self.tables.combine_sums(other, self, subtract=False)

    def __rsub__(self, other: Value) -> torch.Tensor:
        return self.tables.combine_sums(other, self, subtract=True)


class Tables:
    """One chunk's tables (positions ``pos``, ω_i ``omega``, offsets k = 1 … ``offsets``), each formed once."""

    def __init__(self, forming: Forming, memory: Memory, omega: torch.Tensor, offsets: int) -> None:
        self.forming, self.memory, self.omega, self.offsets = forming, memory, omega, offsets
        self.pos = torch.zeros(0, dtype=torch.float64, device=omega.device)
        self._tables: dict[bool, Hand] = {}

    def begin(self, positions: torch.Tensor) -> None:
        self.pos, self._tables = positions, {}

    def pe(self, ahead: bool = False, pairs_innermost: bool = False) -> Hand:
        """PE(pos) as (pairs, count) tables, or with ``ahead`` PE(pos + k) as (offsets, pairs, count) views."""
        if pairs_innermost not in self._tables:
            self._tables[pairs_innermost] = self._table(pairs_innermost)
        table, count = self._tables[pairs_innermost], len(self.pos)
        if not ahead:
            return Hand(table.sin[:, :count], table.cos[:, :count])
        if not self.offsets:
            raise ValueError("s.pe(ahead=True) needs offsets: declare @claim.sweep(offsets=...)")
        return Hand(*(_ahead(values, count, self.offsets) for values in table))

    def sinusoid(self, values: torch.Tensor) -> Hand:
        """sin and cos of values · ω_i formed in the dtype, held in the wide dtype."""
        low = self.forming.low
        angles = values.to(low) * self.omega.to(low)
        return Hand(torch.sin(angles).to(self.forming.wide), torch.cos(angles).to(self.forming.wide))

    def of_sum_angles(self, function: Callable[[torch.Tensor], torch.Tensor]) -> SumTable:
        """``function`` of the exact angles ω_i · (2·pos + k), for every pos and k, rounded once to the wide dtype."""
        if not self.offsets or self.offsets % 2:
            raise ValueError("s.of_sum_angles needs an even number of offsets: declare @claim.sweep(offsets=...)")
        sums = _sums(self.pos, self.offsets)
        angles = self.memory.take((2, len(self.omega), sums.shape[-1]), torch.float64)
        values = function(torch.mul(self.omega, sums, out=angles))
        return SumTable(self, self.forming.wide_value(values))

    def combine_sums(self, base: Value, sums: SumTable, subtract: bool) -> torch.Tensor:
        """base ± sums over (offsets, pairs, count); ``base`` a number or (offsets, pairs, 1)."""
        reach, count, wide = self.offsets, len(self.pos), self.forming.wide
        view = _by_sum(sums.table, count, reach)
        if isinstance(base, torch.Tensor):
            base = base.to(wide).reshape(reach // 2, 2, *base.shape[1:])
        out = self.memory.take(tuple(view.shape), wide)
        (torch.sub if subtract else torch.add)(base, view, out=out)
        return self.memory.adopt(out.view(reach, view.shape[2], count), out)

    def _table(self, pairs_innermost: bool) -> Hand:
        """sin and cos over count + offsets positions: pos and ω_i rounded to the dtype, their product rounded."""
        low = self.forming.low
        positions = self.pos[0] + torch.arange(
            len(self.pos) + self.offsets, dtype=torch.float64, device=self.pos.device
        )
        row, at = self.omega.to(low), positions.to(low)
        first, second = (at[:, None], row.T) if pairs_innermost else (row, at[None, :])
        shape = (first.shape[0], second.shape[1])
        angles = torch.mul(first, second, out=self.memory.take(shape, low))
        sin = torch.sin(angles, out=self.memory.take(shape, low))
        hand = Hand(self.forming.widened(sin), self.forming.widened(angles.cos_()))
        return Hand(hand.sin.T, hand.cos.T) if pairs_innermost else hand


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
