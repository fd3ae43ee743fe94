"""decide(lhs, rhs, relation): no false inequality proved, most true ones proved, every certificate exact."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from checks.symbolic.decide import Certificate, decide
from tests.inequality_corpus import FALSE, TRUE, family_groups, generated, generated_sums, s, t, x

GROUPS = family_groups()


def test_the_corpus_has_at_least_thirty_of_each():
    assert len(TRUE) >= 30 and len(FALSE) >= 30


def test_the_families_hold_a_hundred_of_each_half_of_them_pair_sums_and_rope_bounds():
    true = [e for group_true, _ in GROUPS.values() for e in group_true]
    false = [e for _, group_false in GROUPS.values() for e in group_false]
    assert len(true) >= 100 and len(false) >= 100
    assert len(set(map(str, true))) == len(true) and len(set(map(str, false))) == len(false)
    paired = [*GROUPS["sums over 2–8 pairs"][0], *GROUPS["RoPE bounds"][0]]
    assert len(paired) >= len(true) / 2


def _gap(lhs: sp.Expr, relation: str, rhs: sp.Expr) -> sp.Expr:
    return rhs - lhs if relation in ("<=", "<") else lhs - rhs


@pytest.mark.parametrize("group", list(GROUPS))
def test_each_true_family_member_holds_at_thousands_of_points(group):
    """The truth of every true inequality, confirmed numerically apart from the decision: random angles and reals,
    and every free variable jointly at each multiple of π/12."""
    rng = np.random.default_rng(20261202)
    for lhs, relation, rhs in GROUPS[group][0]:
        gap = _gap(lhs, relation, rhs)
        symbols = sorted(gap.free_symbols, key=str)
        values = [np.concatenate([rng.uniform(-4, 4, 4000), np.arange(-12, 13) * np.pi / 12]) for _ in symbols]
        lowest = float(np.min(sp.lambdify(symbols, gap, modules="numpy")(*values)))
        assert lowest >= -1e-9, (lhs, relation, rhs, lowest)


@pytest.mark.needs("sos")
@pytest.mark.parametrize("group", list(GROUPS))
def test_of_each_family_95_percent_of_the_true_ones_are_proved_none_refuted(group):
    true = GROUPS[group][0]
    proved = [e for e in true if _decided(e, "proved")]
    assert len(proved) >= 0.95 * len(true), f"{len(proved)}/{len(true)} proved"


@pytest.mark.parametrize("group", list(GROUPS))
def test_of_each_family_90_percent_of_the_false_ones_are_refuted_none_proved(group):
    false = GROUPS[group][1]
    refuted = [e for e in false if _decided(e, "refuted")]
    assert len(refuted) >= 0.9 * len(false), f"{len(refuted)}/{len(false)} refuted"


def _decided(inequality: tuple[sp.Expr, str, sp.Expr], expected: str) -> bool:
    """Whether ``decide`` gives ``expected``; never the opposite verdict, and every certificate re-checks."""
    lhs, relation, rhs = inequality
    decision = decide(lhs, rhs, relation)
    assert decision.status != {"proved": "refuted", "refuted": "proved"}[expected], inequality
    assert all(certificate.verify() for certificate in decision.certificates)
    return decision.status == expected


@pytest.mark.needs("sos")
def test_the_seeded_sums_generator_is_reproducible_and_decided():
    true, false = generated_sums(16, seed=20261202)
    assert generated_sums(16, seed=20261202) == (true, false) != generated_sums(16, seed=1)
    assert sum(_decided(e, "proved") for e in true) >= 0.95 * len(true)
    assert sum(_decided(e, "refuted") for e in false) >= 0.9 * len(false)


@pytest.mark.parametrize(("lhs", "relation", "rhs"), FALSE, ids=[f"{lhs} {rel} {rhs}" for lhs, rel, rhs in FALSE])
def test_no_false_inequality_is_proved_and_each_is_refuted_at_a_confirmed_point(lhs, relation, rhs):
    decision = decide(lhs, rhs, relation)
    assert decision.status != "proved"
    assert decision.status == "refuted" and decision.witness, decision.reason


@pytest.mark.needs("sos")
def test_at_least_95_percent_of_the_true_ones_are_proved_each_with_an_exact_certificate():
    proved = []
    for lhs, relation, rhs in TRUE:
        decision = decide(lhs, rhs, relation)
        assert decision.status != "refuted", (lhs, relation, rhs, decision.witness)
        if decision.status == "proved":
            (certificate,) = decision.certificates
            assert certificate.verify() and certificate.relation == (">" if relation in ("<", ">") else ">=")
            proved.append((lhs, relation, rhs))
    assert len(proved) >= 0.95 * len(TRUE), f"{len(proved)}/{len(TRUE)} proved"


@pytest.mark.needs("sos")
def test_the_seeded_generator_gives_no_false_proof_and_proves_the_true_ones():
    true, false = generated(12, seed=20261201)
    assert generated(12, seed=20261201) == (true, false)
    statuses = [decide(lhs, rhs, relation).status for lhs, relation, rhs in true]
    assert "refuted" not in statuses and statuses.count("proved") >= 0.8 * len(true)
    assert all(decide(lhs, rhs, relation).status == "refuted" for lhs, relation, rhs in false)


@pytest.mark.needs("sos")
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


@pytest.mark.needs("sos")
def test_a_strict_inequality_needs_a_positive_margin_and_a_touching_one_is_refuted_exactly():
    strict = decide(x**2 + 1, 0, ">")
    assert strict.status == "proved" and strict.certificates[0].epsilon > 0
    touching = decide(s**2, 1, "<")
    assert touching.status == "refuted" and touching.witness["difference"] == "0"


@pytest.mark.needs("sos")
def test_outside_the_fragment_is_unknown_with_the_reason(monkeypatch):
    irrational = decide(s + sp.cos(t), sp.sqrt(2), "<=")
    assert irrational.status == "unknown" and "sqrt(2)" in irrational.reason
    assert decide(1 / (x**2 + 1), 1, "<=").status == "proved"  # a denominator known to be positive is multiplied out
    monkeypatch.setattr("checks.symbolic.inequality.find_violation", lambda *args, **kwargs: None)
    sign_changing = decide(1 / x, 1, "<=")
    assert sign_changing.status == "unknown" and "denominator x may change sign" in sign_changing.reason


@pytest.mark.needs("sos")
def test_nonnegative_symbols_are_squares_so_a_bound_that_needs_their_sign_is_proved():
    n, d = sp.symbols("n d", positive=True)
    attention_minus_rnn = 6 * n * d**2 + 4 * n**2 * d - 4 * n * d**2
    assert decide(attention_minus_rnn, 0, ">=").status == "proved"
    free = sp.Symbol("n", real=True)
    assert decide(attention_minus_rnn.subs(n, free), 0, ">=").status == "refuted"
    with pytest.raises(ValueError, match="relation"):
        decide(s, 1, "=<")


@pytest.mark.needs("sos")
def test_without_the_witness_search_no_false_inequality_gets_a_certificate(monkeypatch):
    """The certificate path alone, on every false inequality: the search may not find a point, but never proves."""
    monkeypatch.setattr("checks.symbolic.inequality.find_violation", lambda *args, **kwargs: None)
    statuses = {f"{lhs} {relation} {rhs}": decide(lhs, rhs, relation).status for lhs, relation, rhs in FALSE}
    assert set(statuses.values()) == {"unknown"}, statuses


@pytest.mark.needs("sos")
def test_a_sum_over_symbolic_pairs_is_decided_for_every_number_of_terms():
    """PE(pos)·PE(pos + k) ≤ d_model/2 for every even d_model: termwise cos(ω_i k) ≤ 1, with its certificate."""
    from checks.symbolic.document_formulas import d_model, k, omega, pairs_sum, pos

    w = omega()
    dot = pairs_sum(sp.sin(w * pos) * sp.sin(w * (pos + k)) + sp.cos(w * pos) * sp.cos(w * (pos + k)))
    bound = decide(dot, d_model / 2, "<=")
    assert bound.status == "proved" and bound.certificates[0].verify()
    assert any("termwise over i = 0" in step.label for step in bound.steps)
    assert decide(dot, -d_model / 2, ">=").status == "proved"
    assert decide(pairs_sum(sp.cos(w * k)), pairs_sum(sp.Integer(1)), "<=").status == "proved"
    tighter = decide(pairs_sum(sp.cos(w * k)), d_model / 2 - sp.Rational(1, 100), "<=")
    assert tighter.status == "refuted" and tighter.witness["terms"] == "1" and tighter.witness["k"] == "0"
    squared = decide(pairs_sum(sp.cos(w * k)) ** 2, d_model**2 / 4, "<=")
    assert squared.status == "unknown" and "single Sum per side" in squared.reason


@pytest.mark.needs("sos")
def test_a_termwise_bound_that_fails_only_for_some_sizes_is_not_proved_and_the_count_is_a_condition():
    n = sp.Symbol("n", integer=True)
    j = sp.Symbol("j", integer=True)
    spread = decide(sp.Sum(sp.cos(j * t) ** 2, (j, 1, n)), n, "<=")
    assert spread.status == "proved" and spread.conditions == ["the number of terms n is a whole number ≥ 1"]
    half_true = decide(sp.Sum(sp.sin(t), (j, 1, n)), sp.Sum(sp.Rational(1, 2), (j, 1, n)), "<=")
    assert half_true.status == "refuted" and half_true.witness["terms"] == "1"
