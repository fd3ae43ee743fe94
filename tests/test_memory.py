"""A worker's memory: what a claim kept is released after it, and --memory-limit fails a run whose worker peaked
above the limit (`tox -e thorough` runs the whole catalog with --memory-limit 953, 1 GB)."""

from __future__ import annotations

import textwrap
import weakref
from pathlib import Path

import hypothesis
import numpy as np
import pytest
import torch
from hypothesis import strategies as st

from checks import Claim, given
from checks.engine.evaluate import evaluate
from checks.engine.memory import release_freed_memory
from checks.evidence.check import Check, runner
from checks.evidence.sweep import memory as sweep_memory
from checks.implementations.topic_records import Topic, register, unregister
from checks.settings import memory_ceiling
from claims.catalog.works import LESSON_002

ROOT = Path(__file__).resolve().parent.parent
QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


def test_a_finished_claim_gives_back_the_sweeps_buffers():
    """The sweeps keep their buffers while a claim runs; after it the plugin drops them (release_freed_memory)."""
    sweep_memory._KEPT[("cpu", torch.float64)] = [torch.zeros(2**20, dtype=torch.float64)]
    release_freed_memory()
    assert not sweep_memory._KEPT


PROOF_ONLY = """
    import sympy as sp
    from checks import Claim, Quote

    claim = Claim(id="memory.proof", title="t", statement="s", expect="proved",
                  sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")])

    @claim.proof
    def _(p):
        x = sp.Symbol("x", real=True)
        p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
"""


def _one_claim(pytester: pytest.Pytester) -> None:
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    (pytester.mkdir("claims") / "proof_only.py").write_text(textwrap.dedent(PROOF_ONLY))


def test_a_run_over_its_memory_limit_fails_and_names_the_process(pytester):
    _one_claim(pytester)
    within = pytester.runpytest_inprocess(
        "claims", "--results", "r.json", "-p", "no:cacheprovider", "--memory-limit", "1e6"
    )
    assert within.ret == pytest.ExitCode.OK
    within.stdout.fnmatch_lines(["theory-claims: peak RSS per process: pytest * MiB (limit 1,000,000 MiB)"])
    over = pytester.runpytest_inprocess(
        "claims", "--results", "r.json", "-p", "no:cacheprovider", "--memory-limit", "1"
    )
    over.assert_outcomes(failed=1)  # stopped before its first step: its process is past 1 MiB
    assert over.ret == pytest.ExitCode.TESTS_FAILED
    over.stdout.fnmatch_lines(["*claim memory.proof stopped: its process held * MiB, over the memory limit of 1 MiB*"])
    over.stdout.fnmatch_lines(["theory-claims: FAILED --memory-limit: pytest peaked at * MiB, over 1 MiB"])


def test_under_xdist_each_worker_reports_its_own_peak(pytester, monkeypatch):
    _one_claim(pytester)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    outcome = pytester.runpytest_subprocess(
        "claims", "-n", "2", "-p", "no:cacheprovider", "--results", "r.json", "--memory-limit", "1"
    )
    assert outcome.ret == pytest.ExitCode.TESTS_FAILED
    outcome.stdout.fnmatch_lines(["theory-claims: peak RSS per process: gw0 * MiB, gw1 * MiB (limit 1 MiB)"])
    outcome.stdout.fnmatch_lines(["*FAILED --memory-limit: gw0 peaked at*", "*FAILED --memory-limit: gw1 peaked at*"])


def test_a_memory_limit_that_is_not_positive_is_a_usage_error(pytester):
    _one_claim(pytester)
    outcome = pytester.runpytest_inprocess("claims", "-p", "no:cacheprovider", "--memory-limit", "0")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR


MADE: list[weakref.ref[np.ndarray]] = []
"""A weak reference to every array the topic below has made."""
HELD: list[int] = []
"""How many of them were alive at each call of the faulty adapter."""


def _inputs(rng: np.random.Generator, size: int) -> tuple[np.ndarray]:
    x = rng.normal(size=(4, size))
    MADE.append(weakref.ref(x))
    return (x,)


class OffByAThousandth:
    name = "test-off-by-a-thousandth"

    def shifted(self, x):
        HELD.append(sum(made() is not None for made in MADE))
        return x + 1e-3


def test_a_failing_check_holds_the_inputs_of_one_test_case_not_of_every_one_it_shrank():
    """Issue 65: Hypothesis keeps every failing test case while it shrinks, with its exception and frames; those
    held each case's arrays (a claim of 16 MiB inputs peaked at 9 GB). The topic's inputs now reach Hypothesis as
    recipes and a failure's frames keep no locals: the adapter, called some hundred times, never sees more than the
    arrays of the case at hand alive."""
    topic = Topic("shifted", "x", ("x",), inputs=_inputs)
    register(topic)
    original = runner.offering
    runner.offering = lambda uses: [OffByAThousandth()]
    try:
        HELD.clear()
        (run,) = runner.run_check(_shifted_check(topic))
    finally:
        runner.offering = original
        unregister(topic)
    assert run.status == "failed" and len(HELD) > 20, (run.message, len(HELD))
    assert max(HELD) <= 2, f"{max(HELD)} test cases' arrays alive at once"


def _shifted_check(topic: Topic) -> Check:
    claim = Claim("test.memory-shrinking", "t", "s", [QUOTE], "holds")
    settings = hypothesis.settings(max_examples=40, derandomize=True, database=None)

    @claim.check(dtypes=("float64",), backends=("torch",), devices=("cpu",), uses="shifted", settings=settings)
    @given(inputs=topic.strategy(st.integers(1, 64)))
    def _(t, inputs):
        (x,) = inputs
        t.close(t.impl.shifted(t.xp.array(x)), x, label="x")

    return claim.declared(Check)[0]


KEPT: list[np.ndarray] = []
"""What the greedy claim below keeps, 16 MiB a test case."""


def _claim(greedy: bool) -> Claim:
    claim = Claim(f"test.memory-{'greedy' if greedy else 'modest'}", "t", "s", [QUOTE], "holds")

    @claim.check(dtypes=("float64",), backends=("numpy",), devices=("cpu",))
    @given(value=st.floats(0, 1))
    def _(t, value):
        made = np.full(2**21, value)
        if greedy:
            KEPT.append(made)
        t.close(made[:1].copy(), np.array([value]), label="made")

    return claim


def test_a_claim_past_the_memory_limit_is_stopped_with_one_line_and_the_next_runs(monkeypatch):
    """Issue 65: a claim that grew to 15 GB had the kernel kill the whole run. With --memory-limit, a claim whose
    process grows past it stops at its next test case, its record broken with one line; the next claim runs."""
    resident = memory_ceiling.resident_mib()
    if resident is None:
        pytest.skip("this system does not say a process's resident memory (/proc/self/statm)")
    monkeypatch.setattr(memory_ceiling, "_ceiling", resident + 200)
    try:
        stopped = evaluate(_claim(greedy=True))
    finally:
        KEPT.clear()
        release_freed_memory()  # as the plugin does after each claim
    (line,) = stopped.errors
    assert line.startswith("check #1: claim test.memory-greedy stopped: its process held "), line
    assert line.endswith(" MiB (--memory-limit); the rest of the claim did not run"), line
    assert stopped.observed == "broken"
    after = evaluate(_claim(greedy=False))
    assert after.errors == [] and after.observed == "holds", after.errors
