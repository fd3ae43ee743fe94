"""The decision procedure: every true identity proved, no false one proved."""

import pytest
import sympy as sp

from checks.symbolic import Proof, decide
from tests.identities import FALSE, TRUE, UNKNOWN, x


def test_corpus_sizes():
    assert len(TRUE) >= 25 and len(FALSE) >= 25


@pytest.mark.parametrize(("name", "lhs", "rhs"), TRUE, ids=[t[0] for t in TRUE])
def test_true_identity_is_proved_with_a_certificate(name, lhs, rhs):
    decision = decide(lhs, rhs)
    assert decision.status == "proved", decision.reason
    assert all(certificate.verify() for certificate in decision.certificates)


@pytest.mark.parametrize(("name", "lhs", "rhs"), FALSE, ids=[t[0] for t in FALSE])
def test_false_identity_is_refuted_with_a_witness(name, lhs, rhs):
    decision = decide(lhs, rhs)
    assert decision.status == "refuted", decision.reason
    assert decision.witness and decision.witness["difference"] not in ("0", "0.0")


@pytest.mark.parametrize(("name", "lhs", "rhs"), UNKNOWN, ids=[t[0] for t in UNKNOWN])
def test_outside_the_fragment_is_unknown_never_proved(name, lhs, rhs):
    decision = decide(lhs, rhs)
    assert decision.status == "unknown"
    assert decision.reason


def test_certificate_recheck_fails_when_tampered():
    certificate = decide(sp.sin(x) ** 4, (1 - sp.cos(x) ** 2) ** 2).certificates[0]
    tampered = type(certificate)(certificate.polynomial + 1, certificate.relations, certificate.quotients)
    assert certificate.verify() and not tampered.verify()


def test_text_is_never_parsed():
    with pytest.raises(TypeError, match="SymPy"):
        decide("sin(x)**2 + cos(x)**2", 1)


def test_shape_mismatch_is_unknown():
    assert decide(sp.Matrix([x]), sp.Matrix([x, x])).status == "unknown"


def test_symbolic_sum_records_even_condition_when_d_model_may_be_odd():
    i = sp.Symbol("i", integer=True, nonnegative=True)
    d = sp.Symbol("d", integer=True, positive=True)
    decision = decide(sp.Sum(sp.sin(x) ** 2 + sp.cos(x) ** 2, (i, 0, d / 2 - 1)), d / 2)
    assert decision.status == "proved"
    assert any("whole number" in c for c in decision.conditions)


def test_proof_status_needs_every_decision_and_fact():
    proof = Proof()
    proof.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    assert proof.status == "proved"
    proof.free_of(sp.sin(x), x)
    assert proof.status == "refuted"
    assert Proof().status == "unknown"


def test_refute_counts_a_witnessed_refutation_for_the_claim():
    proof = Proof()
    decision = proof.refute(sp.sin(x), sp.cos(x))
    assert decision.status == "refuted" and proof.status == "proved"
    wrong = Proof()
    wrong.refute(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    assert wrong.status == "refuted"


def test_a_floating_point_number_is_refused_before_anything_is_decided():
    """Issue 65 item 5: 0.1 + 0.2 = 0.3 written with Python floats was "refuted" by 5.6e-17 of rounding, with no
    warning. A statement to decide is exact; a float in it is refused, naming the number."""
    from checks.symbolic.decide import InexactNumber

    y = sp.Symbol("y", real=True)
    with pytest.raises(InexactNumber, match=r"0\.10* is a floating-point number"):
        decide(y + 0.1, y + sp.Rational(1, 10))
    with pytest.raises(InexactNumber, match=r"0\.30* is a floating-point number"):
        decide(sp.Float(0.1) + sp.Float(0.2), 0.3)
    with pytest.raises(InexactNumber, match="write it exactly"):
        decide(y * 0.5, y / 2)
    with pytest.raises(InexactNumber):
        decide(y**2 + 1.0, 0, ">=")
    assert decide(sp.Rational(1, 10) + sp.Rational(2, 10), sp.Rational(3, 10)).status == "proved"
