"""A kind of evidence: how it is declared, how it runs, how it is recorded, how it weighs, how it is shown.

Each kind is one subclass of ``Evidence`` in its own module of this package, found there by
``checks.evidence.kinds()``; its record is a ``checks.results.EvidenceRecord`` and its report
partial is ``reports/templates/<template>``. A claim file declares it through the matching method of
``checks.claim.Claim`` (``@claim.check``) or ``claim.declare(kind, ...)``. Kind modules import nothing heavy at
module level: the report reads their records without torch, Hypothesis or SymPy.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

from checks.results.records import EvidenceRecord, Finding, Run
from checks.verdicts import Verdict, Weight

E = TypeVar("E", bound="Evidence")


@dataclass(frozen=True)
class Dependency:
    """What a derivation sees of a claim it depends on: its observed verdict and its findings."""

    id: str
    verdict: Verdict
    findings: list[Finding] = field(default_factory=list)


class RunContext(Protocol):
    """What the engine lends a piece of evidence while it runs."""

    @property
    def claim_id(self) -> str: ...

    def guard(self, what: str, action: Callable[[], object]) -> None:
        """Run ``action``; a crash (or the claim's time limit) is recorded as the claim's error, not raised."""

    def dependency(self, claim_id: str) -> Dependency:
        """The outcome of another claim, evaluated at most once per run."""

    def within_share(self, implementation: str, action: Callable[[], object]) -> str:
        """Run ``action``, cells of ``implementation``, on its own share of the claim's time limit
        (checks.engine.limits); empty when it finished, else why it did not."""


class Declaring(Protocol):
    """What a kind's ``declare`` needs of the claim it adds evidence to (checks.claim.Claim)."""

    id: str
    depends: list[str]

    def add(self, evidence: E) -> E: ...

    def declared(self, kind: type[E]) -> list[E]: ...


class Evidence:
    """One piece of evidence a claim declares. Subclasses set the class attributes and the methods."""

    kind: ClassVar[str]
    """The tag of its records in results files."""
    order: ClassVar[int]
    """Where it runs and shows among the kinds (lower first)."""
    title: ClassVar[str]
    """The heading of its section on a claim page."""
    template: ClassVar[str]
    """Its report partial under reports/templates/, rendered with ``records`` (a list of its records)."""
    record_type: ClassVar[type[EvidenceRecord]]

    name: str

    @classmethod
    def declare(cls, claim: Declaring, *args: Any, **options: Any) -> Any:
        """What ``@claim.<kind>(...)`` or ``claim.declare(kind, ...)`` calls: adds an instance to ``claim.evidence``."""
        raise NotImplementedError

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        """Run and return the records (a crash is the engine's to record: the claim becomes broken)."""
        raise NotImplementedError

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        """What these records (every record of this kind for one claim) say about the claim."""
        raise NotImplementedError

    def examines_implementations(self) -> bool:
        """Whether it runs against the registered implementations (``--implementation-claims`` selects it)."""
        return False

    def repeats_exactly(self) -> bool:
        """Whether it gives the same numbers under any Hypothesis seed (the flake run may leave it out)."""
        return False

    def implementations(self) -> list[Any]:
        """The implementations besides the references whose cells it runs, each on a share of the claim's time
        limit of its own (``RunContext.within_share``)."""
        return []

    @classmethod
    def explain(cls, records: Sequence[EvidenceRecord]) -> list[str]:
        """Lines saying why these records did not give what the claim expects (pytest's failure shows them)."""
        return []

    @classmethod
    def status_of(cls, records: Sequence[EvidenceRecord]) -> str | None:
        """A one-word status the report shows in its own column ("symbolic: proved"), if the kind has one."""
        return None

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        """The findings these records make (shown on the claim page, and repeated by derived claims)."""
        return []


def name_of(function: Callable[..., Any], index: int) -> str:
    """A declaration's name: the function's, or for ``def _`` the first docstring line (else its number)."""
    name = getattr(function, "__name__", "_")
    doc = (getattr(function, "__doc__", None) or "").strip().splitlines()
    if name == "_" and doc:
        return doc[0]
    return name if name != "_" else f"#{index + 1}"


class RunEvidence(Evidence):
    """A kind whose records are numeric runs (checks.results.Run): weighed and found by their statuses."""

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        return weigh_runs([r for r in records if isinstance(r, cls.record_type) and isinstance(r, Run)])

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return run_findings([r for r in records if isinstance(r, cls.record_type) and isinstance(r, Run)])


def weigh_runs(runs: Sequence[Run]) -> Weight:
    """The weight of numeric runs: only the references' count; an error is a crash, a failure a counterexample."""
    own = [run.status for run in runs if run.reference]
    return Weight(
        crashed="error" in own,
        refutes="failed" in own,
        support="holds" if "passed" in own else None,
    )


def run_findings(runs: Sequence[Run]) -> list[Finding]:
    """A failed reference run is a counterexample; another implementation's failure is its matrix cell."""
    found = []
    for run in runs:
        if run.status == "failed":
            kind = "counterexample" if run.reference else "implementation"
            found.append(Finding(kind, f"{run.label}: {run.message}", dict(run.failing_input)))
    return found


def claim_line(error: BaseException, origin: str | Path | None) -> str | None:
    """Where the claim file ``origin`` was on the way to ``error``: ``path:line in function`` of its innermost
    frame (the path relative to the working directory when under it), or None when none of its lines is there.

    The error's own traceback first, then those of a group's members and of the exceptions it was raised from."""
    if origin is None:
        return None
    target = os.path.realpath(origin)
    for chain in _tracebacks(error, set()):
        mine = [frame for frame in chain if os.path.realpath(frame.filename) == target]
        if mine:
            return f"{_shown(mine[-1].filename)}:{mine[-1].lineno} in {mine[-1].name}"
    return None


def crash_text(error: BaseException, origin: str | Path | None) -> str:
    """An exception as one line: ``Type: message (where)``, where is the claim file's innermost line on the way to
    it (checks.evidence.base.claim_line), else the innermost line of all."""
    where = claim_line(error, origin)
    if where is None:
        frames = traceback.extract_tb(error.__traceback__)
        where = f"{_shown(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}: {error}" + (f" ({where})" if where else "")


def without_locals(error: BaseException) -> BaseException:
    """``error`` with the locals of its finished frames dropped, and of those of every exception it chains or
    groups: its lines stay (messages name them), the arrays its frames held go (a failure Hypothesis keeps while it
    shrinks would keep them all)."""
    pending, seen = [error], set()
    while pending:
        current = pending.pop()
        if id(current) not in seen:
            seen.add(id(current))
            traceback.clear_frames(current.__traceback__)
            chained = (*getattr(current, "exceptions", ()), current.__cause__, current.__context__)
            pending += [inner for inner in chained if isinstance(inner, BaseException)]
    return error


def _tracebacks(error: BaseException, seen: set[int]) -> Iterator[traceback.StackSummary]:
    if id(error) in seen:
        return
    seen.add(id(error))
    yield traceback.extract_tb(error.__traceback__)
    for inner in [*getattr(error, "exceptions", ()), error.__cause__, error.__context__]:
        if isinstance(inner, BaseException):
            yield from _tracebacks(inner, seen)


def _shown(filename: str) -> str:
    """A file name relative to the working directory when it lies under it."""
    try:
        return Path(filename).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (OSError, ValueError):
        return filename
