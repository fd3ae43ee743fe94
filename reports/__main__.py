"""python -m reports: run the claims, then build the static site in reports/html/."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from checks.results import ResultsError
from reports.build import OUTPUT, build_site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__)
    parser.add_argument(
        "--from",
        dest="sources",
        action="append",
        type=Path,
        default=[],
        help="build from this results file instead of running the claims (repeatable)",
    )
    parser.add_argument("--out", type=Path, default=OUTPUT, help="output folder (default reports/html)")
    args = parser.parse_args(argv)
    sources = args.sources
    if not sources:
        results = args.out / "results.json"
        command = [sys.executable, "-m", "pytest", "claims", "-q", "--results", str(results)]
        print("running:", " ".join(command), flush=True)
        subprocess.run(command, check=False)
        sources = [results]
    try:
        index = build_site(sources, args.out)
    except ResultsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"report: {index}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
