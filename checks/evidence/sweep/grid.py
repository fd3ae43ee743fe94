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
from typing import Literal, TypeAlias

import sympy as sp

from checks.evidence.sweep.forming import Forming, Products, Value
from checks.evidence.sweep.memory import Memory
from checks.evidence.sweep.scale import ScalePlan, plan
from checks.evidence.sweep.tables import Hand, SumTable, Tables
from checks.evidence.sweep.worst_case import Allowed, WorstCase
from checks.numerics.reference_implementations import frequency_values
from checks.numerics.tolerances import tolerance
from checks.settings.extras import optional
from checks.symbolic.document_formulas import w

torch = optional("torch")

__all__ = ["Grid", "Hand", "Products", "SumTable"]

Tolerances: TypeAlias = "tuple[Allowed | Callable[[], Allowed], torch.Tensor | None, str]"
"""What an equation is held to: the tolerance (or how to form it), its lowest value along k, its text."""


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
        self.forming = Forming(self.memory, device, self.low, self.wide)
        """How values are rounded as the dtype rounds them."""
        self.tables = Tables(self.forming, self.memory, self.omega, offsets)
        """The chunk's PE tables."""
        self._consumed: list[torch.Tensor] = []
        self._wide_axes: dict[str, torch.Tensor] | None = None
        self._wide_pos: torch.Tensor | None = None
        self._tolerances: dict[tuple[object, tuple[int, ...]], Tolerances] = {}

    def begin(self, positions: torch.Tensor) -> None:
        """Start a chunk of consecutive positions (float64 on the device)."""
        self.memory.reset()
        self.tables.begin(positions)
        self._consumed, self._wide_pos, self._tolerances = [], None, {}

    @property
    def pos(self) -> torch.Tensor:
        """The chunk's positions (float64 on the device)."""
        return self.tables.pos

    # The tables and exact values a sweep states its equations with.

    def pe(self, ahead: bool = False, pairs_innermost: bool = False) -> Hand:
        """PE(pos) as (pairs, count) tables, or with ``ahead`` PE(pos + k) as (offsets, pairs, count) views.

        Every step in the dtype, as checks.numerics.reference_implementations.Reference forms it: pos and
        ω_i rounded to the dtype, their product rounded, then sin and cos. ``pairs_innermost`` lays
        the tables out with pairs adjacent in memory (same shapes), for a running sum over pairs.
        """
        return self.tables.pe(ahead, pairs_innermost)

    def sinusoid(self, values: torch.Tensor) -> Hand:
        """sin and cos of values · ω_i formed in the dtype (e.g. M_k's entries at ``s.k``), held in the wide dtype."""
        return self.tables.sinusoid(values)

    def of_sum_angles(self, function: Callable[[torch.Tensor], torch.Tensor]) -> SumTable:
        """``function`` of the exact angles ω_i · (2·pos + k), for every pos and k, rounded once to the wide dtype.

        It receives the angles at each distinct sum as a (2, pairs, width) float64 tensor it may change
        in place (``lambda angle: angle.cos_()``), and returns values of that shape; combine the result
        with ``+`` or ``−`` (SumTable).
        """
        return self.tables.of_sum_angles(function)

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
        values = self.forming.formed(values)
        out = torch.cumsum(values, dim=dim, out=self.forming.like(values))
        self._consume(values)
        return self.forming.stored(out)

    def sqrt(self, values: torch.Tensor) -> torch.Tensor:
        """The square root, rounded to the dtype (in place when the engine lent ``values``)."""
        if self.memory.lent(values):
            return self.forming.stored(values.sqrt_())
        return self.forming.stored(torch.sqrt(values, out=self.forming.like(values)))

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
            target = self.forming.wide_value(expected)
            if isinstance(actual, Products):
                difference = self.forming.miss(target, actual)
            else:
                self._fresh(actual)
                difference = actual.sub_(target) if self.memory.lent(actual) else torch.sub(actual, target)
            allowed, lowest, text = self._allowed(scale, difference)
            self.compare(label, difference, allowed, inputs, lowest, text)
            self._consume(actual, expected)

    def equal_hands(
        self,
        label: str,
        actual: Products | torch.Tensor,
        expected: Value,
        *positions: sp.Expr,
        held_as: Literal["pe", "dot"] = "pe",
        inputs: dict[str, torch.Tensor] | None = None,
    ) -> None:
        """``equal`` for products of PE hands (sin and cos) at ``positions`` (formulas of the grid's ``pos`` and
        ``k``, nonnegative on the grid), at a check comparator's tolerance. ``held_as="pe"``: t.close_pe's, scale
        Σ position (``s.equal_hands(label, a, b, pos, k)`` for a turn by k: pos + k); ``held_as="dot"``: pair i's
        share of t.close_dot's (dot_scale), scale 2 + ω_i · Σ position (its angles and two rounded products)."""
        total = sp.Add(*positions)
        scale = total if held_as == "pe" else 2 + w * total
        self.equal(label, actual, expected, scale=scale, inputs=inputs)

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
