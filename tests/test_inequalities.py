"""decide(lhs, rhs, relation): no false inequality proved, most true ones proved, every certificate exact."""

from __future__ import annotations

import pytest
import sympy as sp

from checks.symbolic.decide import Certificate, decide
from tests.inequality_corpus import FALSE, TRUE, generated, s, t, x


def test_the_corpus_has_at_least_thirty_of_each():
    assert len(TRUE) >= 30 and len(FALSE) >= 30


@pytest.mark.parametrize(("lhs", "relation", "rhs"), FALSE, ids=[f"{lhs} {rel} {rhs}" for lhs, rel, rhs in FALSE])
def test_no_false_inequality_is_proved_and_each_is_refuted_at_a_confirmed_point(lhs, relation, rhs):
    decision = decide(lhs, rhs, relation)
    assert decision.status != "proved"
    assert decision.status == "refuted" and decision.witness, decision.reason


def test_at_least_80_percent_of_the_true_ones_are_proved_each_with_an_exact_certificate():
    proved = []
    for lhs, relation, rhs in TRUE:
        decision = decide(lhs, rhs, relation)
        assert decision.status != "refuted", (lhs, relation, rhs, decision.witness)
        if decision.status == "proved":
            (certificate,) = decision.certificates
            assert certificate.verify() and certificate.relation == (">" if relation in ("<", ">") else ">=")
            proved.append((lhs, relation, rhs))
    assert len(proved) >= 0.8 * len(TRUE), f"{len(proved)}/{len(TRUE)} proved"


def test_the_seeded_generator_gives_no_false_proof_and_proves_the_true_ones():
    true, false = generated(12, seed=20261201)
    assert generated(12, seed=20261201) == (true, false)
    statuses = [decide(lhs, rhs, relation).status for lhs, relation, rhs in true]
    assert "refuted" not in statuses and statuses.count("proved") >= 0.8 * len(true)
    assert all(decide(lhs, rhs, relation).status == "refuted" for lhs, relation, rhs in false)


def test_a_certificate_is_rechecked_by_exact_expansion_and_a_tampered_one_fails():
    (certificate,) = decide(s * sp.cos(t), sp.Rational(1, 2), "<=").certificates
    assert certificate.verify()
    heavier = Certificate(
        certificate.polynomial,
        certificate.relations,
        certificate.quotients,
        certificate.relation,
        tuple(w * 2 for w in certificate.weights),
        certificate.squares,
        certificate.epsilon,
    )
    negative = Certificate(
        certificate.polynomial,
        certificate.relations,
        certificate.quotients,
        certificate.relation,
        tuple(-w for w in certificate.weights),
        certificate.squares,
        certificate.epsilon,
    )
    assert not heavier.verify() and not negative.verify()


def test_a_strict_inequality_needs_a_positive_margin_and_a_touching_one_is_refuted_exactly():
    strict = decide(x**2 + 1, 0, ">")
    assert strict.status == "proved" and strict.certificates[0].epsilon > 0
    touching = decide(s**2, 1, "<")
    assert touching.status == "refuted" and touching.witness["difference"] == "0"


def test_outside_the_fragment_is_unknown_with_the_reason(monkeypatch):
    irrational = decide(s + sp.cos(t), sp.sqrt(2), "<=")
    assert irrational.status == "unknown" and "sqrt(2)" in irrational.reason
    assert decide(1 / (x**2 + 1), 1, "<=").status == "proved"  # a denominator known to be positive is multiplied out
    monkeypatch.setattr("checks.symbolic.inequality.find_violation", lambda *args, **kwargs: None)
    sign_changing = decide(1 / x, 1, "<=")
    assert sign_changing.status == "unknown" and "denominator x may change sign" in sign_changing.reason


def test_nonnegative_symbols_are_squares_so_a_bound_that_needs_their_sign_is_proved():
    n, d = sp.symbols("n d", positive=True)
    attention_minus_rnn = 6 * n * d**2 + 4 * n**2 * d - 4 * n * d**2
    assert decide(attention_minus_rnn, 0, ">=").status == "proved"
    free = sp.Symbol("n", real=True)
    assert decide(attention_minus_rnn.subs(n, free), 0, ">=").status == "refuted"
    with pytest.raises(ValueError, match="relation"):
        decide(s, 1, "=<")


def test_without_the_witness_search_no_false_inequality_gets_a_certificate(monkeypatch):
    """The certificate path alone, on every false inequality: the search may not find a point, but never proves."""
    monkeypatch.setattr("checks.symbolic.inequality.find_violation", lambda *args, **kwargs: None)
    statuses = {f"{lhs} {relation} {rhs}": decide(lhs, rhs, relation).status for lhs, relation, rhs in FALSE}
    assert set(statuses.values()) == {"unknown"}, statuses
