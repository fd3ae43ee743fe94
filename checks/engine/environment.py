"""The environment of a run: versions, CPU and GPUs, TF32 settings, the repository and its commit, the tool's
version, date, Hypothesis profile and seed."""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import platform
import subprocess
import sys
from pathlib import Path

import hypothesis
import numpy as np
import sympy as sp

import checks.settings.config as config
from checks.results.records import Environment
from checks.settings.extras import installed, optional

torch = optional("torch")


def environment(profile: str, seed: str, shard: str = "") -> Environment:
    """This machine and this run (``shard``: "G/N" for shard G of N)."""
    present = installed("torch")
    gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())] if present else []
    settings = config.current()
    return Environment(
        python=platform.python_version(),
        torch=torch.__version__ if present else "not installed (the [torch] extra)",
        numpy=np.__version__,
        sympy=sp.__version__,
        hypothesis=hypothesis.__version__,
        platform=platform.platform(),
        cpu=_cpu_name(),
        gpus=gpus,
        cuda=torch.version.cuda if gpus else None,
        gpu_driver=_output(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"]) if gpus else None,
        tf32_matmul=present and torch.backends.cuda.matmul.allow_tf32,
        tf32_cudnn=present and torch.backends.cudnn.allow_tf32,
        float32_matmul_precision=torch.get_float32_matmul_precision() if present else "",
        commit=_output(["git", "-C", str(settings.root), "rev-parse", "HEAD"]),
        repository=str(settings.root),
        tool=tool_version(),
        date=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        hypothesis_profile=profile,
        hypothesis_seed=seed,
        sandbox=_sandbox(),
        shard=shard,
    )


def _sandbox() -> str:
    """How document code is confined on this machine, where the run's claims or adapters use the document-code sandbox
    (their modules imported it); empty for a repository that runs no document code."""
    module = sys.modules.get("checks.implementations.sandbox")
    return module.isolation() if module is not None else ""


def tool_version() -> str:
    """theory-claims' version as installed, with the commit of the checkout it runs from when it is one."""
    try:
        version = importlib.metadata.version("theory-claims")
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    source = Path(__file__).resolve().parents[2]
    commit = _output(["git", "-C", str(source), "rev-parse", "HEAD"]) if (source / ".git").exists() else ""
    return f"theory-claims {version}" + (f" (checkout {source} at {commit})" if commit else "")


def _output(command: list[str]) -> str:
    """A command's first line of output, or "unknown" when it cannot run."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "unknown"


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()
