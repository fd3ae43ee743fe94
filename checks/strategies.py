"""Hypothesis strategies named after the documents' variables.

``positions()`` and ``offsets()`` read the dtype of the run in progress, so that
an angle pos · ω never needs a tolerance wider than a quarter of sin's range
(see ``checks.tolerances.position_limit``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from checks.harness import current_trial
from checks.tolerances import FLOAT64, position_limit

UNIT = st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False)


def _limit(maximum: int | None) -> int:
    trial = current_trial()
    limit = position_limit(trial.dtype if trial else FLOAT64)
    return min(limit, maximum) if maximum is not None else limit


@st.composite
def positions(draw: st.DrawFn, maximum: int | None = None) -> int:
    """An integer position 0 … the dtype's meaningful limit (or ``maximum``)."""
    return draw(st.integers(0, _limit(maximum)))


@st.composite
def offsets(draw: st.DrawFn, maximum: int | None = None) -> int:
    """A shift k, negative or positive, within the dtype's meaningful range."""
    bound = _limit(maximum)
    return draw(st.integers(-bound, bound))


def d_models(even: bool | None = True, low: int = 1, high: int = 256) -> st.SearchStrategy[int]:
    """Embedding sizes; ``even=True`` even only, ``False`` odd only, ``None`` both."""
    sizes = st.integers(low, high)
    if even is None:
        return sizes
    return sizes.map(lambda n: 2 * ((n + 1) // 2) if even else 2 * (n // 2) + 1)


def vectors(size: int, elements: st.SearchStrategy[float] = UNIT) -> st.SearchStrategy[np.ndarray]:
    """A float64 vector of ``size`` entries (default in [−1, 1])."""
    return st.lists(elements, min_size=size, max_size=size).map(np.asarray)


def frequencies() -> st.SearchStrategy[float]:
    """A frequency ω in (0, 1], as every ω_i of the sinusoidal encoding."""
    return st.floats(1e-4, 1.0, allow_nan=False)
