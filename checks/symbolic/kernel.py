"""A small proof kernel: every certificate re-checked by exact polynomial arithmetic over the rationals.

Trust in a proved decision rests here, not on SymPy's simplification. A polynomial is a plain dict from
exponent vectors to ``fractions.Fraction`` coefficients (no zero coefficient kept); SymPy expressions are only read
as trees (sums, products, non-negative integer powers, symbols, rationals) and anything else is refused. A
certificate holds when polynomial − ε − Σ wᵢ·fᵢ² − Σ qⱼ·gⱼ multiplies out to the zero polynomial, every weight is a
rational ≥ 0, and ε fits its relation (0 for "=", ≥ 0 for "≥", > 0 for ">").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

NAME = "checks.symbolic.kernel"
"""The kernel named beside each certificate it checked."""

Monomial = tuple[int, ...]
Polynomial = dict[Monomial, Fraction]


class NotPolynomial(ValueError):
    """An expression the kernel does not read: not a polynomial with rational coefficients."""


def add(*polynomials: Polynomial) -> Polynomial:
    total: Polynomial = {}
    for polynomial in polynomials:
        for monomial, coefficient in polynomial.items():
            total[monomial] = total.get(monomial, Fraction(0)) + coefficient
    return {monomial: c for monomial, c in total.items() if c != 0}


def scale(polynomial: Polynomial, factor: Fraction) -> Polynomial:
    return {monomial: factor * c for monomial, c in polynomial.items()} if factor != 0 else {}


def multiply(left: Polynomial, right: Polynomial) -> Polynomial:
    product: Polynomial = {}
    for a, x in left.items():
        for b, y in right.items():
            monomial = tuple(i + j for i, j in zip(a, b, strict=True))
            product[monomial] = product.get(monomial, Fraction(0)) + x * y
    return {monomial: c for monomial, c in product.items() if c != 0}


def power(polynomial: Polynomial, exponent: int, width: int) -> Polynomial:
    result = constant(Fraction(1), width)
    for _ in range(exponent):
        result = multiply(result, polynomial)
    return result


def constant(value: Fraction, width: int) -> Polynomial:
    return {(0,) * width: value} if value != 0 else {}


VARIABLES = (sp.Symbol, sp.Indexed)
"""What counts as one variable: a symbol, or an indexed name such as x[2 i] (its index is part of the name)."""


def variables(expressions: Iterable[sp.Basic]) -> list[sp.Basic]:
    """The variables of the expressions, ordered by how they print (read off the trees)."""
    found: dict[str, sp.Basic] = {}
    stack = list(expressions)
    while stack:
        node = stack.pop()
        if isinstance(node, VARIABLES):
            found[str(node)] = node
        else:
            stack.extend(node.args)
    return [found[name] for name in sorted(found)]


def read(expression: Any, order: Sequence[sp.Basic]) -> Polynomial:
    """A SymPy tree as a polynomial over ``order``; NotPolynomial for anything else (a sine, a float, x^(1/2))."""
    width = len(order)
    if isinstance(expression, sp.Rational):
        return constant(Fraction(int(expression.p), int(expression.q)), width)
    if isinstance(expression, VARIABLES):
        if expression not in order:
            raise NotPolynomial(f"{expression} is not one of the variables")
        exponents = [0] * width
        exponents[list(order).index(expression)] = 1
        return {tuple(exponents): Fraction(1)}
    if isinstance(expression, sp.Add):
        return add(*(read(term, order) for term in expression.args))
    if isinstance(expression, sp.Mul):
        product = constant(Fraction(1), width)
        for factor in expression.args:
            product = multiply(product, read(factor, order))
        return product
    if isinstance(expression, sp.Pow) and isinstance(expression.exp, sp.Integer) and int(expression.exp) >= 0:
        return power(read(expression.base, order), int(expression.exp), width)
    raise NotPolynomial(f"{type(expression).__name__} is not read by the kernel: {expression}")


def _rational(value: Any) -> Fraction | None:
    return Fraction(int(value.p), int(value.q)) if isinstance(value, sp.Rational) else None


def check(certificate: Any) -> str:
    """Why the certificate does not hold ("" when it does), by exact arithmetic alone."""
    if len(certificate.quotients) != len(certificate.relations) or len(certificate.weights) != len(certificate.squares):
        return "the certificate's lists do not pair up"
    weights = [_rational(w) for w in certificate.weights]
    epsilon = _rational(certificate.epsilon)
    if epsilon is None or any(w is None or w < 0 for w in weights):
        return "a weight or ε is not a rational ≥ 0"
    if certificate.relation == "=" and (weights or epsilon != 0):
        return "an identity's certificate has squares or ε ≠ 0"
    if epsilon < 0 or (certificate.relation == ">" and epsilon <= 0):
        return f"ε = {epsilon} does not fit the relation {certificate.relation}"
    expressions = [certificate.polynomial, *certificate.relations, *certificate.quotients, *certificate.squares]
    order = variables(expressions)
    width = len(order)
    try:
        residual = add(read(certificate.polynomial, order), constant(-epsilon, width))
        for weight, square in zip(weights, certificate.squares, strict=True):
            residual = add(residual, scale(power(read(square, order), 2, width), -weight))
        for quotient, relation in zip(certificate.quotients, certificate.relations, strict=True):
            residual = add(residual, scale(multiply(read(quotient, order), read(relation, order)), Fraction(-1)))
    except NotPolynomial as error:
        return str(error)
    if residual:
        return f"{len(residual)} term(s) remain after multiplying out"
    return ""
