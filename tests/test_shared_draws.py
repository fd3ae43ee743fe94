"""A check draws its inputs once per dtype and domain (once per domain, where its strategies never read the dtype):
the other implementations are called with them, each failure is found as before, and an implementation with a
domain of its own draws inside it."""

from __future__ import annotations

import copy
import warnings

import hypothesis
import numpy as np
import torch
from hypothesis import strategies as st
from hypothesis.errors import HypothesisDeprecationWarning
from hypothesis.extra.numpy import arrays

from checks import Claim, given
from checks.evidence.check import Check, runner, shared
from checks.evidence.check.record import CheckRun
from checks.numerics.backends import BACKENDS
from checks.numerics.current import current_run
from checks.numerics.domain import Domain
from checks.numerics.remade import Remade
from checks.topics.multihead import MULTIHEAD_ATTENTION
from claims.catalog.works import LESSON_002
from tests.faulty_adapters import rotate

Drawn = tuple[int, bool]
QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


class Keeps:
    """A RoPE whose ``value`` returns its input: every property below holds for it."""

    name, pairing = "test-keeps", "interleaved"

    def rope(self, x, positions):
        return rotate(x, positions)

    def value(self, x: np.ndarray) -> np.ndarray:
        return x


class AlsoKeeps(Keeps):
    name = "test-also-keeps"


class DoublesLarge(Keeps):
    """``value`` doubles an input with an entry above 0.5."""

    name = "test-doubles-large"

    def value(self, x: np.ndarray) -> np.ndarray:
        return 2 * x if np.max(x) > 0.5 else x


class FourOnly(Keeps):
    """Declares d_model = 4 alone."""

    name, d_models = "test-four-only", (4,)


