"""Results files merged into what the pages show: one view per claim, evidence from every machine.

Everything here reads the typed records of checks.results: attributes, never keys.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from checks.documents.sources import title_of
from checks.evidence import Evidence, kinds
from checks.numerics.devices import DEVICES
from checks.numerics.tolerances import FLOATS
from checks.results import (
    ClaimRecord,
    Environment,
    EvidenceRecord,
    Finding,
    ImplementationRecord,
    ResultsError,
    Run,
    read_results,
)
from checks.results.records import DOCUMENT_CODE
from checks.verdicts import Verdict, most_severe
from checks.written.reading import DocumentReading

RUN_SEVERITY = ("error", "failed", "passed", "skipped")
"""A badge shows the most severe status of its runs (statuses of runs, not verdicts)."""


@dataclass(frozen=True)
class ResultsSource:
    """One results file: the machine that wrote it and its environment."""

    index: int
    path: Path
    environment: Environment
    reran: tuple[str, ...] = ()
    """The claims its latest run re-ran, when that run was merged into an earlier file."""

    @property
    def machine(self) -> str:
        gpus = self.environment.gpus
        shard = f" (shard {self.environment.shard})" if self.environment.shard else ""
        return f"#{self.index + 1} {', '.join(gpus) if gpus else self.environment.cpu or 'unknown CPU'}{shard}"

    @property
    def seed(self) -> str:
        return self.environment.hypothesis_seed

    @property
    def profile(self) -> str:
        return self.environment.hypothesis_profile or "dev"


@dataclass(frozen=True)
class Shown:
    """A piece of evidence and the results file (machine) it came from."""

    source: ResultsSource
    record: EvidenceRecord


@dataclass(frozen=True)
class Badge:
    """What a claim's runs on one device and dtype came to."""

    device: str
    dtype: str
    status: str
    """pass, fail, error, not-run (asked for, but no machine could) or none (not asked for)."""
    detail: str

    @property
    def text(self) -> str:
        return {"pass": "pass", "fail": "fail", "error": "error", "not-run": "not run", "none": "—"}[self.status]


@dataclass
class ClaimView:
    record: ClaimRecord
    """The claim as the first results file that has it recorded it (quotes, statement, expected)."""
    slug: str
    verdict: Verdict
    observed: list[tuple[ResultsSource, ClaimRecord]]
    badges: list[Badge] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def title(self) -> str:
        return self.record.title

    @property
    def expected(self) -> Verdict:
        return self.record.expected

    @property
    def differs(self) -> bool:
        return self.verdict != self.expected

    @property
    def shown(self) -> list[Shown]:
        return [Shown(source, evidence) for source, record in self.observed for evidence in record.evidence]

    @property
    def runs(self) -> list[tuple[ResultsSource, Run]]:
        return [(s.source, s.record) for s in self.shown if isinstance(s.record, Run)]

    @property
    def evidence(self) -> list[tuple[type[Evidence], list[Shown]]]:
        """Each kind of evidence the claim has, in the kinds' order, with its records from every machine."""
        shown = self.shown
        grouped = [(kind, [s for s in shown if isinstance(s.record, kind.record_type)]) for kind in kinds()]
        return [(kind, found) for kind, found in grouped if found]

    @property
    def findings(self) -> list[tuple[ResultsSource, Finding]]:
        """Every machine's findings, each text once."""
        seen: dict[tuple[str, str], tuple[ResultsSource, Finding]] = {}
        for source, record in self.observed:
            for finding in record.findings:
                seen.setdefault((finding.kind, finding.text), (source, finding))
        return list(seen.values())

    @property
    def document_code(self) -> list[str]:
        """The documents' own code that failed or crashed in this claim's checks, each name once: shown beside
        the verdict whatever it is, since a reader runs that code (it has no weight in the verdict)."""
        failing = (
            run.implementation
            for _, run in self.runs
            if run.implementation and run.implementation.startswith(DOCUMENT_CODE) and run.status in ("failed", "error")
        )
        return list(dict.fromkeys(failing))

    @property
    def assumptions(self) -> list[str]:
        """What the claim's proofs take as given (``p.assume``)."""
        found = [a for shown in self.shown for a in getattr(shown.record, "assumptions", [])]
        return list(dict.fromkeys(found))

    @property
    def symbolic_status(self) -> str:
        records = [shown.record for shown in self.shown]
        statuses = (kind.status_of([r for r in records if isinstance(r, kind.record_type)]) for kind in kinds())
        return next((status for status in statuses if status), "—")

    @property
    def deciding_runs(self) -> list[tuple[ResultsSource, Run]]:
        """The runs the verdict rests on: the references' (an implementation's runs are its matrix cells)."""
        return [(source, run) for source, run in self.runs if run.reference]

    @property
    def counts(self) -> list[tuple[str, int]]:
        """How much numeric evidence the verdict rests on, by what it counts (examples, grid cases), over every
        machine."""
        totals: Counter[str] = Counter()
        for _, run in self.deciding_runs:
            if run.ran:
                totals[run.unit] += run.count
        return sorted(totals.items(), key=lambda item: item[0] != "examples")

    @property
    def worst(self) -> tuple[ResultsSource, Run] | None:
        """The deciding run nearest its tolerance (or furthest past it)."""
        measured = [(source, run) for source, run in self.deciding_runs if run.ran and run.ratio is not None]
        return max(measured, key=lambda pair: pair[1].ratio or 0.0, default=None)

    @property
    def time(self) -> float | None:
        """The longest wall time any machine took for this claim."""
        return max((record.seconds for _, record in self.observed), default=None)

    @property
    def documents(self) -> list[str]:
        return sorted({quote.document for quote in self.record.placed})


