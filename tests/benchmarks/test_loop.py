"""The researcher's loop (issue 61, item 7), measured by pytest-benchmark in a 20-claim repository on 2 cores
(tests/benchmarks/research_repository.py), each command a fresh process as a researcher's would be:

- collecting the claims (``pytest --collect-only``, the start-up every pytest call pays): under 3 s;
- ``theory-claims report`` after editing one claim, the other 19 records reused: under 30 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checks.engine.launcher import plugin_installed
from tests.benchmarks.research_repository import write_repository

ROOT = Path(__file__).resolve().parents[2]
COLLECTION_SECONDS, EDITED_REPORT_SECONDS = 3.0, 30.0
PLUGIN = [] if plugin_installed() else ["-p", "checks.engine.plugin"]
"""pytest's options that load the plugin where the package is not installed (this checkout's tox)."""


@pytest.fixture(scope="module")
def repository(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("research")
    write_repository(root)
    return root


def _run(repository: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("THEORY_CLAIMS_")}  # its own table
    environment |= {"PYTHONPATH": str(ROOT), "THEORY_CLAIMS_THIRD_PARTY": "0"}
    done = subprocess.run(
        [sys.executable, *arguments], cwd=repository, env=environment, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


def test_collection_under_3_seconds(benchmark, repository):
    done = benchmark.pedantic(
        lambda: _run(repository, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *PLUGIN), rounds=3
    )
    assert "20 tests collected" in done.stdout
    assert benchmark.stats.stats.max < COLLECTION_SECONDS


def test_report_after_editing_one_claim_under_30_seconds(benchmark, repository):
    _run(repository, "-m", "checks", "report")  # the first report: every claim evaluated
    edited = repository / "claims" / "claim_05.py"

    def edit_and_report() -> subprocess.CompletedProcess[str]:
        edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        return _run(repository, "-m", "checks", "report")

    benchmark.pedantic(edit_and_report, rounds=1, iterations=1)
    claims = json.loads((repository / "reports" / "html" / "results.json").read_text(encoding="utf-8"))["claims"]
    assert sorted(c["id"] for c in claims if not c.get("reused")) == ["paper.claim-5"]
    assert benchmark.stats.stats.max < EDITED_REPORT_SECONDS
