"""The implementation protocol: a small adapter that exposes what an implementation offers.

An adapter is any object with a ``name`` and one or more capability methods (README "Implementations"
gives every argument's type):

- ``sinusoidal(positions, d_model, dtype, device)`` → rows PE(pos) for the integer ``positions``;
- ``rope(x, positions)`` → x (n × d, a tensor already in the run's dtype and device) with row j
  rotated for ``positions[j]`` (base 10000), pairs as ``pairing`` declares;
- ``attention(x, w_q, w_k, w_v)`` → softmax(x W_Q (x W_K)ᵀ / √d_k) x W_V, no mask, no position.

Optional attributes: ``backend`` ("torch" or "numpy", the arrays it takes and returns; torch if
absent), ``pairing`` (RoPE: "interleaved": (2i, 2i+1), or "half-split": (i, i + d/2)), ``layout``
(sinusoidal: "interleaved": sin at 2i, cos at 2i+1, or "concatenated": all sines, then all cosines),
the domain it supports (checks.numerics.domain), ``missing()`` (why it cannot run here, e.g. a
package not installed) and ``unsupported(device, dtype)``. A capability an adapter lacks is skipped
with the reason, not failed.

Every call into an adapter that is not one of the project's references goes through ``Implementation``:
an input outside its declared domain is discarded, and an exception, an output of the wrong type,
shape, dtype or device, a non-finite output or a changed input is an ``ImplementationFailure`` that
names the adapter, the capability and the input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from hypothesis.errors import UnsatisfiedAssumption

from checks.implementations.loading import EnvironmentProblem, loading_failure
from checks.numerics.backends import Backend
from checks.numerics.domain import Domain
from checks.numerics.pairing import (
    INTERLEAVED,
    LAYOUTS,
    PAIRINGS,
    to_document_layout,
)


def backend_name(adapter: Any) -> str:
    return getattr(adapter, "backend", "torch")


def missing(adapter: Any) -> str | None:
    """Why the adapter cannot run on this machine (None when it can)."""
    check = getattr(adapter, "missing", None)
    return check() if callable(check) else None


def unsupported(adapter: Any, device: str, dtype: str) -> str | None:
    check = getattr(adapter, "unsupported", None)
    return check(device, dtype) if callable(check) else None


DECLARED = {"backend": ("torch", "numpy"), "pairing": PAIRINGS, "layout": LAYOUTS}
"""The declarations an adapter may make with one of a few names, and those names."""


def declaration_error(adapter: Any) -> str | None:
    """What is wrong with the adapter's ``backend``, ``pairing`` or ``layout`` declaration (None when nothing)."""
    for attribute, allowed in DECLARED.items():
        value = getattr(adapter, attribute, allowed[0])
        if value not in allowed:
            return f"{attribute} {_shown(value)} is not one of {', '.join(allowed)}"
    return None


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else f"of type {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def is_reference(adapter: Any) -> bool:
    """The project's own references decide a claim's verdict; every other adapter gets a matrix cell."""
    return bool(getattr(adapter, "reference", False))


class ImplementationFailure(AssertionError):
    """An implementation under test raised or broke its contract: a failed check, its input the counterexample."""


class OutsideDomain(UnsatisfiedAssumption):
    """An input outside the adapter's declared domain: Hypothesis discards the example, a probe skips it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Expected:
    """What a call must return: the backend's array type, shape, dtype and device."""

    shape: tuple[int, ...]
    dtype: str
    device: str


