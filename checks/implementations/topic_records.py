"""Topics as records, and the registry of every topic the engine knows (checks.topics is the public face).

A topic is one Transformer component as a record, in the manner of PyTorch's OpInfo: it names the method an
implementation offers (``sinusoidal``, ``rope``, ``layer_norm``, ...) and declares everything the engine needs to test
implementations of it: the adapter's arguments, the references (NumPy and torch), inputs at a size, the output
contract, its comparators (each with the rounding scale it derives from), contract cases, a fingerprint, mutants and
implementations. The harness, the contracts, mutation testing and the claims × implementations matrix iterate over
topics and know none by name (docs/topics.md).

The registry: the package's own topics, those a repository names in ``[tool.theory-claims] topics`` ("module:NAME",
several separated by spaces; the module is imported with the claims folder and the repository's root on the path;
NAME is a Topic or a sequence of them) and those an installed package registers under the entry point group
``theory_claims.topics``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

import numpy as np

from checks.numerics.remade import Recipe, with_recipes
from checks.numerics.size_rules import FAMILIES
from checks.settings.config import NeedsExtra, named_object

if TYPE_CHECKING:
    from checks.numerics.backends import Backend
    from checks.numerics.domain import Domain

Implementation = Any
"""An adapter bound to one run (checks.implementations.base.Implementation)."""


@dataclass(frozen=True)
class Expected:
    """What a call must return: the backend's array type, shape, dtype and device."""

    shape: tuple[int, ...]
    dtype: str
    device: str


Inputs = Callable[[np.random.Generator, int], tuple[Any, ...]]
"""Float64 NumPy inputs at a size (d_model), drawn from a seeded generator: the arguments a check passes."""
ContractCall = Callable[[Any, int, int], Any]
"""A contract call of the topic at (d_model, sequence length), through the bound implementation."""


@dataclass(frozen=True)
class Fingerprint:
    """What an implementation of the topic computes, measured by probing it (in float64 on the CPU)."""

    measure: Callable[[Any, Domain], dict[str, Any]]
    """(adapter, domain) → the fingerprint, JSON-ready."""
    variants: Callable[[dict[str, Any], Any], tuple[list[str], list[str]]]
    """(fingerprint, adapter) → (the variants it shows, the adapter's declarations it contradicts)."""
    per_dtype: Callable[..., list[Any]] | None = None
    """(adapter, domain, fingerprint, dtypes) → per dtype a measured fingerprint or a finding (text)."""
    reference: Callable[..., list[Any]] | None = None
    """(backend, domain, d_model, dtypes) → the reference's per-dtype fingerprints, to compare with."""


PROBE_SIZES = (64, 32, 16, 128, 8, 256, 4)
"""The sizes a topic's contract calls and fingerprints are measured at by default, the first one taken first."""