def _check(
    adapters, monkeypatch, drawn: list[Drawn], *, changes_input: bool = False, reads_dtype: bool = True
) -> Check:
    """A check of ``value`` against each adapter (float64 and float32, torch on CPU): x kept as it is. Every draw of a
    d_model is added to ``drawn``, with whether the domain drawn in restricts d_model; ``changes_input``: the
    property overwrites its input after comparing; ``reads_dtype``: the strategy reads the run's dtype (as
    ``positions()`` does), so each dtype draws its own."""
    monkeypatch.setattr(runner, "offering", lambda uses: list(adapters))
    claim = Claim("test.shared-draws", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=30, derandomize=True, database=None)

    @st.composite
    def rows(draw: st.DrawFn) -> np.ndarray:
        run = current_run()
        assert run is not None
        if reads_dtype:
            assert run.dtype in ("float64", "float32")
        size = draw(st.sampled_from([d for d in range(2, 7) if run.domain.takes_d_model(d)]))
        drawn.append((size, run.domain.restricts_d_model))
        return draw(arrays(np.float64, size, elements=st.floats(-1, 1)))

    @claim.check(dtypes=("float64", "float32"), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(x=rows())
    def kept(t, x):
        t.close(t.impl.adapter.value(x), x, label="value")
        if changes_input:
            assert np.all(np.abs(x) <= 1), f"drawn in [-1, 1], called with {x}"
            x[:] = 5.0

    return claim.declared(Check)[0]


def by_cell(runs: list[CheckRun]) -> dict[tuple[str, str], CheckRun]:
    return {(run.implementation, run.dtype): run for run in runs if run.status != "skipped"}


def test_the_cells_of_a_dtype_draw_once_and_see_the_same_examples(monkeypatch):
    drawn: list[Drawn] = []
    runs = by_cell(runner.run_check(_check([Keeps(), AlsoKeeps()], monkeypatch, drawn)))
    assert {run.status for run in runs.values()} == {"passed"}, runs
    first = [runs[("test-keeps", dtype)].examples for dtype in ("float64", "float32")]
    assert [runs[("test-also-keeps", dtype)].examples for dtype in ("float64", "float32")] == first
    assert len(drawn) >= sum(first) and len(drawn) < 2 * sum(first), "the second implementation drew nothing"


def test_a_strategy_that_reads_no_dtype_draws_once_for_every_dtype(monkeypatch):
    """Its first cell's inputs are what any dtype would draw: every other cell, of either dtype, is called with
    them, and each sees as many examples."""
    drawn: list[Drawn] = []
    runs = by_cell(runner.run_check(_check([Keeps(), AlsoKeeps()], monkeypatch, drawn, reads_dtype=False)))
    assert {run.status for run in runs.values()} == {"passed"}, runs
    first = runs[("test-keeps", "float64")].examples
    assert {run.examples for run in runs.values()} == {first}
    assert first <= len(drawn) < 2 * first, "one cell drew; the float32 cells and the second implementation did not"


def test_another_dtypes_inputs_that_the_property_rejects_are_drawn_again(monkeypatch):
    """A property that rejects many of them in its own dtype (an ``assume`` on t.dtype) runs fewer than the run
    that kept them: that cell draws its own, to its full count of examples, and keeps them for its dtype's later
    cells."""
    monkeypatch.setattr(runner, "offering", lambda uses: [Keeps(), AlsoKeeps()])
    claim = Claim("test.rejects-in-float32", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=20, derandomize=True, database=None)
    drawn: list[str] = []

    @st.composite
    def unit(draw: st.DrawFn) -> float:
        drawn.append("x")
        return draw(st.floats(-1, 1))

    @claim.check(dtypes=("float64", "float32"), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(x=unit())
    def kept(t, x):
        hypothesis.assume(t.dtype == "float64" or x > 0)
        value = np.array([x])
        t.close(t.impl.adapter.value(value), value, label="value")

    runs = by_cell(runner.run_check(claim.declared(Check)[0]))
    assert {run.status for run in runs.values()} == {"passed"}, [run.message for run in runs.values()]
    assert runs[("test-keeps", "float32")].examples == runs[("test-keeps", "float64")].examples == 20
    assert runs[("test-also-keeps", "float32")].examples == 20
    # float64 draws 20, float32's first cell its own 20 and the ones it rejects (about as many); a second cell
    # drawing its own would add as many again (over 80): the draws depend on Hypothesis's derandomised sequence
    assert 40 < len(drawn) < 80, "float32's first cell drew its own; the second implementation replayed them"


def test_a_replay_that_rejects_too_many_stops_early(monkeypatch):
    """Past the rejections allowed, the rest of another dtype's inputs is not run: the cell draws its own."""
    monkeypatch.setattr(runner, "offering", lambda uses: [Keeps()])
    claim = Claim("test.stops-early", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=200, derandomize=True, database=None)
    float32_calls: list[float] = []

    @claim.check(dtypes=("float64", "float32"), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(x=st.floats(-1, 1))
    def kept(t, x):
        if t.dtype == "float32":
            float32_calls.append(x)
        hypothesis.assume(t.dtype == "float64" or x > 0)
        value = np.array([x])
        t.close(t.impl.adapter.value(value), value, label="value")

    draws, trial_check = shared.SharedDraws(), claim.declared(Check)[0]
    runs = by_cell(runner.run_check(trial_check))
    assert runs[("test-keeps", "float32")].status == "passed" and runs[("test-keeps", "float32")].examples == 200
    replay = shared.Recording(room=2**20)
    for x in np.linspace(-1, 1, 200):
        replay.add({"x": float(x)})
    draws.keep("float64", Domain(), replay, examples=200, any_dtype=True)
    run = CheckRun(trial_check.name, "cpu", "float32", implementation="test-keeps")
    float32_calls.clear()
    runner._attempt(
        trial_check,
        run,
        BACKENDS["torch"]("float32", "cpu"),
        Keeps(),
        Domain(),
        replay=draws.inputs("float32", Domain()),
        rejections_allowed=draws.rejections_allowed("float32", Domain()),
    )
    assert len(float32_calls) == 3, "stopped at the third rejection (2 of 200 allowed)"


def test_each_cell_draws_its_own_when_the_inputs_are_too_large_to_keep(monkeypatch):
    monkeypatch.setattr(shared, "KEPT_BYTES", 8)
    drawn: list[Drawn] = []
    runs = by_cell(runner.run_check(_check([Keeps(), AlsoKeeps()], monkeypatch, drawn)))
    assert {run.status for run in runs.values()} == {"passed"}
    assert len(drawn) >= 2 * sum(run.examples for run in runs.values() if run.implementation == "test-keeps")


def test_a_failure_on_the_shared_inputs_is_found_and_shrunk_as_alone(monkeypatch):
    """The implementation after the first fails at the same input, shrunk as in a run of its own."""
    alone = by_cell(runner.run_check(_check([DoublesLarge()], monkeypatch, [])))
    after = by_cell(runner.run_check(_check([Keeps(), DoublesLarge()], monkeypatch, [])))
    for dtype in ("float64", "float32"):
        cell, own = after[("test-doubles-large", dtype)], alone[("test-doubles-large", dtype)]
        assert cell.status == own.status == "failed"
        assert cell.counterexample == own.counterexample and cell.message == own.message
        assert after[("test-keeps", dtype)].status == "passed"


def test_a_failure_only_the_shared_inputs_hold_stands(monkeypatch):
    """A failing input that Hypothesis's own run does not draw again is still the cell's failure."""

    class FailsAtOne(Keeps):
        name = "test-fails-at-one"

        def value(self, x: np.ndarray) -> np.ndarray:
            return x + 1 if x.size == 3 and x[0] == 0.123456789 else x

    check = _check([FailsAtOne()], monkeypatch, [])
    draws = shared.SharedDraws()
    recording = shared.Recording(room=1024)
    recording.add({"x": np.array([0.5, 0.5])})
    recording.add({"x": np.array([0.123456789, 0.0, 0.0])})
    draws.keep("float64", Domain(), recording)
    run = CheckRun(check.name, "cpu", "float64", implementation="test-fails-at-one")
    attempt = runner._first_attempt(check, run, BACKENDS["torch"]("float64", "cpu"), FailsAtOne(), Domain(), draws)
    assert attempt.failure is not None and "0.123456789" in str(attempt.failing_input)
    assert run.examples == 2


def test_a_property_that_changes_its_inputs_changes_no_other_cell(monkeypatch):
    drawn: list[Drawn] = []
    runs = by_cell(runner.run_check(_check([Keeps(), AlsoKeeps()], monkeypatch, drawn, changes_input=True)))
    assert {run.status for run in runs.values()} == {"passed"}, [run.message for run in runs.values()]


def test_an_implementation_with_a_domain_of_its_own_draws_inside_it(monkeypatch):
    drawn: list[Drawn] = []
    runs = by_cell(runner.run_check(_check([Keeps(), FourOnly()], monkeypatch, drawn)))
    assert {run.status for run in runs.values()} == {"passed"}
    restricted = [size for size, restricts in drawn if restricts]
    assert restricted and set(restricted) == {4}, "the implementation of d_model = 4 drew its own, inside its domain"
    assert {size for size, restricts in drawn if not restricts} > {4}


def test_the_key_ignores_declared_dtypes_and_devices():
    draws, recording = shared.SharedDraws(), shared.Recording(room=1024)
    recording.add({"x": 1})
    draws.keep("float64", Domain(), recording)
    assert list(draws.inputs("float64", Domain(dtypes=("float64",), devices=("cpu",))) or []) == [{"x": 1}]
    assert draws.inputs("float32", Domain()) is None and draws.inputs("float64", Domain(d_models=(4,))) is None
    draws.keep("float64", Domain(d_models=(4,)), recording, examples=3, any_dtype=True)
    assert list(draws.inputs("bfloat16", Domain(d_models=(4,))) or []) == [{"x": 1}]
    assert draws.least_examples("bfloat16", Domain(d_models=(4,))) == 3, "every one of another dtype's 3 inputs"
    assert draws.least_examples("float64", Domain()) == 1
    draws.keep("float64", Domain(d_models=(6,)), recording, examples=10_000, any_dtype=True)
    assert draws.least_examples("float16", Domain(d_models=(6,))) == 9_900, "1 % of them may be rejected"
    assert draws.rejections_allowed("float16", Domain(d_models=(6,))) == 100
    assert draws.rejections_allowed("float64", Domain()) is None
    assert draws.recording("float16", Domain(d_models=(4,))) is None, "kept for every dtype"


def test_a_property_that_draws_inside_itself_is_never_replayed(monkeypatch):
    monkeypatch.setattr(runner, "offering", lambda uses: [Keeps(), AlsoKeeps()])
    claim = Claim("test.draws-inside", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=10, derandomize=True, database=None)
    inside: list[float] = []

    @claim.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(data=st.data())
    def kept(t, data):
        x = np.array([data.draw(st.floats(-1, 1))])
        inside.append(float(x[0]))
        t.close(t.impl.adapter.value(x), x, label="value")

    runs = by_cell(runner.run_check(claim.declared(Check)[0]))
    assert {run.status for run in runs.values()} == {"passed"}, [run.message for run in runs.values()]
    assert len(inside) >= sum(run.examples for run in runs.values()), "each implementation drew its own"


def _topic_inputs(count: int) -> list[object]:
    """``count`` values drawn from multi-head attention's topic strategy (seed and size mapped through its inputs)."""
    drawn: list[object] = []

    @hypothesis.settings(max_examples=count, derandomize=True, database=None)
    @hypothesis.given(inputs=MULTIHEAD_ATTENTION.strategy())
    def collect(inputs):
        drawn.append(inputs)

    collect()
    return drawn


def test_a_topics_inputs_are_kept_as_their_recipe_and_made_again():
    """Multi-head attention's arrays (up to 135 kB an input) are kept as the seed and size they came from: a room
    that holds a tenth of the arrays holds every recipe, and each later cell gets them made again, equal and new."""
    values = _topic_inputs(20)
    assert all(isinstance(value, Remade) for value in values)
    room = sum(shared._bytes(tuple(value)) for value in values) // 10
    assert room > 64 * len(values)
    recording = shared.Recording(room=room)
    for value in values:
        recording.add({"inputs": value})
    assert not recording.full and recording.size == 64 * len(values), "the recipes, not the arrays"
    draws = shared.SharedDraws()
    draws.keep("float32", Domain(), recording)
    replayed = [kept["inputs"] for kept in draws.inputs("float32", Domain()) or []]
    assert len(replayed) == len(values)
    for made, drawn in zip(replayed, values, strict=True):
        assert made is not drawn and len(made) == len(drawn)
        for new, old in zip(made, drawn, strict=True):
            assert np.array_equal(new, old) and (not isinstance(old, np.ndarray) or new is not old)


def test_remade_inputs_copy_as_themselves():
    (value,) = _topic_inputs(1)
    copied = copy.deepcopy(value)
    assert isinstance(copied, Remade) and copied.recipe == value.recipe
    assert all(np.array_equal(a, b) for a, b in zip(copied, value, strict=True))


def test_a_replayed_assume_is_no_deprecation(monkeypatch):
    """The later cells replay the first cell's inputs outside Hypothesis; an ``assume`` there is the property's own
    rejection, as under Hypothesis, not Hypothesis's "assume outside a property-based test" warning."""
    monkeypatch.setattr(runner, "offering", lambda uses: [Keeps(), AlsoKeeps()])
    claim = Claim("test.replayed-assume", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=20, derandomize=True, database=None)

    @claim.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(x=st.floats(-1, 1))
    def kept(t, x):
        hypothesis.assume(x > 0)
        value = np.array([x])
        t.close(t.impl.adapter.value(value), value, label="value")

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        runs = by_cell(runner.run_check(claim.declared(Check)[0]))
    assert not [warning for warning in shown if issubclass(warning.category, HypothesisDeprecationWarning)]
    assert {run.status for run in runs.values()} == {"passed"}, [run.message for run in runs.values()]
    assert runs[("test-also-keeps", "float64")].examples == runs[("test-keeps", "float64")].examples > 0


def test_a_random_drawn_from_hypothesis_is_never_kept():
    """``st.randoms()`` draws from its test case as the property calls it: a copy keeps that test case and answers
    only the calls made on the original, so a run that draws one keeps nothing and each later cell draws its own.
    A seed drawn as an integer (what multihead.permutation-equivariance draws) is kept."""
    drawn: list[object] = []

    @hypothesis.settings(max_examples=1, database=None)
    @hypothesis.given(order=st.randoms(use_true_random=False))
    def collect(order):
        order.random()
        drawn.append(order)

    collect()
    recording = shared.Recording(room=1024)
    recording.add({"order": drawn[0]})
    assert recording.full and not recording.inputs
    seeded = shared.Recording(room=1024)
    seeded.add({"order": 12345})
    assert not seeded.full and seeded.inputs == [{"order": 12345}]


class NearStart(Keeps):
    """Declares positions 0 … 20 alone."""

    name, max_position = "test-near-start", 20


class FarAway(Keeps):
    """Declares positions from 5,000 on: no input of the check below is inside."""

    name, min_position = "test-far-away", 5_000


def test_inputs_outside_a_domain_are_discarded_and_a_cell_with_none_inside_is_skipped(monkeypatch):
    """Issue 65 item 7: a strategy that knows nothing of the domain (a topic's own) drew positions an adapter refuses;
    Hypothesis's filter health check stopped the cell ("FailedHealthCheck … 0 inputs were generated") where the docs
    promise the inputs are discarded and a cell with none inside is skipped."""
    monkeypatch.setattr(runner, "offering", lambda uses: [Keeps(), NearStart(), FarAway()])
    claim = Claim("test.outside-domain", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=30, derandomize=True, database=None)

    @claim.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="rope", settings=settings)
    @given(x=arrays(np.float64, (3, 4), elements=st.floats(-1, 1)), start=st.integers(0, 1_000))
    def rotated(t, x, start):
        positions = np.arange(start, start + 3)
        expected = rotate(torch.from_numpy(x), positions).numpy()
        t.close(t.impl.rope(t.xp.array(x), positions), expected, label="rotated")

    runs = {run.implementation: run for run in runner.run_check(claim.declared(Check)[0])}
    assert runs["test-keeps"].status == "passed"
    assert runs["test-near-start"].status == "passed" and runs["test-near-start"].examples >= 1, runs
    far = runs["test-far-away"]
    assert far.status == "skipped" and "every example fell outside test-far-away's domain" in far.message, far


def test_a_topics_drawn_inputs_read_as_their_recipe_and_a_summary_never_as_whole_arrays():
    """Issue 65 item 3: a counterexample drawn by ``Topic.strategy()`` printed whole arrays (2 kB a finding); it reads
    as the seed and size it is made from (in the topic's own size name) and a summary of each array."""
    from checks.numerics.remade import Recipe

    def made(seed: int, heads: int) -> tuple[np.ndarray, int]:
        return np.random.default_rng(seed).uniform(-4, 4, (heads, 512, 512)), heads

    drawn = Recipe(made, (7, 8), ("seed", "heads"))()
    said = repr(drawn)
    assert said.startswith("made from seed 7, heads 8: float64 8×512×512 in [-4, 4]; 8"), said
    assert len(said) < 100 and np.array_equal(Recipe(made, (7, 8))()[0], drawn[0]), "made again exactly"
