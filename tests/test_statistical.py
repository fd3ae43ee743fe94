"""The statistical comparator (checks.evidence.check.statistical) and the distributions with known moments
(checks.statistics): thresholds fixed before the run from its false-alarm rate, zero spread, seeds on the page, and
a check that passes a right variance and refutes a wrong one."""

from __future__ import annotations

import math

import hypothesis
import numpy as np
import pytest
import sympy as sp
from hypothesis import strategies as st

from checks import Claim, given
from checks.evidence.check import Check
from checks.evidence.check.runner import run_check
from checks.evidence.check.statistical import LEAST_SAMPLES, Plan, StatisticalUse, z_test
from checks.statistics import (
    CENTRED_EXPONENTIAL,
    NORMAL,
    RADEMACHER,
    STANDARD,
    UNIFORM,
    Draw,
    distribution,
    draws,
)
from claims.catalog.works import LESSON_002

QUOTE = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
SAMPLES = 20_000
FEW = hypothesis.settings(max_examples=12, derandomize=True, database=None, deadline=None)
UNSHRUNK = hypothesis.settings(FEW, phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate])
"""For a refutation whose shrinking (200 examples of 20,000 samples) is not what a test is about."""


def claim(name: str) -> Claim:
    return Claim(f"test.{name}", "t", "s", [QUOTE], "holds")


def test_the_levels_of_a_run_sum_to_at_most_its_false_alarm_rate():
    """Bonferroni over the planned test cases, 6 / (π² j²) within one: however many comparisons a test case makes,
    the run's levels add up to no more than α."""
    plan = Plan(false_alarm=1e-4, test_cases=100)
    total = plan.test_cases * sum(plan.level(j) for j in range(1, 100_000))
    assert total <= plan.false_alarm
    assert total > 0.99 * plan.false_alarm, "and the budget is spent, not wasted"
    thresholds = [plan.threshold(j) for j in (1, 2, 3, 10)]
    assert thresholds == sorted(thresholds), "a later comparison of a test case gets a smaller share: a higher bar"
    assert 4.9 < thresholds[0] < 5.1, "α 1e-4 over 100 test cases, first comparison: two-sided 6.1e-7"
    with pytest.raises(StatisticalUse, match="between 0 and 1"):
        Plan(false_alarm=1.5)
    far = Plan(false_alarm=1e-4, test_cases=10_000).threshold(10_000)
    assert math.isfinite(far) and far > thresholds[-1], "a level below 1e-16 still has its threshold (not 1 − level)"


def test_the_stated_level_is_the_level_measured_on_true_sentences():
    """Calibration of the z test on samples whose mean is the sentence's, at a level large enough to count:
    at 1 % per comparison, 4,000 comparisons give 40 false alarms expected; a binomial count outside 15 … 75 has
    probability below 1e-6 for a calibrated test. Fixed seeds: the count is the same every run."""
    generator = np.random.default_rng(2026)
    threshold = 2.5758293035489  # two-sided 1 %
    for dist in (NORMAL, CENTRED_EXPONENTIAL):
        alarms = 0
        for _ in range(4000):
            samples = dist.sample(generator, (LEAST_SAMPLES,))
            alarms += z_test(samples, 0.0, rounding=0.0)[2] > threshold
        assert 15 <= alarms <= 75, f"{dist}: {alarms} false alarms in 4000 at 1 %"


def test_zero_spread_is_exact_not_divided_by_zero():
    ones = np.ones(LEAST_SAMPLES)
    assert z_test(ones, 1.0, rounding=1e-7) == (1.0, 0.0, 0.0)
    estimate, standard_error, statistic = z_test(ones, 1.2, rounding=1e-7)
    assert (estimate, standard_error, statistic) == (1.0, 0.0, math.inf)
    with pytest.raises(AssertionError, match="a sample is nan"):
        z_test(np.array([*ones[:-1], math.nan]), 1.0, rounding=0.0)
    with pytest.raises(StatisticalUse, match="at least 1000"):
        z_test(ones[:10], 1.0, rounding=0.0)


@pytest.mark.parametrize("dist", STANDARD, ids=str)
def test_each_distribution_draws_the_moments_it_states(dist):
    """E X, E X², E X³ and E X⁴ of 200,000 draws against the stated moments, each at the threshold of a run with
    α = 1e-6 split over its four comparisons (fixed seed)."""
    samples = Draw(dist, seed=7).array((200_000,))
    stated = {1: dist.mean, 2: dist.variance + dist.mean**2, **dist.higher}
    plan = Plan(false_alarm=1e-6, test_cases=1)
    for j, power in enumerate((1, 2, 3, 4), start=1):
        statistic = z_test(samples**power, float(stated[power]), rounding=1e-12)[2]
        assert statistic <= plan.threshold(j), f"{dist}: E X^{power} |z| = {statistic:.3g}"


def test_a_draw_is_reproduced_from_its_seed_and_its_arrays_are_independent():
    draw = Draw(UNIFORM, seed=123)
    first, second = draw.arrays(2, (4, 3))
    again, _ = draw.arrays(2, (4, 3))
    assert np.array_equal(first, again) and not np.array_equal(first, second)
    assert repr(draw) == "uniform (seed 123)"
    assert abs(np.abs(Draw(RADEMACHER, 1).array((50,)))).min() == 1.0


