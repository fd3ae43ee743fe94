"""Symbolic side of a claim: a decision procedure and the proof record."""

from checks.symbolic.decide import Certificate, Decision, Status, Step, decide
from checks.symbolic.moments import RandomOutsideExpectation
from checks.symbolic.proof import Proof

__all__ = ["Certificate", "Decision", "Proof", "RandomOutsideExpectation", "Status", "Step", "decide"]
