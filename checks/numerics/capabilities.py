"""What an implementation can offer: the capability methods an adapter may have."""

from __future__ import annotations

from typing import Any

CAPABILITIES: tuple[str, ...] = ("sinusoidal", "rope", "attention")


def capabilities(adapter: Any) -> set[str]:
    """The capabilities ``adapter`` offers (the methods of CAPABILITIES it has)."""
    return {name for name in CAPABILITIES if callable(getattr(adapter, name, None))}
