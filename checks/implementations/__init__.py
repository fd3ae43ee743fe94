"""Implementations under test: the adapter protocol, the built-in adapters and the registry."""

from checks.implementations.base import CAPABILITIES, Bound
from checks.implementations.registry import by_name, implementations, load, offering, register
from checks.pairing import HALF_SPLIT, INTERLEAVED, PAIRINGS, to_interleaved

__all__ = [
    "CAPABILITIES",
    "HALF_SPLIT",
    "INTERLEAVED",
    "PAIRINGS",
    "Bound",
    "by_name",
    "implementations",
    "load",
    "offering",
    "register",
    "to_interleaved",
]
