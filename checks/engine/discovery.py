"""Find claim files and load the claims they declare; no registry to edit."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import checks.settings.config as config
from checks.claim import Claim
from checks.engine.limits import TIME_LIMIT_ENV, TimeLimitExceeded, alarm, time_limit


def claims_dir() -> Path:
    """The current repository's claims folder (checks.settings.config)."""
    return config.current().claims


def claim_files(directory: Path | None = None) -> list[Path]:
    """The claim files of ``directory`` (default: the configured claims folder): ``*.py`` not starting with _."""
    return sorted(p for p in (directory or claims_dir()).glob("*.py") if not p.name.startswith("_"))


class ClaimFileError(Exception):
    """A claim file that tried to exit, or ran past its time limit, while it was imported."""


def load_claims(path: Path) -> list[Claim]:
    """Import one claim file in isolation, within the claims' time limit; the Claim objects it defines. The claims
    folder and the repository's root are on the path, so that a claim imports the helper modules beside it."""
    from checks.settings import config

    config.current().importable()
    name = f"claims_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not an importable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with alarm(time_limit()) as armed:
            spec.loader.exec_module(module)
    except TimeLimitExceeded:
        del sys.modules[name]
        if not armed:
            raise
        limit = f"the claims' time limit of {time_limit():g} s (environment variable {TIME_LIMIT_ENV})"
        raise ClaimFileError(f"importing it ran past {limit}") from None
    except SystemExit as stop:
        del sys.modules[name]
        raise ClaimFileError(f"it called exit ({stop.code!r}) while it was imported") from None
    except BaseException:
        del sys.modules[name]
        raise
    claims = [value for value in vars(module).values() if isinstance(value, Claim)]
    if not claims:
        raise ValueError(f"{path}: defines no Claim; see README 'Adding a claim'")
    for claim in claims:
        claim.origin = path
    return claims


@cache
def _index(directory: Path) -> tuple[dict[str, Claim], tuple[str, ...]]:
    """Claims by id, and the files that failed to load (each reported by its own test)."""
    claims: dict[str, Claim] = {}
    failed = []
    for path in claim_files(directory):
        try:
            for claim in load_claims(path):
                claims.setdefault(claim.id, claim)
        except Exception:  # a bad file is reported where it is collected
            failed.append(path.name)
    return claims, tuple(failed)


def claims_index(directory: Path | None = None) -> dict[str, Claim]:
    """Every claim the files under ``directory`` declare, by id (files that fail to load are left out)."""
    return dict(_index(directory or claims_dir())[0])


def find_claim(claim_id: str, directory: Path | None = None) -> Claim:
    """The claim with this id among the claim files in ``directory`` (default: the configured claims folder)."""
    directory = directory or claims_dir()
    claims, failed = _index(directory)
    if claim_id not in claims:
        unloaded = f" (files that failed to load: {', '.join(failed)})" if failed else ""
        raise LookupError(f"no claim with id {claim_id!r} under {directory}{unloaded}")
    return claims[claim_id]


def repository_path(path: Path | None) -> str:
    """A claim file relative to the repository when it lies inside it."""
    return "" if path is None else config.current().shown(path)
