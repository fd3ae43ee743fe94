"""The implementation protocol: a small adapter that exposes what an implementation offers.

An adapter is any object with a ``name`` and one or more capability methods:

- ``sinusoidal(positions, d_model, dtype, device)`` → rows PE(pos) for the integer ``positions``;
- ``rope(x, positions)`` → x (n × d, a tensor already in the run's dtype and device) with row j
  rotated for ``positions[j]`` (base 10000), pairs as ``pairing`` declares;
- ``attention(x, w_q, w_k, w_v)`` → softmax(x W_Q (x W_K)ᵀ / √d_k) x W_V, no mask, no position.

Optional attributes: ``backend`` ("torch" or "numpy", the arrays it takes and returns; torch if
absent), ``pairing`` ("interleaved": (2i, 2i+1), or "half-split": (i, i + d/2)), ``min_position`` and
``max_position`` (the positions it takes, e.g. 0 … its table size − 1: strategies draw no larger
position, and an example with a smaller one is discarded), ``missing()`` (why it cannot run here,
e.g. a package not installed) and ``unsupported(device, dtype)``. A capability an adapter lacks is
skipped with the reason, not failed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import assume

from checks.helpers.backends import Backend
from checks.implementations.pairing import INTERLEAVED, to_interleaved


def backend_name(adapter: Any) -> str:
    return getattr(adapter, "backend", "torch")


def missing(adapter: Any) -> str | None:
    """Why the adapter cannot run on this machine (None when it can)."""
    check = getattr(adapter, "missing", None)
    return check() if callable(check) else None


def unsupported(adapter: Any, device: str, dtype: str) -> str | None:
    check = getattr(adapter, "unsupported", None)
    return check(device, dtype) if callable(check) else None


def is_reference(adapter: Any) -> bool:
    """The project's own references decide a claim's verdict; every other adapter gets a matrix cell."""
    return bool(getattr(adapter, "reference", False))


class ImplementationFailure(AssertionError):
    """An implementation under test raised: a failed check with its input as counterexample."""


class Implementation:
    """An adapter bound to one run's backend: what a check sees as ``t.impl``, with or without ``uses=``.

    Its capabilities take and return the run's arrays; an exception inside another implementation
    is that implementation failing the check (its input becomes the counterexample), inside the
    project's own references a crash.
    """

    def __init__(self, adapter: Any, xp: Backend) -> None:
        self.adapter, self.xp = adapter, xp
        self.name: str = adapter.name
        self.pairing: str = getattr(adapter, "pairing", INTERLEAVED)
        self.reference = is_reference(adapter)
        self.min_position: int | None = getattr(adapter, "min_position", None)
        self.max_position: int | None = getattr(adapter, "max_position", None)

    def sinusoidal(self, positions: object, d_model: int) -> Any:
        rows = np.atleast_1d(np.asarray(positions, dtype=np.int64))
        if self.min_position is not None:
            assume(int(rows.min(initial=0)) >= self.min_position)  # a smaller position: the example is discarded
        return self._call("sinusoidal", rows, d_model, self.xp.dtype, self.xp.device)

    def rope(self, x: Any, positions: object) -> Any:
        return self._call("rope", x, np.atleast_1d(np.asarray(positions, dtype=np.int64)))

    def attention(self, x: Any, w_q: Any, w_k: Any, w_v: Any) -> Any:
        return self._call("attention", x, w_q, w_k, w_v)

    def to_interleaved(self, d_model: int) -> np.ndarray:
        """The permutation that puts this implementation's pairs in (2i, 2i + 1) order."""
        return to_interleaved(d_model, self.pairing)

    def _call(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.adapter, method)(*args)
        except Exception as error:
            if self.reference:
                raise
            raise ImplementationFailure(f"{self.name}.{method} raised {type(error).__name__}: {error}") from error
