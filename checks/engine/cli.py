"""python -m checks: start a claim, list the last run's verdicts, look for flaky verdicts.

    python -m checks new ID --document DOC --section SECTION --quote TEXT [--title T] [--statement S]
    python -m checks list [--results PATH]
    python -m checks flake [--runs 20] [--profile dev] [-n 2] [-- PYTEST_ARGS]
    python -m checks sentences [--document 002]
    python -m checks compare BEFORE AFTER [--runs]
    python -m checks schema

``list`` reads a results file only (no torch import); ``new``, ``flake`` and ``sentences`` load or run the claims.
Exit status: 0 fine; 1 ``flake`` saw a verdict change between runs, ``sentences`` a sentence without a
class or a stale entry, or ``compare`` a claim, verdict or finding that differs; 2 bad input (a results
file, an id, a quote), with one line saying which and why.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

import checks.evidence  # noqa: F401  (loads the evidence kinds, whose records results files hold)
from checks.coverage import ClassificationError
from checks.results.files import DEFAULT_RESULTS, ROOT, ResultsError, read_results, write_text
from checks.results.schema import write_schemas
from checks.sources import Quote, documents

CLAIMS_DIR = ROOT / "claims"
LINE = 120
"""Line length of the project (pyproject.toml [tool.ruff]): generated files keep to it."""


class CliError(Exception):
    """Bad input for a command: printed as one line, exit status 2."""


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status = args.command(args)
        sys.stdout.flush()  # a write the reader refuses fails here, not at interpreter exit
        return status
    except (CliError, ResultsError, ClassificationError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped reading (``| head``): stop writing, quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m checks", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="write an out-of-scope claim skeleton quoting one sentence")
    new.add_argument("id", help="the claim id, e.g. pe.sin-ambiguous (file: claims/pe_sin_ambiguous.py)")
    new.add_argument("--document", required=True, help="the document file, or a unique prefix of it (002)")
    new.add_argument(
        "--section", required=True, help="the heading line the sentence stands under, as in the document: '5. k칸 …'"
    )
    new.add_argument("--quote", required=True, help="the sentence, copied byte-exact from sources/")
    new.add_argument("--title", default="TODO: a short title", help="a short title (default: a TODO)")
    new.add_argument("--statement", default="TODO: the statement in plain English.", help="the statement")
    new.add_argument("--claims-dir", type=Path, default=CLAIMS_DIR, help=argparse.SUPPRESS)
    new.set_defaults(command=new_claim)

    listing = commands.add_parser("list", help="every claim of the last run with its observed and expected verdict")
    listing.add_argument("--results", type=Path, default=DEFAULT_RESULTS, help="results file (default reports/html/…)")
    listing.set_defaults(command=list_claims)

    flake = commands.add_parser("flake", help="run the catalog with several Hypothesis seeds and compare verdicts")
    flake.add_argument("--runs", type=int, default=20, help="how many seeds (default 20)")
    flake.add_argument("--first-seed", type=int, default=1, help="seeds are FIRST … FIRST + RUNS - 1 (default 1)")
    flake.add_argument("--profile", default="dev", help="Hypothesis profile (default dev: randomized)")
    flake.add_argument("-n", "--workers", type=int, default=0, help="pytest-xdist workers per run (e.g. 2)")
    flake.add_argument("--keep", type=Path, help="keep each run's results file in this folder")
    flake.add_argument("--claims-dir", type=Path, default=CLAIMS_DIR, help=argparse.SUPPRESS)
    flake.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    flake.set_defaults(command=flake_runs)

    sentences = commands.add_parser("sentences", help="every document's sentences by class; the ones without one")
    sentences.add_argument("--document", default="", help="only this document (or a prefix of its name: 002)")
    sentences.add_argument("--claims-dir", type=Path, default=CLAIMS_DIR, help=argparse.SUPPRESS)
    sentences.set_defaults(command=_sentences)

    comparing = commands.add_parser("compare", help="claims, verdicts and findings that differ between two runs")
    comparing.add_argument("before", type=Path, help="the earlier results file")
    comparing.add_argument("after", type=Path, help="the later results file")
    comparing.add_argument(
        "--runs", action="store_true", help="also every numeric run's status, examples, max error and tolerance"
    )
    comparing.set_defaults(command=compare_results)

    schema = commands.add_parser("schema", help="rewrite checks/results/*.schema.json from the typed records")
    schema.set_defaults(command=lambda args: write_schemas())
    return parser


def compare_results(args: argparse.Namespace) -> int:
    from checks.results.compare import compare

    comparison = compare(read_results(args.before), read_results(args.after), runs=args.runs)
    print(comparison.report())
    return 0 if comparison.identical else 1


def _sentences(args: argparse.Namespace) -> int:
    from checks.engine.sentences import sentences_command  # loads the claims: torch, only for this command

    return sentences_command(args)


# new


def claim_path(claim_id: str, claims_dir: Path = CLAIMS_DIR) -> Path:
    """claims/<id with '.' and '-' as '_'>.py"""
    return claims_dir / (re.sub(r"[.-]", "_", claim_id) + ".py")


def new_claim(args: argparse.Namespace) -> int:
    from checks.claim import CLAIM_ID

    if not CLAIM_ID.fullmatch(args.id):
        raise CliError(f"claim id {args.id!r} must look like 'pe.constant-norm' (lowercase words joined by . and -)")
    path = claim_path(args.id, args.claims_dir)
    if path.exists():
        raise CliError(f"{path} exists already; choose another id or edit that file")
    elsewhere = _declared_ids(args.claims_dir).get(args.id)
    if elsewhere:
        raise CliError(f"claim id {args.id!r} is already declared in {elsewhere}")
    document = _document(args.document)
    if not args.quote.strip():
        raise CliError("--quote is empty: copy the sentence the claim checks, byte-exact from sources/")
    quote = Quote(document, args.section, args.quote)
    try:
        quote.verify()
    except ValueError as error:
        raise CliError(str(error)) from None
    text = skeleton(args.id, args.title, args.statement, quote)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise CliError(
            f"the claim file cannot be written as UTF-8 ({error.reason}: {error.object[error.start : error.end]!r}); "
            "check --title and --statement"
        ) from None
    write_text(path, text)  # atomic: a crash leaves no half-written file to block a retry
    print(f"wrote {path}: out-of-scope until you add evidence; run it with  pytest {path} --results /tmp/r.json")
    return 0


def _declared_ids(claims_dir: Path) -> dict[str, str]:
    """Claim ids declared by the files in ``claims_dir`` (files that fail to load are left out)."""
    from checks.engine.discovery import claim_files, load_claims

    declared: dict[str, str] = {}
    for path in claim_files(claims_dir):
        try:
            declared.update({claim.id: str(path) for claim in load_claims(path)})
        except Exception:  # reported when the catalog runs
            continue
    return declared


def _document(name: str) -> str:
    """The document file name for a name or a unique prefix of it."""
    known = documents()
    matches = [d for d in known if d == name] or [d for d in known if d.startswith(name)]
    if len(matches) != 1:
        raise CliError(f"document {name!r} matches {len(matches)} of {known}")
    return matches[0]


def skeleton(claim_id: str, title: str, statement: str, quote: Quote) -> str:
    """An out-of-scope claim file that passes as it is and says what to fill in."""
    return f'''"""{_docstring(statement)}"""

from checks import Claim, Document

DOCUMENT = Document({_literal(quote.document, len("DOCUMENT = Document("), " " * 4)})

claim = Claim(
    id={_literal(claim_id, 4 + len("id="), " " * 8)},
    title={_literal(title, 4 + len("title="), " " * 8)},
    statement={_literal(statement, 4 + len("statement="), " " * 8)},
    sources=[
        DOCUMENT.quote(
            {_literal(quote.section, 12, " " * 16)},
            {_literal(quote.text, 12, " " * 16)},
        ),
    ],
    out_of_scope="TODO: not checked yet. Add a proof, checks or probes, remove out_of_scope and set expect",
    expect="out-of-scope",
)

# To check the claim: delete out_of_scope, set expect to the verdict you observe, and add evidence
# (docs/writing-claims.md; the README's example), for example:
#
# from checks import given
# from checks.strategies import d_models, positions
#
# @claim.proof
# def _(p):
#     p.decide(lhs, rhs, label="what the identity says")
#
# @claim.check
# @given(pos=positions(), d=d_models(even=True))
# def name_of_the_property(t, pos, d):
#     t.close_pe(actual, expected, pos)
#
# @claim.probe
# def _(r):
#     r.measure("key", value)
'''


def _width(text: str) -> int:
    """Columns as ruff counts them: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _docstring(statement: str) -> str:
    printable = " ".join("".join(c if c.isprintable() else " " for c in statement).split())
    text = printable.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    while _width(text) + 7 > LINE:
        text = text[:-2] + "…"
    return text[:-1] + '\\"' if text.endswith('"') else text