@dataclass
class Site:
    sources: list[ResultsSource]
    claims: list[ClaimView]
    devices: list[str]
    dtypes: list[str]
    implementations: list[tuple[ResultsSource, ImplementationRecord]] = field(default_factory=list)
    """Each results file's implementation records: contract, domain, fingerprint (checked before the claims)."""
    idle_devices: list[tuple[str, str]] = field(default_factory=list)
    """Devices the claims name where no run ran in these results, each with why (its first skip message): one
    note on the index instead of columns that read "not run"."""
    documents: list[DocumentReading] = field(default_factory=list)
    """The documents as the run read them (the first results file that read each one)."""

    @property
    def counts(self) -> list[tuple[str, int]]:
        found = Counter(c.verdict for c in self.claims)
        return [(str(v), found.get(v, 0)) for v in Verdict]

    @property
    def cited_only(self) -> list[ClaimView]:
        """The claims that quote no document, only published works: counted apart from the documents' claims."""
        return [c for c in self.claims if not c.record.sources and c.record.citations]

    @property
    def topics(self) -> set[str]:
        """The topics the claims examine implementations of (empty for results that do not record them: then every
        topic an implementation record holds is shown)."""
        return {topic for claim in self.claims for topic in claim.record.topics}

    def shows(self, topic: str) -> bool:
        """Whether the pages show this topic: one the claims use (every one, for results that do not say)."""
        return not self.topics or topic in self.topics

    @property
    def controls(self) -> list[ClaimView]:
        """The controls: readings the documents do not make, expected refuted (counted apart, never errata)."""
        return [c for c in self.claims if c.record.control]

    @property
    def document_counts(self) -> list[tuple[str, int]]:
        """Verdicts of the claims that check the documents' sentences (cited-only ones and controls left out)."""
        apart = {c.id for c in self.cited_only + self.controls}
        found = Counter(c.verdict for c in self.claims if c.id not in apart)
        return [(str(v), found.get(v, 0)) for v in Verdict]

    def claim(self, claim_id: str) -> ClaimView | None:
        return next((c for c in self.claims if c.id == claim_id), None)

    @property
    def in_reading_order(self) -> list[ClaimView]:
        """The claims by id, each derived claim (a misconception) right after the first claim it derives from
        that these results hold (where none does, in its own place)."""
        held = {c.id for c in self.claims}
        parent = {c.id: next((d for d in c.record.depends if d in held and d != c.id), None) for c in self.claims}
        ordered: list[ClaimView] = []

        def place(claim: ClaimView, seen: frozenset[str]) -> None:
            ordered.append(claim)
            for child in self.claims:
                if parent[child.id] == claim.id and child.id not in seen:
                    place(child, seen | {child.id})

        for claim in self.claims:
            if parent[claim.id] is None:
                place(claim, frozenset({claim.id}))
        placed = {c.id for c in ordered}
        return ordered + [c for c in self.claims if c.id not in placed]  # a cycle of derivations: by id


