"""A package that is installed but cannot be loaded is the environment's problem, not the adapter's.

An adapter that imports its library when first called (as the third-party ones do) meets a broken install only
then: a shared library that fails to load (OSError while importing), a module that is missing a name
(ImportError). Such an error is reported as the environment's, naming the package, and the adapter's cells are
skipped with that reason; it is never a contract finding of the adapter.
"""

from __future__ import annotations

import re
import traceback

SITE_PACKAGES = re.compile(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z0-9_]+)")


class EnvironmentProblem(Exception):
    """A package the adapter needs cannot be loaded on this machine."""


def loading_failure(error: BaseException) -> str | None:
    """The environment problem ``error`` shows, in words naming the package; None when it is not one."""
    importing = isinstance(error, ImportError) or (isinstance(error, OSError) and _while_importing(error))
    if not importing:
        return None
    package = _package(error)
    what = f"the package {package}" if package else "a package"
    return (
        f"{what} is installed but cannot be loaded here ({type(error).__name__}: {error}): an environment problem, "
        "not the adapter's"
    )


def _while_importing(error: BaseException) -> bool:
    """Raised by a module's own top-level code (importlib leaves its frames out, a module's "<module>" stays)."""
    return any(frame.name == "<module>" for frame in traceback.extract_tb(error.__traceback__)[1:])


def _package(error: BaseException) -> str:
    """The top-level package being loaded: the innermost installed package in the traceback, else the name the
    ImportError carries."""
    installed = [
        m.group(1) for frame in traceback.extract_tb(error.__traceback__) if (m := SITE_PACKAGES.search(frame.filename))
    ]
    if installed:
        return installed[-1]
    name = getattr(error, "name", None) or ""
    return name.split(".")[0]
