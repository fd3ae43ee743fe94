"""Document 000's own code as adapters: its numpy function and its PyTorch class, run as written.

The code runs in the document-code sandbox (a separate process, checks.implementations.document_code); these
adapters only ask it for tables and cast them the way a user would.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import torch

from checks.helpers.claim_caches import per_claim
from checks.implementations.document_code import numpy_table, run_torch_cases

TABLE_SIZES = (64, 256, 1024, 4096)
"""Tables are built at the smallest of these sizes that holds the positions asked for; none beyond the largest."""
TABLES_LIMIT = 64 * 2**20
"""Bytes of tables each adapter keeps (eight of the largest, 4,096 × 256 in float64); beyond, the least recently
used d_model goes. A thorough run draws a new d_model in most test cases, so a larger cache is rarely hit again and
only held a worker's memory up (two adapters at 256 MB each took workers past 1 GB). The tables go after each claim
(checks.helpers.claim_caches): kept, they held 128 MB of a worker through every later claim."""


class Tables:
    """One table per d_model, the largest built so far: its first rows are the smaller tables (a row of the
    document's code does not depend on max_len), and the least recently used go past ``limit`` bytes."""

    def __init__(self, build: Callable[[int, int], np.ndarray], limit: int = TABLES_LIMIT) -> None:
        self.build, self.limit = build, limit
        self._tables: OrderedDict[int, np.ndarray] = OrderedDict()
        per_claim(self._tables.clear)

    def rows(self, size: int, d_model: int) -> np.ndarray:
        """A table of at least ``size`` rows for ``d_model``."""
        table = self._tables.pop(d_model, None)
        if table is None or len(table) < size:
            table = self.build(size, d_model)
        self._tables[d_model] = table
        while len(self._tables) > 1 and self.nbytes > self.limit:
            self._tables.popitem(last=False)
        return table

    @property
    def nbytes(self) -> int:
        return sum(table.nbytes for table in self._tables.values())


def _table_size(positions: np.ndarray) -> int:
    needed = int(positions.max(initial=0)) + 1
    for size in TABLE_SIZES:
        if needed <= size:
            return size
    raise ValueError(f"position {needed - 1} exceeds the document adapters' largest table ({TABLE_SIZES[-1]})")


class DocumentNumpy:
    """000's ``positional_encoding(max_len, d_model)`` (a Python loop in float64), cast with ``astype``."""

    name = "document-numpy"
    backend = "numpy"
    min_position, max_position = 0, TABLE_SIZES[-1] - 1

    def unsupported(self, device: str, dtype: str) -> str | None:
        return "NumPy runs on the CPU only" if device != "cpu" else None

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> np.ndarray:
        return NUMPY_TABLES.rows(_table_size(positions), d_model)[positions].astype(dtype)


class DocumentTorch:
    """000's ``PositionalEncoding(d_model, max_len)``: its float32 ``pe`` buffer, cast as ``model.to`` would."""

    name = "document-torch"
    min_position, max_position = 0, TABLE_SIZES[-1] - 1

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        table = TORCH_TABLES.rows(_table_size(positions), d_model)
        return torch.from_numpy(table).to(device, getattr(torch, dtype))[torch.as_tensor(positions)]


def _torch_table(size: int, d_model: int) -> np.ndarray:
    case = (d_model, size, 1)
    built = run_torch_cases((case,))[case]
    if built.pe is None:
        raise RuntimeError(f"the document's PositionalEncoding({d_model}, max_len={size}) failed: {built.error}")
    return built.pe[0]


NUMPY_TABLES = Tables(numpy_table)
TORCH_TABLES = Tables(_torch_table)
