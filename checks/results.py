"""The results file: one record per claim plus the environment, written atomically."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import os
import platform
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import hypothesis
import numpy as np
import sympy as sp
import torch
from sympy.printing.mathml import mathml

from checks.evaluate import ClaimOutcome
from checks.results_file import SCHEMA
from checks.sweeps import sweep_record
from checks.symbolic import Certificate, Decision, Step

DEFAULT_PATH = Path("reports") / "html" / "results.json"


def claim_record(outcome: ClaimOutcome) -> dict[str, Any]:
    """A JSON-ready record of one evaluated claim."""
    claim = outcome.claim
    proof = outcome.proof
    return {
        "id": claim.id,
        "origin": _origin(claim.origin),
        "title": claim.title,
        "statement": claim.statement,
        "sources": [dataclasses.asdict(q) for q in claim.sources],
        "depends": list(claim.depends),
        "expected": str(claim.expect),
        "observed": str(outcome.verdict),
        "out_of_scope": claim.out_of_scope,
        "symbolic": None
        if proof is None
        else {
            "status": proof.status,
            "seconds": outcome.proof_seconds,
            "steps": [_step(s) for s in proof.steps],
            "facts": [dataclasses.asdict(f) for f in proof.facts],
            "conditions": list(proof.conditions),
            "decisions": [_decision(d) for d in proof.decisions]
            + [{**_decision(d), "expected": "refuted"} for d in proof.refutations],
        },
        "numeric": [_jsonable(dataclasses.asdict(run)) for run in outcome.runs],
        "sweeps": [_jsonable(sweep_record(run)) for run in outcome.sweeps],
        "probes": [
            {
                "name": p.name,
                "seconds": p.seconds,
                "measurements": _jsonable(p.measurements),
                "figures": [_jsonable(dataclasses.asdict(f)) for f in p.figures],
            }
            for p in outcome.probes
        ],
        "findings": [_jsonable(dataclasses.asdict(f)) for f in outcome.findings],
        "errors": list(outcome.errors),
        "seconds": outcome.seconds,
    }


def broken_record(path: str, error: str) -> dict[str, Any]:
    """A record for a claim file that could not even be loaded (its id: the repository-relative path)."""
    path = _origin(Path(path))
    return {
        "id": f"file:{path}",
        "origin": path,
        "title": f"claim file {path} did not load",
        "statement": "",
        "sources": [],
        "depends": [],
        "expected": "proved",
        "observed": "broken",
        "out_of_scope": "",
        "symbolic": None,
        "numeric": [],
        "sweeps": [],
        "probes": [],
        "findings": [],
        "errors": [error],
        "seconds": 0.0,
    }


def _origin(path: Path | None) -> str:
    """The claim file, relative to the repository when it lies inside it."""
    if path is None:
        return ""
    try:
        return str(path.resolve().relative_to(Path(__file__).resolve().parent.parent))
    except ValueError:
        return str(path)


def _step(step: Step) -> dict[str, str]:
    return {"label": step.label, "text": sp.sstr(step.expr), "mathml": _mathml(step.expr)}


def _mathml(expr: sp.Basic) -> str:
    try:
        return mathml(expr, printer="presentation")
    except Exception:
        return ""


def _decision(decision: Decision) -> dict[str, Any]:
    return {
        "expected": "proved",
        "status": decision.status,
        "statement": sp.sstr(sp.Eq(decision.lhs, decision.rhs, evaluate=False)),
        "mathml": _mathml(sp.Eq(decision.lhs, decision.rhs, evaluate=False)),
        "reason": decision.reason,
        "witness": decision.witness,
        "conditions": decision.conditions,
        "certificates": [_certificate(c) for c in decision.certificates],
    }


def _certificate(certificate: Certificate) -> dict[str, Any]:
    return {
        "polynomial": sp.sstr(certificate.polynomial),
        "relations": [sp.sstr(r) for r in certificate.relations],
        "quotients": [sp.sstr(q) for q in certificate.quotients],
        "verified": certificate.verify(),
    }


def _jsonable(value: Any) -> Any:
    """Numbers, strings, lists and dicts only (numpy scalars and arrays converted)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def environment(profile: str, seed: str) -> dict[str, Any]:
    """Versions, devices, commit and date of this run."""
    gpus = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "numpy": np.__version__,
        "sympy": sp.__version__,
        "hypothesis": hypothesis.__version__,
        "platform": platform.platform(),
        "cpu": _cpu_name(),
        "gpus": gpus,
        "cuda": torch.version.cuda if gpus else None,
        "gpu_driver": _driver() if gpus else None,
        "tf32_matmul": torch.backends.cuda.matmul.allow_tf32,
        "tf32_cudnn": torch.backends.cudnn.allow_tf32,
        "float32_matmul_precision": torch.get_float32_matmul_precision(),
        "commit": _commit(),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "hypothesis_profile": profile,
        "hypothesis_seed": seed,
    }


def _driver() -> str:
    try:
        return subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            check=True,
            timeout=20,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def write_results(path: Path, claims: list[dict[str, Any]], env: dict[str, Any]) -> None:
    """Write atomically: a temporary file in the same folder, then os.replace."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"schema": SCHEMA, "environment": env, "claims": sorted(claims, key=lambda c: c["id"])}
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".results-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(document, stream, indent=1, ensure_ascii=False, allow_nan=False, default=str)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