def slug(text: str) -> str:
    """A file-name-safe form of a claim id or document name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "_"


HASHED_NAME = re.compile(r"(\d{3})_[0-9a-f]{16}\.txt")


def short_name(name: str) -> str:
    """The label pages give a document: "000" for one named "000_<hash>.txt", else its file name (a .txt one
    without its suffix)."""
    found = HASHED_NAME.fullmatch(name)
    return found.group(1) if found else name.removesuffix(".txt")


def document_slug(name: str) -> str:
    return slug(name.removesuffix(".txt"))


def load(paths: list[Path], documents: Callable[[], list[DocumentReading]] | None = None) -> Site:
    """Read every results file (ResultsError on the first bad one) and merge claims by id. The documents are those
    the results read (where none of them did, results written before readings were recorded, ``documents()``)."""
    results = [read_results(path) for path in paths]
    sources = [
        ResultsSource(i, path, document.environment)
        for i, (path, document) in enumerate(zip(paths, results, strict=True))
    ]
    recorded = [reading for document in results for reading in document.documents]
    read = _documents(recorded or (documents() if documents else []))
    records: dict[str, list[tuple[ResultsSource, ClaimRecord]]] = {}
    for source, document in zip(sources, results, strict=True):
        for record in document.claims:
            _quotes_documents(source, record, read)
            records.setdefault(record.id, []).append((source, record))
    claims = [_merge(found) for _, found in sorted(records.items())]
    named = _ordered(DEVICES, {run.device for c in claims for _, run in c.runs})
    devices = [d for d in named if any(run.ran and run.device == d for c in claims for _, run in c.runs)] or named
    idle = [
        (d, next((run.message for c in claims for _, run in c.runs if run.device == d and run.message), ""))
        for d in named
        if d not in devices
    ]
    dtypes = _ordered(FLOATS, {run.dtype for c in claims for _, run in c.runs})
    for claim in claims:
        own = [run for _, run in claim.runs if run.reference]
        claim.badges = [_badge(own, device, dtype) for device in devices for dtype in dtypes]
    checked = [
        (source, record)
        for source, document in zip(sources, results, strict=True)
        for record in document.implementations
    ]
    return Site(sources, claims, devices, dtypes, checked, idle, list(read.values()))


def _documents(readings: list[DocumentReading]) -> dict[str, DocumentReading]:
    """Each document once (its first reading), in name order; a document the run could not read stops the report."""
    read: dict[str, DocumentReading] = {}
    for reading in readings:
        read.setdefault(reading.name, reading)
    for reading in read.values():
        if reading.problem:
            raise ResultsError(reading.problem)
    return dict(sorted(read.items()))


def _quotes_documents(source: ResultsSource, record: ClaimRecord, read: dict[str, DocumentReading]) -> None:
    """A quote names a document of sources/ exactly: any other name (a path, a file elsewhere) is refused. Each quote's
    section is then shown by its heading's words, without markup (``## 4 Why`` → ``4 Why``)."""
    for quote in record.placed:
        if quote.document not in read:
            raise ResultsError(
                f"{source.path}: claim {record.id!r} quotes document {quote.document!r}, which is not a file of "
                f"sources/ (known: {', '.join(read)}); nothing was published"
            )
    record.sources = [
        replace(quote, section=title_of(quote.section, read[quote.document].text, quote.document))
        if quote.document in read
        else quote
        for quote in record.sources
    ]


def _ordered(known: tuple[str, ...], seen: set[str]) -> list[str]:
    return list(known) + sorted(seen - set(known))


def _merge(found: list[tuple[ResultsSource, ClaimRecord]]) -> ClaimView:
    """Machines that disagree show the most severe verdict any of them observed (checks.verdicts.SEVERITY)."""
    first = found[0][1]
    verdict = most_severe({record.observed for _, record in found})
    return ClaimView(record=first, slug=slug(first.id), verdict=verdict, observed=found)


