"""theory-claims: claims from documents about Transformers, checked symbolically and numerically.

The public face for claim files is this package and the modules named in ``PUBLIC``; everything else under
``checks`` is internal and may change (docs/writing-claims.md). A claim file imports only these
(tests/test_layers.py checks it). The names here load lazily, so that tools which only read results files
(the report builder) do not import torch or SymPy; an editor sees them through the imports below. A check's inputs
are declared with ``given`` and ``example`` from here (Hypothesis's own, with the same arguments, are for tests
Hypothesis runs by itself: the harness builds them for each run of a check).

The top of ``checks`` holds only the face and subpackages, which tests/test_layers.py orders from the ground up:
``checks.settings`` (a repository's settings, the profiles, the extras), ``checks.verdicts`` (the verdict vocabulary
and errata), ``checks.symbolic`` (the prover), ``checks.documents`` (reading the documents, their sentences, their
coverage), ``checks.numerics`` (backends, dtypes, tolerances, reference formulas), ``checks.results`` (the results
format), ``checks.implementations`` (adapters, contracts, fingerprints, mutants, the sandbox), ``checks.written``
(the documents' formulas read by a grammar), ``checks.evidence`` (the kinds of evidence, each with its runner),
``checks.helpers`` (what the face modules re-export), ``checks.topics`` (the components under test, as records) and
``checks.engine`` (discovery, evaluation, the pytest plugin, the commands).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from checks.claim import Claim
    from checks.documents.sources import Citation, Document, Quote
    from checks.evidence.check.given import example, given
    from checks.evidence.experiment import Design, SeedLog
    from checks.numerics.tolerances import BFLOAT16, FLOAT16, FLOAT32, FLOAT64, FLOATS, LOW_PRECISION
    from checks.symbolic import Proof, decide
    from checks.verdicts import Verdict
    from checks.verdicts.errata import Erratum

PUBLIC = (
    "checks",
    "checks.adapters",
    "checks.attention",
    "checks.claim",
    "checks.figures",
    "checks.formulas",
    "checks.models",
    "checks.precision",
    "checks.reference",
    "checks.rope",
    "checks.statistics",
    "checks.strategies",
    "checks.topics",
    "checks.topics.attention",
    "checks.topics.multihead",
    "checks.topics.normalisation",
    "checks.topics.positional",
    "checks.training",
    "checks.written",
)
"""The modules a claim file may import from this project."""

_DTYPES = ("BFLOAT16", "FLOAT16", "FLOAT32", "FLOAT64", "FLOATS", "LOW_PRECISION")
_EXPORTS = {
    "Claim": "checks.claim",
    "Erratum": "checks.verdicts.errata",
    "Quote": "checks.documents.sources",
    "Citation": "checks.documents.sources",
    "Document": "checks.documents.sources",
    "Proof": "checks.symbolic",
    "decide": "checks.symbolic",
    "Verdict": "checks.verdicts",
    "Design": "checks.evidence.experiment",
    "given": "checks.evidence.check.given",
    "example": "checks.evidence.check.given",
    "SeedLog": "checks.evidence.experiment",
    **dict.fromkeys(_DTYPES, "checks.numerics.tolerances"),
}

__all__ = [
    "BFLOAT16",
    "FLOAT16",
    "FLOAT32",
    "FLOAT64",
    "FLOATS",
    "LOW_PRECISION",
    "PUBLIC",
    "Citation",
    "Claim",
    "Design",
    "Document",
    "Erratum",
    "Proof",
    "Quote",
    "SeedLog",
    "Verdict",
    "decide",
    "example",
    "given",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'checks' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