@dataclass(frozen=True)
class Topic:
    """One component under test: the method ``name`` of an adapter, and how to test implementations of it.

    Only ``name``, ``summary``, ``arguments`` and ``inputs`` (or ``call``) are required: every other field has a
    default that suits a function of arrays returning an array shaped like its first argument.
    """

    name: str
    """The adapter method, the ``uses=`` of a check and the matrix's capability (a Python identifier)."""
    summary: str
    """One line: what the method computes (the implementations page and the API page show it)."""
    arguments: tuple[str, ...]
    """The adapter method's parameters, in order (messages name an argument by these)."""
    inputs: Inputs | None = None
    """Float64 inputs at a size; the default contract call and ``strategy`` draw from it."""
    references: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """Per backend ("numpy", "torch"): the reference function, with the adapter method's arguments. The project's
    reference adapters offer the topic on each backend named here; only their runs decide a claim's verdict."""
    cite: str = ""
    """Where the component comes from (a paper), shown on the implementations page."""
    prepare: Callable[[tuple[Any, ...]], tuple[Any, ...]] = lambda arguments: arguments
    """The check's arguments normalised (positions as an int64 array) before the domain and the call see them."""
    size: Callable[[tuple[Any, ...]], int] = lambda arguments: int(arguments[0].shape[-1])
    """The size of a call (``size_name``), which the adapter's declared domain is asked about."""
    size_name: str = "d_model"
    """What the topic calls its size (d_model, heads, length): messages, size rules and sweeps use this name."""
    size_families: tuple[str, ...] = ()
    """Its natural sizes (checks.numerics.size_rules.FAMILIES: "powers of 2"), whose rules join the size rules."""
    probe_sizes: tuple[int, ...] = PROBE_SIZES
    """The sizes the contract calls it at, first taken first (d_model's by default; a topic of heads, whose inputs
    grow with each head, names a few heads: (8, 4, 2))."""
    positions: Callable[[tuple[Any, ...]], Any] = lambda arguments: ()
    """The positions a call takes (empty when it takes none)."""
    to_adapter: Callable[[Backend, tuple[Any, ...]], tuple[Any, ...]] = lambda xp, arguments: arguments
    """The arguments the adapter method receives (a table's call adds the dtype and device)."""
    expected: Callable[[Backend, tuple[Any, ...]], Expected] | None = None
    """What a call must return (type, shape, dtype, device); None: shaped and typed like the first argument."""
    present: Callable[[Implementation, Any, tuple[Any, ...]], Any] | None = None
    """The adapter's output as checks compare it (a declared layout put in the documents' order); None: as is."""
    call: ContractCall | None = None
    """The contract's call at (d_model, length); None: the adapter on ``inputs`` at that d_model."""
    repeated: Callable[[Implementation, int], tuple[Any, Any]] | None = None
    """A call whose rows share positions and the call with each position once (contract "repeated")."""
    value_cases: Mapping[str, Callable[[], tuple[np.ndarray, ...]]] = field(default_factory=dict)
    """Named inputs the contract compares with the float64 NumPy reference (contract "values")."""
    rounding_scale: Callable[..., float] | None = None
    """(dtype, *float64 inputs) → the magnitude the computation rounds: the tolerance of a "values" case."""
    comparators: tuple[Callable[..., Any], ...] = ()
    """Functions ``(t, ...)`` a check calls as ``t.<name>(...)``: each compares with the rounding scale its
    docstring derives, through ``t.close``, ``t.at_most`` or ``t.equal``."""
    fingerprint: Fingerprint | None = None
    declarations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Attributes an adapter may declare for this topic, each with its allowed names (the first is the default)."""
    rotated_fraction: Callable[[Any], Fraction | None] | None = None
    """The share of d_model a size rule counts in (RoPE: rotated pairs per dimension); None: every dimension."""
    implementations: tuple[Any, ...] = ()
    """Adapters the topic brings (library implementations); each gets a column of the matrix."""
    mutants: tuple[Any, ...] = ()
    """Faulty adapters, each with a ``bug`` in words: ``python -m checks.engine.mutation`` counts the killed."""

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"a topic's name is the adapter method it tests: {self.name!r} is not an identifier")
        if unknown := sorted(set(self.size_families) - set(FAMILIES)):
            raise ValueError(f"topic {self.name}: size_families {unknown} are not among {list(FAMILIES)}")
        if not self.size_name.strip():
            raise ValueError(f"topic {self.name}: size_name names its size (d_model, heads, length)")
        if self.inputs is None and self.call is None:
            raise ValueError(f"topic {self.name}: give inputs (or a contract call)")
        self._check_size()

    def _check_size(self) -> None:
        """``size`` must read back the size ``inputs`` were made at: the default reads the first argument's last
        axis, which a topic whose size is elsewhere (a feed-forward's d_ff, in its weights) must replace; otherwise
        every message would name another dimension, and its size rules would search the wrong one."""
        if self.inputs is None:
            return
        made_at = min(self.probe_sizes)
        try:
            measured = self.size(self.prepare(tuple(self.inputs(np.random.default_rng(SEED), made_at))))
        except Exception:  # inputs that fail at that size: the contract says so, naming the implementation
            return
        if measured != made_at:
            raise ValueError(
                f"topic {self.name}: size(...) reads {measured} from inputs(rng, {made_at}), not {made_at}: give "
                f"`size=` a function that reads the {self.size_name} from the arguments (the default reads the "
                f"first argument's last axis)"
            )

    def contract_call(self, implementation: Implementation, d_model: int, length: int) -> Any:
        """The contract's call: ``call`` when the topic gives one, else the method on seeded ``inputs``."""
        if self.call is not None:
            return self.call(implementation, d_model, length)
        assert self.inputs is not None
        arrays = self.inputs(np.random.default_rng(SEED), d_model)
        return implementation.call(self.name, *(on_backend(implementation.xp, a) for a in arrays))

    def strategy(self, sizes: Any = None, *, d_models: Any = None) -> Any:
        """A Hypothesis strategy of this topic's inputs (float64 NumPy arrays), one seed per example; ``sizes`` a
        strategy of its sizes (``size_name``; default: the even sizes 2 … 64; ``d_models`` is the same argument's
        earlier name). Each value is a ``Remade`` tuple (checks.numerics.remade): a check's later cells get it made
        again from its seed and size, so ``inputs`` must depend on nothing but its generator and size."""
        from hypothesis import strategies as st

        if self.inputs is None:
            raise ValueError(f"topic {self.name} gives no inputs to draw")
        inputs = self.inputs

        def made(seed: int, d_model: int) -> tuple[Any, ...]:
            return tuple(inputs(np.random.default_rng(seed), d_model))

        sizes = sizes if sizes is not None else d_models
        sizes = sizes if sizes is not None else st.integers(1, 32).map(lambda half: 2 * half)
        seeds = st.integers(0, 2**32 - 1)
        names = ("seed", self.size_name)
        recipes = st.tuples(seeds, sizes).map(lambda drawn: Recipe(made, drawn, names))
        return with_recipes(recipes.map(Recipe.__call__), recipes)


SEED = 20261130
"""The seed of every contract input."""


def on_backend(xp: Backend, value: Any) -> Any:
    """A float NumPy array as the backend's array in its dtype and device; any other argument (a count) as it is."""
    return xp.array(value) if isinstance(value, np.ndarray) and value.dtype.kind == "f" else value


OWN = (
    "checks.topics.positional:TOPICS",
    "checks.topics.attention:TOPICS",
    "checks.topics.normalisation:TOPICS",
    "checks.topics.multihead:TOPICS",
)
"""The package's own topics: positional encodings (sinusoidal, RoPE), attention, layer normalisation and
multi-head attention."""
ENTRY_POINTS = "theory_claims.topics"
"""The entry point group an installed package registers its topics under."""


class TopicError(ValueError):
    """A topic that cannot be loaded or clashes with another: one line naming where it came from."""


_loaded: dict[tuple[str, ...], tuple[Topic, ...]] = {}
_registered: list[Topic] = []
_left_out: dict[str, str] = {}


def left_out() -> list[str]:
    """Why each topic the repository names was left out (its module needs an extra that is not installed)."""
    return list(_left_out.values())


def topics() -> tuple[Topic, ...]:
    """Every topic, the package's first; each name once."""
    from checks.settings.config import current

    settings = current()
    named = settings.topics
    if named not in _loaded:
        settings.importable()
        found: list[Topic] = []
        specs = [(spec, "") for spec in (*OWN, *named)]
        specs += [(point.value, f"entry point {point.name!r}") for point in entry_points(group=ENTRY_POINTS)]
        for spec, where in specs:
            try:
                found += _load(spec, where)
            except NeedsExtra as error:  # its claims, importing it, are skipped with the same line
                _left_out[spec] = str(error)
        _loaded[named] = _unique(found)
    return _loaded[named] + tuple(_registered)  # register() refuses a name already known


def topic(name: str) -> Topic:
    """The topic called ``name``; LookupError naming the known ones."""
    for candidate in topics():
        if candidate.name == name:
            return candidate
    raise LookupError(f"no topic {name!r}; known: {', '.join(t.name for t in topics())}")


def names() -> tuple[str, ...]:
    """The name of every topic (each an adapter method)."""
    return tuple(t.name for t in topics())


def register(new: Topic) -> None:
    """Add a topic for this process (a test, a notebook); a repository names its topics in its pyproject.toml."""
    if new.name in names():
        raise TopicError(f"a topic named {new.name!r} is already known")
    _registered.append(new)


def unregister(old: Topic) -> None:
    """Take back a topic ``register`` added."""
    _registered.remove(old)


def capabilities(adapter: Any) -> set[str]:
    """The topics ``adapter`` offers: the topic methods it has."""
    return {name for name in names() if callable(getattr(adapter, name, None))}


def comparator(name: str) -> Any:
    """The comparator or expectation called ``name`` among every topic's (None when no topic has one)."""
    for candidate in topics():
        for function in candidate.comparators:
            if function.__name__ == name:
                return function
    return None


def _load(spec: str, where: str = "") -> list[Topic]:
    """The topics ``module:NAME`` holds; TopicError with one line naming the spec."""
    label = where or f"topic {spec!r}"
    try:
        value = named_object(spec, label)
    except NeedsExtra:
        raise
    except ValueError as error:
        raise TopicError(str(error)) from None
    found = [value] if isinstance(value, Topic) else list(value) if isinstance(value, Iterable) else []
    if not found or not all(isinstance(t, Topic) for t in found):
        raise TopicError(f"{label}: {spec} is not a Topic or a sequence of Topics")
    return found


def _unique(found: list[Topic]) -> tuple[Topic, ...]:
    seen: dict[str, Topic] = {}
    for candidate in found:
        if candidate.name in seen and seen[candidate.name] is not candidate:
            raise TopicError(f"two topics are named {candidate.name!r}; a topic's name is its adapter method")
        seen[candidate.name] = candidate
    return tuple(seen.values())
