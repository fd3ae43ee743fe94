"""Every registered implementation: the references, each topic's, the repository's, then ``pytest --impl``'s."""

from __future__ import annotations

from typing import Any

from checks.implementations.base import declaration_error
from checks.implementations.builtin import ReferenceAdapter
from checks.implementations.topic_records import capabilities, left_out, names, topics
from checks.numerics.domain import Domain, DomainError
from checks.settings.config import NeedsExtra, named_object, said

REFERENCES: tuple[Any, ...] = (ReferenceAdapter("numpy"), ReferenceAdapter("torch"))
"""The project's references: every topic's, on each backend."""
_external: list[Any] = []
_configured: dict[tuple[str, ...], list[Any]] = {}
_not_loaded: dict[str, str] = {}


def implementations() -> list[Any]:
    """The references, every topic's implementations, the repository's (``implementations`` in its
    [tool.theory-claims]) and those added with ``pytest --impl``."""
    own = [adapter for topic in topics() for adapter in topic.implementations]
    return _distinct([*REFERENCES, *own, *configured(), *_external])


def configured() -> list[Any]:
    """The adapters the repository names in ``[tool.theory-claims] implementations``, loaded once; one whose module
    needs an extra that is not installed is left out (``not_loaded`` says why), as the evidence needing it is."""
    from checks.settings.config import current

    settings = current()
    if settings.implementations not in _configured:
        settings.importable()
        loaded = []
        for spec in settings.implementations:
            try:
                loaded.append(load(spec, "implementations"))
            except NeedsExtra as error:
                _not_loaded[spec] = str(error)
        _configured[settings.implementations] = loaded
    return _configured[settings.implementations]


def not_loaded() -> list[str]:
    """Why each topic and adapter the repository names was left out (its module needs an extra that is not
    installed)."""
    return [*left_out(), *_not_loaded.values()]


def _distinct(adapters: list[Any]) -> list[Any]:
    """Each adapter once (a topic's implementation may also be named by a repository)."""
    return list({id(adapter): adapter for adapter in adapters}.values())  # first place of each kept


def by_name(name: str) -> Any:
    for adapter in implementations():
        if adapter.name == name:
            return adapter
    raise LookupError(f"no implementation named {name!r}; known: {[a.name for a in implementations()]}")


def offering(capability: str) -> list[Any]:
    """Every registered implementation that offers ``capability``."""
    return [adapter for adapter in implementations() if capability in capabilities(adapter)]


def load(spec: str, option: str = "--impl") -> Any:
    """Import ``package.module:object``; a class is instantiated. Raises ValueError with one line naming the spec.

    Whatever the adapter's module or constructor raises (an import error, a broken constructor, a
    SystemExit) is that one line, never a traceback.
    """
    adapter = named_object(spec, f"{option} {spec!r}")
    attribute = spec.partition(":")[2]
    if isinstance(adapter, type):
        try:
            adapter = adapter()
        except BaseException as error:
            raise ValueError(f"{option} {spec!r}: {attribute}() raised {said(error)}") from None
    name = getattr(adapter, "name", "")
    if not isinstance(name, str) or not name or not capabilities(adapter):
        raise ValueError(
            f"{option} {spec!r}: an adapter needs a name (text) and a method of a topic: one of {', '.join(names())} "
            "(docs/topics.md)"
        )
    try:
        Domain.of(adapter)
    except DomainError as error:
        raise ValueError(f"{option} {spec!r}: {error}") from None
    wrong = declaration_error(adapter)
    if wrong:
        raise ValueError(f"{option} {spec!r}: {wrong} (see README 'Implementations')")
    return adapter


def register(adapter: Any) -> None:
    if any(existing.name == adapter.name for existing in implementations()):
        raise ValueError(f"an implementation named {adapter.name!r} is already registered")
    _external.append(adapter)


def unregister(adapter: Any) -> None:
    """Take an adapter added with ``register`` out again (tests that register for a while)."""
    _external.remove(adapter)
