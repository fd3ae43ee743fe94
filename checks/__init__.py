"""theory-claims: claims from lesson documents, checked symbolically and numerically.

A claim file needs only what this package face exports.
"""

from checks.claim import Claim
from checks.harness import ProbeRecord, Trial
from checks.sources import Quote
from checks.symbolic import Proof, decide
from checks.tolerances import BFLOAT16, FLOAT16, FLOAT32, FLOAT64, FLOATS, LOW_PRECISION
from checks.verdicts import Verdict

__all__ = [
    "BFLOAT16",
    "FLOAT16",
    "FLOAT32",
    "FLOAT64",
    "FLOATS",
    "LOW_PRECISION",
    "Claim",
    "ProbeRecord",
    "Proof",
    "Quote",
    "Trial",
    "Verdict",
    "decide",
]
