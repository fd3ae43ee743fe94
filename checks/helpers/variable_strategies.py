"""Hypothesis strategies named after the documents' variables.

``positions()`` and ``offsets()`` draw within the dtype's meaningful positions, so that an angle pos · ω never needs
a tolerance wider than a quarter of sin's range (see ``checks.numerics.tolerances.position_limit``). The dtype is
their ``dtype`` argument, by default the dtype of the check in progress (checks.numerics.current); outside a check
(a plain Hypothesis test) pass it: ``positions(dtype="float32")``. They, ``position_and_offset()`` and
``d_models()`` also draw inside the domain the implementation under test declares (checks.numerics.domain),
derived positions such as pos + k included; outside a check there is none.

A batched check (``@claim.check(batched=True)``) draws many examples per Hypothesis test case: ``position_batches()``
and ``position_offset_batches()`` return a ``Batch``, one example per row, and the check evaluates the rows at once
(tensors, not a Python loop). Hypothesis's own cost per test case (about 2 ms here) then falls on a whole batch.
"""

from __future__ import annotations

import numpy as np
from hypothesis import reject
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.extra.numpy import arrays

from checks.numerics.batch import Batch
from checks.numerics.current import current_run
from checks.numerics.tolerances import position_limit

UNIT = st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False)
"""A float in [−1, 1], no NaN, no subnormal: the default entries of ``vectors``."""


def run_dtype(dtype: str | None = None) -> str:
    """``dtype``, or when None the dtype of the check in progress; outside a check an InvalidArgument that asks for
    ``dtype=...``."""
    if dtype is not None:
        return dtype
    run = current_run()
    if run is None:
        raise InvalidArgument(
            "this strategy draws within a dtype's meaningful positions, and outside a check there is no dtype: "
            'pass dtype=... (for example positions(dtype="float32"))'
        )
    return run.dtype


def position_bound(maximum: int | None = None, exact: bool = False, dtype: str | None = None) -> int:
    """The dtype's meaningful limit (unless ``exact``), the implementation's own limit (its tables) and ``maximum``.

    ``exact=True`` is for checks without a tolerance (an exact bound), where the dtype's limit does not apply.
    ``dtype``: by default the check's (``run_dtype``).
    """
    run = current_run()
    meaningful = None if exact else position_limit(run_dtype(dtype))
    limits = [meaningful, maximum, run.max_position if run else None]
    return min(limit for limit in limits if limit is not None)


def as_batch(rows: object) -> Batch:
    """``rows`` as a Batch, one example per row (a view of the array, nothing copied)."""
    return np.asarray(rows).view(Batch)


def batch_size() -> int:
    """Examples per test case: the run's batch (checks.numerics.current), 1 outside a batched check."""
    run = current_run()
    return run.batch if run else 1


def _lowest(minimum: int) -> int:
    run = current_run()
    if run is not None and run.domain.min_position is not None:
        return max(minimum, run.domain.min_position)
    return minimum


@st.composite
def positions(
    draw: st.DrawFn, maximum: int | None = None, minimum: int = 0, exact: bool = False, dtype: str | None = None
) -> int:
    """An integer position ``minimum`` … the dtype's meaningful limit (or ``maximum``; see position_bound).

    ``dtype``: by default the check's; outside a check pass it (``positions(dtype="float32")``)."""
    top, minimum = position_bound(maximum, exact, dtype), _lowest(minimum)
    if minimum > top:
        raise ValueError(f"positions(minimum={minimum}) exceeds this dtype's limit {top}; narrow the dtypes")
    return draw(st.integers(minimum, top))


@st.composite
def position_batches(
    draw: st.DrawFn, maximum: int | None = None, minimum: int = 0, exact: bool = False, dtype: str | None = None
) -> Batch:
    """``batch_size()`` distinct positions from the range ``positions()`` draws from, as a Batch of int64; every
    position of the range when it holds no more than twice that many (float16's 0 … 128: each test case then covers
    the whole range at its d_model). ``dtype`` as for ``positions``."""
    top, minimum = position_bound(maximum, exact, dtype), _lowest(minimum)
    if minimum > top:
        raise ValueError(f"position_batches(minimum={minimum}) exceeds this dtype's limit {top}; narrow the dtypes")
    size = batch_size()
    if size > 1 and top - minimum + 1 <= 2 * size:
        return as_batch(np.arange(minimum, top + 1, dtype=np.int64))
    return as_batch(draw(arrays(np.int64, size, elements=st.integers(minimum, top), unique=True)))


@st.composite
def offsets(draw: st.DrawFn, maximum: int | None = None, dtype: str | None = None) -> int:
    """A shift k, negative or positive, within the dtype's meaningful range (``dtype`` as for ``positions``)."""
    bound = position_bound(maximum, dtype=dtype)
    return draw(st.integers(-bound, bound))


