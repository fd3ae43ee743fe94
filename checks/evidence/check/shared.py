"""Inputs a check draws once and hands to each of its cells that would draw them again.

A check's strategies see the run's dtype and the domain the implementation under test declares
(checks.numerics.current), nothing else of the cell: every implementation and device with the same dtype and domain
draws from the same strategies. Drawing is most of a check's time (Hypothesis builds arrays entry by entry: 70 % of
``rope.relative-score``'s, 115 of its 136 s in a thorough profile), and it was done again for every implementation.
Now the first cell of a (dtype, domain) whose run held keeps every input it was called with, in order; each later
cell of that key is called with those inputs, without Hypothesis (checks.evidence.check.runner._first_attempt).
A run whose strategies never read the dtype (checks.numerics.current.CurrentRun.dtype_read) drew what any dtype
would: its inputs are kept for every dtype of the domain. A cell that runs another dtype's inputs and rejects more
than ``REJECTED_SHARE`` of them (its property's ``assume`` reads its dtype) draws its own.

A topic's inputs (checks.numerics.remade) are kept as the seed and size they were made from and made again for each
later cell: the 10,000 inputs of a thorough multi-head attention run hold 450 MB as arrays, 64 bytes each as recipes.
A key's inputs are kept only from a run that held (a failed run stopped early, a shrunk one holds the shrinker's
inputs) and only up to ``KEPT_BYTES``, never from a property that draws inside itself (``st.data()``,
``st.randoms()``); each cell is handed copies, so a property that changes its inputs changes no other cell's.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from hypothesis import strategies as st

from checks.numerics.domain import Domain
from checks.numerics.remade import Recipe, Remade

Inputs = dict[str, Any]
"""One test case's keyword arguments: what the check's ``@given`` drew."""
Key = tuple[str, Domain]
REJECTED_SHARE = 0.01
"""The share of another dtype's inputs a cell's property may reject with the replay still standing for its own
draws. A cell's own Hypothesis run misses its count by more: the cells of ``layer-norm.rescaling-invariance``'s
``scale_as_epsilon_says`` ran 10,000 … 12,113 distinct examples of the thorough profile's 10,000 (at b5c05ab). Past
it, the cell draws its own."""
ANY_DTYPE = "any dtype"
"""The dtype of a key whose inputs were drawn without reading the dtype."""

KEPT_BYTES = 32 * 2**20
"""The most a check's kept inputs may hold (their arrays' bytes), every key together: a thorough worker stays within
its memory limit (docs/performance.md). Past it a key's inputs are not kept and each of its cells draws its own."""


@dataclass
class Recording:
    """The inputs of one run, copied as it is called with them; ``full`` once they pass ``room`` bytes."""

    room: int
    inputs: list[Inputs] = field(default_factory=list)
    size: int = 0
    full: bool = False

    def add(self, inputs: Inputs) -> None:
        if self.full:
            return
        if any(_draws_inside(value) for value in inputs.values()):
            self.full, self.inputs = True, []  # drawn inside the property: a later cell must draw its own
            return
        kept = {name: value.recipe if isinstance(value, Remade) else value for name, value in inputs.items()}
        self.size += _bytes(kept)
        if self.size > self.room:
            self.full, self.inputs = True, []
            return
        self.inputs.append(copy.deepcopy(kept))


