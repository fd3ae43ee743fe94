"""The kinds of evidence: one module each (proof, check, sweep, probe, derivation, ...), found here.

A new kind is a new module in this package with one ``Evidence`` subclass (checks.evidence.base),
its report partial under reports/templates/evidence/, and its tests; nothing else is edited.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from checks.evidence.base import Dependency, Evidence, RunContext

__all__ = ["Dependency", "Evidence", "RunContext", "by_decorator", "by_kind", "kinds"]


@cache
def kinds() -> tuple[type[Evidence], ...]:
    """Every kind of evidence in this package, in their ``order``."""
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")
    found = [kind for kind in _subclasses(Evidence) if "kind" in kind.__dict__]
    return tuple(sorted(found, key=lambda kind: (kind.order, kind.kind)))


def by_kind(tag: str) -> type[Evidence]:
    """The kind whose records carry ``tag``."""
    return next(kind for kind in kinds() if kind.kind == tag)


def by_decorator(name: str) -> type[Evidence] | None:
    """The kind a claim file declares as ``@claim.<name>``, if any."""
    return next((kind for kind in kinds() if kind.decorator == name), None)


def _subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]
