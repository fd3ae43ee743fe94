"""Counterexamples a reader can take in (issue 65, item 3): a topic's inputs as their recipe, an array of more than
32 entries as its summary, the arrays whole in results.json only."""

from __future__ import annotations

import hypothesis
import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks import Claim, given
from checks.evidence.check import Check, CheckRun, runner
from checks.evidence.check.rows import SHOWN_ENTRIES
from checks.implementations.topic_records import Topic, register, unregister
from checks.results import read_results, write_results
from claims.catalog.works import LESSON_002
from tests.records import claim_record, environment

pytestmark = pytest.mark.needs("torch")  # the adapter under test is a torch one
QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
SETTINGS = hypothesis.settings(max_examples=20, derandomize=True, database=None)


class Shifted:
    """Off by 1e-3 wherever the first entry is positive: Hypothesis shrinks the rest of the array to zeros."""

    name = "test-shifted-when-positive"

    def shifted(self, x):
        return x + 1e-3 * (x[..., :1] > 0)


def _failed(strategy: st.SearchStrategy, topic: Topic) -> CheckRun:
    claim = Claim("test.counterexample", "t", "s", [QUOTE], "holds")

    @claim.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="shifted", settings=SETTINGS)
    @given(inputs=strategy)
    def _(t, inputs):
        x = inputs[0] if isinstance(inputs, tuple) else inputs
        t.close(t.impl.shifted(t.xp.array(x)), x, label="x")

    original = runner.offering
    runner.offering = lambda uses: [Shifted()]
    try:
        (run,) = runner.run_check(claim.declared(Check)[0])
    finally:
        runner.offering = original
    assert run.status == "failed", run.message
    return run


def _topic() -> Topic:
    return Topic("shifted", "x", ("x",), inputs=lambda rng, size: (rng.uniform(-1, 1, (8, size)),))


def test_a_long_array_is_shown_as_its_summary_and_kept_whole_in_the_results(tmp_path):
    topic = _topic()
    register(topic)
    try:
        run = _failed(arrays(np.float64, (8, 64), elements=st.floats(-1, 1)), topic)
    finally:
        unregister(topic)
    (said,) = run.counterexample.values()
    assert said.startswith("float64 8×64 in [") and len(run.message) < 400, run.message
    (whole,) = run.whole_input.values()
    assert np.shape(whole) == (8, 64) and SHOWN_ENTRIES < 8 * 64
    path = tmp_path / "results.json"
    write_results(path, [claim_record("test.counterexample", evidence=[run])], environment())
    (kept,) = read_results(path).claims[0].of(CheckRun)
    assert kept.whole_input == run.whole_input, "whole in results.json"


def test_a_short_array_is_shown_whole_and_a_topics_inputs_as_their_recipe():
    topic = _topic()
    register(topic)
    try:
        short = _failed(arrays(np.float64, (2, 4), elements=st.floats(-1, 1)), topic)
        made = _failed(topic.strategy(st.just(64)), topic)
    finally:
        unregister(topic)
    assert short.counterexample["inputs"].startswith("[[") and not short.whole_input, short.counterexample
    assert made.counterexample["inputs"].startswith("made from seed "), made.counterexample
    assert ", d_model 64: float64 8×64 in [" in made.counterexample["inputs"] and not made.whole_input
