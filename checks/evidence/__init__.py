"""The kinds of evidence: one module or package each (proof, check, sweep, probe, derivation, ...), found here.

Importing this package loads every kind, so that their records can be read from results files
(checks.results knows a record once its kind is imported). Kind modules are light: a runner that needs
Hypothesis or torch (check/runner.py, sweep/runner.py) is imported only when the kind runs.

A new kind is a new module in this package with one ``Evidence`` subclass (checks.evidence.base),
its report partial under reports/templates/evidence/, and its tests; nothing else is edited.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from checks.evidence.base import Dependency, Evidence, RunContext

__all__ = ["Dependency", "Evidence", "RunContext", "by_kind", "kinds", "register"]

_ELSEWHERE: list[type[Evidence]] = []
"""Kinds defined outside this package (``register``): a test's, say."""


@cache
def kinds() -> tuple[type[Evidence], ...]:
    """Every kind of evidence in this package (and any registered), in their ``order``."""
    for module in pkgutil.iter_modules(__path__):
        if module.name != "base":
            importlib.import_module(f"{__name__}.{module.name}")
    here = [k for k in _subclasses(Evidence) if "kind" in k.__dict__ and k.__module__.startswith(f"{__name__}.")]
    return tuple(sorted([*here, *_ELSEWHERE], key=lambda kind: (kind.order, kind.kind)))


def register(kind: type[Evidence]) -> None:
    """Add a kind defined outside checks/evidence (until ``unregister``)."""
    _ELSEWHERE.append(kind)
    kinds.cache_clear()


def unregister(kind: type[Evidence]) -> None:
    _ELSEWHERE.remove(kind)
    kind.record_type.forget()
    kinds.cache_clear()


def by_kind(tag: str) -> type[Evidence]:
    """The kind whose records carry ``tag``."""
    return next(kind for kind in kinds() if kind.kind == tag)


def _subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]


kinds()
