"""Memory proportional to the inputs (issue 65): one check of 16 MiB inputs, with an adapter that fails, peaks
within 3× of the same calls outside the tool (tests/benchmarks/memory/calls.py, each side a fresh process)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CALLS = Path(__file__).parent / "memory" / "calls.py"
RATIO = 3.0
EXAMPLES = 40
"""Inputs per dtype outside the tool: the ci profile's examples (memory does not grow with them outside)."""


def _peak(*arguments: str) -> float:
    environment = os.environ | {"PYTHONPATH": str(ROOT), "THEORY_CLAIMS_THIRD_PARTY": "0"}
    done = subprocess.run(
        [sys.executable, str(CALLS), *arguments], env=environment, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    found = re.search(r"peak (\d+) MiB", done.stdout)
    assert found, done.stdout
    return float(found.group(1))


def test_a_check_of_heavy_inputs_peaks_within_3x_of_its_calls_outside_the_tool(benchmark):
    peaks: dict[str, float] = {}

    def measure() -> None:
        peaks["outside"] = _peak("outside", str(EXAMPLES))
        peaks["inside"] = _peak("inside")

    benchmark.pedantic(measure, rounds=1, iterations=1)
    benchmark.extra_info.update(peaks, ratio=peaks["inside"] / peaks["outside"])
    assert peaks["inside"] <= RATIO * peaks["outside"], peaks
