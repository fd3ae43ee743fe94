"""The catalog's coverage of the documents, from the claim files (no results needed): ``theory-claims sentences``.

Each document's sentences are classed by the quotes of every claim file of the claims folder (their expected
verdicts) and by the document's classification file (checks.documents.coverage). The command prints the counts,
then every problem, then a line to paste into the classification file for each sentence without a class.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from checks.claim import Claim
from checks.documents.coverage import (
    CATEGORIES,
    Classified,
    Quoting,
    classification_path,
    classify_document,
    entry_line,
)
from checks.documents.sources import documents
from checks.engine.discovery import claims_index


def quotings(claims: list[Claim], document: str) -> list[Quoting]:
    """Every quote of ``document`` among the claims (citations with a local text included)."""
    found = []
    for claim in claims:
        for source in claim.sources:
            quote = source.as_quote() if hasattr(source, "as_quote") else source
            if quote is not None and quote.document == document:
                found.append(Quoting(claim.id, str(claim.expect), not claim.out_of_scope, quote.text))
    return found


def catalog_coverage(claims_dir: Path | None = None, folder: Path | None = None) -> dict[str, Classified]:
    """Every document classed by every claim file's quotes (a claim file that fails to load is left out)."""
    claims = list(claims_index(claims_dir).values())
    return {name: classify_document(name, quotings(claims, name), folder) for name in documents(folder)}


def sentences_command(args: argparse.Namespace) -> int:
    """Print the coverage per document, its problems, and an entry to fill in for each sentence without a class."""
    coverage = catalog_coverage()
    problems = 0
    for name, classified in coverage.items():
        if args.document and not name.startswith(args.document):
            continue
        summary = classified.summary()
        counts = ", ".join(f"{key} {value}" for key, value in summary.items() if key != "checked_percent")
        print(f"{name}: {counts}; checkable sentences checked {summary['checked_percent']} %")
        for line in classified.problems():
            print(f"  {line}")
        missing = [s for s in classified.sentences if s.sentence_class == "unclassified"]
        if missing:
            print(f"  to add to {classification_path(name)} (set each category: {', '.join(CATEGORIES)}):")
            for text in dict.fromkeys(s.text for s in missing):
                print(entry_line(text, category="?"))
        problems += len(classified.problems())
    return 1 if problems else 0
