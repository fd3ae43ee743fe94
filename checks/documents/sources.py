"""The source documents, the quotes claims take from them, and the published works claims cite.

A document is any UTF-8 ``.txt``, ``.md`` or ``.tex`` file of the repository's sources folder (``sources`` in
``[tool.theory-claims]``, default ``sources/``, any folder such as ``docs/``; checks.settings.config), read where it is:
dropping one there gives it a page, its coverage and ``theory-claims new --document`` with no code change. Its
markup (checks.documents.markup) gives its headings and the blocks that hold no sentence.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import checks.settings.config as config
from checks.documents.markup import FORMATS, Block, layout


def sources_dir() -> Path:
    """The documents' folder of the current repository (checks.settings.config)."""
    return config.current().sources


def documents(folder: Path | None = None) -> list[str]:
    """The names of the documents: the files of sources/ in a format checks.documents.markup reads (.txt, .md, .tex),
    the only names a quote may give."""
    return sorted(p.name for p in (folder or sources_dir()).glob("*") if p.is_file() and p.suffix in FORMATS)


def document_text(document: str, folder: Path | None = None) -> str:
    """The text of a document named exactly as a file of sources/ (never a path: no folder, no ..)."""
    return _document_text(document, folder or sources_dir())


@cache
def _document_text(document: str, folder: Path) -> str:
    if document not in documents(folder):
        raise FileNotFoundError(
            f"no document {document!r} in {folder} (known: {', '.join(documents(folder)) or 'none'}); "
            f"a document is a {', '.join(FORMATS)} file of the sources folder: {WHERE_SOURCES}"
        )
    try:
        return (folder / document).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{folder / document} is not UTF-8 text ({error.reason} at byte {error.start})") from None


WHERE_SOURCES = f"set sources = '…' in [{config.TABLE}] of pyproject.toml, or {config.VARIABLES['sources']}"


@dataclass(frozen=True)
class Document:
    """A document of sources/ by its file name, so that a claim quotes it as ``PAPER.quote(section, text)``."""

    name: str

    def quote(self, section: str, text: str) -> Quote:
        """The sentence ``text`` under the heading ``section`` (checked verbatim when the claim is verified)."""
        return Quote(self.name, section, text)

    def text(self) -> str:
        """The document's whole text (a probe that reads more of it than one quote: its code, its notation)."""
        return document_text(self.name)


@dataclass(frozen=True)
class Quote:
    """An exact sentence from a document, with the section it stands in."""

    document: str
    section: str
    text: str

    def verify(self) -> None:
        """Raise ValueError unless the section is a heading of the document and the quote occurs in that section
        verbatim (checks.sections)."""
        text = document_text(self.document)
        if self.section.strip() not in headings(text, self.document):
            close = nearest(self.section, headings(text, self.document))
            raise ValueError(
                f"section {self.section!r} is not a heading of {self.document}"
                + (f"; nearest: {', '.join(map(repr, close))}" if close else "")
            )
        if self.text not in text:
            close = nearest(self.text, sentences(text), count=1)
            raise ValueError(
                f"quote not found verbatim in {self.document} ({self.section}): {self.text!r}; "
                "copy the sentence exactly from the document" + (f"; nearest sentence: {close[0]!r}" if close else "")
            )
        if not in_section(text, self.section, self.text, self.document):
            found = section_of(text, self.text, self.document)
            raise ValueError(
                f"quote {self.text[:60]!r} is in {self.document} but not under the heading {self.section!r}"
                + (f"; it stands under {found!r}" if found else "")
            )


HEADING_LENGTH = 80
"""A heading is a line of the document of at most this many characters."""


def headings(text: str, document: str = "") -> list[str]:
    """The names a section may be given. In a document with markup (Markdown, LaTeX): each heading's title, and its
    line as written (``## 4 Why``, ``\\section{Why}``). In plain text: every non-empty line of at most
    HEADING_LENGTH characters, stripped."""
    if marked := _marked_headings(text, document):
        return [name for block in marked for name in (block.title, text[block.start : block.end].strip())]
    return [line.strip() for line in text.splitlines() if line.strip() and len(line.strip()) <= HEADING_LENGTH]


def title_of(section: str, text: str, document: str = "") -> str:
    """The words of the heading ``section`` names, without its markers (``## 4 Why`` → ``4 Why``): what pages show."""
    for block in _marked_headings(text, document):
        if section.strip() in (block.title, text[block.start : block.end].strip()):
            return block.title
    return section.strip()


def _marked_headings(text: str, document: str) -> tuple[Block, ...]:
    """The headings checks.documents.markup reads in a document with markup; none in plain text (or a text with no
    name)."""
    if not document or Path(document).suffix not in FORMATS or not layout(document, text).joined:
        return ()
    return layout(document, text).headings


MARKDOWN_HEADING = re.compile(r"(#{1,6})\s")
NUMBERED_HEADING = re.compile(r"(\d+(?:\.\d+)*)\.?\s")


