"""Results reused from an earlier run: a claim whose inputs did not change since is not evaluated again.

A claim's key is a digest of everything its record depends on: its claim file; the repository's other Python files
(helper modules, topics, adapters); the documents it quotes; the repository's settings (from its table or the
``THEORY_CLAIMS_*`` variables), the Hypothesis profile and the implementations registered; the tool's own source and
the versions of the libraries it computes with; and the keys of the claims it depends on. Every record carries its
key. A run with ``--reuse`` (what ``theory-claims report`` passes unless ``--fresh``) takes a record from the results
file already there when its key is the same and it was not broken, marking it reused; its date stays the date it was
made.
Plain ``pytest`` (CI) evaluates every claim.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import checks
import checks.settings.config as config
from checks.claim import Claim
from checks.results.files import ResultsError, read_results
from checks.results.records import ClaimRecord
from checks.verdicts import Verdict

SKIPPED_FOLDERS = {".git", ".hg", ".venv", "venv", ".tox", ".nox", "node_modules", "__pycache__", "build", "dist"}
"""Folders of a repository whose Python files are no input of its claims (environments, caches, builds)."""
LIBRARIES = ("numpy", "sympy", "hypothesis", "torch", "scipy", "cvxpy", "transformers")
"""The libraries whose version can change a record (installed or not: an extra's absence changes it too)."""


def claim_key(claim: Claim, dependencies: Iterable[str] = (), implementations: Iterable[str] = ()) -> str:
    """The digest of what ``claim``'s record depends on (``dependencies``: the keys of the claims it depends on;
    ``implementations``: the names of the adapters registered)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in _parts(claim, list(dependencies), sorted(implementations)):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def _parts(claim: Claim, dependencies: list[str], implementations: list[str]) -> Iterator[str]:
    settings = config.current()
    yield f"claim {claim.id} {_file_digest(claim.origin) if claim.origin else ''}"
    yield f"repository {repository_digest(settings.root, settings.claims, settings.out)}"
    quoted = sorted({quote.document for quote in claim.quotes} | {c.document for c in claim.citations if c.document})
    for document in quoted:
        yield f"document {document} {_file_digest(settings.sources / document)}"
    yield "settings " + json.dumps(
        {
            "claims": str(settings.claims),
            "sources": str(settings.sources),
            "sentences": str(settings.sentences),
            "profile": settings.profile,
            "language": settings.language,
            "topics": settings.topics,
            "implementations": settings.implementations,
            "registered": implementations,  # THEORY_CLAIMS_THIRD_PARTY and --impl change it; the other variables
            # are the settings above (the report's pytest sets them from the same table)
        },
        sort_keys=True,
    )
    yield f"tool {tool_digest()} {platform.python_version()} {library_versions()}"
    yield "depends " + " ".join(dependencies)


@cache
def repository_digest(root: Path, claims: Path, out: Path) -> str:
    """The repository's Python files besides the claim files themselves (helpers, topics, adapters): read once per
    run (the plugin clears it as a run starts)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(_python_files(root, claims, out)):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + _file_digest(path).encode() + b"\0")
    return digest.hexdigest()


def _python_files(root: Path, claims: Path, out: Path) -> Iterator[Path]:
    for folder, names, files in os.walk(root):
        here = Path(folder)
        names[:] = [n for n in names if n not in SKIPPED_FOLDERS and not n.startswith(".") and here / n != out]
        for name in files:
            path = here / name
            is_claim = here == claims and not name.startswith("_")
            if name.endswith(".py") and not is_claim:
                yield path


REPORT_OUTPUT = ("reports", "html")
"""Where the report builder writes in a checkout (git-ignored): its results and pages are no source of the tool."""


@cache
def tool_digest() -> str:
    """The tool's own source (the package's Python files, grammar and templates), once per process; not the site a
    run writes in a checkout (reports/html: its results.json changes with every run, and no key would ever match)."""
    package = Path(checks.__file__).resolve().parent.parent
    digest = hashlib.blake2b(digest_size=16)
    for name in ("checks", "reports"):
        for path in sorted((package / name).rglob("*")):
            written = path.relative_to(package).parts[:2] == REPORT_OUTPUT
            if (
                path.is_file()
                and not written
                and path.suffix in (".py", ".lark", ".j2", ".json", ".txt", ".css", ".js")
            ):
                digest.update(str(path.relative_to(package)).encode() + _file_digest(path).encode())
    return digest.hexdigest()


@cache
def library_versions() -> str:
    found = []
    for name in LIBRARIES:
        try:
            found.append(f"{name}={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{name}=absent")
    return " ".join(found)


def _file_digest(path: Path) -> str:
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return "absent"


class Earlier:
    """The records of the results file a run found, by claim id, offered for reuse by key."""

    def __init__(self, path: Path) -> None:
        try:
            self.records = {record.id: record for record in read_results(path).claims} if path.exists() else {}
        except ResultsError:  # an unreadable file: nothing to reuse, every claim is evaluated
            self.records = {}

    def reusable(self, claim_id: str, key: str) -> ClaimRecord | None:
        """The earlier record of ``claim_id`` made from the same inputs (not broken, no evidence left out for want of
        an extra), marked reused; else None."""
        found = self.records.get(claim_id)
        if (
            found is None
            or not key
            or found.key != key
            or found.observed == Verdict.BROKEN
            or found.errors
            or found.needs
        ):
            return None
        return replace(found, reused=True)
