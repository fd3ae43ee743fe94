"""The source documents, and the quotes claims take from them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

SOURCES_DIR = Path(__file__).resolve().parent.parent / "sources"


@cache
def document_text(document: str) -> str:
    path = SOURCES_DIR / document
    if not path.is_file():
        known = sorted(p.name for p in SOURCES_DIR.glob("*.txt"))
        raise FileNotFoundError(f"no document {document!r} in {SOURCES_DIR}; known: {known}")
    return path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Quote:
    """An exact sentence from a document, with the section it stands in."""

    document: str
    section: str
    text: str

    def verify(self) -> None:
        """Raise ValueError unless the quote occurs verbatim in its document."""
        if self.text not in document_text(self.document):
            raise ValueError(
                f"quote not found verbatim in {self.document} ({self.section}): {self.text!r}; "
                "copy the sentence exactly from sources/"
            )