def _literal(text: str, column: int, indent: str) -> str:
    """A string literal in ruff's preferred quotes; split into implicitly joined parts past the line length."""
    whole = _quoted(text)
    if column + _width(whole) + 1 <= LINE:
        return whole
    width = LINE - len(indent) - 1
    parts, current = [], ""
    for word in re.split(r"(?<= )", text):
        if current and _width(_quoted(current + word)) > width:
            parts.append(current)
            current = ""
        current += word
    parts.append(current)
    inner = "\n".join(indent + _quoted(part) for part in parts)
    return f"(\n{inner}\n{indent[:-4]})"


def _quoted(text: str) -> str:
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    if '"' in text and "'" not in text:
        return "'" + body.replace('\\"', '"') + "'"
    return f'"{body}"'


# list


def list_claims(args: argparse.Namespace) -> int:
    results = read_results(args.results)
    claims = sorted(results.claims, key=lambda c: c.id)
    env = results.environment
    print(
        f"{args.results}: {len(claims)} claims, run {env.date} "
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
    if args.runs < 2:
        raise CliError("--runs must be at least 2 to compare verdicts")
    seeds = list(range(args.first_seed, args.first_seed + args.runs))
    verdicts: dict[str, dict[int, str]] = {}
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
    ran = [s for s in seeds if s not in failed_runs]
    flaky = _verdict_table(verdicts, expected, ran)
    print(
        f"{len(ran)} runs (seeds {seeds[0]}…{seeds[-1]}, profile {args.profile}) in "
        f"{time.perf_counter() - started:.0f} s: {len(flaky)} claim(s) changed verdict"
        + (f": {', '.join(flaky)}" if flaky else "")
    )
    print(f"not run: {REPEATING}")
    if failed_runs:
        print(f"error: runs with seeds {failed_runs} wrote no results file", file=sys.stderr)
        return 2
    return 1 if flaky else 0


REPEATING = (
    "claims made only of seeded, untimed experiments (--skip-repeating-claims): they give the same numbers "
    "whatever the Hypothesis seed, and every catalog run (tox -e tests) decides them"
)


def _run_catalog(args: argparse.Namespace, seed: int, results: Path, workdir: Path) -> tuple[int, str]:
    """One pytest run of the catalog with this seed, in its own folder (its own Hypothesis database)."""
    from checks.engine.launcher import pytest_command, run_pytest

    workdir.mkdir(parents=True, exist_ok=True)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.unlink(missing_ok=True)
    command = pytest_command(
        [args.claims_dir.resolve()],
        results=results,
        profile=args.profile,
        seed=seed,
        workers=args.workers,
        extra=["--skip-repeating-claims", *args.pytest_args],
    )
    done = run_pytest(command, cwd=workdir, profile=args.profile, capture=True)
    return done.returncode, "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])


def _verdict_table(verdicts: dict[str, dict[int, str]], expected: dict[str, str], seeds: list[int]) -> list[str]:
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
