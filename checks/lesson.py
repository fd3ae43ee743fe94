"""The lesson's own code (document 000), run in the sandbox.

Part of the public face for claim files (docs/writing-claims.md); what it re-exports may move inside."""

from __future__ import annotations

from checks.implementations.document_code import (
    DocumentCodeError,
    definitions,
    failure,
    lesson_script,
    numpy_encoding,
    run_script,
    torch_module_cases,
)

__all__ = [
    "DocumentCodeError",
    "definitions",
    "failure",
    "lesson_script",
    "numpy_encoding",
    "run_script",
    "torch_module_cases",
]
