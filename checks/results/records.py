"""The records of a results file: one per claim, the environment, and what each kind of evidence records.

Every reader and writer goes through these types (checks.results.codec turns them into JSON and
back, checks/results/schema.json is generated from them). A kind of evidence defines its own
record in its module under checks/evidence, as a subclass of ``EvidenceRecord``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import ClassVar, Literal, TypeVar

from checks.documents.sources import Citation, Quote
from checks.results.codec import JSON, Tagged
from checks.verdicts import Verdict
from checks.verdicts.errata import Erratum
from checks.written.reading import DocumentReading

SCHEMA_VERSION = "theory-claims/results/5"
DOCUMENT_CODE = "document-"
"""The name prefix of the implementations that run the documents' own code (checks.implementations.document)."""
"""Written into every results file; a file of another version is refused, never half-read."""

FindingKind = Literal["condition", "counterexample", "implementation"]
RunStatus = Literal["passed", "failed", "error", "skipped"]
FigureKind = Literal["lines", "scatter", "heatmap", "intervals"]
R = TypeVar("R", bound="EvidenceRecord")


@dataclass
class Finding:
    """A condition the document leaves unstated (qualified), a counterexample to it (refuted), or an
    implementation under test getting it wrong (a matrix cell: no weight in the verdict)."""

    kind: FindingKind
    text: str
    data: dict[str, JSON] = field(default_factory=dict)
    severity: str = ""
    """Its own severity (checks.verdicts.errata.SEVERITIES): "implementation" for an implementation under test; for
    a condition or counterexample, that of the claim's erratum (none without one)."""


@dataclass
class Series:
    """One line or set of points of a figure (x defaults to 0, 1, 2, …)."""

    y: list[float]
    x: list[float] = field(default_factory=list)


@dataclass
class Figure:
    """Data for one figure, drawn by the report as inline SVG.

    kind "lines": ``series`` maps a label to its points (given as {"x": [...], "y": [...]}); kind "scatter": the same,
    drawn as points; kind "heatmap": ``matrix`` rows; kind "intervals": one row per series, top to bottom, named by
    its label, with ``y`` = [low, middle, high] of an interval along the x axis and ``x`` the single values (each
    seed's) drawn as dots. ``marks`` are labelled vertical lines (a boundary, a threshold); ``alt`` describes the
    picture.
    """

    name: str
    kind: FigureKind
    title: str
    alt: str
    x_label: str = ""
    y_label: str = ""
    series: dict[str, Series] = field(default_factory=dict)
    matrix: list[list[float]] = field(default_factory=list)
    marks: dict[str, float] = field(default_factory=dict)
    log_x: bool = False
    log_y: bool = False


class EvidenceRecord(Tagged):
    """What one piece of evidence recorded; each kind (checks/evidence) subclasses it with its ``kind`` tag.

    The format knows a kind's record once its module is imported: ``import checks.evidence`` loads every kind
    (a reader of results files imports it; this package imports no kind).
    """

    @property
    def timed(self) -> bool:
        """Whether its numbers are wall-clock timings, which differ from run to run (a timed experiment's)."""
        return False


@dataclass
class Run(EvidenceRecord):
    """One run of numeric evidence on one device and dtype: what the report's badges and matrix are made of."""

    name: str
    device: str
    dtype: str
    status: RunStatus = "skipped"
    max_error: float = 0.0
    tolerance: float = 0.0
    worst_input: dict[str, JSON] = field(default_factory=dict)
    message: str = ""
    seconds: float = 0.0
    implementation: str | None = None
    """The implementation under test (None: the engine's own computation, as in a dense sweep)."""
    reference: bool = True
    """Run on the project's own code: only these runs decide the claim's verdict."""

    unit: ClassVar[str] = "runs"
    """What ``count`` counts, as the report labels it."""

    @property
    def count(self) -> int:
        return 0

    @property
    def detail(self) -> str:
        """A short note beside the run's name (its grid, say)."""
        return ""

    @property
    def order(self) -> tuple[int, ...]:
        """Where the run sorts among runs of the same name, device and dtype (by d_model, say)."""
        return ()

    @property
    def label(self) -> str:
        """The run as a finding names it."""
        return self.name

    @property
    def failing_input(self) -> dict[str, JSON]:
        """The input a failure is shown with."""
        return self.worst_input

    @property
    def ran(self) -> bool:
        return self.status != "skipped"

    @property
    def ratio(self) -> float | None:
        """max error / tolerance (inverse margin for a "told apart" comparison); None without a tolerance."""
        if not self.tolerance or math.isnan(self.max_error):
            return None
        return self.max_error / self.tolerance


