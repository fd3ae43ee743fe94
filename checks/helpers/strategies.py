"""Hypothesis strategies named after the documents' variables.

``positions()`` and ``offsets()`` read the dtype of the run in progress, so that
an angle pos · ω never needs a tolerance wider than a quarter of sin's range
(see ``checks.tolerances.position_limit``); they, ``position_and_offset()`` and
``d_models()`` also draw inside the domain the implementation under test declares
(checks.implementations.domain), derived positions such as pos + k included.
"""

from __future__ import annotations

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st

from checks.helpers.current import current_run
from checks.helpers.tolerances import FLOAT64, position_limit

UNIT = st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False)


def position_bound(maximum: int | None = None, exact: bool = False) -> int:
    """The dtype's meaningful limit (unless ``exact``), the implementation's own limit (its tables) and ``maximum``.

    ``exact=True`` is for checks without a tolerance (an exact bound), where the dtype's limit does not apply.
    """
    run = current_run()
    meaningful = None if exact else position_limit(run.dtype if run else FLOAT64)
    limits = [meaningful, maximum, run.max_position if run else None]
    return min(limit for limit in limits if limit is not None)


@st.composite
def positions(draw: st.DrawFn, maximum: int | None = None, minimum: int = 0, exact: bool = False) -> int:
    """An integer position ``minimum`` … the dtype's meaningful limit (or ``maximum``; see position_bound)."""
    top = position_bound(maximum, exact)
    run = current_run()
    if run is not None and run.domain.min_position is not None:
        minimum = max(minimum, run.domain.min_position)
    if minimum > top:
        raise ValueError(f"positions(minimum={minimum}) exceeds this dtype's limit {top}; narrow the dtypes")
    return draw(st.integers(minimum, top))


@st.composite
def offsets(draw: st.DrawFn, maximum: int | None = None) -> int:
    """A shift k, negative or positive, within the dtype's meaningful range."""
    bound = position_bound(maximum)
    return draw(st.integers(-bound, bound))


@st.composite
def position_and_offset(draw: st.DrawFn, both_ways: bool = False, starts: int = 1) -> tuple[int, ...]:
    """(pos, …, k): ``starts`` positions and a shift k with every pos + k (and pos − k when ``both_ways``) inside
    the implementation's declared positions.

    Without a declared position range: positions from ``positions()`` and k from ``offsets()``, as drawn separately.
    """
    at = [draw(positions()) for _ in range(starts)]
    run = current_run()
    if run is None or (run.domain.max_position is None and run.domain.min_position is None):
        return (*at, draw(offsets()))
    bound = position_bound()
    low = run.domain.min_position if run.domain.min_position is not None else -2 * bound
    high = run.domain.max_position if run.domain.max_position is not None else 2 * bound
    lowest, highest = max(low - min(at), -bound), min(high - max(at), bound)
    if both_ways:
        highest = min(highest, -lowest)
        lowest = -highest
    if lowest > highest:
        reject()
    return (*at, draw(st.integers(lowest, highest)))


@st.composite
def d_models(draw: st.DrawFn, even: bool | None = True, low: int = 1, high: int = 256) -> int:
    """Embedding sizes inside the implementation's declared domain; ``even=True`` even only, ``False`` odd only,
    ``None`` both."""
    run = current_run()
    domain = run.domain if run else None
    if domain is not None and (domain.min_d_model or domain.d_models or domain.excluded_d_models):
        taken = [d for d in domain.d_model_values(low, high) if even is None or (d % 2 == 0) == even]
        if not taken:
            reject()
        return draw(st.sampled_from(taken))
    size = draw(st.integers(low, high))
    if even is None:
        return size
    return 2 * ((size + 1) // 2) if even else 2 * (size // 2) + 1


def vectors(size: int, elements: st.SearchStrategy[float] = UNIT) -> st.SearchStrategy[np.ndarray]:
    """A float64 vector of ``size`` entries (default in [−1, 1])."""
    return st.lists(elements, min_size=size, max_size=size).map(np.asarray)


def frequencies() -> st.SearchStrategy[float]:
    """A frequency ω in (0, 1], as every ω_i of the sinusoidal encoding."""
    return st.floats(1e-4, 1.0, allow_nan=False)


@st.composite
def sentences(
    draw: st.DrawFn, max_tokens: int = 8, dims: tuple[int, int] = (1, 16), distinct: bool = False, moved: bool = False
):
    """A checks.attention.Sentence: n ≤ max_tokens words in d ∈ dims dimensions, a layer, a reordering.

    Words repeat unless ``distinct``; ``moved`` draws only reorderings that change the sentence.
    The embeddings and W_Q, W_K, W_V come from a drawn seed (see Sentence).
    """
    from checks.helpers.attention import Sentence

    n = draw(st.integers(2 if moved else 1, max_tokens))
    d = draw(st.integers(*dims))
    words = tuple(range(n)) if distinct else tuple(draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))
    if moved and len(set(words)) == 1:
        words = tuple(range(n))  # one word repeated n times has no reordering that moves it
    seed = draw(st.integers(0, 2**32 - 1))
    orders = st.permutations(range(n)).map(tuple)
    if moved:
        orders = orders.filter(lambda order: Sentence(d, words, order, seed).moves)
    return Sentence(d, words, draw(orders), seed)
