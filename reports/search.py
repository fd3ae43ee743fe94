"""The search page: every claim and every document sentence as one list, filtered as the reader types.

The page lists everything in HTML (with scripts off it is a plain index to search with the browser's find); one
inline script, allowed by its SHA-256 hash in that page's Content-Security-Policy alone, hides the entries that do
not hold every typed word. No other page has a script; nothing is fetched.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from pathlib import Path

from reports.documents import HighlightedDocument, describe
from reports.model import ClaimView, Site
from reports.views import DocumentInfo, unmarked

SCRIPT = (Path(__file__).parent / "templates" / "search.js").read_text(encoding="utf-8")
PAGE = "search.html"


@dataclass(frozen=True)
class SearchEntry:
    """One searchable line: what it is, where it leads, what it shows and the text the words are matched against."""

    kind: str
    title: str
    href: str
    shown: str
    lang: str
    verdict: str
    text: str


def csp(base: str) -> str:
    """The site's policy, with the search script (and only it) allowed by its hash."""
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
    return f"{base}; script-src 'sha256-{digest}'"


def entries(site: Site, documents: list[tuple[DocumentInfo, HighlightedDocument | None]]) -> list[SearchEntry]:
    """Every claim, then every sentence of every document, in reading order."""
    found = [_claim_entry(claim) for claim in site.claims]
    for info, highlighted in documents:
        if highlighted is None:
            continue
        for sentence in highlighted.coverage.sentences:
            text = unmarked(sentence.text, info.name)
            quoted = ", ".join(f"{claim} ({verdict})" for claim, verdict in sentence.claims.items())
            number = sentence.index + 1
            title = f"{info.short} · sentence {number}"
            state = f"quoted by {quoted}" if quoted else describe(sentence)
            found.append(
                SearchEntry(
                    "sentence",
                    title,
                    f"documents/{info.slug}.html#s-{number}",
                    text,
                    info.lang,
                    state,
                    " ".join((title, info.name, text, state)),
                )
            )
    return found


def _claim_entry(claim: ClaimView) -> SearchEntry:
    record = claim.record
    quotes = " ".join(source.text for source in record.sources)
    wording = record.erratum.wording if record.erratum else ""
    text = " ".join((record.id, record.title, record.statement, quotes, wording, claim.verdict))
    return SearchEntry("claim", record.id, f"claims/{claim.slug}.html", record.title, "en", claim.verdict, text)