@dataclass
class Environment:
    """The machine and software a results file was measured with."""

    python: str
    torch: str
    numpy: str
    sympy: str
    hypothesis: str
    platform: str
    cpu: str
    gpus: list[str]
    cuda: str | None
    gpu_driver: str | None
    tf32_matmul: bool
    tf32_cudnn: bool
    float32_matmul_precision: str
    commit: str
    date: str
    hypothesis_profile: str
    hypothesis_seed: str
    sandbox: str
    """How document code was confined on this machine (checks.implementations.sandbox.isolation); empty where the
    run used no document code."""
    shard: str = ""
    """"G/N" when this run was shard G of N of the catalog (pytest-split's --group G --splits N); "" otherwise."""
    repository: str = ""
    """The folder of the repository whose claims ran (``commit`` is its commit)."""
    tool: str = ""
    """theory-claims' version (and checkout commit) that ran them."""

    def items(self) -> list[tuple[str, JSON]]:
        """(name, value) of every field, for display."""
        return [(f.name, getattr(self, f.name)) for f in fields(self)]


@dataclass
class ClaimRecord:
    """Everything one evaluation of one claim produced."""

    id: str
    origin: str
    """The claim file, relative to the repository."""
    title: str
    statement: str
    sources: list[Quote]
    depends: list[str]
    expected: Verdict
    observed: Verdict
    out_of_scope: str
    evidence: list[EvidenceRecord]
    findings: list[Finding]
    errors: list[str]
    seconds: float
    date: str
    """When this record was measured (its run's date): a results file may merge runs."""
    citations: list[Citation] = field(default_factory=list)
    """Published works the claim cites (its quotes of sources/ are ``sources``)."""
    erratum: Erratum | None = None
    """The correction the claim file proposes (checks.verdicts.errata): shown when the verdict is refuted or
    qualified."""
    control: str = ""
    """For a control, the reading the document does not make and why it must be refuted (checks.Claim.control)."""
    topics: list[str] = field(default_factory=list)
    """The topics its evidence examines implementations of (``uses=``): the implementations page shows these."""
    key: str = ""
    """The digest of what this record depends on (checks.engine.reuse): a later run may reuse it while it holds."""
    reused: bool = False
    """Taken from an earlier run whose inputs were the same (``theory-claims report``); ``date`` says when it was
    made."""
    needs: str = ""
    """Evidence this install could not run, and the extra it needs (checks.settings.extras): the record holds the
    rest, and its verdict is that of the rest alone; the claim's test is skipped with this line."""

    @property
    def corrects(self) -> Quote | None:
        """The sentence the erratum corrects: the quote it names, else the claim's first quote."""
        if self.erratum is None:
            return None
        named = [q for q in self.placed if q.text == self.erratum.sentence]
        return named[0] if named else (self.placed[0] if self.placed else None)

    @property
    def corrected(self) -> list[tuple[Quote, str]]:
        """Every sentence the erratum corrects, with its wording: the one it names (or the first quote), then
        ``also``'s."""
        first = self.corrects
        if first is None or self.erratum is None:
            return []
        by_text = {q.text: q for q in reversed(self.placed)}
        return [(by_text[s], w) for s, w in self.erratum.corrections(first.text) if s in by_text]

    @property
    def placed(self) -> list[Quote]:
        """Every sentence placed in a document of sources/: the quotes, and citations with a local text."""
        return self.sources + [quote for c in self.citations if (quote := c.as_quote()) is not None]

    def of(self, record_type: type[R]) -> list[R]:
        """The evidence records of one type (``Run`` for every numeric run)."""
        return [record for record in self.evidence if isinstance(record, record_type)]


