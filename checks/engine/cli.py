"""theory-claims: the claims of one repository (the one it is run in), from the first to the report.

    theory-claims init DOCUMENT [--id ID]   a [tool.theory-claims] table, sources/ with DOCUMENT, a first claim
    theory-claims new ID --document DOC --section SECTION --quote TEXT [--title T] [--statement S]
    theory-claims list [--results PATH]
    theory-claims sentences [--document NAME]
    theory-claims flake [--runs 20] [--against RESULTS] [--profile dev] [-n 2] [-- PYTEST_ARGS]
    theory-claims report [--from RESULTS ...] [--out DIR] [--browser] [-- PYTEST_ARGS]
    theory-claims compare BEFORE AFTER [--runs] [--markdown]
    theory-claims diff BEFORE AFTER [--markdown]   compare with every numeric run

Every command takes --claims-dir, --sources-dir, --sentences-dir and --out-dir over the repository's
[tool.theory-claims] (``python -m checks`` is the same command). ``list`` reads a results file only (no torch
import); ``new``, ``flake`` and ``sentences`` load or run the claims.
Exit status: 0 fine; 1 ``flake`` saw a verdict change between runs, ``sentences`` a sentence without a
class or a stale entry, ``compare`` a claim, verdict or finding that differs, or ``report`` a claim that differs
from its expected verdict; 2 bad input (a setting, a results file, an id, a quote), with one line saying which
and why.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import checks.evidence  # noqa: F401  (loads the evidence kinds, whose records results files hold)
import checks.settings.config as config
from checks.documents.coverage import ClassificationError
from checks.results.files import ResultsError, read_results

LAYOUT = {"claims": "--claims-dir", "sources": "--sources-dir", "sentences": "--sentences-dir", "out": "--out-dir"}
"""The settings every command takes on its command line (over [tool.theory-claims] and under THEORY_CLAIMS_*)."""


class CliError(Exception):
    """Bad input for a command: printed as one line, exit status 2."""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["report"]:  # the report builder's own options, parsed by it
        from checks.engine.report import main as report

        return _configured(lambda: report(argv[1:]), {})
    parser = _parser()
    args = parser.parse_args(argv)
    return _configured(lambda: args.command(args), {key: getattr(args, key) for key in LAYOUT})


def _configured(command: Callable[[], int], options: dict[str, object]) -> int:
    """Run ``command`` with the repository's settings and the command line's on top (the settings chosen before
    come back after it); errors as one line."""
    earlier = config.chosen()
    try:
        given = {key: None if value is None else str(value) for key, value in options.items()}
        config.use(config.find_root(), given)
        config.current()  # a bad setting is reported before the command starts
        status = command()
        sys.stdout.flush()  # a write the reader refuses fails here, not at interpreter exit
        return status
    except (CliError, ResultsError, ClassificationError, config.ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped reading (``| head``): stop writing, quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        config.restore(earlier)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="theory-claims", description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    layout = argparse.ArgumentParser(add_help=False)
    group = layout.add_argument_group("where the repository keeps things (over [tool.theory-claims] in pyproject.toml)")
    configured = _configured_layout()
    for key, option in LAYOUT.items():
        group.add_argument(option, dest=key, type=Path, help=f"{_SETTING[key]} (here: {configured[key]})")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    def command(name: str, help_text: str):
        return commands.add_parser(name, help=help_text, description=help_text, parents=[layout])

    init = command("init", "start a repository: [tool.theory-claims] in pyproject.toml, .gitignore, a first claim")
    init.add_argument(
        "document",
        type=Path,
        help="the document to check, UTF-8 .md, .tex or .txt: read where it is inside the repository (its folder "
        "becomes the sources folder), copied into sources/ from outside",
    )
    init.add_argument("--id", default="", help="the first claim's id (default: doc.<document's name>-first-sentence)")
    init.set_defaults(command=_init)

    new = command("new", "write an out-of-scope claim skeleton quoting one sentence")
    new.add_argument("id", help="the claim id, e.g. post.scores-bounded (file: CLAIMS/post_scores_bounded.py)")
    new.add_argument("--document", required=True, help="the document file, or a unique prefix of its name")
    new.add_argument("--section", required=True, help="the heading line the sentence stands under, as written")
    new.add_argument("--quote", required=True, help="the sentence, copied byte-exact from the document")
    new.add_argument("--title", default="TODO: a short title", help="a short title (default: a TODO)")
    new.add_argument("--statement", default="TODO: the statement in plain English.", help="the statement")
    new.set_defaults(command=_new_claim)

    listing = command("list", "every claim of the last run with its observed and expected verdict")
    listing.add_argument("--results", type=Path, help="results file (default: OUT/results.json)")
    listing.set_defaults(command=list_claims)

    sentences = command("sentences", "every document's sentences by class; the ones without one")
    sentences.add_argument("--document", default="", help="only this document (or a prefix of its name)")
    sentences.set_defaults(command=_sentences)

    flake = command("flake", "run the claims with several Hypothesis seeds and compare verdicts")
    flake.add_argument("--runs", type=int, default=20, help="how many seeds (default 20)")
    flake.add_argument("--first-seed", type=int, default=1, help="seeds are FIRST … FIRST + RUNS - 1 (default 1)")
    flake.add_argument("--profile", default="dev", help="Hypothesis profile (default dev: randomized)")
    flake.add_argument("-n", "--workers", type=int, default=0, help="pytest-xdist workers per run (e.g. 2)")
    flake.add_argument("--keep", type=Path, help="keep each run's results file in this folder")
    flake.add_argument(
        "--against",
        type=Path,
        help="a results file of another run of the same claims (a derandomized one, say) compared as one more run",
    )
    flake.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    flake.set_defaults(command=flake_runs)

    commands.add_parser("report", help="run the claims and build the site in OUT (theory-claims report --help)")

    for name, about, runs in (
        ("compare", "claims, verdicts and findings that differ between two runs", False),
        ("diff", "what a change did: compare, numeric runs included (--markdown for a pull-request comment)", True),
    ):
        comparing = command(name, about)
        comparing.add_argument("before", type=Path, help="the earlier results file")
        comparing.add_argument("after", type=Path, help="the later results file")
        comparing.add_argument(
            "--runs",
            action="store_true",
            default=runs,
            help="also every numeric run's status, examples, max error and tolerance" + (" (on)" if runs else ""),
        )
        comparing.add_argument("--markdown", action="store_true", help="print Markdown for a pull-request comment")
        comparing.set_defaults(command=compare_results)

    return parser


def _configured_layout() -> dict[str, str]:
    """This repository's folders as its settings give them (the built-in defaults where they cannot be read)."""
    earlier = config.chosen()
    try:
        config.use(config.find_root(), {})
        settings = config.current()
        return {key: settings.shown(getattr(settings, key)) or "." for key in LAYOUT}
    except config.ConfigError:
        return {key: config.KEYS[key] or "." for key in LAYOUT}
    finally:
        config.restore(earlier)


