"""pytest-xdist gives every claim the verdicts a serial run gives.

The comparison runs the whole catalog twice (serially and with ``-n 2``, profile ci, which
replays the same examples), about two minutes on 2 cores, so it is skipped unless asked for:

    THEORY_CLAIMS_PARALLEL_CHECK=1 python -m pytest -p no:cacheprovider tests/test_parallel_verdicts.py

What must agree, claim by claim: the observed verdict, the symbolic status, the status of every
numeric run and every sweep run, and whether it crashed. Timings and measured figures may differ.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PARALLEL_CHECK = "THEORY_CLAIMS_PARALLEL_CHECK"
CATALOG_TIMEOUT = 900


def verdicts(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per claim id, what a run decided (no timings, no measured figures)."""
    decided = {}
    for claim in results["claims"]:
        numeric = {
            f"{r['check']} / {r['implementation']} / {r['device']} / {r['dtype']}": r["status"]
            for r in claim["numeric"]
        }
        sweeps = {f"{r['sweep']} / {r['device']} / {r['dtype']} / {r['d_model']}": r["status"] for r in claim["sweeps"]}
        decided[claim["id"]] = {
            "observed": claim["observed"],
            "symbolic": (claim.get("symbolic") or {}).get("status"),
            "numeric": numeric,
            "sweeps": sweeps,
            "crashed": bool(claim["errors"]),
        }
    return decided


def differences(serial: dict[str, dict[str, Any]], parallel: dict[str, dict[str, Any]]) -> list[str]:
    """Where two runs' verdicts disagree, one line each."""
    found = [f"{claim_id}: only in the serial run" for claim_id in serial.keys() - parallel.keys()]
    found += [f"{claim_id}: only in the parallel run" for claim_id in parallel.keys() - serial.keys()]
    for claim_id in sorted(serial.keys() & parallel.keys()):
        one, other = serial[claim_id], parallel[claim_id]
        for key in ("observed", "symbolic", "crashed"):
            if one[key] != other[key]:
                found.append(f"{claim_id}: {key} {one[key]!r} serially, {other[key]!r} with -n 2")
        for key in ("numeric", "sweeps"):
            for run in sorted(one[key].keys() | other[key].keys()):
                if one[key].get(run) != other[key].get(run):
                    found.append(f"{claim_id}: {run}: {one[key].get(run)} serially, {other[key].get(run)} with -n 2")
    return found


def test_differences_ignore_timings_and_report_verdicts():
    claim = {
        "id": "x.y",
        "observed": "proved",
        "symbolic": {"status": "proved", "seconds": 0.1},
        "numeric": [{"check": "c", "implementation": "numpy", "device": "cpu", "dtype": "float32", "status": "passed"}],
        "sweeps": [{"sweep": "s", "device": "cpu", "dtype": "float32", "d_model": 64, "status": "passed"}],
        "errors": [],
        "seconds": 1.0,
    }
    slower = {**claim, "seconds": 9.0, "symbolic": {"status": "proved", "seconds": 2.0}}
    assert differences(verdicts({"claims": [claim]}), verdicts({"claims": [slower]})) == []
    failed = {**claim, "observed": "refuted", "sweeps": [{**claim["sweeps"][0], "status": "failed"}]}
    found = differences(verdicts({"claims": [claim]}), verdicts({"claims": [failed]}))
    assert found == [
        "x.y: observed 'proved' serially, 'refuted' with -n 2",
        "x.y: s / cpu / float32 / 64: passed serially, failed with -n 2",
    ]


def _catalog(results: Path, *options: str) -> dict[str, Any]:
    command = [sys.executable, "-m", "pytest", "claims", "-q", "-p", "no:cacheprovider", "--results", str(results)]
    env = {**os.environ, "THEORY_CLAIMS_PROFILE": "ci"}
    done = subprocess.run(
        [*command, *options], cwd=ROOT, env=env, capture_output=True, text=True, timeout=CATALOG_TIMEOUT
    )
    assert results.exists(), f"no results file from {' '.join(options) or 'the serial run'}:\n{done.stdout[-3000:]}"
    return json.loads(results.read_text(encoding="utf-8"))


@pytest.mark.skipif(not os.environ.get(PARALLEL_CHECK), reason=f"two catalog runs; set {PARALLEL_CHECK}=1 to run")
def test_xdist_gives_the_serial_verdicts(tmp_path):
    pytest.importorskip("xdist")
    serial = _catalog(tmp_path / "serial.json")
    parallel = _catalog(tmp_path / "parallel.json", "-n", "2")
    assert len(serial["claims"]) == len(parallel["claims"]) > 0
    found = differences(verdicts(serial), verdicts(parallel))
    assert not found, "\n".join(found)
