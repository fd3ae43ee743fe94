"""The catalog split into shards (pytest-split) gives the same verdicts as one run, and one merged report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from checks.written.reading import read_documents
from reports.build import build_site
from reports.model import load

ROOT = Path(__file__).resolve().parent.parent

CLAIM_FILES = ("claims/scope_statements.py", "claims/pe_frequencies_geometric.py")
"""Seven claims (six out-of-scope, one with a proof, checks and probes) that run in seconds."""


def run_catalog(results: Path, *shard: str) -> None:
    """Run CLAIM_FILES, whole or as one shard (split by count: the committed .test_durations, from a thorough run
    of the whole catalog, would put these seven claims in one group)."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *CLAIM_FILES, "--results", str(results)]
    if shard:
        command += ["--durations-path", str(results.with_suffix(".durations"))]
    env = {**os.environ, "THEORY_CLAIMS_PROFILE": "ci", "THEORY_CLAIMS_THIRD_PARTY": "0"}
    done = subprocess.run([*command, *shard], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_sharded_runs_give_the_unsharded_verdicts_and_merge_into_one_report(tmp_path):
    whole = tmp_path / "whole.json"
    run_catalog(whole)
    shards = [tmp_path / f"shard{group}.json" for group in (1, 2)]
    for group, path in enumerate(shards, 1):
        run_catalog(path, "--splits", "2", "--group", str(group))

    unsharded = load([whole])
    merged = load(shards)
    assert {c.id: c.verdict for c in merged.claims} == {c.id: c.verdict for c in unsharded.claims}
    assert len(unsharded.claims) == 7
    ran = [{c.id for c in load([path]).claims} for path in shards]
    assert ran[0] and ran[1] and not ran[0] & ran[1], "each claim runs in exactly one shard"
    assert [s.environment.shard for s in merged.sources] == ["1/2", "2/2"]
    assert unsharded.sources[0].environment.shard == ""

    out = tmp_path / "site"
    build_site(shards, out, say=lambda line: None, documents=read_documents)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "(shard 1/2)" in index and "(shard 2/2)" in index
    first = sorted(ran[0])[0]
    page = (out / "claims" / f"{first}.html").read_text(encoding="utf-8")
    assert "(shard 1/2)" in page, "a claim's page names the shard that ran it"
