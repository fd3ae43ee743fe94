"""``@given`` and ``@example`` for checks: they record a property's strategies and explicit examples, and the harness
builds Hypothesis's own ``@given``, ``@example`` and ``settings`` afresh for every run (one per implementation,
device and dtype), with that run's budget and phases. Hypothesis's decorators of the same names are for tests that
Hypothesis runs itself; a check declares its inputs with these (``from checks import given, example``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Inputs:
    """What a check draws: the arguments of its ``@given``, and its ``@example``s (outermost first)."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    examples: list[tuple[tuple[Any, ...], dict[str, Any]]] = field(default_factory=list)


def given(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """The strategies of a check's inputs, as Hypothesis's ``@given`` takes them (``@given(pos=positions())``)."""

    def record(test: F) -> F:
        if getattr(test, "is_hypothesis_test", False) or inputs_of(test) is not None:
            raise TypeError(f"{test.__name__}: @given is applied twice; give every strategy in one @given")
        below = getattr(test, "theory_claims_examples", [])
        test.theory_claims_inputs = Inputs(args, kwargs, list(reversed(below)))  # type: ignore[attr-defined]
        return test

    return record


def example(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """An input the check always tries first, as Hypothesis's ``@example`` (above or below ``@given``; the topmost
    runs first, as in Hypothesis)."""

    def record(test: F) -> F:
        found = inputs_of(test)
        if found is None:  # below @given: kept until @given records the inputs
            test.theory_claims_examples = [*getattr(test, "theory_claims_examples", []), (args, kwargs)]  # type: ignore[attr-defined]
        else:
            found.examples.insert(0, (args, kwargs))
        return test

    return record


def inputs_of(test: Callable[..., Any]) -> Inputs | None:
    """The recorded inputs of a check's property, or None when it was not declared with ``given``."""
    found = getattr(test, "theory_claims_inputs", None)
    return found if isinstance(found, Inputs) else None
