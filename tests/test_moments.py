"""Moments of polynomials in independent random variables (checks.symbolic.moments): footnote 4 of "Attention Is All
You Need" decided from its stated assumptions, wrong moments refuted with a witness, an unstated moment unknown,
and every certificate re-checked by the kernel."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from checks import Citation, Claim, Proof
from checks.engine.evaluate import dependency_of, evaluate
from checks.evidence.proof import ProofRecord
from checks.symbolic import RandomOutsideExpectation, kernel, moments

d_k = sp.Symbol("d_k", integer=True, positive=True)
n = sp.Symbol("n")
i = sp.Symbol("i", integer=True, positive=True)
FOOTNOTE = (
    "To illustrate why the dot products get large, assume that the components of q and k are independent random "
    "variables with mean 0 and variance 1."
)


def footnote(p: Proof) -> sp.Expr:
    """q · k = Σ_{i=1}^{d_k} q_i k_i with the footnote's assumptions."""
    q = p.random_vector("q", mean=0, variance=1)
    k = p.random_vector("k", mean=0, variance=1)
    p.independent(q, k)
    return sp.Sum(q[i] * k[i], (i, 1, d_k))


def test_footnote_4_is_proved_from_its_assumptions():
    p = Proof()
    dot = footnote(p)
    assert p.decide(p.expectation(dot), 0, label="E[q·k] = 0").status == "proved"
    assert p.decide(p.variance(dot), d_k, label="Var[q·k] = d_k").status == "proved"
    assert p.status == "proved"
    assert p.assumptions == [
        "q: components q_i independent, each with E q_i = 0, Var q_i = 1",
        "k: components k_i independent, each with E k_i = 0, Var k_i = 1",
        "q and k independent: all their components mutually independent",
    ]
    labels = [step.label.strip() for step in p.steps]
    assert "i_1 = i_2: d_k term(s); independence factors it" in labels
    assert "i_1 ≠ i_2: d_k*(d_k - 1) term(s); independence factors it" in labels
    certificates = [c for d in p.decisions for c in d.certificates]
    assert certificates and all(kernel.check(c) == "" for c in certificates)


def test_a_wrong_variance_is_refuted_with_a_witness():
    p = Proof()
    decision = p.decide(p.variance(footnote(p)), sp.Rational(6, 5) * d_k)
    assert decision.status == "refuted" and p.status == "refuted"
    assert decision.witness and int(decision.witness["d_k"]) >= 1
    assert float(decision.witness["difference"]) == pytest.approx(-0.2 * int(decision.witness["d_k"]))


def test_a_wrong_mean_is_refuted():
    p = Proof()
    decision = p.decide(p.expectation(footnote(p)), 1)
    assert decision.status == "refuted" and decision.witness


def test_a_scaled_dot_product_has_variance_one():
    """The reason for 1/√d_k: what the kernel does not read (1/√d_k) stands in its certificate as a variable."""
    p = Proof()
    p.decide(p.variance(footnote(p) / sp.sqrt(d_k)), 1)
    assert p.status == "proved"


def test_a_moment_not_stated_leaves_the_proof_unknown_never_proved():
    """Var[q_i²] = E q_i⁴ − 1 needs the fourth moment: unknown, and even a value that would refute stays unknown."""
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    p.decide(p.variance(q[i] ** 2), 2)
    p.refute(p.variance(q[i] ** 2), 7)
    assert p.status == "unknown"
    assert "E[q[i]**4] is not stated" in p.decisions[0].reason
    stated = Proof()
    q = stated.random_vector("q", mean=0, variance=1, moments={4: 3})
    stated.decide(stated.variance(q[i] ** 2), 2)
    assert stated.status == "proved" and "E q_i^4 = 3" in stated.assumptions[0]


def test_variables_not_stated_independent_have_no_product_moment():
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    k = p.random_vector("k", mean=0, variance=1)
    p.decide(p.expectation(sp.Sum(q[i] * k[i], (i, 1, d_k))), 0)
    assert p.status == "unknown" and "not stated independent" in p.decisions[0].reason


def test_the_same_variable_twice_is_not_two_independent_ones():
    """E[q_i q_i] = E q_i² = 1, not E q_i · E q_i = 0; different components are independent."""
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    assert p.decide(p.expectation(q[i] * q[i]), 1).status == "proved"
    assert p.decide(p.expectation(q[1] * q[2]), 0).status == "proved"
    assert p.decide(p.expectation(q[i] * q[i]), 0).status == "refuted"
    a, b = sp.symbols("a b", integer=True)
    maybe = Proof()
    q = maybe.random_vector("q", mean=0, variance=1)
    maybe.decide(maybe.expectation(q[a] * q[b]), 0)
    assert maybe.status == "unknown" and "may be the same one" in maybe.decisions[0].reason


