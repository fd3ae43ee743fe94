"""A check's inputs: ``checks.given`` and ``checks.example`` record them, and the harness builds Hypothesis's own
``@given``, ``@example`` and ``settings`` afresh for every run (no private attribute of Hypothesis is touched)."""

from __future__ import annotations

import hypothesis
import pytest
from hypothesis import strategies as st

from checks import Claim, example, given
from checks.evidence.check import Check
from checks.evidence.check.runner import run_check
from claims.catalog.works import LESSON_002

QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


def claim(name: str) -> Claim:
    return Claim(f"test.{name}", "t", "s", [QUOTE], "holds")


def test_every_run_draws_the_same_inputs_and_the_examples_come_first_in_their_order():
    c, drawn = claim("inputs"), []

    @c.check(
        dtypes=("float64", "float32"),
        backends=("numpy",),
        settings=hypothesis.settings(max_examples=5, derandomize=True, database=None),
    )
    @example(v=0.25)
    @example(v=0.75)
    @given(v=st.floats(0, 1))
    def records(t, v):
        drawn.append((t.dtype, v))

    runs = run_check(c.declared(Check)[0])
    assert [run.status for run in runs if run.ran] == ["passed", "passed"]
    first = [v for dtype, v in drawn if dtype == "float64"]
    second = [v for dtype, v in drawn if dtype == "float32"]
    assert first[:2] == [0.25, 0.75], "explicit examples first, top one first, as Hypothesis runs them"
    assert len(first) == 2 + 5 and first == second, "each run is built afresh from the same declaration"


def test_settings_given_to_the_check_hold_for_it_alone_and_the_profile_for_the_rest():
    c, counts = claim("settings"), {"small": 0, "profile": 0}

    @c.check(dtypes=("float64",), backends=("numpy",), settings=hypothesis.settings(max_examples=3))
    @given(v=st.integers(0, 10**6))
    def small(t, v):
        counts["small"] += 1

    @c.check(dtypes=("float64",), backends=("numpy",))
    @given(v=st.integers(0, 10**6))
    def profile(t, v):
        counts["profile"] += 1

    for check in c.declared(Check):
        run_check(check)
    assert counts["small"] == 3
    assert counts["profile"] == hypothesis.settings.default.max_examples


def test_hypothesis_own_given_is_refused_naming_the_one_to_use():
    c = claim("theirs")
    with pytest.raises(TypeError, match=r"@given from checks \(checks.given\)"):

        @c.check
        @hypothesis.given(v=st.floats(0, 1))
        def theirs(t, v):
            pass


def test_examples_above_and_below_given_run_topmost_first_as_in_hypothesis():
    c, drawn = claim("order"), []

    @c.check(dtypes=("float64",), backends=("numpy",), settings=hypothesis.settings(max_examples=1))
    @example(v=0.1)
    @given(v=st.floats(0, 1))
    @example(v=0.2)
    @example(v=0.3)
    def records(t, v):
        drawn.append(v)

    run_check(c.declared(Check)[0])
    assert drawn[:3] == [0.1, 0.2, 0.3]


def test_given_twice_is_refused():
    with pytest.raises(TypeError, match="applied twice"):
        given(v=st.floats(0, 1))(given(v=st.floats(0, 1))(lambda t, v: None))
    with pytest.raises(TypeError, match="applied twice"):
        given(v=st.floats(0, 1))(hypothesis.given(v=st.floats(0, 1))(lambda v: None))
