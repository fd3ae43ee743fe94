"""The memory a dense sweep computes into: tensors kept for the process and lent to each chunk in turn.

Fresh pages cost a chunk more than the arithmetic on them (a 1 MB sin table: 0.8 ms fresh against
0.3 ms reused on a 2-core machine), so every grid-sized tensor a sweep forms lives in a buffer kept
here. A chunk takes buffers as it needs them, gives back the ones an equation has consumed (so the
next equation reuses them while they are still in cache), and returns all of them when it ends.
Buffers are lent in the order they were made, so every chunk of a sweep lays out alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from checks.settings.extras import optional

torch = optional("torch")


_KEPT: dict[tuple[str, torch.dtype], list[torch.Tensor]] = {}
"""Flat buffers by device and dtype, shared by the sweep runs of the process (one at a time: a second
Memory lending them at once would hand out buffers the first still holds)."""


def release_kept() -> None:
    """Drop every kept buffer (after a claim: the next claim's sweeps make their own; a worker that kept every
    claim's buffers grew by over 100 MB per swept dtype)."""
    _KEPT.clear()


class Memory:
    """Lends kept buffers to one sweep run on one device."""

    def __init__(self, device: str) -> None:
        self.device = device
        self._lent: dict[int, tuple[torch.Tensor, tuple[torch.dtype, int]]] = {}
        """id of a lent view → the view (held, so its id is not reused) and (dtype, index of its buffer)."""
        self._busy: set[tuple[torch.dtype, int]] = set()
        self._held: set[int] = set()
        """Views lent for the whole chunk (``held``): giving back what was lent since a point skips them."""
        self._holding = False

    def take(self, shape: tuple[int, ...], dtype: torch.dtype) -> torch.Tensor:
        """An uninitialised tensor of ``shape`` in a kept buffer no one holds: the smallest that fits, else the
        largest free one grown to fit, else a new one."""
        size = math.prod(shape)
        kept = _KEPT.setdefault((self.device, dtype), [])
        fitting, largest = -1, -1  # the smallest free buffer that fits; the largest free one
        for n, buffer in enumerate(kept):
            if (dtype, n) in self._busy:
                continue
            capacity = buffer.numel()
            if capacity >= size and (fitting < 0 or capacity < kept[fitting].numel()):
                fitting = n
            if largest < 0 or capacity > kept[largest].numel():
                largest = n
        index = fitting if fitting >= 0 else largest
        if index < 0:
            kept.append(torch.empty(max(size, 1), dtype=dtype, device=self.device))
            index = len(kept) - 1
        elif fitting < 0:  # none fits: the largest free one grows (buffers never outnumber what a chunk holds)
            kept[index] = torch.empty(size, dtype=dtype, device=self.device)
        view = kept[index][:size].view(shape)
        self._busy.add((dtype, index))
        self._lent[id(view)] = (view, (dtype, index))
        if self._holding:
            self._held.add(id(view))
        return view

    @contextmanager
    def held(self) -> Iterator[None]:
        """What is lent meanwhile stays lent until the chunk ends (a tolerance shared by several equations)."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False

    def lent(self, tensor: object) -> bool:
        """Whether ``tensor`` is a view this memory lent and has not had back."""
        entry = self._lent.get(id(tensor))
        return entry is not None and entry[0] is tensor

    def adopt(self, view: torch.Tensor, of: torch.Tensor) -> torch.Tensor:
        """Lend ``view`` (a view of the lent ``of``) in its place: giving it back frees their buffer."""
        _, key = self._lent.pop(id(of))
        self._lent[id(view)] = (view, key)
        return view

    def give(self, tensor: object) -> None:
        """Take back a lent tensor (a no-op for anything else): its buffer is free for the next taker."""
        if self.lent(tensor):
            _, key = self._lent.pop(id(tensor))
            self._busy.discard(key)

    def holding(self) -> set[int]:
        """What is lent now (to give back, later, whatever was lent after)."""
        return set(self._lent)

    def give_back_since(self, before: set[int]) -> None:
        """Take back everything lent since ``holding()`` returned ``before``."""
        for key in [key for key in self._lent if key not in before and key not in self._held]:
            self.give(self._lent[key][0])

    def reset(self) -> None:
        """Every buffer free again (a chunk ends)."""
        self._lent.clear()
        self._busy.clear()
        self._held.clear()
