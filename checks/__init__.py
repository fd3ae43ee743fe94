"""theory-claims: claims from lesson documents, checked symbolically and numerically.

A claim file needs only what this package face exports. The names load lazily, so
that tools which only read results files (the report builder) do not import torch.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Claim": "checks.claim",
    "ProbeRecord": "checks.harness",
    "Trial": "checks.harness",
    "Quote": "checks.sources",
    "Proof": "checks.symbolic",
    "decide": "checks.symbolic",
    "Verdict": "checks.verdicts",
    **{name: "checks.tolerances" for name in ("BFLOAT16", "FLOAT16", "FLOAT32", "FLOAT64", "FLOATS", "LOW_PRECISION")},
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'checks' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
