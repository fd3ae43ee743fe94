"""Every registered implementation: the built-ins, then adapters added with ``pytest --impl``."""

from __future__ import annotations

import importlib
from typing import Any

from checks.implementations.builtin import HalfSplitRope, MetaComplexRope, ReferenceAdapter, TorchSdpaAttention
from checks.implementations.capabilities import capabilities
from checks.implementations.document import DocumentNumpy, DocumentTorch
from checks.implementations.third_party import HuggingFaceLlamaRope, TorchtuneRope

BUILTIN: tuple[Any, ...] = (
    ReferenceAdapter("numpy"),
    ReferenceAdapter("torch"),
    DocumentNumpy(),
    DocumentTorch(),
    HalfSplitRope(),
    MetaComplexRope(),
    TorchSdpaAttention(),
    TorchtuneRope(),
    HuggingFaceLlamaRope(),
)
_external: list[Any] = []


def implementations() -> list[Any]:
    return [*BUILTIN, *_external]


def by_name(name: str) -> Any:
    for adapter in implementations():
        if adapter.name == name:
            return adapter
    raise LookupError(f"no implementation named {name!r}; known: {[a.name for a in implementations()]}")


def offering(capability: str) -> list[Any]:
    """Every registered implementation that offers ``capability``."""
    return [adapter for adapter in implementations() if capability in capabilities(adapter)]


def load(spec: str) -> Any:
    """Import ``package.module:object``; a class is instantiated. Raises with a message naming the spec."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"--impl {spec!r}: expected package.module:object")
    try:
        adapter = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"--impl {spec!r}: {error}") from error
    if isinstance(adapter, type):
        adapter = adapter()
    if not getattr(adapter, "name", "") or not capabilities(adapter):
        raise ValueError(
            f"--impl {spec!r}: an adapter needs a name and at least one of sinusoidal, rope, attention (see README)"
        )
    return adapter


def register(adapter: Any) -> None:
    if any(existing.name == adapter.name for existing in implementations()):
        raise ValueError(f"an implementation named {adapter.name!r} is already registered")
    _external.append(adapter)