_SETTING = {
    "claims": "the folder of claim files",
    "sources": "the folder of the documents",
    "sentences": "the folder of the documents' sentence classes",
    "out": "where results, the site and junit go",
}


def _init(args: argparse.Namespace) -> int:
    from checks.engine.scaffold import ScaffoldError, init_repository

    root = config.find_root()
    try:
        written = init_repository(root, args.document, args.id)
    except ScaffoldError as error:
        raise CliError(str(error)) from None
    settings = config.current()
    for path in written:
        print(f"wrote {settings.shown(path)}")
    print("next: `pytest` runs the claims; `theory-claims new` adds one; `theory-claims report` builds the site")
    return 0


def _new_claim(args: argparse.Namespace) -> int:
    from checks.engine.scaffold import ScaffoldError, new_claim

    try:
        claims = config.current().claims
        path = new_claim(args.id, args.document, args.section, args.quote, args.title, args.statement, claims)
    except ScaffoldError as error:
        raise CliError(str(error)) from None
    print(f"wrote {path}: out-of-scope until you add evidence; run it with  pytest {config.current().shown(path)}")
    return 0


def compare_results(args: argparse.Namespace) -> int:
    from checks.results.compare import compare

    comparison = compare(read_results(args.before), read_results(args.after), runs=args.runs)
    print(comparison.markdown() if args.markdown else comparison.report(), end="" if args.markdown else "\n")
    return 0 if comparison.identical else 1


def _sentences(args: argparse.Namespace) -> int:
    from checks.engine.sentences import sentences_command  # loads the claims: torch, only for this command

    return sentences_command(args)


# list


