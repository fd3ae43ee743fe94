"""What each page shows, prepared from the merged results (templates only lay it out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from checks.sources import SOURCES_DIR
from reports import documents, figures, mathml
from reports.model import DTYPES, ClaimView, Run, Site, Source, document_slug


@dataclass(frozen=True)
class DocumentInfo:
    name: str
    slug: str
    title: str
    text: str | None

    @property
    def short(self) -> str:
        return self.name.split("_", 1)[0]


@dataclass
class Step:
    label: str
    text: str
    math: Markup | None
    problem: str = ""
    substeps: list[Step] = field(default_factory=list)


@dataclass
class FigureView:
    title: str
    alt: str
    svg: Markup | None
    problem: str = ""


def document_infos(site: Site, sources_dir: Path = SOURCES_DIR) -> list[DocumentInfo]:
    """Every document in sources/ and every one a claim quotes, with its text where it is on disk."""
    names = {p.name for p in sources_dir.glob("*.txt")} | {d for c in site.claims for d in c.documents if d}
    infos = []
    for name in sorted(names):
        path = sources_dir / name
        text = path.read_text(encoding="utf-8") if path.is_file() else None
        title = next((line.strip() for line in (text or "").splitlines() if line.strip()), name)
        infos.append(DocumentInfo(name, document_slug(name), title, text))
    return infos


def quote_anchor(claim: ClaimView, index: int) -> str:
    return f"q-{claim.slug}-{index + 1}"


def document_page(info: DocumentInfo, site: Site) -> dict[str, Any]:
    quotes = [
        documents.Quote(
            claim_id=claim.id,
            href=f"../claims/{claim.slug}.html",
            verdict=claim.verdict,
            anchor=quote_anchor(claim, n),
            text=str(source.get("text", "")),
            in_scope=not claim.record.get("out_of_scope"),
        )
        for claim in site.claims
        for n, source in enumerate(claim.record.get("sources", []))
        if source.get("document") == info.name
    ]
    highlighted = documents.highlight(info.text, quotes) if info.text is not None else None
    placed = sorted((q for s in (highlighted.segments if highlighted else []) for q in s.ending), key=lambda q: q.start)
    return {"document": info, "highlighted": highlighted, "quotes": placed, "definition": documents.DEFINITION}


def claim_page(claim: ClaimView, site: Site, infos: dict[str, DocumentInfo]) -> dict[str, Any]:
    record = claim.record
    symbolic = record.get("symbolic") or None
    ran = [r for r in claim.runs if r.ran]
    skipped = [r for r in claim.runs if not r.ran]
    return {
        "claim": claim,
        "quotes": [_quote(claim, n, s, infos) for n, s in enumerate(record.get("sources", []))],
        "symbolic": symbolic,
        "steps": _steps(symbolic.get("steps", []) if symbolic else []),
        "runs": sorted(ran, key=_run_order),
        "not_run": _not_run(skipped),
        "findings": record.get("findings") or [],
        "probes": [_probe(p) for p in record.get("probes") or []],
        "depends": [(d, site.claim(d)) for d in record.get("depends") or []],
        "used_by": [c for c in site.claims if claim.id in (c.record.get("depends") or [])],
        "errors": record.get("errors") or [],
        "commands": reproduce(claim, [source for source, _ in claim.observed]),
        "machines": len(site.sources) > 1,
        "claim_file": claim_file(claim),
    }


def claim_file(claim: ClaimView) -> str | None:
    """The claim's file as the engine recorded it (``origin``); for an unloadable file, its path."""
    origin = claim.record.get("origin") or (claim.id.removeprefix("file:") if claim.id.startswith("file:") else "")
    return f"claims/{Path(origin).name}" if origin else None


def reproduce(claim: ClaimView, sources: list[Source]) -> list[str]:
    """The command that reruns this claim, once per distinct profile and seed."""
    if claim.id.startswith("file:"):
        return [f"pytest {claim.id.removeprefix('file:')}"]
    commands = []
    for source in sources:
        command = f"pytest -k {claim.id} --hypothesis-profile {source.profile}"
        if source.seed not in ("", "derandomized", "random", "None"):
            command += f" --hypothesis-seed {source.seed}"
        if command not in commands:
            commands.append(command)
    return commands


def _quote(claim: ClaimView, n: int, source: dict[str, Any], infos: dict[str, DocumentInfo]) -> dict[str, Any]:
    name = str(source.get("document", ""))
    info = infos.get(name)
    text = str(source.get("text", ""))
    return {
        "text": text,
        "section": str(source.get("section", "")),
        "document": info,
        "name": name,
        "href": f"../documents/{info.slug}.html#{quote_anchor(claim, n)}" if info and info.text else None,
        "found": bool(info and info.text and text and text in info.text),
    }


def _steps(raw: list[dict[str, Any]]) -> list[Step]:
    """Top-level steps with the decision's own steps (labels indented by two spaces) under them."""
    steps: list[Step] = []
    for item in raw:
        label = str(item.get("label", ""))
        math, problem = mathml.block(str(item.get("mathml") or ""))
        step = Step(label.strip(), str(item.get("text", "")), math, problem)
        if label.startswith("  ") and steps:
            steps[-1].substeps.append(step)
        else:
            steps.append(step)
    return steps


def _run_order(run: Run) -> tuple:
    dtype = DTYPES.index(run.dtype) if run.dtype in DTYPES else len(DTYPES)
    return (run.kind, run.name, run.implementation, run.device, dtype, run.dtype, run.detail, run.source.index)


def _not_run(runs: list[Run]) -> list[tuple[str, str]]:
    """(which runs, why) grouped by reason."""
    reasons: dict[str, list[str]] = {}
    for run in sorted(runs, key=_run_order):
        reasons.setdefault(run.message or "not run", []).append(f"{run.implementation} {run.device} {run.dtype}")
    return [(", ".join(dict.fromkeys(which)), why) for why, which in reasons.items()]


def _probe(probe: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": str(probe.get("name", "")),
        "seconds": probe.get("seconds"),
        "measurements": probe.get("measurements") or {},
        "figures": [_figure(f) for f in probe.get("figures") or []],
    }


def _figure(figure: dict[str, Any]) -> FigureView:
    title = str(figure.get("title") or figure.get("name") or "figure")
    alt = str(figure.get("alt") or title)
    try:
        return FigureView(title, alt, figures.render(figure))
    except (figures.FigureError, TypeError, ValueError) as problem:
        return FigureView(title, alt, None, str(problem))
