"""Which examples a check's test case holds: one, or a batch of rows, counted by distinct input."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np
from hypothesis import assume, reject
from hypothesis.errors import UnsatisfiedAssumption

from checks.numerics.batch import Batch
from checks.numerics.remade import Remade, summary

SHOWN_ENTRIES = 32
"""An array of more entries than this is written as its summary (dtype, shape, range) in messages and on pages; a
failed run keeps it whole in results.json (Rows.whole), up to KEPT_ENTRIES."""
KEPT_ENTRIES = 2**16
"""The most entries of an array a failed run keeps whole (about 1.3 MB of JSON); past it, the summary alone."""


class BatchShapeError(TypeError):
    """A batched check compared values that do not have one row per example."""


class BeyondResolution(Exception):
    """The current example (row) is beyond the run's dtype: its tolerance there is as wide as the quantity's range,
    so no comparison could fail. It is not an example, and unlike ``assume`` it never starves Hypothesis: a cell
    where every input drawn is beyond its dtype is skipped with the reason (Trial.within_resolution)."""


class Rows:
    """The examples of the current test case and the one a message names.

    ``taken`` holds, for each row a comparison takes, the drawn row it stands for (``keep`` drops some);
    it is None outside a batch. ``named`` is the drawn row the current comparison is about (None: the
    whole example). ``distinct`` counts the distinct inputs seen over every test case.
    """

    def __init__(self) -> None:
        self.example: dict[str, Any] = {}
        self.taken: np.ndarray | None = None
        self.named: int | None = None
        self.batched = False
        """Whether any example held a Batch."""
        self.test_cases = 0
        """Hypothesis test cases run (each one example, or one batch of them)."""
        self._fresh: list[Hashable | None] = []
        """The inputs of the current test case not seen before, by row taken (None for a repeat)."""
        self._seen: set[Hashable] = set()
        self._offered = 0
        """Inputs that were new when their test case began, kept or rejected since."""

    @property
    def distinct(self) -> int:
        return len(self._seen)

    @property
    def rejections(self) -> int:
        """Distinct inputs the property rejected (``assume``, ``keep``)."""
        return self._offered - len(self._seen)

    @property
    def count(self) -> int | None:
        """Rows a comparison takes: None outside a batch."""
        return None if self.taken is None else len(self.taken)

    def begin(self, example: dict[str, Any]) -> None:
        """A new test case: one example, or a batch (every Batch in it of one length)."""
        self.example, self.named, self.taken = example, None, None
        self.test_cases += 1
        batches = {name: parts for name, value in example.items() if (parts := _batch_parts(value))}
        lengths = {len(part) for parts in batches.values() for part in parts}
        if len(lengths) > 1:
            raise BatchShapeError(f"batches of different lengths {sorted(lengths)} in one example")
        fixed = tuple(_key(value) for name, value in example.items() if name not in batches and name != "t")
        if not lengths:
            self._fresh = [None if fixed in self._seen else fixed]
            self._offered += self._fresh[0] is not None
            self._seen.add(fixed)
            return
        self.batched = True
        self.taken = np.arange(lengths.pop())
        columns = [[_row_key(row) for row in part] for parts in batches.values() for part in parts]
        keys = [(fixed, *row) for row in zip(*columns, strict=True)]
        self._fresh = [None if key in self._seen else key for key in keys]
        self._offered += len({key for key in self._fresh if key is not None})
        self._seen.update(keys)

    def end(self) -> None:
        """The run is over: its last example is let go (its arrays), its counts stay."""
        self.example, self.taken = {}, None

    def rejected(self) -> None:
        """The test case was rejected as a whole (an ``assume`` or ``reject``): its inputs seen first are no
        examples."""
        self._seen.difference_update(key for key in self._fresh if key is not None)
        self._fresh = []

    def name(self, row: int) -> None:
        """Row ``row`` of those taken is the one the current comparison reports (outside a batch: no change)."""
        if self.taken is not None:
            self.named = int(self.taken[row])

    def keep(self, rows: object) -> None:
        """Only the rows where ``rows`` is true stay examples; outside a batch ``assume(rows)``; a batch with no
        row kept is rejected as a whole."""
        kept = np.asarray(rows, dtype=bool)
        if self.taken is None:
            assume(bool(kept.all()))
            return
        if kept.shape != self.taken.shape:
            raise BatchShapeError(f"keep: {kept.shape} flags for a batch of {len(self.taken)}")
        self._seen.difference_update(key for key, stays in zip(self._fresh, kept, strict=True) if key and not stays)
        self._fresh = [key for key, stays in zip(self._fresh, kept, strict=True) if stays]
        self.taken = self.taken[kept]
        if not len(self.taken):
            reject()

    def each(self, batch: Batch, check: Callable[[Any], None]) -> None:
        """``check(row)`` for each row taken, as a one-example test case naming that row; an ``assume`` that
        fails there drops that row alone."""
        taken, dropped = self.taken, np.zeros(len(batch), dtype=bool)
        beyond = np.zeros(len(batch), dtype=bool)
        try:
            for row, value in enumerate(batch):
                self.taken, self.named = None, None if taken is None else int(taken[row])
                try:
                    check(value)
                except UnsatisfiedAssumption:
                    dropped[row] = True
                except BeyondResolution:
                    beyond[row] = True
        finally:
            self.taken, self.named = taken, None
        if len(batch) and beyond.all():
            raise BeyondResolution(f"all {len(batch)} rows")  # the runner's wrapper counts the case as rejected
        if (dropped | beyond).any():
            self.keep(~(dropped | beyond))

    def by_row(self, values: np.ndarray, label: str) -> np.ndarray:
        """``values`` as (examples, entries): one row per example taken, one row in all outside a batch."""
        if self.taken is None:
            return values.reshape(1, -1)
        if values.ndim == 0 or values.shape[0] != len(self.taken):
            raise BatchShapeError(
                f"{label}: a batched check compares one row per example; got shape {values.shape} "
                f"for a batch of {len(self.taken)}"
            )
        return values.reshape(len(self.taken), -1)

    def whole(self, skip: Callable[[Any], bool]) -> dict[str, Any]:
        """The current example's arrays that ``shown`` summarises, whole (as lists), the named row alone in a batch."""
        values = {
            name: value if self.named is None else _row_of(value, self.named)
            for name, value in self.example.items()
            if not skip(value)
        }
        return {name: value.tolist() for name, value in values.items() if _long(value) and value.size <= KEPT_ENTRIES}

    def shown(self, skip: Callable[[Any], bool]) -> dict[str, str]:
        """The current example as text (values ``skip`` accepts left out), the named row alone in a batch."""
        return {
            name: _text(value if self.named is None else _row_of(value, self.named))
            for name, value in self.example.items()
            if not skip(value)
        }


