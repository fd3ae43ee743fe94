"""Implementations under test and the project's own: references, adapters, pairings, mutants, the document's code.

Import the module you need (``checks.numerics.reference_implementations``, ``.pairing``, ``.registry``, ...):
this package face loads nothing, so that a claim file that needs the references does not load the
document-code sandbox or the third-party adapters.
"""
