"""The results format: typed records, their JSON Schema, and results files on disk.

This package owns every key of a results file; everyone else reads attributes of the records.
"""

from checks.results.files import ResultsError, read_mutation_results, read_results, write_results
from checks.results.records import (
    SCHEMA_VERSION,
    ClaimRecord,
    DtypeFingerprint,
    Environment,
    EvidenceRecord,
    Figure,
    Finding,
    ImplementationRecord,
    MutationResults,
    Results,
    Run,
)

__all__ = [
    "SCHEMA_VERSION",
    "ClaimRecord",
    "DtypeFingerprint",
    "Environment",
    "EvidenceRecord",
    "Figure",
    "Finding",
    "ImplementationRecord",
    "MutationResults",
    "Results",
    "ResultsError",
    "Run",
    "read_mutation_results",
    "read_results",
    "write_results",
]
