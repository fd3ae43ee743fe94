"""What a decision answers: its status, displayed steps and certificates (shared by identities and inequalities)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import sympy as sp

from checks.symbolic.fragment import Atom, Translation
from checks.symbolic.kernel import check as kernel_check

Status = Literal["proved", "refuted", "unknown"]
Relation = Literal["==", "<=", ">=", "<", ">"]


@dataclass(frozen=True)
class Step:
    """One displayed step of a proof: a label and a SymPy expression.

    ``checked``: part of a decision or structural fact the machine checked; otherwise an explanation that
    carries no verdict (``Proof.step``).
    """

    label: str
    expr: sp.Basic
    checked: bool = False


@dataclass(frozen=True)
class Certificate:
    """polynomial = ε + Σ w_i·square_i² + Σ quotient_j·relation_j: re-checkable by expansion.

    An identity's certificate has no squares and ε = 0 (``relation`` "="); an inequality's proves
    polynomial ≥ 0 (">=": every w_i ≥ 0, ε ≥ 0) or polynomial > 0 (">": ε > 0 as well).
    """

    polynomial: sp.Expr
    relations: tuple[sp.Expr, ...]
    quotients: tuple[sp.Expr, ...]
    relation: Literal["=", ">=", ">"] = "="
    weights: tuple[sp.Rational, ...] = ()
    squares: tuple[sp.Expr, ...] = ()
    epsilon: sp.Rational = sp.S.Zero

    def verify(self) -> bool:
        """Whether the certificate holds, as the small kernel (checks.symbolic.kernel) finds by exact arithmetic."""
        return not self.problem()

    def problem(self) -> str:
        """Why the kernel rejects the certificate ("" when it holds)."""
        return kernel_check(self)


METHODS: dict[str, str] = {
    "multiplying out": "both sides are multiplied out as polynomials and must agree term by term",
    "Groebner reduction": "both sides are rewritten with a new variable pair s = sin t, c = cos t for each angle and "
    "reduced using only s² + c² = 1; nothing may be left over, and the rewriting is kept as a certificate checked "
    "again by multiplying it out",
    "termwise": "a sum over a symbolic number of terms is decided term by term (a side without a sum spread evenly "
    "over the terms), so it holds for every number of terms",
    "entrywise": "a matrix equation is decided entry by entry",
    "sum of squares": "the gap between the sides is written as a sum of squares, which can never be negative, and "
    "checked by multiplying it out",
    "moments": "moments are derived by rules only: linearity, the split of repeated indices into equal and distinct "
    "ones, factoring over the stated independence, and the stated moments; each regrouping is a polynomial identity "
    "the kernel re-checks",
    "witness": "it is refuted by an input where the two sides differ, confirmed at 50 and 80 digits",
}
"""Each way a decision can be reached, as a proof's page explains it."""


@dataclass
class Decision:
    """The answer of ``decide`` with everything needed to show or re-check it."""

    status: Status
    lhs: sp.Basic
    rhs: sp.Basic
    steps: list[Step] = field(default_factory=list)
    certificates: list[Certificate] = field(default_factory=list)
    witness: dict[str, str] | None = None
    reason: str = ""
    conditions: list[str] = field(default_factory=list)
    relation: Relation = "=="
    methods: list[str] = field(default_factory=list)
    """How it was decided, each a key of METHODS, in the order used."""

    def used(self, *methods: str) -> None:
        """Record methods it used (each once)."""
        self.methods += [m for m in methods if m not in self.methods]

    @property
    def statement(self) -> sp.Basic:
        """lhs relation rhs, unevaluated."""
        return statement(self.lhs, self.rhs, self.relation)


def statement(lhs: sp.Basic, rhs: sp.Basic, relation: Relation = "==") -> sp.Basic:
    kinds = {"==": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}
    return kinds[relation](lhs, rhs, evaluate=False)


def _names(atom: Atom) -> tuple[sp.Eq, sp.Eq]:
    return sp.Eq(atom.sin, sp.sin(atom.angle)), sp.Eq(atom.cos, sp.cos(atom.angle))


def atom_steps(translation: Translation) -> list[Step]:
    """One displayed step per angle atom: s_j = sin t_j, c_j = cos t_j."""
    return [Step("a new variable pair for an angle", sp.Tuple(*_names(atom))) for atom in translation.atoms]