@dataclass
class SharedDraws:
    """The inputs each (dtype, domain) of one check drew in a run that held."""

    kept: dict[Key, list[Inputs]] = field(default_factory=dict)
    examples: dict[Key, int] = field(default_factory=dict)
    """The examples of the run that kept a key's inputs."""
    not_kept: set[Key] = field(default_factory=set)
    """Keys whose inputs cannot be kept (past KEPT_BYTES, or drawn inside the property): their cells draw their own."""
    size: int = 0
    """The bytes kept, every key together (at most KEPT_BYTES)."""

    def inputs(self, dtype: str, domain: Domain) -> Iterator[Inputs] | None:
        """Copies of the inputs kept for ``dtype`` (or for any dtype) and ``domain``, one at a time, or None: the
        cell draws its own."""
        key = self._kept_key(dtype, domain)
        return None if key is None else (_made(inputs) for inputs in self.kept[key])

    def least_examples(self, dtype: str, domain: Domain) -> int:
        """How many examples a cell must run on the inputs kept for it to stand for its own draws: one of its own
        dtype's, all but ``REJECTED_SHARE`` of the keeping run's for inputs drawn for any dtype."""
        key = self._kept_key(dtype, domain)
        if key is None or key[0] != ANY_DTYPE:
            return 1
        return math.ceil((1 - REJECTED_SHARE) * self.examples[key])

    def rejections_allowed(self, dtype: str, domain: Domain) -> int | None:
        """How many of the inputs kept for any dtype a cell may reject before its replay is given up (None: inputs
        of its own dtype, or none kept)."""
        key = self._kept_key(dtype, domain)
        if key is None or key[0] != ANY_DTYPE:
            return None
        return self.examples[key] - self.least_examples(dtype, domain)

    def recording(self, dtype: str, domain: Domain, own_dtype: bool = False) -> Recording | None:
        """A recording for the run of a key with nothing kept yet (None: kept already, or never to be kept);
        ``own_dtype``: for a cell that draws its own after rejecting too many of the inputs kept for any dtype."""
        keys = {_key(dtype, domain)} if own_dtype else {_key(dtype, domain), _key(ANY_DTYPE, domain)}
        taken = any(key in self.kept or key in self.not_kept for key in keys)
        return None if taken else Recording(KEPT_BYTES - self.size)

    def keep(
        self, dtype: str, domain: Domain, recording: Recording, *, examples: int = 0, any_dtype: bool = False
    ) -> None:
        """The inputs of a run that held (``examples`` of them, drawn without reading the dtype when
        ``any_dtype``), for the key's later cells."""
        key = _key(ANY_DTYPE if any_dtype else dtype, domain)
        if recording.full:
            self.not_kept.add(key)
        elif recording.inputs:
            self.kept[key], self.size = recording.inputs, self.size + recording.size
            self.examples[key] = examples

    def _kept_key(self, dtype: str, domain: Domain) -> Key | None:
        for key in (_key(dtype, domain), _key(ANY_DTYPE, domain)):
            if key in self.kept:
                return key
        return None


def _draws_inside(value: object) -> bool:
    """Whether ``value`` draws from Hypothesis's test case as the property uses it: ``st.data()``, or
    ``st.randoms(use_true_random=False)`` (a copy keeps the test case it came from, and answers only the calls made
    on the original)."""
    artificial = type(value).__name__ == "ArtificialRandom" and type(value).__module__.startswith("hypothesis.")
    return isinstance(value, st.DataObject) or artificial


def _made(kept: Inputs) -> Inputs:
    """A copy of kept inputs for a cell: each recipe made again, anything else deep-copied."""
    return {name: value() if isinstance(value, Recipe) else copy.deepcopy(value) for name, value in kept.items()}


def _key(dtype: str, domain: Domain) -> Key:
    """What a cell's draws depend on: its dtype and its domain's positions and sizes (the dtypes and devices an
    implementation declares decide whether a cell runs, not what it draws)."""
    return dtype, replace(domain, dtypes=None, devices=None)


def _bytes(value: object) -> int:
    """The bytes of the arrays in ``value`` (tuples, lists, dicts of them; 64 for anything else, a recipe too)."""
    if isinstance(value, np.ndarray):
        return value.nbytes if value.dtype != object else 64 * value.size
    if isinstance(value, dict):
        return sum(_bytes(item) for item in value.values())
    if isinstance(value, tuple | list):
        return sum(_bytes(item) for item in value)
    return 64