@st.composite
def position_and_offset(
    draw: st.DrawFn, both_ways: bool = False, starts: int = 1, dtype: str | None = None
) -> tuple[int, ...]:
    """(pos, …, k): ``starts`` positions and a shift k with every pos + k (and pos − k when ``both_ways``) inside
    the implementation's declared positions (``dtype`` as for ``positions``).

    Without a declared position range: positions from ``positions()`` and k from ``offsets()``, as drawn separately.
    """
    at = [draw(positions(dtype=dtype)) for _ in range(starts)]
    run = current_run()
    if run is None or (run.domain.max_position is None and run.domain.min_position is None):
        return (*at, draw(offsets(dtype=dtype)))
    bound = position_bound(dtype=dtype)
    low = run.domain.min_position if run.domain.min_position is not None else -2 * bound
    high = run.domain.max_position if run.domain.max_position is not None else 2 * bound
    lowest, highest = max(low - min(at), -bound), min(high - max(at), bound)
    if both_ways:
        highest = min(highest, -lowest)
        lowest = -highest
    if lowest > highest:
        reject()
    return (*at, draw(st.integers(lowest, highest)))


def _more_positions(
    draw: st.DrawFn, size: int, maximum: int | None = None, exact: bool = False, dtype: str | None = None
) -> np.ndarray:
    """``size`` positions from the range ``positions(maximum, exact=exact, dtype=dtype)`` draws from, repeats
    allowed."""
    return draw(arrays(np.int64, size, elements=st.integers(_lowest(0), position_bound(maximum, exact, dtype))))


def _whole_product(*ranges: range) -> np.ndarray | None:
    """Every row of ``ranges``' Cartesian product when it holds no more than twice the batch, else None.

    A batch of random rows from so small a set (bfloat16's 9 positions × 17 shifts) mostly repeats itself: reaching
    each of its distinct examples took a thorough run thousands of test cases (31 s and 215 MB of Hypothesis's
    bookkeeping for one run); the whole set is one test case per d_model."""
    size = batch_size()
    if size == 1 or not all(ranges) or np.prod([len(r) for r in ranges]) > 2 * size:
        return None
    grids = np.meshgrid(*(np.arange(r.start, r.stop, dtype=np.int64) for r in ranges), indexing="ij")
    return np.stack([grid.ravel() for grid in grids], axis=1)


@st.composite
def position_pair_batches(
    draw: st.DrawFn, maximum: int | None = None, exact: bool = False, dtype: str | None = None
) -> Batch:
    """Rows (p, q): the positions of ``position_batches(maximum, exact=exact)``, each with a second one from the
    same range (every pair of the range when there are few enough: ``_whole_product``). ``dtype`` as for
    ``positions``."""
    span = range(_lowest(0), position_bound(maximum, exact, dtype) + 1)
    whole = _whole_product(span, span)
    if whole is not None:
        return as_batch(whole)
    first = np.asarray(draw(position_batches(maximum, exact=exact, dtype=dtype)))
    return as_batch(np.stack([first, _more_positions(draw, first.size, maximum, exact, dtype)], axis=1))


@st.composite
def position_offset_batches(
    draw: st.DrawFn, both_ways: bool = False, starts: int = 1, minimum: int = 0, dtype: str | None = None
) -> Batch:
    """Rows (pos, …, k): the positions of ``position_batches(minimum=minimum)`` (and ``starts`` − 1 more from the
    range ``positions()`` draws from), each with a shift k drawn as ``offsets()`` draws it; rows where a pos + k (or
    pos − k, when ``both_ways``) falls outside the implementation's positions are dropped. Every such row, when there
    are few enough (``_whole_product``). ``dtype`` as for ``positions``."""
    bound = position_bound(dtype=dtype)
    first_span, span = range(_lowest(minimum), bound + 1), range(_lowest(0), bound + 1)
    whole = _whole_product(first_span, *[span] * (starts - 1), range(-bound, bound + 1))
    if whole is not None:
        at, shifts = list(whole[:, :-1].T), whole[:, -1]
        first = at[0]
    else:
        first = np.asarray(draw(position_batches(minimum=minimum, dtype=dtype)))
        at = [first, *(_more_positions(draw, first.size, dtype=dtype) for _ in range(starts - 1))]
        shifts = draw(arrays(np.int64, first.size, elements=st.integers(-bound, bound)))
    run = current_run()
    low, high = (run.domain.min_position, run.domain.max_position) if run else (None, None)
    kept = np.ones(first.size, dtype=bool)
    for start in at:
        for ends in [start + shifts, start - shifts] if both_ways else [start + shifts]:
            kept &= (ends >= (-np.inf if low is None else low)) & (ends <= (np.inf if high is None else high))
    if not kept.any():
        reject()
    return as_batch(np.stack([*at, shifts], axis=1)[kept])


