"""Decide lhs = rhs for polynomials in sin/cos of linear angles.

Reduce lhs - rhs modulo the Groebner basis of {s_j^2 + c_j^2 - 1}:
a zero remainder proves the identity (the quotients are the certificate);
a nonzero remainder refutes it only once a numeric witness is confirmed
at high precision; everything else is unknown, never proved.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from checks.symbolic.decision import Certificate, Decision, Relation, Status, Step, atom_steps, statement
from checks.symbolic.fragment import OutsideFragment, Translation, translate
from checks.symbolic.inequality import decide_inequality
from checks.symbolic.sums import common_limits, summand
from checks.symbolic.witness import find_witness

__all__ = ["Certificate", "Decision", "Relation", "Status", "Step", "as_sympy", "atom_steps", "decide", "statement"]


def decide(lhs: object, rhs: object, relation: Relation = "==") -> Decision:
    """Decide ``lhs == rhs`` (SymPy expressions or matrices of equal shape), or ``lhs <= rhs`` (``relation`` one
    of "<=", ">=", "<", ">"; scalars) for every real value of the symbols."""
    left, right = as_sympy(lhs), as_sympy(rhs)
    inexact = sorted({str(number) for side in (left, right) for number in side.atoms(sp.Float)})
    if inexact:
        said = "is a floating-point number" if len(inexact) == 1 else "are floating-point numbers"
        raise InexactNumber(
            f"decide() decides exact statements, and {', '.join(inexact)} {said} (a Python float or sp.Float), whose "
            "rounding could decide it: write it exactly (sp.Rational(1, 10), sp.pi, sp.sqrt(2)) or as a symbol"
        )
    if relation != "==":
        return decide_inequality(left, right, relation)
    if isinstance(left, sp.MatrixBase) or isinstance(right, sp.MatrixBase):
        return _decide_matrix(sp.ImmutableMatrix(left), sp.ImmutableMatrix(right))
    return _decide_scalar(left, right)


class InexactNumber(TypeError):
    """A floating-point number in a statement to decide: refused before anything is decided."""


def as_sympy(value: object) -> sp.Basic:
    """Numbers and SymPy objects only: text is never parsed."""
    if isinstance(value, sp.Basic | sp.MatrixBase):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise TypeError(
            f"decide() takes SymPy objects or numbers, not {type(value).__name__}: "
            "build the expression with SymPy symbols instead of text"
        )
    if isinstance(value, float):
        return sp.Float(value)
    return sp.Rational(value.numerator, value.denominator)


def _decide_matrix(lhs: sp.ImmutableMatrix, rhs: sp.ImmutableMatrix) -> Decision:
    decision = Decision("unknown", lhs, rhs, [Step("statement", sp.Eq(lhs, rhs, evaluate=False))])
    if lhs.shape != rhs.shape:
        decision.reason = f"shapes differ: {lhs.shape} and {rhs.shape}"
        return decision
    entries = []
    decision.used("entrywise")
    for (row, col), left in sorted(_entries(lhs).items()):
        entry = _decide_scalar(left, rhs[row, col])
        entries.append(entry)
        decision.used(*entry.methods)
        if sp.expand(left - rhs[row, col]) != 0:
            decision.steps += [Step(f"entry ({row}, {col}): {s.label}", s.expr) for s in entry.steps[1:]]
        decision.certificates += entry.certificates
        decision.conditions += [c for c in entry.conditions if c not in decision.conditions]
        if entry.status == "refuted" and decision.witness is None:
            decision.witness = entry.witness
            decision.reason = f"entry ({row}, {col}) differs"
    statuses = {e.status for e in entries}
    if "refuted" in statuses:
        decision.status = "refuted"
    elif statuses == {"proved"}:
        decision.status = "proved"
    else:
        decision.reason = next(e.reason for e in entries if e.status == "unknown")
    return decision


def _entries(matrix: sp.ImmutableMatrix) -> dict[tuple[int, int], sp.Expr]:
    rows, cols = matrix.shape
    return {(r, c): matrix[r, c] for r in range(rows) for c in range(cols)}


def _decide_scalar(lhs: sp.Expr, rhs: sp.Expr) -> Decision:
    if lhs.has(sp.Sum) or rhs.has(sp.Sum):
        return _decide_sums(lhs, rhs)
    return _decide_polynomial(lhs, rhs)


def _decide_sums(lhs: sp.Expr, rhs: sp.Expr) -> Decision:
    """Sums over one range are decided termwise; a sum-free side is spread evenly."""
    decision = Decision("unknown", lhs, rhs, [Step("statement", sp.Eq(lhs, rhs, evaluate=False))])
    limits = common_limits(lhs, rhs)
    if limits is None:
        decision.reason = "only a single Sum per side over one common range is decided"
        return decision
    index, low, high = limits
    count = high - low + 1
    left, right = (summand(side, limits, count) for side in (lhs, rhs))
    if left is None or right is None:
        decision.reason = "a sum-free side depends on the summation index"
        return decision
    termwise = _decide_polynomial(left, right)
    decision.used("termwise", *termwise.methods)
    decision.steps.append(Step(f"termwise over {index} = {low} … {high}", sp.Eq(left, right, evaluate=False)))
    decision.steps += termwise.steps[1:]
    decision.certificates = termwise.certificates
    decision.conditions = termwise.conditions
    if count.is_integer is not True:
        decision.conditions.append(f"the number of terms {count} is a whole number")
    if termwise.status == "proved":
        decision.status = "proved"
        return decision
    decision.witness = find_witness(lhs - rhs)
    decision.status = "refuted" if decision.witness else "unknown"
    decision.reason = termwise.reason or "termwise difference is not zero"
    if decision.witness:
        decision.used("witness")
    return decision


def _decide_polynomial(lhs: sp.Expr, rhs: sp.Expr) -> Decision:
    difference = lhs - rhs
    decision = Decision("unknown", lhs, rhs, [Step("statement", sp.Eq(lhs, rhs, evaluate=False))])
    numerator, denominator = sp.fraction(sp.together(difference))
    if denominator != 1:
        decision.conditions.append(f"{sp.sstr(denominator)} ≠ 0")
        decision.steps.append(Step("the top of left side − right side over one denominator", numerator))
    try:
        translation = translate(numerator)
    except OutsideFragment as outside:
        decision.reason = f"outside the decidable fragment: {outside}"
        return decision
    decision.steps += atom_steps(translation)
    decision.steps.append(Step("left side − right side, in those variables", translation.polynomial))
    decision.used("Groebner reduction" if translation.relations else "multiplying out")
    basis, quotients, remainder = _reduce(translation)
    left = (
        "what is left after using sin² + cos² = 1" if translation.relations else "left side − right side multiplied out"
    )
    decision.steps.append(Step(f"{left} (0 means proved)", remainder))
    if remainder == 0:
        certificate = Certificate(translation.polynomial, basis, quotients)
        if certificate.verify():
            decision.status = "proved"
            decision.certificates.append(certificate)
        else:
            decision.reason = "the certificate did not re-check by expansion"
        return decision
    decision.witness = find_witness(difference)
    decision.status = "refuted" if decision.witness else "unknown"
    if decision.witness:
        decision.used("witness")
    else:
        decision.reason = "nonzero remainder but no numeric witness was confirmed"
    return decision


def _reduce(translation: Translation) -> tuple[tuple[sp.Expr, ...], tuple[sp.Expr, ...], sp.Expr]:
    """(Groebner basis, quotients, remainder) of the polynomial modulo the relations."""
    polynomial = translation.polynomial
    if not translation.relations:
        return (), (), sp.expand(polynomial)
    generators = translation.generators
    basis = tuple(sp.groebner(translation.relations, *generators, order="lex").exprs)
    if polynomial == 0:
        return basis, (sp.Integer(0),) * len(basis), sp.Integer(0)
    quotients, remainder = sp.reduced(polynomial, list(basis), *generators, order="lex")
    return basis, tuple(quotients), sp.expand(remainder)
