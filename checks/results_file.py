"""Reading a results file: schema and validation, without importing torch."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA = "theory-claims/results/1"


class ResultsError(ValueError):
    """A results file that is missing, corrupt or of another schema."""


def read_results(path: Path) -> dict[str, Any]:
    """Load and validate a results file, with one clear message per fault."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such results file; run `tox -e report` or pytest first") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ResultsError(f"{path}: corrupt results file ({error})") from None
    except OSError as error:
        raise ResultsError(f"{path}: cannot read the results file ({error.strerror or error})") from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        found = document.get("schema") if isinstance(document, dict) else type(document).__name__
        raise ResultsError(f"{path}: schema {found!r} is not {SCHEMA!r}")
    if not isinstance(document.get("claims"), list) or not isinstance(document.get("environment"), dict):
        raise ResultsError(f"{path}: results file lacks 'claims' or 'environment'")
    return document