@st.composite
def d_models(draw: st.DrawFn, even: bool | None = True, low: int = 1, high: int = 256) -> int:
    """Embedding sizes inside the implementation's declared domain; ``even=True`` even only, ``False`` odd only,
    ``None`` both."""
    run = current_run()
    domain = run.domain if run else None
    if domain is not None and domain.restricts_d_model:
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


@st.composite
def vector_batches(
    draw: st.DrawFn, size: int, elements: st.SearchStrategy[float] = UNIT, dtype: str | None = None
) -> tuple[Batch, Batch]:
    """(x, pos) for a batched check: rows x as ``vectors(size)`` draws them, each at a position of
    ``position_batches()`` (``dtype`` as for ``positions``)."""
    at = draw(position_batches(dtype=dtype))
    return as_batch(draw(arrays(np.float64, (len(at), size), elements=elements))), at


def frequencies() -> st.SearchStrategy[float]:
    """A frequency ω in (0, 1], as every ω_i of the sinusoidal encoding."""
    return st.floats(1e-4, 1.0, allow_nan=False)


@st.composite
def with_frequencies(draw: st.DrawFn, rows: st.SearchStrategy[Batch]) -> tuple[Batch, Batch]:
    """(rows, ω) for a batched check: a batch drawn from ``rows`` and a frequency from ``frequencies()`` for each."""
    at = draw(rows)
    return at, as_batch(draw(arrays(np.float64, len(at), elements=frequencies())))


@st.composite
def sentences(
    draw: st.DrawFn, max_tokens: int = 8, dims: tuple[int, int] = (1, 16), distinct: bool = False, moved: bool = False
):
    """A checks.attention.Sentence: n ≤ max_tokens words in d ∈ dims dimensions, a layer, a reordering.

    Words repeat unless ``distinct``; ``moved`` draws only reorderings that change the sentence.
    The embeddings and W_Q, W_K, W_V come from a drawn seed (see Sentence).
    """
    from checks.helpers.sentences import Sentence

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


LONG_SEQUENCE = 64
"""A long sentence among the draws of ``sentence_batches(varied=True)``: one length among the short ones (at most 8
words), as likely as each of them."""
SHARP = 4.0
"""W_Q and W_K times this: scores up to about 16 · d / √d_k, where exp overflows float16 without the row's maximum
subtracted first."""


@st.composite
def sentence_batches(
    draw: st.DrawFn,
    max_tokens: int = 8,
    dims: tuple[int, int] = (1, 16),
    distinct: bool = False,
    moved: bool = False,
    varied: bool = False,
) -> Batch:
    """A Batch of Sentences as ``sentences()`` draws them, one n and d per batch: each row its own words,
    reordering and seed (distinct seeds: distinct sentences). A property over attention takes them one by one
    (``t.each``); the batch spares Hypothesis's cost per test case, not the property's.

    ``varied``: d_k and d_v drawn apart from d (within ``dims``), a long sentence (LONG_SEQUENCE) and sharp scores
    (SHARP) among the draws, for a property that holds at any shape and scale."""
    from checks.helpers.sentences import Sentence

    shortest = 2 if moved else 1
    if varied:
        n = draw(st.sampled_from([*range(shortest, max_tokens + 1), LONG_SEQUENCE]))
    else:
        n = draw(st.integers(shortest, max_tokens))
    d = draw(st.integers(*dims))
    d_k, d_v = (draw(st.integers(*dims)) for _ in range(2)) if varied else (0, 0)
    sharpness = draw(st.sampled_from((1.0, SHARP))) if varied else 1.0
    size = batch_size()
    seeds = draw(arrays(np.int64, size, elements=st.integers(0, 2**32 - 1), unique=True))
    if distinct:
        words = np.tile(np.arange(n), (size, 1))
    else:
        words = draw(arrays(np.int64, (size, n), elements=st.integers(0, n - 1)))
    if moved:
        words[np.all(words == words[:, :1], axis=1)] = np.arange(n)  # one word n times has no moving reordering
    keys = draw(arrays(np.float64, (size, n), elements=st.floats(0, 1)))
    orders = np.argsort(keys, axis=1, kind="stable")  # all keys equal: the order unchanged
    rows = [
        Sentence(d, tuple(w), tuple(o), int(seed), d_k, d_v, sharpness)
        for w, o, seed in zip(words.tolist(), orders.tolist(), seeds.tolist(), strict=True)
    ]
    if moved:
        rows = [sentence for sentence in rows if sentence.moves]
        if not rows:
            reject()
    batch = np.empty(len(rows), dtype=object)
    batch[:] = rows
    return batch.view(Batch)