def heading_rank(line: str) -> tuple[str, int] | None:
    """A structural heading's kind and level ('#', 2 for '## …'; '1.', 2 for '3.1 …'); None for any other line."""
    stripped = line.strip()
    if len(stripped) > HEADING_LENGTH:
        return None
    if found := MARKDOWN_HEADING.match(stripped):
        return "#", len(found.group(1))
    if found := NUMBERED_HEADING.match(stripped):
        return "1.", found.group(1).count(".") + 1
    return None


def is_heading_line(line: str) -> bool:
    """Whether a line of plain text is a structural heading (``## …``, ``2.1 …``)."""
    return heading_rank(line) is not None


def section_spans(text: str, section: str, document: str = "") -> list[tuple[int, int]]:
    """Where the section headed ``section`` runs, for each heading that names it.

    With markup: from the heading to the next heading of its level or above. In plain text: from that line to the
    next heading of the same kind and no lower level ('## a' ends at the next '#' or '##'; '2. b' at '3. c'), or to
    the end of the document for a heading of no such kind (a short line)."""
    if marked := _marked_headings(text, document):
        spans = []
        for number, block in enumerate(marked):
            if section.strip() in (block.title, text[block.start : block.end].strip()):
                later = (b.start for b in marked[number + 1 :] if b.level <= block.level)
                spans.append((block.start, next(later, len(text))))
        return spans
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    spans = []
    for number, line in enumerate(lines):
        if line.strip() != section.strip():
            continue
        rank, end = heading_rank(line), len(text)
        if rank is not None:
            for later in range(number + 1, len(lines)):
                other = heading_rank(lines[later])
                if other is not None and other[0] == rank[0] and other[1] <= rank[1]:
                    end = starts[later]
                    break
        spans.append((starts[number], end))
    return spans


def in_section(text: str, section: str, quote: str, document: str = "") -> bool:
    """Whether ``quote`` occurs in a span of the section ``section`` heads."""
    return any(text.find(quote, start, end) >= 0 for start, end in section_spans(text, section, document))


def section_of(text: str, quote: str, document: str = "") -> str | None:
    """The nearest structural heading above the quote's first occurrence, if any (with markup: its title)."""
    at = text.find(quote)
    if marked := _marked_headings(text, document):
        above = [block.title for block in marked if block.start <= max(at, 0)]
        return above[-1] if above else None
    above = [line.strip() for line in text[: max(at, 0)].splitlines() if heading_rank(line) is not None]
    return above[-1] if above else None


def sentences(text: str) -> list[str]:
    """The document's lines cut after . ! ? and at display formulas ($$), for suggesting the nearest one to a quote
    not found."""
    found = []
    for line in text.splitlines():
        found += [part.strip() for part in re.split(r"(?<=[.!?])\s+|\$\$", line) if part.strip()]
    return found


def nearest(wanted: str, candidates: list[str], count: int = 3) -> list[str]:
    """The candidates most like ``wanted`` (difflib's ratio ≥ 0.4), best first."""
    return difflib.get_close_matches(wanted.strip(), list(dict.fromkeys(candidates)), n=count, cutoff=0.4)


@dataclass(frozen=True)
class Citation:
    """A sentence of a published work, cited as written there (``Claim(sources=[Citation(...)])``).

    With ``document`` (the work's text saved as a file of sources/), the sentence is verified verbatim like a
    quote and highlighted on that document's page; without it, it is shown as "cited, not verified".
    """

    title: str
    authors: str
    year: int
    section: str
    text: str
    arxiv: str = ""
    doi: str = ""
    url: str = ""
    document: str = ""

    def __post_init__(self) -> None:
        missing = [name for name in ("title", "authors", "section", "text") if not str(getattr(self, name)).strip()]
        if missing:
            raise ValueError(f"citation of {self.title or 'an untitled work'!r} lacks {', '.join(missing)}")
        if not (self.arxiv or self.doi or self.url):
            raise ValueError(f"citation of {self.title!r} needs an arxiv id, a DOI or a URL so that readers find it")
        parts = urlsplit(self.url)
        if self.url and (parts.scheme != "https" or not parts.netloc):
            raise ValueError(f"citation of {self.title!r}: its URL must be an https address, not {self.url!r}")

    @property
    def link(self) -> str:
        """Where a reader finds the work: its arXiv page, its DOI, or the URL given."""
        if self.arxiv:
            return f"https://arxiv.org/abs/{self.arxiv}"
        if self.doi:
            return f"https://doi.org/{self.doi}"
        return self.url

    @property
    def verified(self) -> bool:
        """Whether the sentence is checked against a local text (``document``)."""
        return bool(self.document)

    @property
    def label(self) -> str:
        return f"{self.authors} ({self.year}), {self.title}"

    def as_quote(self) -> Quote | None:
        """The sentence as a quote of its local text, when there is one."""
        return Quote(self.document, self.section, self.text) if self.document else None

    def verify(self) -> None:
        """With a local text, raise ValueError unless the sentence occurs in it verbatim."""
        quote = self.as_quote()
        if quote is not None:
            quote.verify()


Source = Quote | Citation
"""What a claim's ``sources`` lists: quotes of the documents and citations of published works."""
