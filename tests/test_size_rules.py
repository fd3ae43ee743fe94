"""Failures stated as rules: the simplest rule of the family separates failing from holding sizes, each residue
class on two failing sizes of its own, and one rule for the dtypes of an implementation that fail the same way."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import hypothesis
import numpy as np
import pytest
import torch
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks import Claim, given
from checks.evidence.check import Check, runner
from checks.numerics.current import current_run
from checks.numerics.domain import Domain
from checks.numerics.size_rules import SizeRule, candidates, separating
from checks.rope import rope_rows
from checks.strategies import UNIT
from claims.catalog.works import LESSON_002
from tests.faulty_adapters import OddHeadRope, rotate

QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


def test_odd_sizes_read_as_every_odd_d_model():
    rule = separating([3, 119, 167], [4, 8, 64, 128])
    assert rule == SizeRule(2, frozenset({1})) and rule.describe() == "every odd d_model"


def test_a_class_that_holds_at_its_smallest_size_starts_where_the_failures_do():
    """Issue 65 item 1: document 000's PyTorch class fails at every odd d_model but 1; no rule could say so, and the
    message read "fails at every size tried"."""
    rule = separating([3, 181, 13], [1, 2, 4, 64, 128])
    assert rule == SizeRule(2, frozenset({1}), at_least=3) and rule.describe() == "every odd d_model ≥ 3"
    assert [d for d in range(1, 10) if rule.matches(d)] == [3, 5, 7, 9]


def test_a_rule_drawn_from_even_sizes_names_no_odd_one_and_few_sizes_are_listed():
    """Issue 65 (the researcher's trial): with even sizes drawn, "every heads that is not a power of 2" named odd
    head counts never tried; "holds at heads 1 … 16" read as a span where only 1, 2, 4, 8 and 16 held."""
    from checks.evidence.check.sizes import sizes_said

    rule = separating([6, 12, 28], [2, 4, 8, 16, 32], families=("powers of 2",))
    assert rule is not None and rule.describe("heads") == "every even number of heads that is not a power of 2"
    assert not rule.matches(3) and rule.matches(6)
    assert sizes_said([1, 2, 4, 8, 16, 2]) == "1, 2, 4, 8, 16" and sizes_said(list(range(2, 66, 2))) == "2 … 64"


def test_a_topics_size_family_and_name_make_its_rules():
    """A topic of heads sized in powers of 2 (ALiBi's slopes): "not a power of 2" is a rule of its family, and where
    only powers of 2 were drawn no residue class names sizes never drawn ("every even number of heads"); a plural
    size reads as a count ("every heads" is no English)."""
    families = ("powers of 2",)
    rule = separating([3, 5, 6, 12], [1, 2, 4, 8, 16], families=families)
    not_power = "every number of heads that is not a power of 2"
    assert rule == SizeRule(power_of_two=False) and rule.describe("heads") == not_power
    only_powers = separating([8, 16, 32], [1, 2, 4], families=families)
    assert only_powers == SizeRule(at_least=8) and only_powers.describe("heads") == "every number of heads ≥ 8"
    drawn = [1, 2, 4, 8, 16, 32]
    assert all(not rule.modulus for rule in candidates([8, 16, 32], families=families, drawn=drawn))
    assert any(rule.modulus for rule in candidates([8, 16, 32], drawn=drawn)), "without the family, residue classes"


def test_a_rotated_count_that_is_odd_reads_as_a_residue_mod_8():
    """ "It fails at d_model = 4, 20, 36" where the rule is "d/4 odd": d_model ≡ 4 (mod 8)."""
    rule = separating([4, 20, 36], [8, 16, 24, 32, 40, 64])
    assert rule is not None and rule.describe() == "every d_model ≡ 4 (mod 8)"
    assert [d for d in range(2, 50, 2) if rule.matches(d)] == [4, 12, 20, 28, 36, 44]


def test_a_threshold_when_no_residue_separates():
    rule = separating([2, 3, 4], [5, 6, 7, 8, 9])
    assert rule == SizeRule(below=5) and rule.describe() == "every d_model below 5"
    assert separating([96, 128], [2, 4, 8, 64]) == SizeRule(at_least=96, even=True), "only even sizes drawn"
    assert separating([96, 128], [2, 4, 8, 64]).describe() == "every even d_model ≥ 96"
    assert separating([65, 66, 70], [2, 3, 4, 64]).describe() == "every d_model ≥ 65"


def test_no_rule_of_the_family_is_none_and_a_rule_never_matches_every_size():
    assert separating([4, 5], [3, 6, 7, 8, 9, 12, 13]) is None
    assert separating([4, 5, 8, 9], [3, 6, 7]) == SizeRule(4, frozenset({0, 1})), "consistent with the sizes seen"
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


def test_each_residue_class_a_rule_names_needs_two_failing_sizes_of_its_own():
    """Issue 46: "d_model = 2, 4, 6" (1, 3, 5, 7, 8, 9 holding) was "every d_model ≡ 2, 4, 6 (mod 8)", each class
    resting on one size; 10 ≡ 2 (mod 8) holds but was not drawn."""
    assert separating([2, 4, 6], [1, 3, 5, 7, 8, 9]) is None
    assert not [rule for rule in candidates([2, 4, 6]) if rule.modulus in (4, 8)], "class 0 mod 4 holds 4 alone"
    assert separating([2, 4, 6, 10, 12, 14], [1, 3, 5, 7, 8, 9, 16]) == SizeRule(8, frozenset({2, 4, 6}))
    assert SizeRule(8, frozenset({2})) in candidates([2, 10]) and SizeRule(8, frozenset({2})) not in candidates([2, 4])
    assert not SizeRule(8, frozenset({2, 4})).rests_on([2, 10, 4]), "4 alone in its class"
    assert SizeRule(2, frozenset({1}), pairs=Fraction(1, 2)).rests_on([2, 6]), "two odd pair counts (1 and 3)"
    one = separating([2], [4, 6], pairs=Fraction(1, 2))
    assert one == SizeRule(below=3, even=True), "one odd pair count is no class"


def test_a_rule_a_holding_size_matches_is_withdrawn():
    """Any size drawn that matches a rule and held withdraws it, a threshold as a residue class."""
    assert SizeRule(8, frozenset({2})).contradicted_by([3, 18, 4, 26]) == [18, 26]
    assert separating([2, 10], [3, 4, 5, 6]) == SizeRule(8, frozenset({2}))
    assert separating([2, 10], [3, 4, 5, 6, 18]) is None, "18 ≡ 2 (mod 8) held"
    assert separating([2], [3, 4]) == SizeRule(below=3) and separating([2], [1, 3, 4]) is None, "1 held below 3"


class BelowEightRope:
    """Raises at d_model 2, 4 and 6: below 8, but no residue class mod 8 (10 ≡ 2 holds)."""

    name, pairing = "test-below-eight", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] in (2, 4, 6):
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


class OddCrashRope:
    """Raises at every odd d_model, in every dtype."""

    name, pairing = "test-odd-crash", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] % 2:
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


class TwoPathsRope:
    """Two code paths, each with a fault of its own: the bfloat16 one raises at d_model = 2, the other one at every
    odd d_model."""

    name, pairing = "test-two-paths", "interleaved"

    def rope(self, x, positions):
        if x.dtype == torch.bfloat16 and x.shape[-1] == 2:
            raise OverflowError("bfloat16 path")
        if x.dtype != torch.bfloat16 and x.shape[-1] % 2:
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


@st.composite
def rows_of_the_dtype(draw: st.DrawFn, sizes: dict[str, tuple[int, ...]]) -> np.ndarray:
    """A row of d_model entries in [−1, 1], d_model from the run's dtype's own ``sizes`` inside the domain: each
    dtype's run draws other sizes, as Hypothesis runs do."""
    run = current_run()
    assert run is not None
    taken = [d for d in sizes[run.dtype] if run.domain.takes_d_model(d)]
    hypothesis.assume(taken)
    return draw(arrays(np.float64, (1, draw(st.sampled_from(taken))), elements=UNIT))


def failures(adapter: Any, sizes: dict[str, tuple[int, ...]], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Each failed dtype's message, for ``adapter`` alone in a check (RoPE keeps a row's norm) that draws d_model
    from ``sizes`` of its dtype."""
    monkeypatch.setattr(runner, "offering", lambda uses: [adapter])
    c = Claim(f"test.sizes-{adapter.name}", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=60, derandomize=True, database=None)

    @c.check(dtypes=tuple(sizes), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(row=rows_of_the_dtype(sizes))
    def keeps_norms(t, row):
        t.close(np.linalg.norm(rope_rows(t.impl, row, [3]), axis=-1), np.linalg.norm(row, axis=-1), label="‖x‖")

    runs = runner.run_check(c.declared(Check)[0])
    assert all(run.status in ("passed", "failed") for run in runs), [run.message for run in runs]
    return {run.dtype: run.message for run in runs if run.status == "failed"}


def test_a_failure_below_8_is_no_residue_class_mod_8(monkeypatch):
    """Issue 46: d_model = 2, 4, 6 failing (1, 3, 5, 7, 8, 9 holding) read "every d_model ≡ 2, 4, 6 (mod 8)"."""
    (said,) = failures(BelowEightRope(), {"float64": tuple(range(1, 10))}, monkeypatch).values()
    assert "It fails for d_model = 2, 4, 6; holds for d_model 1, 3, 5, 7, 8, 9 over " in said, said
    assert "≡" not in said and "It fails for every" not in said, said


def test_the_dtypes_of_an_implementation_pool_their_sizes_into_one_rule(monkeypatch):
    """Issue 46: each dtype drew other sizes and read another rule: float32, failing at 3 alone, "below 4"."""
    said = failures(OddCrashRope(), {"float64": (1, 2, 3, 4, 5, 6), "float32": (3, 4, 6, 8)}, monkeypatch)
    assert set(said) == {"float64", "float32"}
    for message in said.values():
        assert "It fails for every odd d_model (tried: d_model = 1, 3, 5); holds at the other sizes drawn" in message
        assert "the sizes of float32 and float64 pooled" in message and "By dtype" not in message, message


def test_a_rule_that_another_dtype_contradicts_is_withdrawn(monkeypatch):
    """float64 alone (8, 10, 12 holding) would read "every d_model below 7", float32 alone (1, 3, 5, 7 holding)
    "every even d_model": each is contradicted by a size the other held at."""
    said = failures(BelowEightRope(), {"float64": (2, 4, 6, 8, 10, 12), "float32": tuple(range(1, 8))}, monkeypatch)
    assert set(said) == {"float64", "float32"}
    for message in said.values():
        assert "It fails for d_model = 2, 4, 6; holds for d_model " in message and "every" not in message, message


def test_dtypes_that_fail_in_ways_of_their_own_say_each_rule(monkeypatch):
    """A bfloat16 path that raises something else pools apart: each message states its own rule and all of them."""
    sizes = {"float64": (1, 2, 3, 4, 5, 6), "float32": (1, 2, 3, 4, 5, 6), "bfloat16": (2, 3, 4, 6, 8)}
    said = failures(TwoPathsRope(), sizes, monkeypatch)
    assert set(said) == set(sizes)
    assert "It fails for every odd d_model (tried: d_model = 1, 3, 5)" in said["float64"]
    assert "It fails for every d_model below 3 (tried: d_model = 2)" in said["bfloat16"]
    both = "By dtype, in bfloat16: every d_model below 3; in float32 and float64: every odd d_model"
    assert all(message.endswith(both) for message in said.values()), said


def test_a_fault_that_some_inputs_hide_keeps_its_rule(monkeypatch):
    """A zero last entry passes faulty-odd-head at an odd d_model: one input that passed says nothing of the next, so
    only a run that held makes a size a holding one there."""
    (said,) = failures(OddHeadRope(), {"float64": tuple(range(1, 10))}, monkeypatch).values()
    assert "It fails for every odd d_model (tried: d_model = " in said, said


def test_a_domain_s_sizes_asked_again_are_the_same_and_a_sub_domain_asks_afresh():
    """d_model_values is kept per domain (strategies ask for every example); a set-aside size is never answered from
    the domain it was set aside from."""
    declared = Domain(d_models=tuple(range(2, 4097, 2)))
    assert declared.d_model_values(1, 10) == [2, 4, 6, 8, 10] == declared.d_model_values(1, 10)
    narrower = declared.excluding([4]).excluding_rule(SizeRule(8, frozenset({6})))
    assert narrower.d_model_values(1, 10) == [2, 8, 10] and not narrower.takes_d_model(4)
    assert declared.d_model_values(1, 10) == [2, 4, 6, 8, 10] and declared == Domain(d_models=tuple(range(2, 4097, 2)))


class AllButTenRope:
    """Raises at every d_model ≡ 2 (mod 4) but 10, where it is exact."""

    name, pairing = "test-all-but-ten", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] % 4 == 2 and x.shape[-1] != 10:
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


@st.composite
def rows_rarely_of_ten(draw: st.DrawFn) -> np.ndarray:
    """A row of d_model 2 … 14, where 10 is drawn only by a run on a rule's sizes alone: a run that draws from
    many sizes may never draw the one where an implementation is exact."""
    run = current_run()
    assert run is not None
    rare = run.domain.only_rule is not None
    taken = [d for d in range(2, 15) if run.domain.takes_d_model(d) and (d != 10 or rare)]
    hypothesis.assume(taken)
    return draw(arrays(np.float64, (1, draw(st.sampled_from(taken))), elements=UNIT))


def test_a_size_the_rule_names_where_the_implementation_is_exact_withdraws_it(monkeypatch):
    """Issue 65: runs that never drew 10 read "every d_model ≡ 2 (mod 4)"; a run on the rule's sizes alone draws
    10, holds there, and the rule is withdrawn: the failing sizes are listed instead."""
    adapter = AllButTenRope()
    monkeypatch.setattr(runner, "offering", lambda uses: [adapter])
    c = Claim("test.sizes-all-but-ten", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=60, derandomize=True, database=None)

    @c.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(row=rows_rarely_of_ten())
    def keeps_norms(t, row):
        t.close(np.linalg.norm(rope_rows(t.impl, row, [3]), axis=-1), np.linalg.norm(row, axis=-1), label="‖x‖")

    (run,) = runner.run_check(c.declared(Check)[0])
    assert "It fails for d_model = 2, 6, 14; holds for d_model " in run.message, run.message
    assert "every" not in run.message, run.message


class TwentyInFloat32Rope:
    """Raises at d_model 2 in every dtype, and at 20 in float32 alone."""

    name, pairing = "test-twenty-in-float32", "interleaved"

    def rope(self, x, positions):
        if x.shape[-1] == 2 or (x.shape[-1] == 20 and x.dtype == torch.float32):
            raise ZeroDivisionError("float division by zero")
        return rotate(x, positions)


def test_a_size_that_failed_in_one_dtype_and_held_in_another_is_not_said_to_fail_and_hold(monkeypatch):
    """Issue 65 (the second researcher's trial): "It fails for d_ff = 2, 20, …; holds for d_ff 4 … 60 with d_ff = 2
    set aside": the sizes pooled from another dtype beside a run of this one that held at them. Each dtype then says
    its own failing sizes."""
    sizes = {"float64": (2, 4, 6, 20) * 3, "float32": (2, 4, 6, 20) * 3}
    said = failures(TwentyInFloat32Rope(), sizes, monkeypatch)
    assert "It fails for d_model = 2; holds for d_model 4, 6, 20 over " in said["float64"], said["float64"]
    assert "It fails for d_model = 2, 20; holds for d_model 4, 6 over " in said["float32"], said["float32"]
