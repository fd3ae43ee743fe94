"""Render results files into static pages with autoescaping Jinja2 templates."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from checks.results import read_results
from checks.verdicts import Verdict

OUTPUT = Path(__file__).resolve().parent / "html"


def environment() -> Environment:
    return Environment(loader=PackageLoader("reports"), autoescape=select_autoescape(default=True))


def build_site(sources: list[Path], out: Path) -> Path:
    """Write index.html for the claims in ``sources``; return its path."""
    documents = [read_results(path) for path in sources]
    claims = sorted((c for d in documents for c in d["claims"]), key=lambda c: c["id"])
    counts = Counter(c["observed"] for c in claims)
    out.mkdir(parents=True, exist_ok=True)
    page = (
        environment()
        .get_template("index.html.j2")
        .render(
            claims=[_row(c) for c in claims],
            counts=[(str(v), counts.get(str(v), 0)) for v in Verdict],
            environments=[d["environment"] for d in documents],
        )
    )
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def _row(claim: dict[str, Any]) -> dict[str, Any]:
    ran = [r for r in claim["numeric"] if r["status"] != "skipped"]
    worst = max(ran, key=lambda r: _ratio(r), default=None)
    return {
        **claim,
        "documents": sorted({f"{s['document']} {s['section']}" for s in claim["sources"]}),
        "symbolic_status": claim["symbolic"]["status"] if claim["symbolic"] else "—",
        "examples": sum(r["examples"] for r in ran),
        "worst": worst,
    }


def _ratio(run: dict[str, Any]) -> float:
    try:
        return float(run["max_error"]) / float(run["tolerance"])
    except (TypeError, ValueError, ZeroDivisionError):
        return float("inf")
