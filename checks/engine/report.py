"""theory-claims report: run the repository's claims, then build the static site in its output folder.

The folder is ``out`` in ``[tool.theory-claims]`` (default reports/html/).

Arguments after ``--`` go to pytest (e.g. ``python -m checks report -- -k rope``).
Exit status: 0 built and every claim as expected; 1 built, but some claim differs from
its expected verdict (or the browser check found a problem); 2 no site (bad results file).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import Timeout

import checks.settings.config as config
from checks.engine.launcher import pytest_command, run_pytest
from checks.results.files import ResultsError, lock_for
from checks.written.reading import read_documents
from reports.build import build_site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="theory-claims report", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--from",
        dest="sources",
        action="extend",
        nargs="+",
        type=Path,
        default=[],
        metavar="RESULTS_JSON",
        help="build from these results files instead of running the claims (--from shard*.json): machines and "
        "shards are merged",
    )
    parser.add_argument("--out", type=Path, help="output folder (default: out in [tool.theory-claims], reports/html)")
    parser.add_argument(
        "--browser",
        action="store_true",
        help="then load every page in headless Chromium and save screenshots to OUT/screenshots",
    )
    parser.add_argument(
        "--no-evidence",
        action="store_true",
        help="do not merge the results files measured elsewhere (evidence in [tool.theory-claims], reports/evidence)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="evaluate every claim; by default a claim whose file, documents, settings and tool did not change since "
        "the results file was written keeps its record (the pages say which, and when each was made)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="an earlier results file: the site gains changes.html and changes.md, what this run changed against it",
    )
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    args = parser.parse_args(argv)
    try:
        settings = config.current()
    except config.ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = (args.out or settings.out).resolve()
    try:
        with only_run(out):
            return _report(args, out)
    except KeyboardInterrupt:
        print("interrupted: the previous results and report are kept", file=sys.stderr)
        return 130


def _report(args: argparse.Namespace, out: Path) -> int:
    status = 0
    sources = args.sources
    if not sources:
        out.mkdir(parents=True, exist_ok=True)
        sources = [out / "results.json"]
        status = run_claims(out, args.pytest_args if args.fresh else ["--reuse", *args.pytest_args])
        if status == 2:
            return status
        if not args.no_evidence:
            sources += sorted(config.current().evidence.glob("*.json"))
    started = time.perf_counter()
    try:
        index = build_site(sources, out, baseline=args.baseline, documents=read_documents)
    except ResultsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"report: {index} ({time.perf_counter() - started:.2f} s)")
    if args.browser:
        from reports.browser import BrowserUnavailable, check_site

        try:
            problems = check_site(out, out / "screenshots")
        except BrowserUnavailable as error:
            print(f"browser: not checked: {error}", file=sys.stderr)
            return status or 1
        for problem in problems:
            print(f"browser: {problem}", file=sys.stderr)
        print(f"browser: {len(problems)} problem(s); screenshots in {out / 'screenshots'}")
        status = status or (1 if problems else 0)
    return status


def run_claims(out: Path, extra: list[str]) -> int:
    """Run the claims with pytest into OUT/results.json (a run of some claims is merged into it).

    0: every claim as expected; 1: some differ; 2: pytest did not finish (interrupted, or no
    results written): the previous results.json, junit.xml and site stay as they were. junit.xml
    is written to this run's own temporary folder and moved into OUT only when pytest finished.
    """
    results = out / "results.json"
    before = _stamp(results)
    with tempfile.TemporaryDirectory(dir=out, prefix=".run-") as scratch:
        junit = Path(scratch) / "junit.xml"
        command = pytest_command([config.current().claims], results=results, junit=junit, extra=extra)
        print("running:", " ".join(command), flush=True)
        code = run_pytest(command).returncode
        if code not in (0, 1) or _stamp(results) == before:
            print(f"pytest exited with status {code}; the previous results and report are kept", file=sys.stderr)
            return 2
        if junit.is_file():
            os.replace(junit, out / "junit.xml")
    if code == 1:
        print("some claims differ from their expected verdict: see the report", file=sys.stderr)
    return code


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells one version of a file from the next (None: no file)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return status.st_mtime_ns, status.st_ino


@contextmanager
def only_run(out: Path) -> Iterator[None]:
    """One ``theory-claims report`` at a time per output folder: a second one waits, saying so.

    The lock lives in the system's temporary folder, so that a refused build creates nothing in OUT.
    """
    lock = lock_for(out)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        print(
            f"report: another `python -m checks report` is writing {out}; waiting for it", file=sys.stderr, flush=True
        )
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


if __name__ == "__main__":
    raise SystemExit(main())
