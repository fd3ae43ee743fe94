"""The implementation protocol: a small adapter that exposes what an implementation offers.

An adapter is any object with a ``name`` and one or more topic methods: a method named after a topic
(checks.topics: ``sinusoidal``, ``rope``, ``attention``, ``layer_norm``, ``multihead_attention``, and a
repository's own), taking the topic's ``arguments`` (docs/topics.md lists each topic's).

Optional attributes: ``backend`` ("torch" or "numpy", the arrays it takes and returns; torch if
absent), a topic's declarations (RoPE's ``pairing``, the sinusoidal table's ``layout``), the domain it
supports (checks.numerics.domain), ``missing()`` (why it cannot run here, e.g. a package not installed)
and ``unsupported(device, dtype)``. A topic an adapter lacks is skipped with the reason, not failed.

Every call into an adapter that is not one of the project's references goes through ``Implementation``:
an input outside its declared domain is discarded, and an exception, an output of the wrong type,
shape, dtype or device, a non-finite output or a changed input is an ``ImplementationFailure`` that
names the adapter, the capability and the input.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
from hypothesis.errors import UnsatisfiedAssumption

from checks.implementations.loading import EnvironmentProblem, loading_failure
from checks.implementations.topic_records import Expected
from checks.numerics.backends import BACKENDS, Backend
from checks.numerics.domain import Domain
from checks.numerics.pairing import INTERLEAVED
from checks.settings.extras import is_tensor, optional

if TYPE_CHECKING:
    from checks.implementations.topic_records import Topic

torch = optional("torch")


def backend_name(adapter: Any) -> str:
    """The arrays an adapter takes and returns: its ``backend`` ("torch" unless it says "numpy")."""
    return getattr(adapter, "backend", "torch")


def missing(adapter: Any) -> str | None:
    """Why the adapter cannot run on this machine (None when it can)."""
    check = getattr(adapter, "missing", None)
    return check() if callable(check) else None


def unsupported(adapter: Any, device: str, dtype: str) -> str | None:
    check = getattr(adapter, "unsupported", None)
    return check(device, dtype) if callable(check) else None


def refusal(adapter: Any, domain: Domain, device: str, dtype: str) -> str | None:
    """Why the adapter does not run in ``dtype`` on ``device``: its backend's, its own or its domain's reason (None
    when it runs)."""
    backend = BACKENDS[backend_name(adapter)].unsupported(device, dtype)
    return backend or unsupported(adapter, device, dtype) or domain.refuses_run(device, dtype)


BACKEND_NAMES = ("torch", "numpy")
"""The backends an adapter may declare (its arrays)."""


def declarations() -> dict[str, tuple[str, ...]]:
    """The declarations an adapter may make with one of a few names, and those names: its backend, and each
    topic's (a RoPE pairing, a table's layout)."""
    from checks.implementations.topic_records import topics

    found = {"backend": BACKEND_NAMES}
    for topic in topics():
        found.update(topic.declarations)
    return found


def declaration_error(adapter: Any) -> str | None:
    """What is wrong with one of the adapter's declarations (None when nothing)."""
    for attribute, allowed in declarations().items():
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


class ReferenceBroken(RuntimeError):
    """A reference (the project's, or a topic's) answered with the wrong type, shape, dtype or device: the claim's own
    computation is wrong, so the check crashes (broken), never a failure of an implementation."""


class ImplementationFailure(AssertionError):
    """An implementation under test raised or broke its contract: a failed check, its input the counterexample."""


