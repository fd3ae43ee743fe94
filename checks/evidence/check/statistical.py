"""The statistical comparator of checks: is a sample's mean the sentence's, by a z test fixed before the run?

A statistical sentence cannot be compared within a float tolerance: a sample mean misses the true one by sampling
noise. Each comparison is a two-sided z test on the sample mean, z = (|x̄ − μ| − rounding) / (s / √n), against a
threshold fixed before the run from the run's false-alarm rate α (the chance that a run of a true sentence fails):

- Bonferroni across the test cases: the run's α is split evenly over the test cases it plans (the profile's
  max_examples plus the explicit examples);
- sequential within a test case: its j-th comparison gets the share 6 / (π² j²) of the test case's part, which sums
  to at most 1 however many comparisons it makes. The same example always gets the same thresholds, so Hypothesis's
  replays and shrinking see the same verdict.

The rate is that of the normal approximation of x̄ (the central limit theorem), hence the least number of samples.
``rounding`` is the dtype's tolerance at the samples' mean magnitude: the samples are computed in the run's dtype,
and rounding is not sampling noise. Zero spread (every sample the same: X² of a Rademacher X) has no z: the mean is
then exact, and it passes when it is within that rounding of μ and fails otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from checks.results.codec import JSON

FALSE_ALARM = 1e-4
"""The default chance that one run (one implementation, device and dtype) of a true statistical sentence fails."""
LEAST_SAMPLES = 1000
"""Fewer samples than this and the normal approximation behind the stated rate is not to be trusted."""


class StatisticalUse(TypeError):
    """A statistical comparison that cannot be made as asked (too few samples, a batch, a rate outside (0, 1))."""


@dataclass
class StatisticalTest:
    """The comparison of a check run that came nearest its threshold (or failed), as the page shows it."""

    label: str
    statistic: float
    """|z|: the distance of the sample mean from the sentence's beyond rounding, in standard errors (inf: zero
    spread and a mean beyond rounding)."""
    threshold: float
    estimate: float
    expected: float
    standard_error: float
    samples: int
    false_alarm: float
    """The run's false-alarm rate α, fixed before it started."""
    test_cases: int
    """The test cases α was split across (Bonferroni)."""
    comparison: int
    """Which comparison of its test case this was (its share of α: 6 / (π² j²))."""
    input: dict[str, JSON]


@dataclass(frozen=True)
class Plan:
    """The run's thresholds, fixed before it starts."""

    false_alarm: float = FALSE_ALARM
    test_cases: int = 100

    def __post_init__(self) -> None:
        if not 0.0 < self.false_alarm < 1.0:
            raise StatisticalUse(f"false_alarm={self.false_alarm}: a rate is between 0 and 1")

    def level(self, comparison: int) -> float:
        """The false-alarm rate of the ``comparison``-th comparison (1-based) of a test case."""
        return self.false_alarm / max(self.test_cases, 1) * 6.0 / (math.pi**2 * comparison**2)

    def threshold(self, comparison: int) -> float:
        """The |z| beyond which the ``comparison``-th comparison of a test case fails."""
        return -NormalDist().inv_cdf(self.level(comparison) / 2.0)  # the lower tail: exact for a tiny level


def z_test(samples: np.ndarray, expected: float, rounding: float) -> tuple[float, float, float]:
    """(sample mean, its standard error, |z|) of float64 ``samples`` against ``expected``; |z| is 0 within
    ``rounding`` of it and inf for zero spread beyond it."""
    n = samples.size
    if n < LEAST_SAMPLES:
        raise StatisticalUse(f"{n} samples: a statistical comparison takes at least {LEAST_SAMPLES}")
    if not np.isfinite(samples).all():
        bad = samples[~np.isfinite(samples)][0]
        raise AssertionError(f"a sample is {bad}: no mean to compare")
    estimate = float(np.mean(samples))
    spread = float(np.std(samples, ddof=1))
    standard_error = spread / math.sqrt(n)
    beyond = abs(estimate - expected) - rounding
    if beyond <= 0.0:
        return estimate, standard_error, 0.0
    return estimate, standard_error, beyond / standard_error if standard_error > 0.0 else math.inf
