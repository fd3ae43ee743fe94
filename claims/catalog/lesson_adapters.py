"""Document 000's own code as adapters: its numpy function and its PyTorch class, run as written.

The code runs in the document-code sandbox (a separate process, catalog.lesson_code); these
adapters only ask it for tables and cast them the way a user would.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from checks.adapters import DOCUMENT_CODE
from claims.catalog.lesson_code import numpy_table, run_torch_cases

TABLE_SIZES = (64, 256, 1024, 4096)
"""Tables are built at the smallest of these sizes that holds the positions asked for; none beyond the largest."""


class Tables:
    """One table per d_model, the largest built so far (its first rows are the smaller tables: a row of the
    document's code does not depend on max_len), each in a file of a folder of this process's own, read through a
    memory map for each lookup.

    Building a table runs the lesson's Python loop in the sandbox (0.1–0.35 s at 4,096 positions), and a thorough run
    draws a new d_model in most test cases: kept in memory, the tables a run can ask for come to 4,096 × (1 + … +
    256) × 12 bytes ≈ 1.6 GB (two adapters); a 64 MB cache per adapter rebuilt them for most test cases (465 s of a
    thorough run's 1,500 s of checks) and still held 128 MB of a worker. On disk each is built once per process and
    only the rows looked up come into memory. The folder goes when the process ends.

    A table the document's own code refuses to build (DocumentRaised: PositionalEncoding(3) raises) is refused again
    from memory: the code is deterministic, and shrinking a failure asks for the same small tables again and again
    (each a sandbox run). Anything else that stops a build (a time limit, a lost sandbox worker) is tried again.
    """

    def __init__(self, build: Callable[[int, int], np.ndarray]) -> None:
        self.build = build
        self._sizes: dict[int, int] = {}
        self._refused: dict[tuple[int, int], str] = {}
        self._folder: Path | None = None
        self._owner = 0

    def lookup(self, positions: np.ndarray, d_model: int) -> np.ndarray:
        """Rows ``positions`` of the d_model table (built at the smallest of TABLE_SIZES that holds them)."""
        size, path = _table_size(positions), self._path(d_model)
        if self._sizes.get(d_model, 0) < size:
            table = self._built(size, d_model)
            np.save(path, table, allow_pickle=False)
            self._sizes[d_model] = len(table)
        return np.array(np.load(path, mmap_mode="r", allow_pickle=False)[positions])

    def _built(self, size: int, d_model: int) -> np.ndarray:
        """The table, or the document code's refusal, raised from this one line each time: Hypothesis tells failures
        apart by where they were raised, and the same refusal from two places would read as two failures."""
        if (d_model, size) not in self._refused:
            try:
                return np.asarray(self.build(size, d_model))
            except DocumentRaised as error:
                self._refused[d_model, size] = str(error)
        raise RuntimeError(self._refused[d_model, size])

    @property
    def built(self) -> dict[int, int]:
        """d_model → rows of the table kept for it."""
        return dict(self._sizes)

    def _path(self, d_model: int) -> Path:
        if self._folder is None or self._owner != os.getpid():  # a forked child makes its own
            self._folder, self._owner, self._sizes, self._refused = (
                Path(tempfile.mkdtemp(prefix="theory-claims-tables-")),
                os.getpid(),
                {},
                {},
            )
            weakref.finalize(self, _remove, self._folder, self._owner)
        return self._folder / f"{int(d_model)}.npy"


class DocumentRaised(RuntimeError):
    """The document's code itself raised building a table (caught in its script, not a time limit or a lost
    worker): the same arguments raise the same again."""


def _remove(folder: Path, owner: int) -> None:
    """The tables' folder, by the process that made it (not by a forked child that inherited its finalizer)."""
    if os.getpid() == owner:
        shutil.rmtree(folder, ignore_errors=True)


def _table_size(positions: np.ndarray) -> int:
    needed = int(positions.max(initial=0)) + 1
    for size in TABLE_SIZES:
        if needed <= size:
            return size
    raise ValueError(f"position {needed - 1} exceeds the document adapters' largest table ({TABLE_SIZES[-1]})")


class DocumentNumpy:
    """000's ``positional_encoding(max_len, d_model)`` (a Python loop in float64), cast with ``astype``."""

    name = f"{DOCUMENT_CODE}numpy"
    backend = "numpy"
    min_position, max_position = 0, TABLE_SIZES[-1] - 1

    def unsupported(self, device: str, dtype: str) -> str | None:
        return "NumPy runs on the CPU only" if device != "cpu" else None

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> np.ndarray:
        return NUMPY_TABLES.lookup(positions, d_model).astype(dtype)


class DocumentTorch:
    """000's ``PositionalEncoding(d_model, max_len)``: its float32 ``pe`` buffer, cast as ``model.to`` would."""

    name = f"{DOCUMENT_CODE}torch"
    min_position, max_position = 0, TABLE_SIZES[-1] - 1

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        return torch.from_numpy(TORCH_TABLES.lookup(positions, d_model)).to(device, getattr(torch, dtype))


def _torch_table(size: int, d_model: int) -> np.ndarray:
    case = (d_model, size, 1)
    built = run_torch_cases((case,))[case]
    if built.pe is None:
        raise DocumentRaised(f"the document's PositionalEncoding({d_model}, max_len={size}) failed: {built.error}")
    return built.pe[0]


NUMPY_TABLES = Tables(numpy_table)
TORCH_TABLES = Tables(_torch_table)
