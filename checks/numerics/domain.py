"""What an implementation declares it supports: positions, d_model, dtypes, devices.

An adapter declares its domain with optional attributes (README "Implementations"):

- ``min_position``, ``max_position``: the positions it takes (e.g. 0 … its table size − 1);
- ``min_d_model``: the smallest d_model (head dimension, for RoPE) it takes;
- ``d_models``: the d_model values it takes (any container: a range, a tuple);
- ``dtypes``, ``devices``: the dtypes and devices it runs in.

Strategies draw inside the domain (checks.helpers.variable_strategies reads it from the run in progress), and an
input outside it is discarded, not failed (``Domain.refuses``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from checks.numerics.size_rules import SizeRule


class DomainError(ValueError):
    """An adapter's domain declaration is malformed (the message names the attribute)."""


@dataclass(frozen=True)
class Domain:
    """What an adapter declares it takes: positions, d_model values, dtypes and devices (None: any)."""

    min_position: int | None = None
    max_position: int | None = None
    min_d_model: int | None = None
    d_models: tuple[int, ...] | None = None
    dtypes: tuple[str, ...] | None = None
    devices: tuple[str, ...] | None = None
    excluded_d_models: frozenset[int] = field(default=frozenset())
    """d_model values the engine set aside to look at the rest (an undeclared failure's sub-domain)."""
    excluded_rule: SizeRule | None = None
    """A rule whose sizes the engine set aside, to confirm that the check holds at every other size."""
    only_rule: SizeRule | None = None
    """A rule whose sizes alone the engine draws, to confirm that the check fails at each of them."""
    taken_d_models: frozenset[int] | None = field(default=None, init=False, compare=False, repr=False)
    """``d_models`` as a set: every drawn size asks whether it is taken (a tuple of 2,048 sizes is a slow answer)."""

    values: dict[tuple[int, int], list[int]] = field(default_factory=dict, init=False, compare=False, repr=False)
    """``d_model_values`` as answered, per (low, high): strategies ask again for every example."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "taken_d_models", None if self.d_models is None else frozenset(self.d_models))

    @classmethod
    def of(cls, adapter: Any) -> Domain:
        """The domain an adapter declares (nothing declared: everything)."""
        return cls(
            min_position=_integer(adapter, "min_position"),
            max_position=_integer(adapter, "max_position"),
            min_d_model=_integer(adapter, "min_d_model"),
            d_models=_integers(adapter, "d_models"),
            dtypes=_names(adapter, "dtypes"),
            devices=_names(adapter, "devices"),
        )

    def excluding(self, d_models: Iterable[int]) -> Domain:
        """This domain without ``d_models`` (the engine's sub-domain, not the adapter's declaration)."""
        return replace(self, excluded_d_models=self.excluded_d_models | frozenset(d_models))

    def below_position(self, position: int) -> Domain:
        """This domain with every position from ``position`` on set aside (the engine's sub-domain)."""
        top = position - 1 if self.max_position is None else min(self.max_position, position - 1)
        return replace(self, max_position=top)

    def excluding_rule(self, rule: SizeRule) -> Domain:
        """This domain without the sizes ``rule`` names (the engine's sub-domain, not the adapter's declaration)."""
        return replace(self, excluded_rule=rule)

    def within_rule(self, rule: SizeRule) -> Domain:
        """This domain with only the sizes ``rule`` names (the engine's sub-domain, not the adapter's declaration)."""
        return replace(self, only_rule=rule)

    @property
    def restricts_d_model(self) -> bool:
        """Whether any d_model is left out (declared or set aside): strategies then draw from the values taken."""
        return bool(self.min_d_model or self.d_models or self.excluded_d_models or self.excluded_rule or self.only_rule)

    def takes_d_model(self, d_model: int) -> bool:
        return (
            (self.min_d_model is None or d_model >= self.min_d_model)
            and (self.taken_d_models is None or d_model in self.taken_d_models)
            and d_model not in self.excluded_d_models
            and not (self.excluded_rule and self.excluded_rule.matches(d_model))
            and (self.only_rule is None or self.only_rule.matches(d_model))
        )

    def takes_position(self, position: int) -> bool:
        return (self.min_position is None or position >= self.min_position) and (
            self.max_position is None or position <= self.max_position
        )

    def refuses(
        self, *, d_model: int | None = None, positions: Iterable[int] = (), size: str = "d_model"
    ) -> str | None:
        """Why an input is outside the domain (None when inside); ``size`` names the size (a topic's size_name)."""
        if d_model is not None and not self.takes_d_model(d_model):
            return f"{size} = {d_model} is outside the declared domain ({self.describe(size)})"
        outside = [int(p) for p in positions if not self.takes_position(int(p))]
        if outside:
            return f"position {outside[0]} is outside the declared domain ({self.describe(size)})"
        return None

    def refuses_run(self, device: str, dtype: str) -> str | None:
        if self.dtypes is not None and dtype not in self.dtypes:
            return f"{dtype} is outside the declared dtypes ({', '.join(self.dtypes)})"
        if self.devices is not None and device not in self.devices:
            return f"{device} is outside the declared devices ({', '.join(self.devices)})"
        return None

    def d_model_values(self, low: int, high: int) -> list[int]:
        """The d_model values in low … high the domain takes."""
        if (low, high) not in self.values:
            top = min(high, max(self.d_models)) if self.d_models else high
            taken = [d for d in range(max(low, self.min_d_model or low), top + 1) if self.takes_d_model(d)]
            self.values[(low, high)] = taken
        return list(self.values[(low, high)])

    def describe(self, size: str = "d_model") -> str:
        """The declaration in words ("positions 0 … 4095, d_model ≥ 4", the size named ``size``); "everything" when
        nothing is declared."""
        parts = []
        if self.min_position is not None and self.max_position is not None:
            parts.append(f"positions {self.min_position} … {self.max_position}")
        elif self.min_position is not None:
            parts.append(f"positions ≥ {self.min_position}")
        elif self.max_position is not None:
            parts.append(f"positions ≤ {self.max_position}")
        if self.min_d_model is not None:
            parts.append(f"{size} ≥ {self.min_d_model}")
        if self.d_models is not None:
            parts.append(f"{size} in {_span(self.d_models)}")
        if self.excluded_d_models:
            parts.append(f"{size} ∉ {{{', '.join(map(str, sorted(self.excluded_d_models)))}}}")
        if self.excluded_rule:
            parts.append(f"not {self.excluded_rule.describe(size)}")
        if self.only_rule:
            parts.append(f"only {self.only_rule.describe(size)}")
        if self.dtypes is not None:
            parts.append(f"dtypes {', '.join(self.dtypes)}")
        if self.devices is not None:
            parts.append(f"devices {', '.join(self.devices)}")
        return "; ".join(parts) or "everything"


def _integer(adapter: Any, name: str) -> int | None:
    value = getattr(adapter, name, None)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError(f"{name} = {value!r}: expected an integer")
    return value


def _integers(adapter: Any, name: str) -> tuple[int, ...] | None:
    value = getattr(adapter, name, None)
    if value is None:
        return None
    if not isinstance(value, Collection) or isinstance(value, str) or not value:
        raise DomainError(f"{name} = {value!r}: expected a non-empty collection of integers (a range, a tuple)")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise DomainError(f"{name}: every value must be an integer")
    return tuple(sorted(set(value)))


def _names(adapter: Any, name: str) -> tuple[str, ...] | None:
    value = getattr(adapter, name, None)
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Collection) or not all(isinstance(v, str) for v in value):
        raise DomainError(f"{name} = {value!r}: expected a collection of names such as ('float32', 'float64')")
    return tuple(value)


def _span(values: tuple[int, ...]) -> str:
    if len(values) > 2 and all(b - a == values[1] - values[0] for a, b in pairwise(values)):
        step = values[1] - values[0]
        return f"{values[0]}, {values[1]}, … {values[-1]}" if step > 1 else f"{values[0]} … {values[-1]}"
    return "{" + ", ".join(map(str, values)) + "}"
