"""python -m checks.engine.mutation: run the mutants through --impl and print the mutation score.

One pytest process runs every claim with an implementation check, with the mutants of the topics those claims use
registered (``--every-topic``: every topic's, the package's own included), each mutant once;
a mutant is killed when one of its runs fails. Exit status 1 when a mutant survives.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import checks.evidence  # noqa: F401  (loads the evidence kinds, whose records results files hold)
import checks.settings.config as config
from checks.engine.discovery import claim_files, load_claims
from checks.engine.launcher import pytest_command, run_pytest
from checks.evidence.check import Check
from checks.implementations.mutants import every_mutant, python_name
from checks.results.codec import to_json
from checks.results.files import ResultsError, read_results, write_json
from checks.results.records import Kill, MutantResult, MutationResults, Results, Run

MUTANTS_FILE = "mutants.json"
"""The mutation results' file name, in the repository's output folder."""


def implementation_claims() -> dict[Path, set[str]]:
    """Claim files with at least one check that concerns an implementation, each with the topics it uses."""
    found = {
        path: {c.uses for claim in load_claims(path) for c in claim.declared(Check) if c.uses} for path in claim_files()
    }
    return {path: used for path, used in found.items() if used}


def mutants_run(every_topic: bool = False) -> tuple[list[Path], list[Any]]:
    """The claim files to run and the mutants to run them against: those of the topics the claims use (every
    topic's, the package's own included, with ``every_topic``)."""
    claims = implementation_claims()
    used = None if every_topic else set().union(*claims.values())
    return list(claims), every_mutant(used)


def run(profile: str, every_topic: bool = False) -> tuple[Results, list[Any]]:
    """Run the claims with the mutants registered; return their results and the mutants."""
    claims, mutants = mutants_run(every_topic)
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        named = [f"checks.implementations.mutants:{python_name(mutant.name)}" for mutant in mutants]
        command = pytest_command(claims, results=results, implementations=named)
        run_pytest(command, profile=profile)
        return read_results(results), mutants


def score(results: Results, mutants: list[Any]) -> MutationResults:
    """Per mutant: killed or not, and every claim/check run that killed it."""
    rows = []
    for mutant in mutants:
        runs = [(c.id, run) for c in results.claims for run in c.of(Run) if run.implementation == mutant.name]
        killers = [
            Kill(claim_id, run.name, run.device, run.dtype, run.message[:300])
            for claim_id, run in runs
            if run.status in ("failed", "error")
        ]
        ran = any(run.ran for _, run in runs)
        rows.append(MutantResult(mutant.name, mutant.bug, ran, bool(killers), killers))
    return MutationResults(sum(row.killed for row in rows), len(rows), rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checks.engine.mutation", description=__doc__)
    parser.add_argument("--out", type=Path, help=f"where to write the mutation results (default OUT/{MUTANTS_FILE})")
    parser.add_argument("--profile", default="ci", help="Hypothesis profile for the run (default ci)")
    parser.add_argument(
        "--every-topic",
        action="store_true",
        help="the mutants of every topic, the package's own included (default: those of the topics the claims use)",
    )
    args = parser.parse_args(argv)
    try:
        results = score(*run(args.profile, args.every_topic))
    except ResultsError as error:
        print(f"error: the mutation run wrote no usable results: {error}")
        return 2
    for row in results.mutants:
        first = row.killed_by[0] if row.killed_by else None
        by = f"{first.claim} / {first.check} ({first.dtype})" if first else "SURVIVED"
        print(f"{'killed  ' if row.killed else 'SURVIVED'} {row.mutant:<34} {by}")
    print(f"mutation score: {results.killed}/{results.total} killed")
    write_json(args.out or config.current().out / MUTANTS_FILE, to_json(results))
    return 0 if results.killed == results.total else 1


if __name__ == "__main__":
    raise SystemExit(main())