@dataclass
class ContractFinding:
    """An implementation breaking the protocol's contract (checks.implementations.contract), with its evidence."""

    capability: str
    check: str
    """What was checked: "call" (type, shape, dtype, device, finite, input unchanged), "repeatable", "repeated"
    (rows sharing a position), "values" (against the float64 reference), "declared", "fingerprint"."""
    text: str
    device: str = ""
    dtype: str = ""
    size: int = 0
    """The size of the call that broke it, in the topic's own terms (its ``size_name``: d_model, heads); 0 for what
    is not one call's."""


@dataclass
class DtypeFingerprint:
    """What an implementation computes in one dtype, against the float64 reference
    (checks.implementations.dtype_fingerprint)."""

    capability: str
    dtype: str
    d_model: int
    formed_in: str
    """The dtype its positions and angles are formed in, read off how its error grows with the position."""
    base: float
    """The base fitted from its own values at position 1 in this dtype (nan when position 1 is outside its domain)."""
    duplicate_rows: list[int]
    """The first two distinct positions with identical rows ([] none)."""
    first_past_tolerance: int | None
    tolerance: float
    """The dtype's tolerance for values of this size, which ``first_past_tolerance`` is the first error past."""
    first_non_finite: int | None
    rounding: float
    """The largest error at positions 0 … 8 in units of the dtype's unit roundoff (one rounding: at most 1)."""
    envelope: list[list[float]]
    """[[2^k, the largest error at positions up to 2^k and past the previous power]]."""
    rounding_steps: float = 0.0
    """The mean square error at positions 0 … 8, over many vectors (RoPE) or every column (a table), in units of the
    mean square error of rounding the exact values once to this dtype: about how many roundings each value carries."""


@dataclass
class ImplementationRecord:
    """One registered implementation, checked before the claims: its contract, its domain, its fingerprint."""

    name: str
    reference: bool
    backend: str
    capabilities: list[str]
    missing: str
    """Why it could not run here ("not installed: ..."), else empty."""
    domain: str
    """Its declared domain in words ("positions 0 … 4095"; "everything")."""
    checked: int
    """Contract checks that ran (calls and repeat comparisons)."""
    contract: list[ContractFinding]
    """Every contract violation found (none: it keeps the contract)."""
    fingerprints: dict[str, dict[str, JSON]]
    """Per capability, what probing measured (checks.implementations.fingerprint)."""
    variants: list[str]
    """Where what it computes differs from the documents' formula without breaking the contract."""
    seconds: float
    precision: list[DtypeFingerprint] = field(default_factory=list)
    """Per capability and dtype it runs in on the CPU, its fingerprint against the float64 reference."""
    seconds_per_call: float = 0.0
    """Seconds a call takes: the median of its contract calls (a library's loading, a spike of load left out)."""
    slow: str = ""
    """Why it counts as slow (over CALL_BUDGET of checks.implementations.speed a call) and what that changes, else
    empty."""


@dataclass
class Results:
    """A results file: the environment of its latest run, the implementations it checked, one record per claim."""

    schema: str
    environment: Environment
    claims: list[ClaimRecord]
    reran: list[str]
    """The claims the latest run ran, when it ran only some and was merged into an earlier file (else empty)."""
    implementations: list[ImplementationRecord]
    documents: list[DocumentReading] = field(default_factory=list)
    """Each document of sources/ as the run read it, for the report's pages (checks.written.reading)."""


@dataclass
class Kill:
    """A run that killed a mutant."""

    claim: str
    check: str
    device: str
    dtype: str
    message: str


@dataclass
class MutantResult:
    mutant: str
    bug: str
    ran: bool
    killed: bool
    killed_by: list[Kill]


@dataclass
class MutationResults:
    """The mutation run (python -m checks.engine.mutation): each mutant and the runs that killed it."""

    killed: int
    total: int
    mutants: list[MutantResult]
