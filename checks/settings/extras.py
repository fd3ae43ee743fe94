"""The package's optional parts (pyproject's extras) and what to say when one is missing.

The core install holds what the engine, the proofs and the report need. Each extra adds the modules below; a claim
file or an evidence that needs one that is not installed is skipped with one line naming the extra
(``needs the [torch] extra: pip install 'theory-claims[torch]'``), never reported broken.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from functools import cache
from typing import Any

EXTRAS: dict[str, tuple[str, ...]] = {
    "torch": ("torch",),
    "sos": ("cvxpy", "scipy"),
    "browser": ("playwright",),
    "libraries": ("transformers", "matplotlib"),
    "dev": ("pytest_benchmark", "xdist", "pytest_split", "ruff"),
}
"""Each extra and the top-level modules it installs (requirements/<extra>.txt holds the packages)."""


class MissingExtra(ModuleNotFoundError):
    """A module of an extra that is not installed; its message is the one line a skip shows."""

    def __init__(self, module: str) -> None:
        self.extra = extra_of(module) or module
        super().__init__(line(self.extra, module), name=module)


def extra_of(module: str | None) -> str | None:
    """The extra that installs ``module`` (a dotted name: its top level counts), or None."""
    top = (module or "").split(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def line(extra: str, module: str = "") -> str:
    """What a skip says: the extra and how to install it."""
    needs = f"{module} is not installed: " if module else ""
    return f"{needs}needs the [{extra}] extra (pip install 'theory-claims[{extra}]')"


def needed(error: BaseException) -> str | None:
    """The top-level module of an extra that ``error``, or an exception it was raised from, did not find; else
    None."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ModuleNotFoundError) and extra_of(seen.name):
            return (seen.name or "").split(".")[0]
        seen = seen.__cause__ or seen.__context__
    return None


@cache
def installed(module: str) -> bool:
    """Whether ``module`` can be imported here (found, not imported)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


class _Absent(types.ModuleType):
    """Stands for a module of an extra that is not installed: any use raises MissingExtra naming the extra."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise MissingExtra(self.__name__)


class _Deferred(types.ModuleType):
    """Stands for an installed module of an extra until its first use, which imports it: torch costs a second at
    start-up, which a run whose claims never call it (proofs, NumPy checks) should not pay."""

    def __getattr__(self, name: str) -> Any:
        value = getattr(importlib.import_module(self.__name__), name)
        setattr(self, name, value)  # later uses read it directly
        return value


def is_tensor(value: object) -> bool:
    """Whether ``value`` is a torch tensor, without importing torch: where torch was never imported (or is not
    installed) nothing can be one."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def optional(module: str) -> Any:
    """``module`` (imported at its first use), or a stand-in whose every use raises MissingExtra: for modules of the
    core path that use an extra in some functions only (the torch backend, the torch implementations)."""
    if not installed(module.split(".")[0]):
        return _Absent(module)
    if module in sys.modules:
        return sys.modules[module]
    return _Deferred(module)
