"""Every topic the engine knows: the package's own, those a repository names, those installed packages register.

A repository names its topics in ``[tool.theory-claims] topics`` ("module:NAME", several separated by spaces; the
module is imported with the claims folder and the repository's root on the path; NAME is a Topic or a sequence of
them); an installed package registers them under the entry point group ``theory_claims.topics``. Nothing in the
package needs an edit for a new topic (docs/topics.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import entry_points
from typing import Any

from checks.config import named_object
from checks.topics.record import Fingerprint, Topic

OWN = (
    "checks.topics.positional:TOPICS",
    "checks.topics.attention:TOPICS",
    "checks.topics.normalisation:TOPICS",
    "checks.topics.multihead:TOPICS",
)
"""The package's own topics: positional encodings (sinusoidal, RoPE), attention, layer normalisation and
multi-head attention."""
ENTRY_POINTS = "theory_claims.topics"
"""The entry point group an installed package registers its topics under."""


class TopicError(ValueError):
    """A topic that cannot be loaded or clashes with another: one line naming where it came from."""


_loaded: dict[tuple[str, ...], tuple[Topic, ...]] = {}
_registered: list[Topic] = []


def topics() -> tuple[Topic, ...]:
    """Every topic, the package's first; each name once."""
    from checks.config import current

    settings = current()
    named = settings.topics
    if named not in _loaded:
        settings.importable()
        found: list[Topic] = []
        for spec in (*OWN, *named):
            found += _load(spec)
        for point in entry_points(group=ENTRY_POINTS):
            found += _load(f"{point.value}", f"entry point {point.name!r}")
        _loaded[named] = _unique(found)
    return _loaded[named] + tuple(_registered)  # register() refuses a name already known


def topic(name: str) -> Topic:
    """The topic called ``name``; LookupError naming the known ones."""
    for candidate in topics():
        if candidate.name == name:
            return candidate
    raise LookupError(f"no topic {name!r}; known: {', '.join(t.name for t in topics())}")


def names() -> tuple[str, ...]:
    """The name of every topic (each an adapter method)."""
    return tuple(t.name for t in topics())


def register(new: Topic) -> None:
    """Add a topic for this process (a test, a notebook); a repository names its topics in its pyproject.toml."""
    if new.name in names():
        raise TopicError(f"a topic named {new.name!r} is already known")
    _registered.append(new)


def unregister(old: Topic) -> None:
    """Take back a topic ``register`` added."""
    _registered.remove(old)


def capabilities(adapter: Any) -> set[str]:
    """The topics ``adapter`` offers: the topic methods it has."""
    return {name for name in names() if callable(getattr(adapter, name, None))}


def comparator(name: str) -> Any:
    """The comparator or expectation called ``name`` among every topic's (None when no topic has one)."""
    for candidate in topics():
        for function in candidate.comparators:
            if function.__name__ == name:
                return function
    return None


def _load(spec: str, where: str = "") -> list[Topic]:
    """The topics ``module:NAME`` holds; TopicError with one line naming the spec."""
    label = where or f"topic {spec!r}"
    try:
        value = named_object(spec, label)
    except ValueError as error:
        raise TopicError(str(error)) from None
    found = [value] if isinstance(value, Topic) else list(value) if isinstance(value, Iterable) else []
    if not found or not all(isinstance(t, Topic) for t in found):
        raise TopicError(f"{label}: {spec} is not a Topic or a sequence of Topics")
    return found


def _unique(found: list[Topic]) -> tuple[Topic, ...]:
    seen: dict[str, Topic] = {}
    for candidate in found:
        if candidate.name in seen and seen[candidate.name] is not candidate:
            raise TopicError(f"two topics are named {candidate.name!r}; a topic's name is its adapter method")
        seen[candidate.name] = candidate
    return tuple(seen.values())


__all__ = [
    "ENTRY_POINTS",
    "Fingerprint",
    "Topic",
    "TopicError",
    "capabilities",
    "comparator",
    "names",
    "register",
    "topic",
    "topics",
    "unregister",
]
