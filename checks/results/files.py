"""Results files on disk: read (version, schema, typed records) and written atomically, without torch."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TypeVar

from filelock import FileLock

from checks.results.codec import JSON, DecodeError, from_json, to_json
from checks.results.records import (
    SCHEMA_VERSION,
    ClaimRecord,
    Environment,
    EvidenceRecord,
    ImplementationRecord,
    MutationResults,
    Results,
)
from checks.written.reading import DocumentReading

"""Where a run writes its results unless told otherwise (the report's folder, inside the repository)."""

T = TypeVar("T")


class ResultsError(ValueError):
    """A results file that is missing, corrupt, of another schema version, or malformed."""


def read_results(path: Path) -> Results:
    """The typed records of a results file: ResultsError, with one clear message, for any fault.

    The evidence kinds must be loaded (``import checks.evidence``) for their records to be read."""
    if not EvidenceRecord.members():
        raise RuntimeError("no evidence kind is loaded: import checks.evidence before reading a results file")
    document = _load(path)
    if not isinstance(document, dict) or document.get("schema") != SCHEMA_VERSION:
        found = document.get("schema") if isinstance(document, dict) else type(document).__name__
        raise ResultsError(
            f"{path}: schema {found!r} is not {SCHEMA_VERSION!r}; run the claims again to write this version"
        )
    if not isinstance(document.get("claims"), list) or not isinstance(document.get("environment"), dict):
        raise ResultsError(f"{path}: results file lacks 'claims' or 'environment'")
    for index, claim in enumerate(document["claims"]):
        if not isinstance(claim, dict) or not isinstance(claim.get("id"), str) or not claim["id"]:
            raise ResultsError(f"{path}: claim record {index} has no id")
    return _typed(Results, document, path, _results_schema())


def read_mutation_results(path: Path) -> MutationResults:
    """The mutation run's results (python -m checks.engine.mutation)."""
    return _typed(MutationResults, _load(path, "mutation results"), path, _mutants_schema())


def write_results(
    path: Path,
    claims: Iterable[ClaimRecord],
    environment: Environment,
    reran: Iterable[str] = (),
    implementations: Iterable[ImplementationRecord] = (),
    documents: Iterable[DocumentReading] = (),
) -> None:
    """Write a results file atomically (a temporary file in the same folder, then os.replace)."""
    document = Results(
        SCHEMA_VERSION,
        environment,
        sorted(claims, key=lambda c: c.id),
        sorted(reran),
        list(implementations),
        list(documents),
    )
    write_json(path, to_json(document))


def save_run(
    path: Path,
    claims: list[ClaimRecord],
    environment: Environment,
    complete: bool,
    implementations: list[ImplementationRecord] | None = None,
    documents: list[DocumentReading] | None = None,
) -> Path:
    """Write a run's records; a run of only some claims never replaces a file holding others with less.

    A partial run is merged into the results file already at ``path`` (its claims replace their earlier
    records, the file lists them as re-run; its implementations' records replace theirs); where that file
    cannot be read, the run goes beside it, to ``<name>-partial.json``, and the file stays as it was.
    The documents' readings are the latest run's (it read every document). Returns where the records went.
    """
    mine, read = implementations or [], documents or []
    with lock_for(path):  # two runs merging at once: one after the other
        if complete or not path.exists():
            write_results(path, claims, environment, (), mine, read)
            return path
        ran = [claim.id for claim in claims]
        try:
            earlier = read_results(path)
        except ResultsError:
            beside = path.with_name(f"{path.stem}-partial.json")
            write_results(beside, claims, environment, ran, mine, read)
            return beside
        merged = {claim.id: claim for claim in earlier.claims} | {claim.id: claim for claim in claims}
        checked = {record.name: record for record in earlier.implementations} | {record.name: record for record in mine}
        write_results(path, merged.values(), environment, ran, checked.values(), read)
        return path


def lock_for(path: Path) -> FileLock:
    """A lock for one file or folder, kept in the system's temporary folder (nothing beside ``path``)."""
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    return FileLock(Path(tempfile.gettempdir()) / f"theory-claims-{key}.lock")


def write_json(path: Path, document: JSON) -> None:
    """Write JSON atomically: a reader sees the old file or the new one, never a part."""
    write_text(path, json.dumps(document, indent=1, ensure_ascii=False, allow_nan=False))


def write_text(path: Path, text: str) -> None:
    """Write a text file atomically (a temporary file in the same folder, then os.replace)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _load(path: Path, what: str = "results") -> JSON:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such {what} file; run `theory-claims report` or pytest first") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ResultsError(f"{path}: corrupt {what} file ({error})") from None
    except OSError as error:
        raise ResultsError(f"{path}: cannot read the {what} file ({error.strerror or error})") from None


def _typed(record_type: type[T], document: JSON, path: Path, schema: dict[str, JSON]) -> T:
    """Validate against the schema, then decode: a fault names the claim and the place in it."""
    from checks.results.schema import first_problem, json_path

    problem = first_problem(document, schema)
    if problem is not None:
        where, message = problem
        raise ResultsError(f"{path}: {_place(document, where)} is malformed ({json_path(where)}: {message})")
    try:
        return from_json(record_type, document)
    except DecodeError as error:
        raise ResultsError(f"{path}: malformed ({error})") from None


def _place(document: JSON, where: list[str | int]) -> str:
    """ "claim 'pe.bounded'" for a fault inside a claim record, else "the file"."""
    if len(where) >= 2 and where[0] == "claims" and isinstance(where[1], int):
        return f"claim {document['claims'][where[1]]['id']!r}"
    return "the file"


@cache
def _results_schema() -> dict[str, JSON]:
    from checks.results.schema import RESULTS_SCHEMA, committed

    return committed(RESULTS_SCHEMA)


@cache
def _mutants_schema() -> dict[str, JSON]:
    from checks.results.schema import MUTANTS_SCHEMA, committed

    return committed(MUTANTS_SCHEMA)
