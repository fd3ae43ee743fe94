"""The trial a check receives: comparisons, one-sided bounds, vacuous tolerances."""

import pytest

from checks.evidence.check import CheckRun
from checks.evidence.check.harness import Trial, VacuousTolerance
from checks.implementations.registry import by_name
from checks.numerics.backends import NumpyBackend
from checks.symbolic import Proof


def trial(dtype: str = "float32") -> Trial:
    run = CheckRun("check", "cpu", dtype, implementation="reference-numpy")
    return Trial(run, NumpyBackend(dtype), by_name("reference-numpy"))


def test_close_records_the_worst_input_and_fails_past_the_tolerance():
    t = trial()
    t.begin({"pos": 3})
    t.close([1.0 + 1e-6], [1.0])
    assert t.run.worst_input == {"pos": "3"} and t.run.max_error > 0
    t.begin({"pos": 4})
    with pytest.raises(AssertionError, match="tolerance"):
        t.close([1.1], [1.0])


def test_a_tolerance_as_wide_as_the_range_is_refused():
    t = trial("float16")
    t.begin({})
    with pytest.raises(VacuousTolerance):
        t.close([0.0], [0.0], scale=5000, bound=2.0)


def test_resolves_says_beforehand_whether_a_comparison_could_fail():
    t = trial("float16")
    t.begin({})
    assert not t.resolves([0.0], scale=5000, bound=2.0), "the comparison above would be refused as vacuous"
    assert t.resolves([0.0], scale=1.0, bound=2.0)
    t.close([0.0], [0.0], scale=1.0, bound=2.0)


def test_an_example_is_written_as_text_only_when_needed():
    class Loud:
        def __repr__(self) -> str:
            raise AssertionError("repr called")

    t = trial()
    t.begin({"x": Loud()})
    t.resolves([1.0], bound=2.0)
    t.begin({"pos": 5})
    t.close([1.0], [1.0])
    assert t.run.worst_input == {"pos": "5"}


def test_at_most_is_one_sided():
    t = trial()
    t.begin({})
    t.at_most([0.5, 1.0], [1.0, 1.0])
    with pytest.raises(AssertionError):
        t.at_most([1.01], [1.0])


def test_facts_enter_the_proof_status():
    proof = Proof()
    assert proof.fact("π is irrational", True)
    assert proof.status == "unknown"
    proof.fact("a false structural fact", False)
    assert proof.status == "refuted"


def test_equal_is_exact_and_differ_needs_more_than_the_tolerance():
    t = trial()
    t.begin({"n": 4})
    t.equal(96, 96)
    with pytest.raises(AssertionError):
        t.equal(96, 97)
    t.differ([1.0], [0.5])
    with pytest.raises(AssertionError, match="within tolerance"):
        t.differ([1.0], [1.0 + 1e-7])


@pytest.mark.needs("torch")
def test_t_impl_is_one_type_with_or_without_uses():
    """Without uses= t.impl is the reference adapter bound to the run's backend, as each adapter is with it."""
    t = trial("float64")
    assert type(t.impl).__name__ == "Implementation" and t.impl.reference and t.impl.name == "reference-numpy"
    rows = t.impl.sinusoidal([0, 1], 4)
    assert rows.shape == (2, 4) and rows[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    assert t.ref.shift_matrix(1, 4).shape == (4, 4), "the reference's own helpers stay on t.ref"
