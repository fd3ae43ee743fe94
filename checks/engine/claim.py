"""A claim: the quoted sentence, the statement, the evidence it declares, its expected verdict."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from checks.evidence import Evidence, by_decorator, kinds
from checks.sources import Citation, Quote, Source
from checks.verdicts import Verdict

CLAIM_ID = re.compile(r"[a-z0-9]+(?:[.-][a-z0-9]+)+")
E = TypeVar("E", bound=Evidence)


@dataclass
class Claim:
    """One checkable statement of a document.

    ``expect`` is the verdict this file says the evidence gives; CI fails when the observed verdict
    differs. Evidence is declared with the decorators its kinds name (checks/evidence):
    ``@claim.proof``, ``@claim.check(...)``, ``@claim.sweep(...)``, ``@claim.probe``, ``@claim.derive``.
    """

    id: str
    title: str
    statement: str
    sources: list[Source]
    """Quotes of the documents of sources/ and citations of published works (at least one)."""
    expect: Verdict | str
    depends: list[str] = field(default_factory=list)
    out_of_scope: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    origin: Path | None = None
    """The file that declared the claim (set when it is loaded)."""

    def __post_init__(self) -> None:
        if not CLAIM_ID.fullmatch(self.id):
            raise ValueError(f"claim id {self.id!r} must look like 'pe.constant-norm'")
        try:
            self.expect = Verdict(self.expect)
        except ValueError:
            valid = ", ".join(verdict.value for verdict in Verdict)
            raise ValueError(f"{self.expect!r} is not a valid Verdict; expect one of: {valid}") from None
        if not self.sources:
            raise ValueError(
                f"claim {self.id} has no source: give a Quote of sources/ or a Citation of a published work"
            )
        strangers = [s for s in self.sources if not isinstance(s, Quote | Citation)]
        if strangers:
            raise ValueError(
                f"claim {self.id}: a source must be a Quote or a Citation, not {type(strangers[0]).__name__}"
            )

    @property
    def quotes(self) -> list[Quote]:
        return [source for source in self.sources if isinstance(source, Quote)]

    @property
    def citations(self) -> list[Citation]:
        return [source for source in self.sources if isinstance(source, Citation)]

    def __getattr__(self, name: str) -> Any:
        """``claim.<decorator>``: the declaration of the kind of evidence of that name."""
        kind = by_decorator(name) if not name.startswith("_") else None
        if kind is None:
            decorators = ", ".join(k.decorator for k in kinds())
            raise AttributeError(f"'Claim' has no attribute {name!r} (evidence is declared with: {decorators})")
        return functools.partial(kind.declare, self)

    def add(self, evidence: E) -> E:
        """Add a piece of evidence (what the decorators do)."""
        self.evidence.append(evidence)
        return evidence

    def declared(self, kind: type[E]) -> list[E]:
        """The evidence of one kind this claim declares, in declaration order."""
        return [e for e in self.evidence if isinstance(e, kind)]
