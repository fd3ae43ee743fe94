"""The documents' readings a run records (checks.written.reading), kept between runs in a cache folder.

Reading the lessons' formulas takes about a second (a grammar parses each, SymPy decides them), which every run in a
fresh process paid again though neither the documents nor the tool had changed. The cache is keyed by the tool's
source and libraries (checks.engine.reuse), the configured language and every byte of the documents and their
classification files; a cache file that cannot be read is read past, and one that cannot be written is not.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import checks.settings.config as config
from checks.documents.coverage import classification_path
from checks.documents.sources import documents
from checks.engine.reuse import library_versions, tool_digest
from checks.results.codec import DecodeError, from_json, to_json
from checks.results.files import write_json
from checks.written.reading import DocumentReading, read_documents

CACHE_VARIABLE = "THEORY_CLAIMS_CACHE"
"""The cache folder, where set; else $XDG_CACHE_HOME/theory-claims, else ~/.cache/theory-claims."""


def documents_read() -> list[DocumentReading]:
    """Every document of sources/ as checks.written.reading reads it: from the cache when nothing it depends on
    changed, else read and kept there."""
    path = cache_folder() / f"readings-{_key()}.json"
    try:
        return from_json(list[DocumentReading], json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, DecodeError, TypeError):
        pass
    readings = read_documents()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json(path, to_json(readings))
    except OSError:
        pass
    return readings


def cache_folder() -> Path:
    if chosen := os.environ.get(CACHE_VARIABLE):
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "theory-claims"


def _key() -> str:
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{tool_digest()} {library_versions()} {config.current().language}".encode())
    for name in documents():
        digest.update(name.encode())
        for path in (config.current().sources / name, classification_path(name)):
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"absent")
    return digest.hexdigest()