def _badge(runs: list[Run], device: str, dtype: str) -> Badge:
    here = [r for r in runs if r.device == device and r.dtype == dtype]
    if not here:
        return Badge(device, dtype, "none", f"no check of this claim asks for {device} {dtype}")
    lines = [
        f"{r.name} {r.implementation or r.kind}"
        + (f" {r.detail}" if r.detail else "")
        + f": {r.status}"
        + (f" ({r.message})" if r.status == "skipped" and r.message else "")
        for r in here
    ]
    statuses = {r.status for r in here}
    status = next((s for s in RUN_SEVERITY if s in statuses), "skipped")
    badge = {"error": "error", "failed": "fail", "passed": "pass", "skipped": "not-run"}[status]
    return Badge(device, dtype, badge, "; ".join(lines))


@dataclass(frozen=True)
class Cell:
    """One claim × implementation: pass, fail, error, or skipped with the reason (e.g. not installed)."""

    status: str
    detail: str
    counterexample: str = ""
    marks: tuple[tuple[str, str], ...] = ()
    """One mark per dtype (per device and dtype where the runs span devices): (where, status), in run order, so that a
    loss in bfloat16 alone does not read as a wrong formula."""


def implementation_matrix(site: Site) -> tuple[list[str], list[tuple[ClaimView, dict[str, Cell]]]]:
    """Implementations (references first) and, per claim whose runs concern an implementation, a cell each."""
    names = list(dict.fromkeys(record.name for _, record in site.implementations))
    rows = []
    for claim in site.claims:
        runs = [run for _, run in claim.runs if run.implementation is not None]
        if all(run.reference for run in runs):
            continue
        cells = {}
        for name in dict.fromkeys(run.implementation or "" for run in runs):
            names += [name] if name not in names else []
            cells[name] = _cell([run for run in runs if run.implementation == name])
        rows.append((claim, cells))
    names.sort(key=lambda name: (not name.startswith("reference-"), name))
    return names, rows


def contract_cells(site: Site) -> dict[str, Cell]:
    """The matrix's first row: each implementation's contract checks (every machine's), before any claim."""
    cells = {}
    for name in dict.fromkeys(record.name for _, record in site.implementations):
        records = [record for _, record in site.implementations if record.name == name]
        broken = [finding for record in records for finding in record.contract]
        ran = [record for record in records if not record.missing]
        if broken:
            first = broken[0]
            detail = f"{len(broken)} contract violation(s); first: {first.capability} ({first.check}): {first.text}"
            cells[name] = Cell("fail", detail)
        elif not ran:
            cells[name] = Cell("skipped", records[0].missing)
        else:
            cells[name] = Cell("pass", f"{sum(record.checked for record in ran)} contract checks")
    return cells


def _cell(runs: list[Run]) -> Cell:
    marks = _marks(runs)
    ran = [run for run in runs if run.ran]
    if not ran:
        return Cell("skipped", runs[0].message if runs else "", marks=marks)
    for status, label in (("error", "error"), ("failed", "fail")):
        bad = [run for run in ran if run.status == status]
        if bad:
            where = ", ".join(sorted({f"{run.device} {run.dtype}" for run in bad}))
            example = ", ".join(f"{k}={v}" for k, v in bad[0].failing_input.items())
            whole = getattr(bad[0], "whole_input", None)
            example += f" ({', '.join(whole)} whole in results.json)" if whole else ""
            return Cell(label, f"{bad[0].name} ({where}): {bad[0].message}", example, marks)
    return Cell("pass", f"{len(ran)} runs, {sum(run.count for run in ran)} {ran[0].unit}", marks=marks)


def _marks(runs: list[Run]) -> tuple[tuple[str, str], ...]:
    """Each dtype's worst status among the runs (error, fail, pass, skipped), named by dtype, or by device and dtype
    where the runs span devices."""
    devices = {run.device for run in runs}
    places = dict.fromkeys((run.device, run.dtype) for run in runs)
    marks = []
    for device, dtype in places:
        here = {run.status if run.ran else "skipped" for run in runs if (run.device, run.dtype) == (device, dtype)}
        status = next((s for s in ("error", "failed", "passed") if s in here), "skipped")
        label = {"failed": "fail", "passed": "pass"}.get(status, status)
        marks.append((dtype if len(devices) == 1 else f"{device} {dtype}", label))
    return tuple(marks)


__all__ = [
    "Badge",
    "Cell",
    "ClaimView",
    "ResultsSource",
    "Shown",
    "Site",
    "contract_cells",
    "implementation_matrix",
    "load",
]
