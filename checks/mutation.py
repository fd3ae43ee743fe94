"""python -m checks.mutation: run every mutant through --impl and print the mutation score.

One pytest process runs every claim with an implementation check, with all mutants registered;
a mutant is killed when one of its runs fails. Exit status 1 when a mutant survives.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from checks.discovery import claim_files, load_claims
from checks.mutants import MUTANTS, python_name

DEFAULT_OUT = Path("reports") / "html" / "mutants.json"


def implementation_claims() -> list[Path]:
    """Claim files with at least one check that concerns an implementation (``uses=``)."""
    return [path for path in claim_files() if any(c.uses for claim in load_claims(path) for c in claim.checks)]


def run(profile: str) -> dict[str, Any]:
    """Run the claims with every mutant registered; return the results document."""
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "results.json"
        command = [
            sys.executable,
            "-m",
            "pytest",
            *map(str, implementation_claims()),
            "-q",
            "-p",
            "no:cacheprovider",
            "--results",
            str(results),
        ]
        for mutant in MUTANTS:
            command += ["--impl", f"checks.mutants:{python_name(mutant.name)}"]
        subprocess.run(command, env={**os.environ, "THEORY_CLAIMS_PROFILE": profile}, check=False)
        return json.loads(results.read_text(encoding="utf-8"))


def score(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Per mutant: killed or not, and every claim/check that killed it."""
    rows = []
    for mutant in MUTANTS:
        killers = [
            {
                "claim": claim["id"],
                "check": run["check"],
                "device": run["device"],
                "dtype": run["dtype"],
                "message": run["message"][:300],
            }
            for claim in document["claims"]
            for run in claim["numeric"]
            if run["implementation"] == mutant.name and run["status"] in ("failed", "error")
        ]
        ran = any(
            run["implementation"] == mutant.name and run["status"] != "skipped"
            for claim in document["claims"]
            for run in claim["numeric"]
        )
        rows.append(
            {"mutant": mutant.name, "bug": mutant.bug, "ran": ran, "killed": bool(killers), "killed_by": killers}
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checks.mutation", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the mutation results (JSON)")
    parser.add_argument("--profile", default="ci", help="Hypothesis profile for the run (default ci)")
    args = parser.parse_args(argv)
    rows = score(run(args.profile))
    killed = sum(row["killed"] for row in rows)
    for row in rows:
        first = row["killed_by"][0] if row["killed_by"] else None
        by = f"{first['claim']} / {first['check']} ({first['dtype']})" if first else "SURVIVED"
        print(f"{'killed  ' if row['killed'] else 'SURVIVED'} {row['mutant']:<34} {by}")
    print(f"mutation score: {killed}/{len(rows)} killed")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"killed": killed, "total": len(rows), "mutants": rows}, indent=1), encoding="utf-8")
    return 0 if killed == len(rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
