"""Batched checks: a Hypothesis test case holds a Batch of examples, compared row by row (the check harness)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from checks import Claim, Quote
from checks import given as check_given
from checks.evidence.check import Check, CheckRun
from checks.evidence.check.harness import Trial, VacuousTolerance
from checks.evidence.check.rows import BatchShapeError
from checks.evidence.check.runner import batch_size, run_check
from checks.helpers.variable_strategies import (
    Batch,
    as_batch,
    position_batches,
    position_offset_batches,
    position_pair_batches,
)
from checks.implementations.registry import by_name
from checks.numerics.backends import NumpyBackend
from checks.numerics.current import CurrentRun, running

QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
THOROUGH = settings(max_examples=10_000, database=None, deadline=None, derandomize=False)
"""The thorough profile's budget; random even where the loaded profile is the derandomized ci (a derandomized run
replays the same test cases in every top-up round, which then adds nothing)."""


def trial(dtype: str = "float32") -> Trial:
    run = CheckRun("check", "cpu", dtype, implementation="reference-numpy")
    return Trial(run, NumpyBackend(dtype), by_name("reference-numpy"))


def claim(name: str) -> Claim:
    return Claim(id=f"batch.{name}", title="t", statement="s", sources=[QUOTE], expect="holds")


def test_rows_are_examples_counted_once_each():
    t = trial()
    t.begin({"pos": as_batch([0, 1, 2]), "d": 4})
    t.begin({"pos": as_batch([2, 3]), "d": 4})
    assert t.run.examples == 4, "(2, 4) was seen in both batches"
    t.begin({"pos": as_batch([2]), "d": 6})
    assert t.run.examples == 5


def test_a_rejected_test_case_is_no_example():
    """An ``assume`` that rejects a whole test case (one example, or a batch) leaves the count as it was; an input
    seen before the rejected test case stays counted."""
    t = trial()
    t.begin({"x": np.array([0.5]), "d": 4})
    t.begin({"x": np.array([0.25]), "d": 4})
    t.rejected()
    assert t.run.examples == 1
    t.begin({"x": np.array([0.5]), "d": 4})
    t.rejected()
    t.begin({"pos": as_batch([0, 1]), "d": 4})
    t.rejected()
    assert t.run.examples == 1, "the first example was seen before it was rejected again"
    assert t.rows.rejections == 3, "0.25 and the batch's two rows"


def test_large_inputs_are_counted_by_digest_not_kept():
    """A run's count keeps one short key per distinct input, whatever the input's size."""
    t = trial()
    large = np.arange(100_000, dtype=np.float64)
    t.begin({"x": large})
    t.begin({"x": large.copy()})
    t.begin({"x": large[::-1]})
    assert t.run.examples == 2
    assert all(len(repr(key)) < 200 for key in t.rows._seen)


def test_each_row_gets_the_tolerance_at_its_own_scale_and_the_failing_row_is_the_input():
    t = trial()
    pos = as_batch([1, 100_000])
    t.begin({"pos": pos, "d": 2})
    error = 1e-3  # within rtol · 100000 (0.13), far beyond the tolerance at position 1 (1.1e-5)
    t.close(np.array([0.0, error]), np.zeros(2), scale=pos)
    assert t.run.worst_input == {"pos": "100000", "d": "2"}
    with pytest.raises(AssertionError, match=r"at \{'pos': '1', 'd': '2'\}"):
        t.close(np.array([error, 0.0]), np.zeros(2), scale=pos)


def test_one_sided_bounds_and_differences_are_row_by_row():
    t = trial()
    t.begin({"pos": as_batch([5, 6])})
    t.at_most(np.array([[0.5, 1.0], [0.2, 0.3]]), np.ones((2, 2)))
    with pytest.raises(AssertionError, match=r"at \{'pos': '6'\}"):
        t.at_most(np.array([[0.5, 1.0], [0.2, 1.5]]), np.ones((2, 2)))
    t.begin({"pos": as_batch([5, 6])})
    with pytest.raises(AssertionError, match=r"at \{'pos': '5'\}"):
        t.differ(np.array([1.0, 2.0]), np.array([1.0, 1.0]))


def test_a_comparison_without_one_row_per_example_is_a_broken_check():
    t = trial()
    t.begin({"pos": as_batch([0, 1, 2])})
    with pytest.raises(BatchShapeError, match="one row per example"):
        t.close(np.zeros(2), np.zeros(2))
    with pytest.raises(BatchShapeError, match="different lengths"):
        t.begin({"pos": as_batch([0, 1]), "k": as_batch([0])})


@pytest.mark.filterwarnings("ignore:Using `assume` outside a property-based test")
def test_keep_drops_rows_from_the_count_and_the_comparisons():
    t = trial()
    t.begin({"pos": as_batch([7, 8, 9])})
    t.keep(np.array([True, False, True]))
    assert t.run.examples == 2
    with pytest.raises(AssertionError, match=r"at \{'pos': '9'\}"):
        t.close(np.array([0.0, 1.0]), np.zeros(2))


def test_rows_of_a_tuple_of_batches_are_shown_together():
    t = trial()
    q, key = as_batch([[1.0, 0.0], [0.0, 1.0]]), as_batch([[0.5, 0.5], [0.25, 0.75]])
    t.begin({"qk": (q, key)})
    with pytest.raises(AssertionError, match=r"'qk': '\(\[0.0, 1.0\], \[0.25, 0.75\]\)'"):
        t.close(np.array([0.0, 1.0]), np.zeros(2))


def test_an_input_outside_a_comparison_reads_as_its_values_not_as_a_batch():
    t = trial()
    t.begin({"pos": as_batch([0]), "d": 3, "x": np.array([1.5, 2.0])})
    assert t.current_input == {"pos": "0", "d": "3", "x": "[1.5, 2.0]"}, "a crash before any comparison"
    t.begin({"pos": as_batch([4, 5]), "d": 3})
    assert t.current_input == {"pos": "[4, 5]", "d": "3"}


@given(st.data())
def test_position_batches_are_distinct_or_the_whole_range(data):
    with running(CurrentRun("float64", batch=100)):
        drawn = data.draw(position_batches())
        assert len(drawn) == 100 and len(set(drawn.tolist())) == 100
    with running(CurrentRun("float16", batch=100)):
        assert data.draw(position_batches()).tolist() == list(range(129)), "float16's positions 0 … 128, all of them"


@pytest.mark.needs("torch")
def test_a_domain_smaller_than_the_profile_asks_is_drawn_whole_and_no_more():
    c = claim("exhausted")

    @c.check(dtypes=("bfloat16",), backends=("torch",), batched=True, settings=THOROUGH)
    @check_given(pos=position_batches(), d=st.integers(1, 3))
    def tiny(t, pos, d):
        t.close(t.impl.sinusoidal(pos, 2), t.impl.sinusoidal(pos, 2), label="PE")

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.examples == 9 * 3, "bfloat16's positions 0 … 8 at three d"


@given(st.data())
def test_pairs_and_shifts_from_so_small_a_range_are_drawn_whole(data):
    """bfloat16's 9 positions × 17 shifts: drawn at random, the last of the 153 rows took a thorough run thousands
    of test cases (31 s and 215 MB in pe.shift-is-rotation); every one is now in each test case."""
    with running(CurrentRun("bfloat16", batch=100)):
        at, pq = data.draw(position_offset_batches()), data.draw(position_pair_batches())
    assert sorted(map(tuple, at.tolist())) == [(p, k) for p in range(9) for k in range(-8, 9)]
    assert sorted(map(tuple, pq.tolist())) == [(p, q) for p in range(9) for q in range(9)]
    with running(CurrentRun("float16", batch=100)):
        assert len(data.draw(position_offset_batches())) <= 129, "129 × 257 rows: a shift drawn per position"


@pytest.mark.needs("torch")
def test_a_run_over_so_small_a_domain_ends_in_few_test_cases():
    c = claim("whole-product")
    cases = []

    @c.check(dtypes=("bfloat16",), backends=("torch",), batched=True, settings=THOROUGH)
    @check_given(at=position_offset_batches(), d=st.integers(1, 3))
    def tiny(t, at, d):
        cases.append(len(at))
        t.close(t.impl.sinusoidal(at[:, 0] + at[:, 1], 2), t.impl.sinusoidal(at.sum(axis=1), 2), label="PE")

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.status == "passed" and run.examples == 153 * 3, "every (pos, k) at three d"
    assert len(cases) <= 120, f"{len(cases)} test cases"


@pytest.mark.needs("torch")
def test_thorough_runs_a_hundred_test_cases_of_a_hundred_distinct_examples():
    assert batch_size(10_000) == 100 and batch_size(40) == 1
    sizes = []
    c = claim("count")

    @c.check(dtypes=("float64",), backends=("numpy",), batched=True, settings=THOROUGH)
    @check_given(pos=position_batches(), d=st.integers(1, 4))
    def counted(t, pos, d):
        sizes.append(len(pos))
        t.close(t.impl.sinusoidal(pos, 2), t.impl.sinusoidal(pos, 2), label="PE")

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.status == "passed" and len(sizes) >= 100 and set(sizes) == {100}
    assert run.examples >= 10_000, "distinct (pos, d): test cases repeat inputs, so the run draws until it has them"
    assert len(sizes) <= 200


def test_a_failing_batch_reports_its_failing_row_without_shrinking_the_batch():
    calls = []
    c = claim("failing")

    @c.check(dtypes=("float64",), backends=("numpy",), batched=True, settings=THOROUGH)
    @check_given(pos=position_batches())
    def fails_past_1000(t, pos):
        calls.append(1)
        t.at_most(np.asarray(pos, dtype=np.float64), np.full(len(pos), 1000.0), label="pos")

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.status == "failed" and len(calls) < 20
    assert int(run.counterexample["pos"]) > 1000, "one position, the row that broke the bound"


def test_a_check_declared_batched_that_draws_no_batch_is_broken():
    c = claim("unbatched")

    @c.check(dtypes=("float64",), backends=("numpy",), batched=True)
    @check_given(pos=st.integers(0, 10))
    def plain(t, pos):
        t.close([0.0], [0.0])

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.status == "error" and "hold no Batch" in run.message


def test_a_vacuous_tolerance_names_the_row_that_made_it():
    t = trial("float16")
    t.begin({"pos": as_batch([1, 5000])})
    with pytest.raises(VacuousTolerance, match=r"at \{'pos': '5000'\}"):
        t.close(np.zeros(2), np.zeros(2), scale=np.array([1.0, 5000.0]), bound=2.0)


@pytest.mark.filterwarnings("ignore:Using `assume` outside a property-based test")
def test_each_takes_rows_one_by_one_and_an_assume_drops_only_its_row():
    t = trial()
    words = np.empty(3, dtype=object)
    words[:] = ["a", "b", "c"]

    def check(word):
        assume(word != "b")
        t.close([0.0], [0.0])

    t.begin({"word": words.view(Batch)})
    t.each(words.view(Batch), check)
    assert t.run.examples == 2, "'b' was dropped"
    t.begin({"word": words.view(Batch)})
    with pytest.raises(AssertionError, match=r"at \{'word': \"'c'\"\}"):
        t.each(words.view(Batch), lambda word: t.close([1.0 if word == "c" else 0.0], [0.0]))


@pytest.mark.needs("torch")
def test_batches_smaller_than_the_nominal_size_still_reach_the_examples_asked_for():
    """bfloat16's whole position range is 9 rows per test case: the top-up rounds count the rows actually drawn."""
    c = claim("small-batches")

    @c.check(dtypes=("bfloat16",), backends=("torch",), batched=True, settings=THOROUGH)
    @check_given(pos=position_batches(), d=st.integers(1, 10_000))
    def nine_rows(t, pos, d):
        t.close(t.xp.array(pos), t.xp.array(pos), label="pos")

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.status != "skipped"]
    assert run.examples >= 10_000
