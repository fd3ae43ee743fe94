"""theory-claims: claims from lesson documents, checked symbolically and numerically.

A claim file needs only what this package face exports, and the helpers under checks/helpers.
The names load lazily, so that tools which only read results files (the report builder) do not
import torch.

Layers, as folders: ``checks.engine`` (claim model, discovery, evaluation, harness, sweeps, plugin),
``checks.evidence`` (the kinds of evidence), ``checks.results`` (the results format),
``checks.helpers`` (what claim files use; never imports the engine), ``checks.implementations``
(references, adapters, the document's code), ``checks.symbolic`` (the prover).
"""

from importlib import import_module
from typing import Any

_DTYPES = ("BFLOAT16", "FLOAT16", "FLOAT32", "FLOAT64", "FLOATS", "LOW_PRECISION")
_EXPORTS = {
    "Claim": "checks.engine.claim",
    "Quote": "checks.sources",
    "Citation": "checks.sources",
    "Proof": "checks.symbolic",
    "decide": "checks.symbolic",
    "Verdict": "checks.verdicts",
    **dict.fromkeys(_DTYPES, "checks.helpers.tolerances"),
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'checks' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