def test_scalar_variables():
    p = Proof()
    x = p.random("x", mean=1, variance=2)
    y = p.random("y", mean=3, variance=1)
    p.independent(x, y)
    assert p.decide(p.expectation((x + y) ** 2), 19).status == "proved"  # E x² + 2 E x E y + E y² = 3 + 6 + 10
    assert p.decide(p.variance(x * y), 21).status == "proved"  # E x² E y² − (E x E y)² = 30 − 9
    assert p.decide(p.variance(x - y), 3).status == "proved"
    assert p.assumptions == ["x: E x = 1, Var x = 2", "y: E y = 3, Var y = 1", "x and y independent"]


def test_a_sum_over_a_symbolic_count():
    """(Σ_{i=1}^{n} q_i)² has mean n: the diagonal's n terms; the n(n − 1) others vanish. n is not assumed whole."""
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    p.decide(p.expectation(sp.Sum(q[i], (i, 1, n)) ** 2), n)
    assert p.status == "proved"
    assert p.conditions == ["the number of terms n is a whole number"]
    mean_one = Proof()
    q = mean_one.random_vector("q", mean=1, variance=1)
    mean_one.decide(mean_one.expectation(sp.Sum(q[i], (i, 1, n)) ** 2), n**2 + n)
    assert mean_one.status == "proved"


def test_sums_over_one_vector_with_different_ranges_are_unknown():
    """Σ_{i ≤ n} q_i · Σ_{j ≤ m} q_j has mean min(n, m): components of the two sums meet where the ranges overlap."""
    m, j = sp.Symbol("m", integer=True, positive=True), sp.Symbol("j", integer=True, positive=True)
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    p.decide(p.expectation(sp.Sum(q[i], (i, 1, d_k)) * sp.Sum(q[j], (j, 1, m))), 0)
    assert p.status == "unknown" and "different ranges" in p.decisions[0].reason
    k = p.random_vector("k", mean=0, variance=1)
    p.independent(q, k)
    p.decide(p.expectation(sp.Sum(q[i], (i, 1, d_k)) * sp.Sum(k[j], (j, 1, m))), 0)
    assert p.decisions[-1].status == "proved", "different vectors never meet"


def test_a_tampered_certificate_is_rejected_by_the_kernel():
    p = Proof()
    p.variance(footnote(p))
    certificate = p.decisions[-1].certificates[-1]
    assert kernel.check(certificate) == ""
    tampered = dataclasses.replace(
        certificate, polynomial=sp.Add(certificate.polynomial, sp.Rational(1, 5) * d_k, evaluate=False)
    )
    assert kernel.check(tampered) == "1 term(s) remain after multiplying out" and not tampered.verify()


def test_a_value_the_kernel_does_not_confirm_is_not_proved(monkeypatch):
    """Were SymPy's arithmetic wrong (here: 6/5 d_k for d_k), the kernel's check leaves the derivation unknown."""

    def lying(self, assembly):
        readable = self._readable(assembly)
        wrong = sp.expand(readable) * sp.Rational(6, 5)
        self.check(sp.Add(readable, sp.Mul(-1, wrong, evaluate=False), evaluate=False))
        return wrong

    monkeypatch.setattr(moments._Derive, "certify", lying)
    p = Proof()
    p.decide(p.variance(footnote(p)), sp.Rational(6, 5) * d_k)
    assert p.decisions[0].status == "unknown" and "did not re-check" in p.decisions[0].reason
    assert p.status == "unknown"


def test_a_random_variable_outside_an_expectation_is_refused():
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    with pytest.raises(RandomOutsideExpectation, match=r"random q, which has no single value.*p\.expectation"):
        p.decide(sp.Sum(q[i], (i, 1, d_k)), 0)


@pytest.mark.parametrize(
    ("declare", "message"),
    [
        (lambda p: p.random("x", mean=0.5), "float"),
        (lambda p: p.random("x", moments={2: 1}), "m ≥ 3"),
        (lambda p: [p.random("x"), p.random("x")], "already declared"),
        (lambda p: p.independent(p.random("x")), "two or more"),
    ],
)
def test_a_bad_declaration_is_one_message(declare, message):
    with pytest.raises(ValueError, match=message):
        declare(Proof())


def test_a_claim_with_this_proof_is_proved_and_its_record_carries_the_assumptions():
    claim = Claim(
        id="attention.dot-product-variance",
        title="q · k has mean 0 and variance d_k",
        statement="For independent components of mean 0 and variance 1, q · k has mean 0 and variance d_k.",
        sources=[
            Citation(
                "Attention Is All You Need", "Vaswani et al.", 2017, "3.2.1, footnote 4", FOOTNOTE, arxiv="1706.03762"
            )
        ],
        expect="proved",
    )

    @claim.proof
    def _(p):
        dot = footnote(p)
        p.decide(p.expectation(dot), 0, label="E[q·k] = 0")
        p.decide(p.variance(dot), d_k, label="Var[q·k] = d_k")

    record = evaluate(claim, lambda other: dependency_of(None))  # type: ignore[arg-type]
    assert str(record.observed) == "proved", record.errors
    (proof,) = [r for r in record.evidence if isinstance(r, ProofRecord)]
    assert proof.status == "proved"
    assert "q and k independent: all their components mutually independent" in proof.assumptions
    assert all(c.verified for d in proof.decisions for c in d.certificates)
