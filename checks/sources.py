"""The source documents, and the quotes claims take from them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

SOURCES_DIR = Path(__file__).resolve().parent.parent / "sources"


def documents(folder: Path = SOURCES_DIR) -> list[str]:
    """The names of the documents: the .txt files of sources/ (the only names a quote may give)."""
    return sorted(p.name for p in folder.glob("*.txt") if p.is_file())


@cache
def document_text(document: str, folder: Path = SOURCES_DIR) -> str:
    """The text of a document named exactly as a file of sources/ (never a path: no folder, no ..)."""
    if document not in documents(folder):
        raise FileNotFoundError(f"no document {document!r} in {folder}; known: {documents(folder)}")
    try:
        return (folder / document).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"sources/{document} is not UTF-8 text ({error.reason} at byte {error.start})") from None


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
