"""A sweep's tolerance, stated as a SymPy formula of the grid's axes and formed by the engine.

A claim gives the scale of ``atol + rtol · scale`` as a formula in ``pos``, ``k``, ``omega`` (ω_i)
and ``i`` (the pair) built from sums, products and numeric powers, e.g. ``2 + w * (2 * pos + k)``. The engine
forms the tolerance in the sweep's dtype, into its own memory; and where
the formula grows with k (decided by SymPy: its derivative in k is nonnegative on the grid) and
would be as large as the grid, it compares first against its value at the first offset (cheap)
and forms it whole only where the worst case may lie (checks.engine.worst_case). Formulas are
SymPy objects: nothing here parses text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import prod

import sympy as sp
import torch

from checks.engine.worst_case import broadcast_shape
from checks.helpers.tolerances import Tolerance

AXES = ("pos", "k", "omega", "i")
"""The symbols a scale may use, by name: position, offset, frequency ω_i, pair index."""

Take = Callable[[tuple[int, ...]], torch.Tensor]
"""Lends a tensor of the given shape from the sweep's memory."""


@dataclass(frozen=True)
class ScalePlan:
    """The tolerance atol + rtol · scale of one formula, ready to form on any chunk."""

    formula: sp.Expr
    allowed: sp.Expr
    grows_with_k: bool

    @property
    def text(self) -> str:
        return f"atol + rtol · ({sp.sstr(self.formula)})"

    def form(self, axes: dict[str, torch.Tensor], take: Take, first_offset: bool = False) -> torch.Tensor | float:
        """The tolerance over the axes given (at k's first value only when ``first_offset``: the same
        operations on one row of k, so that row equals the whole tolerance's exactly)."""
        if first_offset:
            axes = {**axes, "k": axes["k"][:1]}
        return _value(self.allowed, axes, _Lender(take))

    def shape(self, axes: dict[str, torch.Tensor]) -> tuple[int, ...]:
        """The shape the tolerance broadcasts to, without forming it."""
        used = [axes[s.name].shape for s in self.formula.free_symbols]
        return broadcast_shape(*used) if used else ()


@cache
def plan(formula: sp.Expr, tolerance: Tolerance) -> ScalePlan:
    """Check the formula's symbols and decide whether it grows with k on the grid (pos ≥ 0, k ≥ 1, ω > 0, i ≥ 0)."""
    unknown = sorted(s.name for s in formula.free_symbols if s.name not in AXES)
    if unknown:
        raise ValueError(f"a sweep's scale may use {', '.join(AXES)}; it uses {', '.join(unknown)}")
    grid = {s: _symbol(s.name) for s in formula.free_symbols}
    on_grid = formula.xreplace(grid)
    slope = sp.diff(on_grid, _symbol("k")).xreplace({_symbol("k"): _symbol("k") + 1})
    allowed = sp.Float(tolerance.atol) + sp.Float(tolerance.rtol) * on_grid
    return ScalePlan(formula, allowed, grows_with_k=bool(slope.is_nonnegative))


@cache
def _symbol(name: str) -> sp.Symbol:
    """The grid's own symbols: every axis is nonnegative (k is shifted by one when its slope is decided)."""
    return sp.Symbol(f"{name}_grid", nonnegative=True)


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


def _value(expr: sp.Expr, axes: dict[str, torch.Tensor], memory: _Lender) -> torch.Tensor | float:
    """Evaluate sums, products and powers of numbers and axes into the sweep's memory, in SymPy's order of
    the terms (the same on every chunk and every row of k), numbers folded first."""
    if expr.is_Number:
        return float(expr)
    if expr.is_Symbol:
        return axes[str(expr.name).removesuffix("_grid")]
    if expr.is_Pow and expr.exp.is_Number:
        base = _value(expr.base, axes, memory)
        exponent = float(expr.exp)
        if isinstance(base, float):
            return base**exponent
        return base.pow_(exponent) if memory.owns(base) else base**exponent
    if not (expr.is_Add or expr.is_Mul):
        raise ValueError(f"a sweep's scale is built from +, ×, powers, numbers and {', '.join(AXES)}; not {expr}")
    terms = [_value(arg, axes, memory) for arg in expr.args]
    numbers = [t for t in terms if isinstance(t, float)]
    tensors = [t for t in terms if not isinstance(t, float)]
    operation = torch.add if expr.is_Add else torch.mul
    constant = sum(numbers) if expr.is_Add else prod(numbers)
    if not tensors:
        return constant
    result = tensors[0]
    if not expr.is_Add and constant != 1:
        result = result.mul_(constant) if memory.owns(result) else result * constant
    for tensor in tensors[1:]:
        result = memory.into(operation, result, tensor)
    if expr.is_Add and constant:
        result = result.add_(constant) if memory.owns(result) else result + constant
    return result
