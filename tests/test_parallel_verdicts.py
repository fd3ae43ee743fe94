"""pytest-xdist gives every claim the verdicts a serial run gives.

The comparison runs the whole catalog twice (serially and with ``-n 2``, profile ci, which
replays the same examples), about two minutes on 2 cores, so it is skipped unless asked for:

    THEORY_CLAIMS_PARALLEL_CHECK=1 python -m pytest -p no:cacheprovider tests/test_parallel_verdicts.py

What must agree, claim by claim: the observed verdict, the symbolic status, the status of every
numeric run and every sweep run, and whether it crashed. Timings and measured figures may differ.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from checks.engine.launcher import pytest_command, run_pytest
from checks.evidence.check import CheckRun
from checks.evidence.proof import ProofRecord
from checks.evidence.sweep import SweepRun
from checks.results import Results, read_results
from tests.records import claim_record, environment

ROOT = Path(__file__).resolve().parent.parent
PARALLEL_CHECK = "THEORY_CLAIMS_PARALLEL_CHECK"


def verdicts(results: Results) -> dict[str, dict[str, Any]]:
    """Per claim id, what a run decided (no timings, no measured figures)."""
    decided = {}
    for claim in results.claims:
        numeric = {f"{r.name} / {r.implementation} / {r.device} / {r.dtype}": r.status for r in claim.of(CheckRun)}
        sweeps = {f"{r.name} / {r.device} / {r.dtype} / {r.d_model}": r.status for r in claim.of(SweepRun)}
        proofs = claim.of(ProofRecord)
        decided[claim.id] = {
            "observed": str(claim.observed),
            "symbolic": proofs[0].status if proofs else None,
            "numeric": numeric,
            "sweeps": sweeps,
            "crashed": bool(claim.errors),
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


def _claim(observed: str, sweep: str, seconds: float) -> Results:
    evidence = [
        ProofRecord("proved", seconds / 10),
        CheckRun("c", "cpu", "float32", status="passed", implementation="numpy"),
        SweepRun("s", "cpu", "float32", status=sweep, d_model=64),
    ]
    record = claim_record("x.y", observed, "proved", evidence=evidence, seconds=seconds)
    return Results("", environment(), [record], [], [])


def test_differences_ignore_timings_and_report_verdicts():
    claim, slower = _claim("proved", "passed", 1.0), _claim("proved", "passed", 9.0)
    assert differences(verdicts(claim), verdicts(slower)) == []
    failed = _claim("refuted", "failed", 1.0)
    found = differences(verdicts(claim), verdicts(failed))
    assert found == [
        "x.y: observed 'proved' serially, 'refuted' with -n 2",
        "x.y: s / cpu / float32 / 64: passed serially, failed with -n 2",
    ]


def _catalog(results: Path, workers: int = 0) -> Results:
    done = run_pytest(pytest_command([ROOT / "claims"], results=results, workers=workers), profile="ci", capture=True)
    assert results.exists(), f"no results file from {workers or 'the serial'} run:\n{done.stdout[-3000:]}"
    return read_results(results)


@pytest.mark.skipif(not os.environ.get(PARALLEL_CHECK), reason=f"two catalog runs; set {PARALLEL_CHECK}=1 to run")
def test_xdist_gives_the_serial_verdicts(tmp_path):
    pytest.importorskip("xdist")
    serial = _catalog(tmp_path / "serial.json")
    parallel = _catalog(tmp_path / "parallel.json", workers=2)
    assert len(serial.claims) == len(parallel.claims) > 0
    found = differences(verdicts(serial), verdicts(parallel))
    assert not found, "\n".join(found)
