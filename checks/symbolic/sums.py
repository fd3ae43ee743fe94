"""Sums over one symbolic range, decided termwise: what both sides sum, and how many terms."""

from __future__ import annotations

import sympy as sp


def common_limits(lhs: sp.Expr, rhs: sp.Expr) -> tuple | None:
    """(index, low, high) when each side is one Sum over that same range or free of sums; else None."""
    sums = [s for s in (lhs, rhs) if isinstance(s, sp.Sum)]
    if any(s.has(sp.Sum) for s in (lhs, rhs) if not isinstance(s, sp.Sum)):
        return None
    if any(len(s.limits) != 1 for s in sums):
        return None
    limits = {s.limits[0] for s in sums}
    if len(limits) != 1:
        return None
    return sums[0].limits[0]


def summand(side: sp.Expr, limits: tuple, count: sp.Expr) -> sp.Expr | None:
    """A Sum's term, or a sum-free side spread evenly over the ``count`` terms (None when it holds the index)."""
    if isinstance(side, sp.Sum):
        return side.function
    if side.has(limits[0]):
        return None
    return side / count


def instances(side: sp.Expr, count: sp.Expr, sizes: range) -> list[tuple[int, sp.Expr]]:
    """(n, side with ``count`` = n and every Sum written out) for each n of ``sizes`` that one symbol of ``count``
    can give, linearly; [] when the count has no such symbol."""
    symbols = sorted(count.free_symbols, key=sp.default_sort_key)
    if len(symbols) != 1 or sp.degree(count, symbols[0]) != 1:
        return []
    (symbol,) = symbols
    found = []
    for size in sizes:
        value = sp.solve(sp.Eq(count, size), symbol)[0]
        if _respects(symbol, value):
            found.append((size, side.xreplace({symbol: value}).doit()))
    return found


def _respects(symbol: sp.Symbol, value: sp.Expr) -> bool:
    """Whether ``value`` has each of the properties ``symbol`` is assumed to have."""
    properties = ("integer", "even", "odd", "positive", "nonnegative")
    return all(getattr(value, f"is_{p}") is True for p in properties if getattr(symbol, f"is_{p}") is True)
