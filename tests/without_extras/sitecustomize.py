"""Python as the core install runs it: the extras' modules (checks.settings.extras.EXTRAS) cannot be imported (but
dev's: pytest loads its installed plugins by entry point, and the engine reads none of them).

With this folder on PYTHONPATH (before site-packages), every Python started, pytest's children included, imports
this ``sitecustomize`` first: it puts a finder first on ``sys.meta_path`` that refuses those modules as a machine
without them would (ModuleNotFoundError naming the module). The checkout must be on PYTHONPATH too."""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder

from checks.settings.extras import EXTRAS

BLOCKED = {module for extra, modules in EXTRAS.items() if extra != "dev" for module in modules} | {
    "torchtune",
    "torchao",
}


class Refuse(MetaPathFinder):
    """Finds nothing of the extras: ``import torch`` fails as where torch is not installed."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Refuse())
