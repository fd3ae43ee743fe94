"""Typed records for tests that need a results file of their own: every field filled, some chosen."""

from __future__ import annotations

from typing import Any

from checks.results import ClaimRecord, Environment
from checks.verdicts import Verdict


def environment(**fields: Any) -> Environment:
    """A made-up machine (override any field)."""
    defaults: dict[str, Any] = {
        "python": "3.11",
        "torch": "2.13.0",
        "numpy": "2.4",
        "sympy": "1.14",
        "hypothesis": "6.170",
        "platform": "Linux",
        "cpu": "Test CPU",
        "gpus": [],
        "cuda": None,
        "gpu_driver": None,
        "tf32_matmul": False,
        "tf32_cudnn": True,
        "float32_matmul_precision": "highest",
        "commit": "abc",
        "date": "2026-01-01",
        "hypothesis_profile": "ci",
        "hypothesis_seed": "derandomized",
        "sandbox": "fallback without bubblewrap (test)",
    }
    return Environment(**{**defaults, **fields})


def claim_record(claim_id: str, observed: str = "holds", expected: str = "holds", **fields: Any) -> ClaimRecord:
    """A claim record with no evidence (override any field)."""
    defaults: dict[str, Any] = {
        "origin": "",
        "title": "t",
        "statement": "",
        "sources": [],
        "depends": [],
        "out_of_scope": "",
        "evidence": [],
        "findings": [],
        "errors": [],
        "seconds": 0.0,
        "date": "2026-01-01T00:00:00+00:00",
    }
    values = {**defaults, **fields}
    return ClaimRecord(id=claim_id, expected=Verdict(expected), observed=Verdict(observed), **values)
