"""Document 000's own code as adapters: its numpy function and its PyTorch class, run as written.

The code runs in the document-code sandbox (a separate process, checks.implementations.document_code); these
adapters only ask it for tables and cast them the way a user would.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import torch

from checks.implementations.document_code import numpy_encoding, torch_module_cases

TABLE_SIZES = (64, 256, 1024, 4096)
"""Tables are built once per size and d_model; positions beyond the largest are not asked for."""


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
        return _numpy_table(_table_size(positions), d_model)[positions].astype(dtype)


@cache
def _numpy_table(size: int, d_model: int) -> np.ndarray:
    return numpy_encoding(size, d_model)


class DocumentTorch:
    """000's ``PositionalEncoding(d_model, max_len)``: its float32 ``pe`` buffer, cast as ``model.to`` would."""

    name = "document-torch"
    min_position, max_position = 0, TABLE_SIZES[-1] - 1

    def sinusoidal(self, positions: np.ndarray, d_model: int, dtype: str, device: str) -> torch.Tensor:
        table = _torch_table(_table_size(positions), d_model)
        return torch.from_numpy(table).to(device, getattr(torch, dtype))[torch.as_tensor(positions)]


@cache
def _torch_table(size: int, d_model: int) -> np.ndarray:
    case = (d_model, size, 1)
    built = torch_module_cases((case,))[case]
    if built.pe is None:
        raise RuntimeError(f"the document's PositionalEncoding({d_model}, max_len={size}) failed: {built.error}")
    return built.pe[0]