def _text(value: Any) -> str:
    """A drawn value as a reader writes it: a batch of one as its row, arrays as lists (never "Batch([0])"), an
    array of more than SHOWN_ENTRIES entries as its summary."""
    parts = _batch_parts(value)
    if parts and all(len(part) == 1 for part in parts):
        value = _row_of(value, 0)
    return shown(value)


def shown(value: Any) -> str:
    """A value in a message: an array as its list, or its summary past SHOWN_ENTRIES entries; anything else as its
    repr."""
    if isinstance(value, np.ndarray):
        return summary(value) if value.size > SHOWN_ENTRIES else repr(value.tolist())
    return repr(value)


def _long(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.size > SHOWN_ENTRIES


def _batch_parts(value: Any) -> tuple[Batch, ...]:
    """The Batches a drawn value holds: itself, or the members of a tuple of Batches (rows of q, k and positions)."""
    if isinstance(value, Batch):
        return (value,)
    if isinstance(value, tuple) and value and all(isinstance(part, Batch) for part in value):
        return value
    return ()


def _row_key(row: Any) -> Hashable:
    """A row of a Batch as a set member: its bytes, or the text of an object in a Batch of objects (a Sentence:
    keeping the object would keep the arrays it caches alive for the whole run)."""
    return row.tobytes() if isinstance(row, np.ndarray) else repr(row)


def _row_of(value: Any, row: int) -> Any:
    """One example of a drawn value: row ``row`` of each Batch in it, the value itself when it holds none."""
    parts = _batch_parts(value)
    if not parts:
        return value
    rows = tuple(part[row] if part.dtype == object else part[row].tolist() for part in parts)
    return rows[0] if isinstance(value, Batch) else rows


def _key(value: Any) -> Hashable:
    """A value as a set member: what makes two examples the same input. An array by a 128-bit digest of its bytes
    (a run keeps one key per distinct input), a topic's inputs by the recipe they are made from."""
    if isinstance(value, Remade):
        return value.recipe
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, _digest(value))
    if isinstance(value, tuple | list):  # a topic's inputs: a tuple of arrays (never printed to be compared)
        return (type(value).__name__, *(_key(part) for part in value))
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def _digest(array: np.ndarray) -> bytes:
    """128 bits of BLAKE2b over the array's bytes: two arrays that differ collide with probability 2⁻¹²⁸."""
    return hashlib.blake2b(np.ascontiguousarray(array).data, digest_size=16).digest()