def list_claims(args: argparse.Namespace) -> int:
    path = args.results or config.current().results
    results = read_results(path)
    claims = sorted(results.claims, key=lambda c: c.id)
    env = results.environment
    print(
        f"{path}: {len(claims)} claims, run {env.date} "
        f"(profile {env.hypothesis_profile}, seed {env.hypothesis_seed}, commit {env.commit[:12]})"
    )
    width = max([len(c.id) for c in claims] + [5])
    print(f"{'claim':<{width}}  {'observed':<12}  expected")
    for claim in claims:
        mark = "  (differs)" if claim.observed != claim.expected else ""
        print(f"{claim.id:<{width}}  {claim.observed:<12}  {claim.expected}{mark}")
    counts = Counter(str(c.observed) for c in claims)
    differ = sum(1 for c in claims if c.observed != c.expected)
    print("observed: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())) + f"; {differ} differ from expected")
    return 0


# flake


def flake_runs(args: argparse.Namespace) -> int:
    if args.runs + (args.against is not None) < 2:
        raise CliError("--runs must be at least 2 to compare verdicts (or 1 with --against)")
    against = read_results(args.against).claims if args.against else []
    seeds = list(range(args.first_seed, args.first_seed + args.runs))
    verdicts: dict[str, dict[int | str, str]] = {}
    expected: dict[str, str] = {}
    failed_runs = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="theory-claims-flake-") as folder:
        for number, seed in enumerate(seeds, 1):
            results = (args.keep or Path(folder)) / f"results-seed-{seed}.json"
            run_started = time.perf_counter()
            code, tail = _run_catalog(args, seed, results, Path(folder) / f"seed-{seed}")
            try:
                claims = read_results(results).claims
            except ResultsError as error:
                failed_runs.append(seed)
                print(f"run {number}/{len(seeds)} seed {seed}: no results ({error}; pytest exit {code})\n{tail}")
                continue
            for claim in claims:
                verdicts.setdefault(claim.id, {})[seed] = str(claim.observed)
                expected[claim.id] = str(claim.expected)
            differ = sum(1 for c in claims if c.observed != c.expected)
            print(
                f"run {number}/{len(seeds)} seed {seed}: {len(claims)} claims, {differ} differ from expected, "
                f"{time.perf_counter() - run_started:.1f} s",
                flush=True,
            )
    ran: list[int | str] = [s for s in seeds if s not in failed_runs]
    if against:
        ran.append(AGAINST)
        for claim in against:
            if claim.id in verdicts:  # the seeded runs leave out the repeating claims
                verdicts[claim.id][AGAINST] = str(claim.observed)
    flaky = _verdict_table(verdicts, expected, ran)
    print(
        f"{len(ran)} runs (seeds {seeds[0]}…{seeds[-1]}, profile {args.profile}"
        + (f"; and {args.against}" if against else "")
        + ") in "
        f"{time.perf_counter() - started:.0f} s: {len(flaky)} claim(s) changed verdict"
        + (f": {', '.join(flaky)}" if flaky else "")
    )
    print(f"not run: {REPEATING}")
    if failed_runs:
        print(f"error: runs with seeds {failed_runs} wrote no results file", file=sys.stderr)
        return 2
    return 1 if flaky else 0


AGAINST = "against"
"""The column of the run ``--against`` names."""
REPEATING = (
    "claims made only of seeded, untimed experiments (--skip-repeating-claims): they give the same numbers "
    "whatever the Hypothesis seed, and every other run decides them"
)


def _run_catalog(args: argparse.Namespace, seed: int, results: Path, workdir: Path) -> tuple[int, str]:
    """One pytest run of the catalog with this seed, in its own folder (its own Hypothesis database)."""
    from checks.engine.launcher import pytest_command, run_pytest

    workdir.mkdir(parents=True, exist_ok=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.unlink(missing_ok=True)
    command = pytest_command(
        [config.current().claims],
        results=results,
        profile=args.profile,
        seed=seed,
        workers=args.workers,
        extra=["--skip-repeating-claims", *args.pytest_args],
    )
    done = run_pytest(command, cwd=workdir, profile=args.profile, capture=True)
    return done.returncode, "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])


def _verdict_table(
    verdicts: dict[str, dict[int | str, str]], expected: dict[str, str], seeds: list[int | str]
) -> list[str]:
    """Print one row per claim (its verdicts across the runs); return the claims whose verdict changed."""
    width = max([len(claim_id) for claim_id in verdicts] + [5])
    print(f"{'claim':<{width}}  {'expected':<12}  verdicts over {len(seeds)} runs")
    flaky = []
    for claim_id in sorted(verdicts):
        by_seed = verdicts[claim_id]
        counts = Counter(by_seed.values())
        missing = [s for s in seeds if s not in by_seed]
        row = ", ".join(f"{verdict} ×{n}" for verdict, n in counts.most_common())
        if len(counts) > 1 or missing:
            flaky.append(claim_id)
            common = counts.most_common(1)[0][0]
            odd = {s: v for s, v in by_seed.items() if v != common}
            row += f"  FLAKY: {odd or ''}{f' missing in seeds {missing}' if missing else ''}"
        elif expected.get(claim_id) not in counts:
            row += "  (always differs from expected)"
        print(f"{claim_id:<{width}}  {expected.get(claim_id, '?'):<12}  {row}")
    return flaky
