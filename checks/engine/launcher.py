"""The one way this project starts pytest on claims in a separate process (report, flake, mutation, bench)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from checks.profiles import PROFILE_ENV
from checks.results.files import ROOT


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
    """``python -m pytest`` on ``paths`` writing ``results`` (absolute), quiet and without pytest's cache."""
    command = [sys.executable, "-m", "pytest", *map(str, paths), "-q", "-p", "no:cacheprovider", f"--rootdir={ROOT}"]
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
    command: list[str], *, cwd: Path = ROOT, profile: str | None = None, capture: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a ``pytest_command`` with this repository importable from any ``cwd`` and the profile in the environment."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    if profile:
        env[PROFILE_ENV] = profile
    return subprocess.run(command, cwd=cwd, env=env, capture_output=capture, text=True, check=False)
