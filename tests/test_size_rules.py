"""Failures stated as rules: the simplest rule of the family separates failing from holding sizes."""

from __future__ import annotations

from fractions import Fraction

from checks.numerics.domain import Domain
from checks.numerics.size_rules import SizeRule, candidates, separating


def test_odd_sizes_read_as_every_odd_d_model():
    rule = separating([3, 119, 167], [4, 8, 64, 128])
    assert rule == SizeRule(2, frozenset({1})) and rule.describe() == "every odd d_model"


def test_a_rotated_count_that_is_odd_reads_as_a_residue_mod_8():
    """ "It fails at d_model = 4, 20, 36" where the rule is "d/4 odd": d_model ≡ 4 (mod 8)."""
    rule = separating([4, 20, 36], [8, 16, 24, 32, 40, 64])
    assert rule is not None and rule.describe() == "every d_model ≡ 4 (mod 8)"
    assert [d for d in range(2, 50, 2) if rule.matches(d)] == [4, 12, 20, 28, 36, 44]


def test_a_threshold_when_no_residue_separates():
    rule = separating([2, 3, 4], [5, 6, 7, 8, 9])
    assert rule == SizeRule(below=5) and rule.describe() == "every d_model below 5"
    assert separating([96, 128], [2, 4, 8, 64]) == SizeRule(at_least=96)
    assert separating([65, 66, 70], [2, 3, 4, 64]).describe() == "every d_model ≥ 65"


def test_no_rule_of_the_family_is_none_and_a_rule_never_matches_every_size():
    assert separating([4, 5], [3, 6, 7, 8, 9, 12, 13]) is None
    assert separating([4, 5], [3, 6, 7]) == SizeRule(4, frozenset({0, 1})), "consistent with the few sizes seen"
    residue_rules = [rule for rule in candidates(range(1, 9)) if rule.modulus]
    assert residue_rules == [], "1 … 8 take every residue: no residue rule"
    assert list(candidates([])) == []


def test_a_domain_without_a_rule_draws_no_size_it_names():
    domain = Domain().excluding_rule(SizeRule(2, frozenset({1})))
    assert domain.restricts_d_model and domain.d_model_values(1, 9) == [2, 4, 6, 8]
    assert "d_model ∉ every odd d_model" not in domain.describe() and "not every odd d_model" in domain.describe()


def test_one_failing_size_is_no_residue_class():
    """d_model = 2 alone (d = 1 and 3 holding) is not "every d_model ≡ 2 (mod 8)": a modulus needs two sizes."""
    assert separating([2], [1, 3, 4, 5, 6, 7, 9, 10]) is None
    assert separating([2], [3, 4, 5, 6]) == SizeRule(below=3), "a threshold may rest on the smallest size"


def test_the_rotated_count_is_a_rule_of_its_own_for_a_rope():
    """Issue 30: "d_model = 4, 20, 36" where half of each head rotates is "the rotated count d/4 is odd"."""
    rule = separating([4, 20, 36], [8, 16, 24, 32, 40, 64], pairs=Fraction(1, 4))
    assert rule == SizeRule(2, frozenset({1}), pairs=Fraction(1, 4))
    assert rule.describe() == "every d_model with an odd number of rotated pairs (d_model · 1/4 odd)"
    full = separating([2, 6, 10], [4, 8, 12, 16], pairs=Fraction(1, 2))
    assert full is not None and full.describe() == "every d_model with an odd number of pairs (d_model · 1/2 odd)"
    assert separating([2, 6, 10], [4, 8, 12, 16]).describe() == "every d_model ≡ 2 (mod 4)", "no RoPE: d_model's own"
