"""Random draws with known moments, for statistical sentences ("q · k has mean 0 and variance d_k").

A proof states the moments (``p.random_vector("q", **NORMAL.stated)``: checks.symbolic.moments decides the
sentence from them); a check draws samples from the same distributions and compares their mean or variance with the
sentence's by a test fixed before the run (``t.mean_is``, ``t.variance_is``: checks.evidence.check.statistical).
``draws()`` is the Hypothesis strategy: each example is a distribution and a seed, shown with the example, from which
every sample of that example follows (NumPy's PCG64), so a failure is reproduced from its page.

Part of the public face for claim files (docs/writing-claims.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from checks.symbolic.decide import as_sympy

Sampler = Callable[[np.random.Generator, tuple[int, ...]], np.ndarray]
"""``sample(generator, shape)``: that many independent draws of the distribution, as a NumPy array."""


@dataclass(frozen=True)
class Distribution:
    """A distribution a statistical check draws from, with its moments stated exactly: E X (``mean``), Var X
    (``variance``) and E X^m for m ≥ 3 (``higher``)."""

    name: str
    sample: Sampler = field(repr=False, compare=False)
    mean: sp.Expr
    variance: sp.Expr
    higher: Mapping[int, sp.Expr] = field(default_factory=dict, compare=False)

    @property
    def stated(self) -> dict[str, Any]:
        """The moments as a proof declares them: ``p.random_vector("q", **NORMAL.stated)``."""
        return {"mean": self.mean, "variance": self.variance, "moments": dict(self.higher)}

    def __str__(self) -> str:
        return self.name


def distribution(
    name: str, sample: Sampler, mean: object = 0, variance: object = 1, moments: Mapping[int, object] | None = None
) -> Distribution:
    """A distribution of your own: ``sample(generator, shape)`` draws it; ``mean``, ``variance`` and ``moments``
    ({m: E X^m} for m ≥ 3) are stated exactly (integers, ``sp.Rational``, ``sp.sqrt(2)``...), as a proof takes them."""
    exact = {what: as_sympy(value) for what, value in (("mean", mean), ("variance", variance))}
    higher = {int(m): as_sympy(value) for m, value in (moments or {}).items()}
    if any(value.has(sp.Float) for value in (*exact.values(), *higher.values())):
        raise ValueError(f"{name}: state the moments exactly (sp.Rational(1, 2), not 0.5)")
    if not callable(sample):
        raise TypeError(f"{name}: sample must be a function sample(generator, shape) -> array")
    return Distribution(name, sample, exact["mean"], exact["variance"], higher)


NORMAL = distribution("normal", lambda g, shape: g.standard_normal(shape), 0, 1, {3: 0, 4: 3})
"""The standard normal: mean 0, variance 1, E X³ = 0, E X⁴ = 3."""
RADEMACHER = distribution("Rademacher", lambda g, shape: g.choice((-1.0, 1.0), shape), 0, 1, {3: 0, 4: 1})
"""±1 with probability ½ each: mean 0, variance 1, E X³ = 0, E X⁴ = 1 (X² = 1: zero spread)."""
UNIFORM = distribution(
    "uniform", lambda g, shape: g.uniform(-np.sqrt(3.0), np.sqrt(3.0), shape), 0, 1, {3: 0, 4: sp.Rational(9, 5)}
)
"""Uniform on [−√3, √3]: mean 0, variance 1, E X³ = 0, E X⁴ = 9/5."""
CENTRED_EXPONENTIAL = distribution(
    "centred exponential", lambda g, shape: g.standard_exponential(shape) - 1.0, 0, 1, {3: 2, 4: 9}
)
"""Exp(1) − 1: mean 0, variance 1, skewed (E X³ = 2), E X⁴ = 9."""
STANDARD = (NORMAL, RADEMACHER, UNIFORM, CENTRED_EXPONENTIAL)
"""The four distributions above, each of mean 0 and variance 1: what ``draws()`` picks from by default."""


@dataclass(frozen=True)
class Draw:
    """One example's samples: a distribution and the seed they follow from. ``arrays(2, (n, d))`` gives two
    independent arrays; the same draw always gives the same arrays."""

    distribution: Distribution
    seed: int

    def arrays(self, count: int, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        """``count`` independent float64 arrays of ``shape`` (one generator, seeded by ``seed``, in turn)."""
        generator = np.random.default_rng(self.seed)
        drawn = []
        for _ in range(count):
            values = np.asarray(self.distribution.sample(generator, tuple(shape)), dtype=np.float64)
            if values.shape != tuple(shape):
                raise ValueError(f"{self.distribution}: sample(generator, {tuple(shape)}) gave shape {values.shape}")
            drawn.append(values)
        return tuple(drawn)

    def array(self, shape: tuple[int, ...]) -> np.ndarray:
        """One float64 array of ``shape``."""
        return self.arrays(1, shape)[0]

    def __repr__(self) -> str:
        return f"{self.distribution} (seed {self.seed})"


def draws(*distributions: Distribution) -> st.SearchStrategy[Draw]:
    """An example's samples: one of ``distributions`` (by default ``STANDARD``) and a 32-bit seed."""
    chosen = distributions or STANDARD
    if not all(isinstance(d, Distribution) for d in chosen):
        raise TypeError("draws() takes distributions: NORMAL, RADEMACHER, ... or distribution(...)")
    return st.builds(Draw, st.sampled_from(chosen), st.integers(0, 2**32 - 1))


__all__ = [
    "CENTRED_EXPONENTIAL",
    "NORMAL",
    "RADEMACHER",
    "STANDARD",
    "UNIFORM",
    "Draw",
    "distribution",
    "draws",
]
