"""A sweep's tolerance, stated as a SymPy formula of the grid's axes and formed by the engine.

A claim gives the scale of ``atol + rtol · scale`` as a formula in ``pos``, ``k``, ``omega`` (ω_i)
and ``i`` (the pair) built from sums, products and numeric powers, e.g. ``2 + w * (2 * pos + k)``.
The engine compiles it once per sweep run, forms the tolerance in the sweep's dtype into its own
memory, and where the formula grows with k (decided by SymPy: its derivative in k is nonnegative
on the grid) and would be as large as the grid, it compares first against its value at the first
offset (cheap) and forms it whole only where the worst case may lie (checks.evidence.sweep.worst_case).
Formulas are SymPy objects: nothing here parses text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import prod
from typing import TypeAlias

import sympy as sp

from checks.evidence.sweep.worst_case import broadcast_shape
from checks.numerics.tolerances import Tolerance
from checks.settings.extras import optional

torch = optional("torch")

AXES = ("pos", "k", "omega", "i")
"""The symbols a scale may use, by name: position, offset, frequency ω_i, pair index."""

Take: TypeAlias = "Callable[[tuple[int, ...]], torch.Tensor]"
"""Lends a tensor of the given shape from the sweep's memory."""
Value: TypeAlias = "torch.Tensor | float"
Form: TypeAlias = "Callable[[dict[str, torch.Tensor], _Lender], Value]"
"""A compiled formula: its value over the axes given, formed into the lender's memory."""


@dataclass(frozen=True)
class ScalePlan:
    """The tolerance atol + rtol · scale of one formula, compiled, ready to form on any chunk."""

    text: str
    """e.g. "atol + rtol · (omega*(k + 2*pos) + 2)"."""
    symbols: frozenset[str]
    grows_with_k: bool
    allowed: Form

    def form(self, axes: dict[str, torch.Tensor], take: Take, first_offset: bool = False) -> Value:
        """The tolerance over the axes given (at k's first value only when ``first_offset``: the same
        operations on one row of k, so that row equals the whole tolerance's exactly)."""
        if first_offset:
            axes = {**axes, "k": axes["k"][:1]}
        return self.allowed(axes, _Lender(take))

    def shape(self, axes: dict[str, torch.Tensor]) -> tuple[int, ...]:
        """The shape the tolerance broadcasts to, without forming it."""
        return broadcast_shape(*(axes[name].shape for name in self.symbols)) if self.symbols else ()


@cache
def plan(formula: sp.Expr, tolerance: Tolerance) -> ScalePlan:
    """Check the formula's symbols, decide whether it grows with k on the grid (pos ≥ 0, k ≥ 1, ω > 0,
    i ≥ 0), and compile atol + rtol · formula."""
    names = frozenset(s.name for s in formula.free_symbols)
    unknown = sorted(names - set(AXES))
    if unknown:
        raise ValueError(f"a sweep's scale may use {', '.join(AXES)}; it uses {', '.join(unknown)}")
    grid = {s: sp.Symbol(s.name, nonnegative=True) for s in formula.free_symbols}
    on_grid = formula.xreplace(grid)
    k = sp.Symbol("k", nonnegative=True)
    slope = sp.diff(on_grid, k).xreplace({k: k + 1})
    allowed = sp.Float(tolerance.atol) + sp.Float(tolerance.rtol) * on_grid
    text = f"atol + rtol · ({sp.sstr(formula)})"
    return ScalePlan(text, names, grows_with_k=bool(slope.is_nonnegative), allowed=_compile(allowed))


class _Lender:
    """The sweep's memory for one evaluation, remembering which tensors it lent (those may change in place)."""

    def __init__(self, take: Take) -> None:
        self.take, self.lent = take, set[int]()

    def into(self, operation: Callable[..., torch.Tensor], a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = self.take(broadcast_shape(a.shape, b.shape))
        self.lent.add(id(out))
        return operation(a, b, out=out)

    def owns(self, tensor: torch.Tensor) -> bool:
        return id(tensor) in self.lent


def _compile(expr: sp.Expr) -> Form:
    """Sums, products and numeric powers of numbers and axes, evaluated in SymPy's order of the terms (the
    same on every chunk and every row of k), numbers folded first."""
    if expr.is_Number:
        number = float(expr)
        return lambda axes, memory: number
    if expr.is_Symbol:
        name = expr.name
        return lambda axes, memory: axes[name]
    if expr.is_Pow and expr.exp.is_Number:
        return _power(_compile(expr.base), float(expr.exp))
    if expr.is_Add or expr.is_Mul:
        numbers = [float(arg) for arg in expr.args if arg.is_Number]
        parts = [_compile(arg) for arg in expr.args if not arg.is_Number]
        constant = sum(numbers) if expr.is_Add else prod(numbers)
        return (_sum if expr.is_Add else _product)(parts, constant)
    raise ValueError(f"a sweep's scale is built from +, ×, powers, numbers and {', '.join(AXES)}; not {expr}")


def _power(base: Form, exponent: float) -> Form:
    def form(axes: dict[str, torch.Tensor], memory: _Lender) -> Value:
        value = base(axes, memory)
        if isinstance(value, float):
            return value**exponent
        return value.pow_(exponent) if memory.owns(value) else value**exponent

    return form


def _sum(parts: list[Form], constant: float) -> Form:
    def form(axes: dict[str, torch.Tensor], memory: _Lender) -> Value:
        values = [part(axes, memory) for part in parts]
        tensors = [v for v in values if isinstance(v, torch.Tensor)]
        total = constant + sum(v for v in values if isinstance(v, float))
        if not tensors:
            return total
        result = tensors[0]
        for tensor in tensors[1:]:
            result = memory.into(torch.add, result, tensor)
        if total:
            result = result.add_(total) if memory.owns(result) else result + total
        return result

    return form


def _product(parts: list[Form], constant: float) -> Form:
    def form(axes: dict[str, torch.Tensor], memory: _Lender) -> Value:
        values = [part(axes, memory) for part in parts]
        tensors = [v for v in values if isinstance(v, torch.Tensor)]
        factor = constant * prod(v for v in values if isinstance(v, float))
        if not tensors:
            return factor
        result = tensors[0]
        if factor != 1:
            result = result.mul_(factor) if memory.owns(result) else result * factor
        for tensor in tensors[1:]:
            result = memory.into(torch.mul, result, tensor)
        return result

    return form
