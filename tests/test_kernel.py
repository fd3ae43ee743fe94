"""The small proof kernel (checks.symbolic.kernel): exact rational polynomial arithmetic, its refusals, and
certificates tampered in one coefficient, which it must reject."""

from __future__ import annotations

import ast
import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from checks.symbolic import decide, kernel
from checks.symbolic.decision import Certificate

x, y, s, c = sp.symbols("x y s c", real=True)
PYTHAGORAS = s**2 + c**2 - 1


def test_arithmetic_is_exact_over_the_rationals():
    order = [x, y]
    square = kernel.read((x + sp.Rational(1, 3) * y) ** 2, order)
    assert square == {(2, 0): Fraction(1), (1, 1): Fraction(2, 3), (0, 2): Fraction(1, 9)}
    assert kernel.add(square, kernel.scale(square, Fraction(-1))) == {}
    assert kernel.read(sp.Integer(0), order) == {}


@pytest.mark.parametrize("expression", [sp.sin(x), sp.Float(0.5) * x, sp.sqrt(x), x ** sp.Symbol("n")])
def test_anything_but_a_rational_polynomial_is_refused(expression):
    with pytest.raises(kernel.NotPolynomial):
        kernel.read(expression, [x, sp.Symbol("n")])


def _identity() -> Certificate:
    """(s + c)² − 1 − 2sc ≡ 0 modulo s² + c² − 1: quotient 1."""
    return Certificate((s + c) ** 2 - 1 - 2 * s * c, (PYTHAGORAS,), (sp.Integer(1),))


def _inequality() -> Certificate:
    """2 − 2s ≥ 0 on the circle: 2 − 2s = 1·(s − 1)² + 1·c² − 1·(s² + c² − 1)."""
    return Certificate(2 - 2 * s, (PYTHAGORAS,), (sp.Integer(-1),), ">=", (sp.Integer(1), sp.Integer(1)), (s - 1, c))


def test_true_certificates_hold():
    assert kernel.check(_identity()) == "" and kernel.check(_inequality()) == ""


@pytest.mark.parametrize(
    "tamper",
    [
        lambda cert: dataclasses.replace(cert, polynomial=cert.polynomial + sp.Rational(1, 10**9)),
        lambda cert: dataclasses.replace(cert, quotients=(cert.quotients[0] + sp.Rational(1, 7),)),
        lambda cert: dataclasses.replace(cert, weights=(sp.Rational(1000001, 1000000), cert.weights[1])),
        lambda cert: dataclasses.replace(cert, weights=(sp.Integer(-1), cert.weights[1])),
        lambda cert: dataclasses.replace(cert, epsilon=sp.Rational(-1, 10)),
        lambda cert: dataclasses.replace(cert, squares=(cert.squares[0] + sp.Rational(1, 2) * c, cert.squares[1])),
        lambda cert: dataclasses.replace(cert, relation=">"),
    ],
)
def test_a_certificate_tampered_in_one_coefficient_is_rejected(tamper):
    tampered = tamper(_inequality())
    assert kernel.check(tampered) and not tampered.verify()


def test_an_identity_tampered_in_one_coefficient_is_rejected():
    tampered = dataclasses.replace(_identity(), polynomial=(s + c) ** 2 - 1 - sp.Rational(19, 10) * s * c)
    assert kernel.check(tampered) == "1 term(s) remain after multiplying out"


@pytest.mark.needs("sos")
def test_every_certificate_a_decision_keeps_holds_in_the_kernel():
    a, b = sp.symbols("a b", real=True)
    proved = [
        decide(sp.sin(a + b), sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b)),
        decide(sp.cos(a) + sp.cos(b), sp.Integer(3), relation="<="),
    ]
    for decision in proved:
        assert decision.status == "proved" and decision.certificates
        assert all(kernel.check(certificate) == "" for certificate in decision.certificates)


def test_the_kernel_is_small_and_calls_no_sympy_function():
    """Trust rests on a checker small enough to read: under 200 lines, reading SymPy trees without simplifying."""
    source = Path(kernel.__file__).read_text(encoding="utf-8")
    assert len(source.splitlines()) < 200
    called = {
        node.func.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "sp"
    }
    assert called == set(), called


def test_an_indexed_name_is_one_variable():
    """The termwise proofs over d/2 pairs keep x[2 i] and x[2 i + 1] in their certificates."""
    i = sp.Symbol("i", integer=True)
    v = sp.IndexedBase("x")
    even, odd = v[2 * i], v[2 * i + 1]
    assert (
        kernel.check(
            Certificate(
                (s * even + c * odd) ** 2 + (c * even - s * odd) ** 2 - even**2 - odd**2,
                (PYTHAGORAS,),
                (even**2 + odd**2,),
            )
        )
        == ""
    )