class OutsideDomain(UnsatisfiedAssumption):
    """An input outside the adapter's declared domain: Hypothesis discards the example, a probe skips it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


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
        """RoPE's declared pairs (checks.topics.positional)."""
        self.reference = is_reference(adapter)
        self.domain = domain if domain is not None else Domain.of(adapter)
        self.d_models_seen: list[int] = []
        """The d_model of every call, in order (the last one is the size a failure happened at)."""
        self._topics: dict[str, Topic] = {}
        self.positions_seen: list[int] = []
        """The largest position of every call that takes positions, in order."""
        self.call_seconds: list[float] = []
        """Seconds of each call into the adapter: its own time, not the copies and comparisons around the call."""

    @property
    def max_position(self) -> int | None:
        return self.domain.max_position

    def call(self, topic_name: str, *arguments: Any) -> Any:
        """The adapter's ``topic_name`` method on ``arguments``, as checks compare it (checks.topics.Topic.present)."""
        found, prepared = self._called(topic_name, arguments)
        present = self._topic(topic_name).present
        return found if present is None else present(self, found, prepared)

    def as_given(self, topic_name: str, *arguments: Any) -> Any:
        """The adapter's output as it returns it (its own layout)."""
        return self._called(topic_name, arguments)[0]

    def __getattr__(self, name: str) -> Any:
        """``impl.<topic>(...)``: the topic's method (``impl.rope(x, positions)``, ``impl.layer_norm(x, ...)``)."""
        if name.startswith("_") or (name not in self.__dict__.get("_topics", {}) and name not in _topic_names()):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return lambda *arguments: self.call(name, *arguments)

    def _topic(self, name: str) -> Topic:
        """The topic called ``name``, looked up once per bound implementation (a check calls it per example)."""
        if name not in self._topics:
            self._topics[name] = _topic(name)
        return self._topics[name]

    def _called(self, topic_name: str, arguments: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
        topic = self._topic(topic_name)
        prepared = topic.prepare(arguments)
        self._inside(topic.size(prepared), topic.positions(prepared), topic.size_name)
        shape = tuple(int(n) for n in getattr(prepared[0], "shape", ()))
        expected = (
            topic.expected(self.xp, prepared) if topic.expected else Expected(shape, self.xp.dtype, self.xp.device)
        )
        return self._call(topic, expected, *topic.to_adapter(self.xp, prepared)), prepared

    def _inside(self, d_model: int, positions: np.ndarray | tuple[()], size: str = "d_model") -> None:
        reason = self.domain.refuses(d_model=d_model, positions=positions, size=size)
        if reason:
            raise OutsideDomain(f"{self.name}: {reason}")
        self.d_models_seen.append(d_model)
        if len(positions):
            self.positions_seen.append(int(np.max(positions)))

    def _call(self, topic: Topic, expected: Expected, *args: Any) -> Any:
        method = topic.name
        if self.reference:  # the project's references (and a topic's): their exceptions are crashes, as is a wrong type
            result = self._timed(method, args)
            problem = self._broken(result, expected, finite=False)
            if problem:
                raise ReferenceBroken(
                    f"the reference {self.name}.{method} {problem}: it must answer in the run's dtype and device "
                    "(were its arguments put there with t.xp.array?)"
                )
            return result
        before = [_copy(arg) for arg in args]
        try:
            result = self._timed(method, args)
        except Exception as error:
            loading = loading_failure(error)
            if loading:
                raise EnvironmentProblem(f"{self.name}: {loading}") from error
            raise self._failure(topic, args, f"raised {type(error).__name__}: {error}") from error
        changed = [i for i, (arg, kept) in enumerate(zip(args, before, strict=True)) if not _same(arg, kept)]
        if changed:
            raise self._failure(topic, before, f"changed its input {topic.arguments[changed[0]]}")
        problem = self._broken(result, expected)
        if problem:
            raise self._failure(topic, args, problem)
        return result

    def _timed(self, method: str, args: tuple[Any, ...]) -> Any:
        """The adapter's ``method`` on ``args``, counted and timed."""
        started = time.perf_counter()
        try:
            return getattr(self.adapter, method)(*args)
        finally:
            self.call_seconds.append(time.perf_counter() - started)

    def _broken(self, result: Any, expected: Expected, finite: bool = True) -> str | None:
        """How ``result`` breaks the output contract (None when it keeps it); ``finite=False`` lets inf and NaN by."""
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
        if not (finite and self.finite):
            return None
        finite_values = np.isfinite(self.xp.to_float64(result))
        if not finite_values.all():
            return f"returned {int((~finite_values).sum())} non-finite value(s) of {finite_values.size}"
        return None

    def _failure(self, topic: Topic, args: Any, problem: str) -> ImplementationFailure:
        inputs = ", ".join(f"{name}: {describe(arg)}" for name, arg in zip(topic.arguments, args, strict=False))
        return ImplementationFailure(f"{self.name}.{topic.name}({inputs}) {problem}")


def _topic(name: str) -> Topic:
    from checks.implementations.topic_records import topic

    return topic(name)


def _topic_names() -> tuple[str, ...]:
    from checks.implementations.topic_records import names

    return names()


def describe(value: Any) -> str:
    """An argument in a few words: its values when short, else its dtype, shape and device."""
    if not (is_tensor(value) or isinstance(value, np.ndarray)):
        return repr(value)
    dtype, device = _dtype_device(value)
    if value.ndim == 1 and len(value) <= 4:
        return str(value.tolist())
    if value.ndim == 1 and dtype.startswith(("int", "uint")):
        low, high = int(value.min()), int(value.max())
        return f"{len(value)} × position {low}" if low == high else f"{len(value)} positions {low} … {high}"
    shape = "×".join(str(int(n)) for n in value.shape)
    return f"{dtype} {type(value).__name__} {shape} on {device}"


def _dtype_device(value: Any) -> tuple[str, str]:
    device = value.device.type if is_tensor(value) else "cpu"
    return str(value.dtype).removeprefix("torch."), device


def _type_name(value: Any) -> str:
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__.split('.')[0]}.{kind.__name__}"


def _copy(value: Any) -> Any:
    if is_tensor(value):
        return value.detach().clone()
    if isinstance(value, np.ndarray):
        return value.copy()
    return value


def _same(value: Any, kept: Any) -> bool:
    if is_tensor(value):
        return is_tensor(kept) and torch.equal(value, kept)
    if isinstance(value, np.ndarray):
        return np.array_equal(value, kept)
    return True
