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
    names: tuple[str, ...] = ()
    """What each argument is (seed, heads): how a counterexample names the values it was made from."""

    def __call__(self) -> Remade:
        return Remade(self.make(*self.arguments), self)

    def __repr__(self) -> str:
        return f"made from {self.said()}"

    def said(self) -> str:
        """The arguments in words: "seed 7, heads 8"."""
        names = self.names or tuple(f"argument {n + 1}" for n in range(len(self.arguments)))
        return ", ".join(f"{name} {value}" for name, value in zip(names, self.arguments, strict=False))


RECIPES = "theory_claims_recipes"
"""The attribute of a strategy of Remade values that holds the strategy of their recipes (with_recipes)."""


def with_recipes(strategy: Any, recipes: Any) -> Any:
    """``strategy`` (of Remade values) told where its ``recipes`` come from: a check's run hands Hypothesis the
    recipes and makes each value inside the property (checks.evidence.check.runner), so that what Hypothesis keeps
    of a test case (every failing one while it shrinks, with its frames) holds a few numbers, not the arrays."""
    setattr(strategy, RECIPES, recipes)
    return strategy


def recipes_of(strategy: Any) -> Any:
    """The strategy of the recipes of ``strategy``'s values, or ``strategy`` itself when it has none."""
    return getattr(strategy, RECIPES, strategy)


def made(value: Any) -> Any:
    """A recipe's value made (a Remade tuple); any other value as it is."""
    return value() if isinstance(value, Recipe) else value


class Remade(tuple):  # type: ignore[type-arg]
    """A tuple of values made by ``recipe``: equal to, and unpacked as, the plain tuple."""

    recipe: Recipe

    def __new__(cls, values: tuple[Any, ...], recipe: Recipe) -> Remade:
        made = super().__new__(cls, values)
        made.recipe = recipe
        return made

    def __getnewargs__(self) -> tuple[Any, ...]:  # type: ignore[override]
        return tuple(self), self.recipe

    def __repr__(self) -> str:
        """The recipe and a summary of each value, not the values: a counterexample of a topic's inputs reads
        "made from seed 7, heads 8: float64 6×8 in [-3.9, 4]; int 8" (the recipe makes them again exactly)."""
        return f"made from {self.recipe.said()}: " + "; ".join(summary(value) for value in self)


def summary(value: Any) -> str:
    """A value in a few words: an array's dtype, shape and range; anything else as itself (cut at 60 characters)."""
    shape = getattr(value, "shape", None)
    if shape is not None and getattr(value, "size", 0):
        low, high = float(value.min()), float(value.max())
        return f"{value.dtype} {'×'.join(map(str, shape)) or 'scalar'} in [{low:.3g}, {high:.3g}]"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