def test_a_distribution_of_ones_own_states_exact_moments_and_is_drawn():
    laplace = distribution("Laplace", lambda g, shape: g.laplace(0.0, 1 / math.sqrt(2), shape), 0, 1, {4: 6})
    assert laplace.stated == {"mean": 0, "variance": 1, "moments": {4: 6}}
    assert isinstance(laplace.stated["moments"][4], sp.Integer)
    with pytest.raises(ValueError, match="exactly"):
        distribution("half", lambda g, shape: g.random(shape), 0.5, 1)
    with pytest.raises(TypeError, match="distributions"):
        draws("normal")  # type: ignore[arg-type]
    wrong_shape = distribution("scalar", lambda g, shape: g.random(), 0, 1)
    with pytest.raises(ValueError, match="gave shape"):
        Draw(wrong_shape, 0).array((3,))


def dot_product_claim(name: str, variance: object, false_alarm: float = 1e-4, settings: object = FEW) -> Claim:
    """Footnote 4 of "Attention Is All You Need" as a check: q · k of independent components, mean 0 and
    variance 1, has mean 0 and variance ``variance`` (a function of d_k)."""
    c = claim(name)

    @c.check(dtypes=("float64", "float32"), settings=settings, false_alarm=false_alarm)
    @given(d_k=st.integers(1, 64), draw=draws())
    def dot_products(t, d_k, draw):
        q, k = (t.xp.array(a) for a in draw.arrays(2, (SAMPLES, d_k)))
        products = t.xp.sum(q * k, axis=1)
        t.mean_is(products, 0.0, label="mean of q · k")
        t.variance_is(products, variance(d_k), mean=0.0, label="variance of q · k")

    return c


@pytest.mark.needs("torch")
def test_a_right_variance_passes_and_a_wrong_one_is_refuted_with_its_statistic_and_seed():
    right = run_check(dot_product_claim("right", lambda d_k: d_k).declared(Check)[0])
    assert [r.status for r in right if r.ran] == ["passed"] * 4
    shown = right[0].statistics
    assert shown is not None and shown.statistic <= shown.threshold and shown.samples == SAMPLES
    assert shown.false_alarm == 1e-4 and shown.test_cases == 12
    assert "(seed " in shown.input["draw"], "the seed every sample follows from is on the page"
    assert right[0].max_error == 0.0 and right[0].tolerance == 0.0, "no float tolerance stands for a statistic"

    wrong = run_check(dot_product_claim("wrong", lambda d_k: 1.2 * d_k, settings=UNSHRUNK).declared(Check)[0])
    assert {r.status for r in wrong if r.ran} == {"failed"}
    failed = wrong[0]
    assert failed.statistics is not None and failed.statistics.statistic > failed.statistics.threshold
    assert "variance of q · k: sample mean" in failed.message and "> threshold" in failed.message
    assert "(seed " in failed.message


def test_rademacher_components_at_d_k_1_have_zero_spread_and_still_get_a_verdict():
    """q_1 k_1 = ±1: its square is 1 in every sample, where the researcher's own standard error divided by zero."""
    for variance, status in ((lambda d_k: d_k, "passed"), (lambda d_k: 1.2 * d_k, "failed")):
        c = claim(f"zero-spread-{status}")

        @c.check(dtypes=("float64",), backends=("numpy",), settings=UNSHRUNK)
        @given(draw=draws(RADEMACHER))
        def square(t, draw, variance=variance):
            q, k = draw.arrays(2, (SAMPLES, 1))
            t.variance_is((q * k).sum(axis=1), variance(1), mean=0.0)

        (run,) = [r for r in run_check(c.declared(Check)[0]) if r.ran]
        assert run.status == status, run.message
        assert run.statistics is not None and run.statistics.standard_error == 0.0
    assert "zero spread: every sample is 1" in run.message


def test_a_statistical_comparison_in_a_batch_is_refused_with_a_reason():
    from checks.strategies import position_batches

    c = claim("batched")

    @c.check(dtypes=("float64",), backends=("numpy",), batched=True, settings=FEW)
    @given(pos=position_batches())
    def batched(t, pos):
        t.mean_is(np.zeros(LEAST_SAMPLES), 0.0)

    (run,) = [r for r in run_check(c.declared(Check)[0]) if r.ran]
    assert run.status == "error" and "one example per test case, not a batch" in run.message
    with pytest.raises(StatisticalUse):
        dot_product_claim("rate", lambda d_k: d_k, false_alarm=0.0)


@pytest.mark.parametrize(("dist", "fourth"), [(NORMAL, 3), (RADEMACHER, 1), (CENTRED_EXPONENTIAL, 9)], ids=str)
def test_a_proof_takes_the_moments_a_check_draws_from(dist, fourth):
    """The same record states the moments to a proof: Var[q_1² ] = E q⁴ − 1 needs the fourth moment, which the
    distribution gives, and the value decided is the one its draws show."""
    from checks import Proof

    p = Proof()
    q = p.random("q", **dist.stated)
    assert p.decide(p.variance(q**2), fourth - 1, label="Var[q²]").status == "proved"
    samples = Draw(dist, seed=11).array((200_000,))
    assert z_test((samples**2 - 1.0) ** 2, float(fourth - 1), rounding=1e-12)[2] <= Plan(1e-6, 1).threshold(1)
