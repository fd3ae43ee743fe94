"""The one way this project starts pytest on claims in a separate process (report, flake, mutation, bench)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

import checks.settings.config as config
from checks.settings.profiles import PROFILE_ENV

PLUGIN = "checks.engine.plugin"
PACKAGE_PARENT = Path(__file__).resolve().parents[2]
"""The folder the engine is imported from (site-packages, or a checkout run without installing it)."""


def plugin_installed() -> bool:
    """Whether pytest loads the plugin by itself (the package is installed with its ``pytest11`` entry point)."""
    return any(entry.value == PLUGIN for entry in entry_points(group="pytest11"))


def pytest_command(
    paths: Sequence[Path | str],
    *,
    results: Path,
    profile: str | None = None,
    seed: int | None = None,
    workers: int | None = None,
    implementations: Sequence[str] = (),
    junit: Path | None = None,
    extra: Sequence[str] = (),
) -> list[str]:
    """``python -m pytest`` on ``paths`` writing ``results`` (absolute), quiet and without pytest's cache, rooted
    at the current repository (checks.settings.config)."""
    root = config.current().root
    command = [
        sys.executable,
        "-m",
        "pytest",
        *map(str, paths),
        "-q",
        "-rs",
        "-p",
        "no:cacheprovider",
        f"--rootdir={root}",
    ]
    if not plugin_installed():  # a checkout run without installing it
        command += ["-p", PLUGIN]
    command += ["--results", str(Path(results).resolve())]
    if profile:
        command += ["--hypothesis-profile", profile]
    if seed is not None:
        command += ["--hypothesis-seed", str(seed)]
    if workers:
        command += ["-n", str(workers)]
    for spec in implementations:
        command += ["--impl", spec]
    if junit is not None:
        command.append(f"--junitxml={junit}")
    return [*command, *extra]


def run_pytest(
    command: list[str], *, cwd: Path | None = None, profile: str | None = None, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a ``pytest_command`` in ``cwd`` (default: the repository's root) with the engine importable, the
    repository's settings (checks.settings.config) and the profile in the environment."""
    settings = config.current()
    env = {**os.environ, **config.environment(settings), "PYTHONDONTWRITEBYTECODE": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_PARENT), env.get("PYTHONPATH", "")]))
    if profile:
        env[PROFILE_ENV] = profile
    return subprocess.run(command, cwd=cwd or settings.root, env=env, capture_output=capture, text=True, check=False)
