"""Drawn values that a pure function makes from a few numbers, kept as those numbers.

A topic's strategy draws a seed and a size and maps them through the topic's ``inputs(rng, d_model)``
(checks.implementations.topic_records.Topic.strategy): the arrays it hands a property are ``Remade``, a tuple that knows
its ``Recipe``. A check's first cell of a dtype and domain keeps the recipes of what it drew, not copies of the
arrays (checks.evidence.check.shared), and each later cell is handed the arrays made again: multi-head attention's
inputs are up to 135 kB each, so 10,000 of them were past what a check may keep, and every cell drew its own
under Hypothesis (1.5 ms a test case), where making them again takes 0.08 ms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Recipe:
    """``make(*arguments)``: a pure function of a few numbers and the numbers it was called with."""

    make: Callable[..., tuple[Any, ...]]
    arguments: tuple[Any, ...]

    def __call__(self) -> Remade:
        return Remade(self.make(*self.arguments), self)


class Remade(tuple):  # type: ignore[type-arg]
    """A tuple of values made by ``recipe``: equal to, and unpacked as, the plain tuple."""

    recipe: Recipe

    def __new__(cls, values: tuple[Any, ...], recipe: Recipe) -> Remade:
        made = super().__new__(cls, values)
        made.recipe = recipe
        return made

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return tuple(self), self.recipe
