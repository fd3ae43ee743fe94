"""A thorough worker's memory: the claim that once took a worker to 1.4 GB stays well under 1 GB."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch

from checks.engine import sweep_memory
from checks.engine.memory import release_freed_memory
from checks.results.files import ROOT

WORKER_LIMIT = 2**30
"""Peak resident memory allowed to one worker process (1 GiB)."""


@pytest.mark.skipif(
    os.environ.get("THEORY_CLAIMS_PROFILE") != "thorough",
    reason="a thorough run of one claim (20 s): `tox -e thorough` runs it (CI's tox stays under 10 minutes)",
)
def test_the_activation_memory_claim_runs_under_thorough_within_a_gigabyte(tmp_path):
    """attention.long-sequence-memory kept every tensor a training step saves for backward (138 MiB of scores at
    n = 4096, and the allocator kept what was freed): 1,415 MB in one process. It now counts them as they are
    saved; the whole pytest process, thorough profile (three seeds), has to stay under WORKER_LIMIT."""
    results = str(tmp_path / "results.json")
    arguments = ["-q", "-p", "no:cacheprovider", "claims/attention_long_sequences.py", "--results", results]
    script = (
        "import resource, sys, pytest; code = pytest.main(sys.argv[1:]); "
        "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)"
    )
    env = {**os.environ, "THEORY_CLAIMS_PROFILE": "thorough", "THEORY_CLAIMS_THIRD_PARTY": "0"}
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    peak = int(done.stdout.split("peak")[-1]) * 1024  # ru_maxrss is in kilobytes on Linux
    assert peak <= WORKER_LIMIT, f"peak RSS {peak / 2**20:.0f} MiB > {WORKER_LIMIT / 2**20:.0f} MiB"


def test_a_finished_claim_gives_back_the_sweeps_buffers():
    """The sweeps keep their buffers while a claim runs; after it the plugin drops them (release_freed_memory)."""
    sweep_memory._KEPT[("cpu", torch.float64)] = [torch.zeros(2**20, dtype=torch.float64)]
    release_freed_memory()
    assert not sweep_memory._KEPT
