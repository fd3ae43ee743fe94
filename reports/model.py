"""Results files merged into what the pages show: one view per claim, runs from every machine."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.results_file import ResultsError, read_results
from checks.verdicts import Verdict

DEVICES = ("cpu", "cuda")
DTYPES = ("float64", "float32", "bfloat16", "float16")
SEVERITY = ("broken", "refuted", "qualified", "holds", "proved", "out-of-scope")
"""When machines disagree, the merged verdict is the first of these that any of them observed."""
RUN_SEVERITY = ("error", "failed", "passed", "skipped")


@dataclass(frozen=True)
class Source:
    """One results file: the machine that wrote it and its environment."""

    index: int
    path: Path
    environment: dict[str, Any]

    @property
    def machine(self) -> str:
        gpus = self.environment.get("gpus") or []
        device = ", ".join(map(str, gpus)) if gpus else str(self.environment.get("cpu") or "unknown CPU")
        return f"#{self.index + 1} {device}"

    @property
    def seed(self) -> str:
        return str(self.environment.get("hypothesis_seed") or "")

    @property
    def profile(self) -> str:
        return str(self.environment.get("hypothesis_profile") or "dev")


@dataclass(frozen=True)
class Run:
    """One numeric run (a Hypothesis check or a dense sweep) and the machine it ran on."""

    source: Source
    kind: str
    name: str
    implementation: str
    device: str
    dtype: str
    status: str
    examples: int
    max_error: float | None
    tolerance: float | None
    worst_input: dict[str, str]
    message: str
    seconds: float
    detail: str = ""
    reference: bool = True
    """Run on the project's own implementation (decides the verdict); others fill the implementation matrix."""

    @property
    def ratio(self) -> float | None:
        if self.max_error is None or not self.tolerance:
            return None
        return self.max_error / self.tolerance

    @property
    def ran(self) -> bool:
        return self.status != "skipped"


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
    id: str
    slug: str
    record: dict[str, Any]
    verdict: str
    observed: list[tuple[Source, str]]
    runs: list[Run]
    badges: list[Badge] = field(default_factory=list)
    seconds: list[tuple[Source, float]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return str(self.record.get("title", ""))

    @property
    def expected(self) -> str:
        return str(self.record.get("expected", ""))

    @property
    def differs(self) -> bool:
        return self.verdict != self.expected

    @property
    def symbolic_status(self) -> str:
        symbolic = self.record.get("symbolic")
        return str(symbolic.get("status", "")) if symbolic else "—"

    @property
    def examples(self) -> int:
        """Hypothesis examples tried, over every run of every machine."""
        return sum(r.examples for r in self.runs if r.ran and r.kind == "check")

    @property
    def grid_cases(self) -> int:
        """Cases checked by dense sweeps, over every machine."""
        return sum(r.examples for r in self.runs if r.ran and r.kind == "sweep")

    @property
    def worst(self) -> Run | None:
        measured = [r for r in self.runs if r.ran and r.ratio is not None]
        return max(measured, key=lambda r: r.ratio or 0.0, default=None)

    @property
    def time(self) -> float | None:
        """The longest wall time any machine took for this claim."""
        return max((t for _, t in self.seconds), default=None)

    @property
    def documents(self) -> list[str]:
        return sorted({str(s.get("document", "")) for s in self.record.get("sources", [])})


@dataclass
class Site:
    sources: list[Source]
    claims: list[ClaimView]
    devices: list[str]
    dtypes: list[str]

    @property
    def counts(self) -> list[tuple[str, int]]:
        found = Counter(c.verdict for c in self.claims)
        return [(str(v), found.get(str(v), 0)) for v in Verdict] + [
            (v, n) for v, n in sorted(found.items()) if v not in set(Verdict)
        ]

    def claim(self, claim_id: str) -> ClaimView | None:
        return next((c for c in self.claims if c.id == claim_id), None)


def slug(text: str) -> str:
    """A file-name-safe form of a claim id or document name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "_"


@contextmanager
def malformed(claim_id: str, paths: list[Path]) -> Iterator[None]:
    """Turn a record of the wrong shape into a ResultsError that names the claim and the files."""
    try:
        yield
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        files = ", ".join(map(str, paths))
        raise ResultsError(f"{files}: claim {claim_id!r} is malformed ({type(error).__name__}: {error})") from None


def document_slug(name: str) -> str:
    return slug(name.removesuffix(".txt"))


def load(paths: list[Path]) -> Site:
    """Read every results file (ResultsError on the first bad one) and merge claims by id."""
    documents = [read_results(path) for path in paths]
    sources = [
        Source(i, path, document["environment"])
        for i, (path, document) in enumerate(zip(paths, documents, strict=True))
    ]
    records: dict[str, list[tuple[Source, dict[str, Any]]]] = {}
    for source, document in zip(sources, documents, strict=True):
        for index, record in enumerate(document["claims"]):
            if not isinstance(record, dict) or not record.get("id"):
                raise ResultsError(f"{source.path}: claim record {index} has no id")
            records.setdefault(str(record["id"]), []).append((source, record))
    claims = []
    for claim_id, found in sorted(records.items()):
        with malformed(claim_id, [source.path for source, _ in found]):
            claims.append(_merge(claim_id, found))
    devices = _ordered(DEVICES, {r.device for c in claims for r in c.runs})
    dtypes = _ordered(DTYPES, {r.dtype for c in claims for r in c.runs})
    for claim in claims:
        own = [run for run in claim.runs if run.reference]
        claim.badges = [_badge(own, device, dtype) for device in devices for dtype in dtypes]
    return Site(sources, claims, devices, dtypes)


def _ordered(known: tuple[str, ...], seen: set[str]) -> list[str]:
    return list(known) + sorted(seen - set(known))


LISTS_OF_RECORDS = ("sources", "numeric", "sweeps", "probes", "findings")


def _check_shape(record: dict[str, Any]) -> None:
    """TypeError unless the nested fields the pages walk are lists of objects (missing ones are fine)."""
    nested = [(key, record.get(key)) for key in LISTS_OF_RECORDS]
    symbolic = record.get("symbolic")
    if symbolic is not None:
        if not isinstance(symbolic, dict):
            raise TypeError("'symbolic' is not an object")
        nested += [(f"symbolic.{key}", symbolic.get(key)) for key in ("steps", "decisions", "facts")]
    for name, value in nested:
        if value is not None and not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
            raise TypeError(f"{name!r} is not a list of objects")


def _merge(claim_id: str, found: list[tuple[Source, dict[str, Any]]]) -> ClaimView:
    for _, record in found:
        _check_shape(record)
    observed = [(source, str(record.get("observed", "broken"))) for source, record in found]
    verdicts = {v for _, v in observed}
    verdict = next((v for v in SEVERITY if v in verdicts), sorted(verdicts)[0])
    runs = [run for source, record in found for run in _runs(source, record)]
    return ClaimView(
        id=claim_id,
        slug=slug(claim_id),
        record=found[0][1],
        verdict=verdict,
        observed=observed,
        runs=runs,
        seconds=[(source, _number(record.get("seconds")) or 0.0) for source, record in found],
    )


def _runs(source: Source, record: dict[str, Any]) -> list[Run]:
    runs = []
    for run in record.get("numeric") or []:
        runs.append(
            Run(
                source=source,
                kind="check",
                name=str(run.get("check", "")),
                implementation=str(run.get("implementation", "")),
                device=str(run.get("device", "")),
                dtype=str(run.get("dtype", "")),
                status=str(run.get("status", "")),
                examples=int(_number(run.get("examples")) or 0),
                max_error=_number(run.get("max_error")),
                tolerance=_number(run.get("tolerance")),
                worst_input=_inputs(run.get("worst_input") or run.get("counterexample") or {}),
                message=str(run.get("message") or ""),
                seconds=_number(run.get("seconds")) or 0.0,
                reference=bool(run.get("reference", True)),
            )
        )
    for sweep in record.get("sweeps") or []:
        runs.append(
            Run(
                source=source,
                kind="sweep",
                name=str(sweep.get("sweep", "")),
                implementation="reference-torch",
                device=str(sweep.get("device", "")),
                dtype=str(sweep.get("dtype", "")),
                status=str(sweep.get("status", "")),
                examples=int(_number(sweep.get("cases")) or 0),
                max_error=_number(sweep.get("max_error")),
                tolerance=_number(sweep.get("tolerance")),
                worst_input=_inputs(sweep.get("worst_input") or {}),
                message=str(sweep.get("message") or ""),
                seconds=_number(sweep.get("seconds")) or 0.0,
                detail=f"d_model={sweep.get('d_model')}, {sweep.get('positions')} positions, "
                f"{_number(sweep.get('cases_per_second')) or 0:.3g} cases/s",
            )
        )
    return runs


def _inputs(values: Any) -> dict[str, str]:
    """Named inputs as text."""
    if not isinstance(values, dict):
        return {"input": str(values)}
    return {str(k): str(v) for k, v in values.items()}


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _badge(runs: list[Run], device: str, dtype: str) -> Badge:
    here = [r for r in runs if r.device == device and r.dtype == dtype]
    if not here:
        return Badge(device, dtype, "none", f"no check of this claim asks for {device} {dtype}")
    lines = [
        f"{r.name} {r.implementation}"
        + (f" {r.detail.split(',')[0]}" if r.detail else "")
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


def implementation_matrix(site: Site) -> tuple[list[str], list[tuple[ClaimView, dict[str, Cell]]]]:
    """Implementations (references first) and, per claim whose checks concern an implementation, a cell each."""
    names: list[str] = []
    rows = []
    for claim in site.claims:
        checks = [run for run in claim.runs if run.kind == "check"]
        if all(run.reference for run in checks):
            continue
        cells = {}
        for name in dict.fromkeys(run.implementation for run in checks):
            names += [name] if name not in names else []
            cells[name] = _cell([run for run in checks if run.implementation == name])
        rows.append((claim, cells))
    names.sort(key=lambda name: (not name.startswith("reference-"), name))
    return names, rows


def _cell(runs: list[Run]) -> Cell:
    ran = [run for run in runs if run.ran]
    if not ran:
        return Cell("skipped", runs[0].message if runs else "")
    for status, label in (("error", "error"), ("failed", "fail")):
        bad = [run for run in ran if run.status == status]
        if bad:
            where = ", ".join(sorted({f"{run.device} {run.dtype}" for run in bad}))
            example = ", ".join(f"{k}={v}" for k, v in bad[0].worst_input.items())
            return Cell(label, f"{bad[0].name} ({where}): {bad[0].message}", example)
    return Cell("pass", f"{len(ran)} runs, {sum(run.examples for run in ran)} examples")