class Implementation:
    """An adapter bound to one run's backend: what a check sees as ``t.impl``, with or without ``uses=``.

    Its capabilities take and return the run's arrays. Inside another implementation an exception or a
    broken contract is that implementation failing the check (its input becomes the counterexample);
    inside the project's own references it is a crash.
    """

    def __init__(self, adapter: Any, xp: Backend, domain: Domain | None = None, finite: bool = True) -> None:
        self.adapter, self.xp, self.finite = adapter, xp, finite
        """``finite=False`` lets inf and NaN through (a probe that looks for where they start)."""
        self.name: str = adapter.name
        self.pairing: str = getattr(adapter, "pairing", INTERLEAVED)
        self.layout_name: str = getattr(adapter, "layout", INTERLEAVED)
        self.reference = is_reference(adapter)
        self.domain = domain if domain is not None else Domain.of(adapter)
        self.d_models_seen: list[int] = []
        """The d_model of every call, in order (the last one is the size a failure happened at)."""
        self.positions_seen: list[int] = []
        """The largest position of every call that takes positions, in order."""

    @property
    def max_position(self) -> int | None:
        return self.domain.max_position

    def sinusoidal(self, positions: object, d_model: int) -> Any:
        """PE rows in the documents' layout (sin at 2i, cos at 2i + 1), whatever layout the adapter declares."""
        table = self.sinusoidal_as_given(positions, d_model)
        return table if self.layout_name == INTERLEAVED else table[..., to_document_layout(d_model, self.layout_name)]

    def sinusoidal_as_given(self, positions: object, d_model: int) -> Any:
        """PE rows as the adapter returns them (its own layout)."""
        rows = _positions(positions)
        self._inside(d_model, rows)
        expected = Expected((len(rows), d_model), self.xp.dtype, self.xp.device)
        return self._call("sinusoidal", expected, rows, d_model, self.xp.dtype, self.xp.device)

    def rope(self, x: Any, positions: object) -> Any:
        rows = _positions(positions)
        self._inside(int(x.shape[-1]), rows)
        return self._call("rope", _like(x), x, rows)

    def attention(self, x: Any, w_q: Any, w_k: Any, w_v: Any) -> Any:
        self._inside(int(x.shape[-1]), ())
        expected = Expected((int(x.shape[0]), int(w_v.shape[-1])), *_dtype_device(x))
        return self._call("attention", expected, x, w_q, w_k, w_v)

    def _inside(self, d_model: int, positions: np.ndarray | tuple[()]) -> None:
        reason = self.domain.refuses(d_model=d_model, positions=positions)
        if reason:
            raise OutsideDomain(f"{self.name}: {reason}")
        self.d_models_seen.append(d_model)
        if len(positions):
            self.positions_seen.append(int(np.max(positions)))

    def _call(self, method: str, expected: Expected, *args: Any) -> Any:
        if self.reference:
            return getattr(self.adapter, method)(*args)
        before = [_copy(arg) for arg in args]
        try:
            result = getattr(self.adapter, method)(*args)
        except Exception as error:
            loading = loading_failure(error)
            if loading:
                raise EnvironmentProblem(f"{self.name}: {loading}") from error
            raise self._failure(method, args, f"raised {type(error).__name__}: {error}") from error
        changed = [i for i, (arg, kept) in enumerate(zip(args, before, strict=True)) if not _same(arg, kept)]
        if changed:
            raise self._failure(method, before, f"changed its input {_ARGUMENTS[method][changed[0]]}")
        problem = self._broken(result, expected)
        if problem:
            raise self._failure(method, args, problem)
        return result

    def _broken(self, result: Any, expected: Expected) -> str | None:
        """How ``result`` breaks the output contract (None when it keeps it)."""
        kind = np.ndarray if self.xp.name == "numpy" else torch.Tensor
        if not isinstance(result, kind):
            return f"returned {_type_name(result)}, not {kind.__module__.split('.')[0]}.{kind.__name__}"
        shape, (dtype, device) = tuple(int(n) for n in result.shape), _dtype_device(result)
        if shape != expected.shape:
            return f"returned shape {shape}, not {expected.shape}"
        if dtype != expected.dtype:
            return f"returned {dtype} for {expected.dtype}"
        if device != expected.device:
            return f"returned a result on {device}, not {expected.device}"
        finite = np.isfinite(self.xp.to_float64(result))
        if self.finite and not finite.all():
            return f"returned {int((~finite).sum())} non-finite value(s) of {finite.size}"
        return None

    def _failure(self, method: str, args: Any, problem: str) -> ImplementationFailure:
        inputs = ", ".join(f"{name}: {describe(arg)}" for name, arg in zip(_ARGUMENTS[method], args, strict=False))
        return ImplementationFailure(f"{self.name}.{method}({inputs}) {problem}")


_ARGUMENTS = {
    "sinusoidal": ("positions", "d_model", "dtype", "device"),
    "rope": ("x", "positions"),
    "attention": ("x", "w_q", "w_k", "w_v"),
}


def describe(value: Any) -> str:
    """An argument in a few words: its values when short, else its dtype, shape and device."""
    if not isinstance(value, torch.Tensor | np.ndarray):
        return repr(value)
    dtype, device = _dtype_device(value)
    if value.ndim == 1 and len(value) <= 4:
        return str(value.tolist())
    if value.ndim == 1 and dtype.startswith(("int", "uint")):
        low, high = int(value.min()), int(value.max())
        return f"{len(value)} × position {low}" if low == high else f"{len(value)} positions {low} … {high}"
    shape = "×".join(str(int(n)) for n in value.shape)
    return f"{dtype} {type(value).__name__} {shape} on {device}"


def _positions(positions: object) -> np.ndarray:
    return np.atleast_1d(np.asarray(positions, dtype=np.int64))


def _like(x: Any) -> Expected:
    return Expected(tuple(int(n) for n in x.shape), *_dtype_device(x))


def _dtype_device(value: Any) -> tuple[str, str]:
    device = value.device.type if isinstance(value, torch.Tensor) else "cpu"
    return str(value.dtype).removeprefix("torch."), device


def _type_name(value: Any) -> str:
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__.split('.')[0]}.{kind.__name__}"


def _copy(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _same(value: Any, kept: Any) -> bool:
    if isinstance(value, torch.Tensor):
        return isinstance(kept, torch.Tensor) and torch.equal(value, kept)
    if isinstance(value, np.ndarray):
        return np.array_equal(value, kept)
    return True
