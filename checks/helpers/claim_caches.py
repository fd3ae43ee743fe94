"""Caches worth keeping only while one claim runs: the engine empties them after each claim.

A cache that a claim's own test cases hit again (the document adapters' tables, one per d_model drawn) is rarely
hit by the next claim, which draws its own; kept, it only holds the worker's memory up, claim after claim.
"""

from __future__ import annotations

from collections.abc import Callable

_CLEARS: list[Callable[[], object]] = []


def per_claim(clear: Callable[[], object]) -> Callable[[], object]:
    """Have ``clear`` (a cache's emptying method) called after each claim; returns it unchanged."""
    _CLEARS.append(clear)
    return clear


def clear_claim_caches() -> None:
    """Empty every cache registered with ``per_claim`` (checks.engine.memory, after each claim)."""
    for clear in _CLEARS:
        clear()
