"""Every registered implementation: the built-ins, then adapters added with ``pytest --impl``."""

from __future__ import annotations

import importlib
from typing import Any

from checks.implementations.base import declaration_error
from checks.implementations.builtin import HalfSplitRope, MetaComplexRope, ReferenceAdapter, TorchSdpaAttention
from checks.implementations.document import DocumentNumpy, DocumentTorch
from checks.implementations.third_party import (
    HuggingFaceLlamaRope,
    PositionalEncodings,
    RotaryEmbeddingTorch,
    TorchtuneRope,
    XTransformersRope,
    XTransformersSinusoidal,
)
from checks.numerics.capabilities import capabilities
from checks.numerics.domain import Domain, DomainError

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
    RotaryEmbeddingTorch(),
    XTransformersRope(),
    XTransformersSinusoidal(),
    PositionalEncodings(),
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
    """Import ``package.module:object``; a class is instantiated. Raises ValueError with one line naming the spec.

    Whatever the adapter's module or constructor raises (an import error, a broken constructor, a
    SystemExit) is that one line, never a traceback.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"--impl {spec!r}: expected package.module:object")
    try:
        module = importlib.import_module(module_name)
    except BaseException as error:
        raise ValueError(f"--impl {spec!r}: importing {module_name} raised {_said(error)}") from None
    adapter = getattr(module, attribute, None)
    if adapter is None:
        raise ValueError(f"--impl {spec!r}: module {module_name} has no {attribute!r}")
    if isinstance(adapter, type):
        try:
            adapter = adapter()
        except BaseException as error:
            raise ValueError(f"--impl {spec!r}: {attribute}() raised {_said(error)}") from None
    name = getattr(adapter, "name", "")
    if not isinstance(name, str) or not name or not capabilities(adapter):
        raise ValueError(
            f"--impl {spec!r}: an adapter needs a name (text) and at least one of sinusoidal, rope, attention "
            "(see README 'Implementations')"
        )
    try:
        Domain.of(adapter)
    except DomainError as error:
        raise ValueError(f"--impl {spec!r}: {error}") from None
    wrong = declaration_error(adapter)
    if wrong:
        raise ValueError(f"--impl {spec!r}: {wrong} (see README 'Implementations')")
    return adapter


def _said(error: BaseException) -> str:
    if isinstance(error, KeyboardInterrupt):
        raise error
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__


def register(adapter: Any) -> None:
    if any(existing.name == adapter.name for existing in implementations()):
        raise ValueError(f"an implementation named {adapter.name!r} is already registered")
    _external.append(adapter)


def unregister(adapter: Any) -> None:
    """Take an adapter added with ``register`` out again (tests that register for a while)."""
    _external.remove(adapter)
