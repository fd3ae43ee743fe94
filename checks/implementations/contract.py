"""Contract checks, run per implementation and capability before the claims.

For every device and dtype the implementation runs in: a call returns the backend's array type with the
shape, dtype and device asked for, finite values, and leaves its inputs as they were
(checks.implementations.base.Implementation enforces each call); and the same input gives the same output
again after calls in other dtypes and sizes (a cache keyed without the dtype returns another dtype's
table). Then each capability's fingerprint is measured (checks.implementations.fingerprint) and
compared with what the adapter declares.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from checks.implementations.base import (
    Implementation,
    ImplementationFailure,
    OutsideDomain,
    backend_name,
    is_reference,
    missing,
    refusal,
)
from checks.implementations.computed_in import computed_in
from checks.implementations.computed_in import variants as precision_variants
from checks.implementations.dtype_fingerprint import Measured, broken_promises, differences
from checks.implementations.fingerprint import probe_d_model
from checks.implementations.frequencies import DOCUMENTS
from checks.implementations.loading import EnvironmentProblem
from checks.implementations.speed import slow_note
from checks.implementations.topic_records import Topic, capabilities, on_backend, topic
from checks.numerics.backends import BACKENDS
from checks.numerics.devices import available_devices
from checks.numerics.domain import Domain, DomainError
from checks.numerics.tolerances import COARSEST_FIRST, FLOATS, tolerance
from checks.results.records import ContractFinding, ImplementationRecord

LENGTH, LONGER = 300, 320
"""Sequences of positions 0 … 299 (past 256, where bfloat16 stops holding every integer: a cache of angles formed
in bfloat16 then differs from one formed in float32), and a longer one called in between."""


def checked_implementations(
    wanted: Callable[[Any], bool] = lambda adapter: True, topics: Iterable[str] | None = None
) -> list[ImplementationRecord]:
    """The contract and fingerprint of every registered implementation ``wanted`` keeps (a run's: those offering a
    topic its claims use, or named by its runs), in the registry's order, for ``topics`` alone (None: every topic
    each offers)."""
    from checks.implementations.registry import implementations

    return [checked(adapter, topics) for adapter in implementations() if wanted(adapter)]


_CHECKED: dict[tuple[int, frozenset[str] | None], tuple[Any, ImplementationRecord]] = {}
"""Per adapter (by id, the adapter kept so that the id is not reused) and topics: its record, checked once per
process."""


def checked(adapter: Any, topics: Iterable[str] | None = None) -> ImplementationRecord:
    """The adapter's contract record covering ``topics`` (None: all it offers), checked on first use in this process
    (before any claim calls it); a record already made for more topics serves."""
    wanted = None if topics is None else frozenset(topics)
    for (ident, covered), (_, record) in _CHECKED.items():
        if ident == id(adapter) and (covered is None or (wanted is not None and wanted <= covered)):
            return record
    _CHECKED[(id(adapter), wanted)] = (adapter, check_implementation(adapter, wanted))
    return _CHECKED[(id(adapter), wanted)][1]


def any_record(adapter: Any) -> ImplementationRecord:
    """Whichever contract record this process made for the adapter (its environment and speed are the same in
    every one), else one for all it offers."""
    found = next((record for (ident, _), (_, record) in _CHECKED.items() if ident == id(adapter)), None)
    return found or checked(adapter)


def seconds_per_call(adapters: Iterable[Any]) -> dict[str, float]:
    """By name, each of ``adapters`` that can run here with its seconds a call (the median of its contract calls)."""
    return {
        adapter.name: record.seconds_per_call for adapter in adapters if not (record := any_record(adapter)).missing
    }


def environment_problem(adapter: Any) -> str | None:
    """Why the adapter cannot run here that only calling it showed (a package that cannot be loaded); None else."""
    return any_record(adapter).missing or None


def breach(adapter: Any, capability: str, device: str, dtype: str) -> str | None:
    """A contract violation that makes the adapter's checks in this device and dtype pointless: its call at the
    contract's own size broke the contract (a crash, a wrong type, shape, dtype or device, a non-finite output,
    a changed input). A violation at one other size only does not count: the checks then find the sub-domain."""
    record = checked(adapter, (capability,))
    try:
        size = probe_d_model(Domain.of(adapter), sizes=topic(capability).probe_sizes)
    except ValueError:
        return None
    for finding in record.contract:
        if (finding.capability, finding.check, finding.device, finding.dtype, finding.size) == (
            capability,
            "call",
            device,
            dtype,
            size,
        ):
            return finding.text
    return None


def check_implementation(adapter: Any, topics: Iterable[str] | None = None) -> ImplementationRecord:
    """Contract and fingerprint of one registered adapter, for the ``topics`` a run uses of those it offers (None:
    all); nothing it does escapes as an exception."""
    started = time.perf_counter()
    offered = capabilities(adapter)
    record = ImplementationRecord(
        name=str(adapter.name),
        reference=is_reference(adapter),
        backend=backend_name(adapter),
        capabilities=sorted(offered if topics is None else offered & set(topics)),
        missing=_missing(adapter),
        domain="",
        checked=0,
        contract=[],
        fingerprints={},
        variants=[],
        seconds=0.0,
    )
    try:
        domain = Domain.of(adapter)
    except DomainError as error:
        record.contract.append(ContractFinding("all", "declared", f"its domain declaration is malformed: {error}"))
        return record
    record.domain = domain.describe()
    if record.missing:
        return record
    bound: list[Implementation] = []
    for capability in record.capabilities:
        try:
            bound += _check_capability(adapter, domain, capability, record)
        except EnvironmentProblem as problem:  # not the adapter's fault: its cells are skipped with this reason
            record.missing, record.contract, record.fingerprints, record.variants = str(problem), [], {}, []
            break
        except Exception as error:  # an adapter's oddity that slipped past Implementation: its finding, not a crash
            text = f"the contract checks could not finish: {type(error).__name__}: {error}"
            record.contract.append(ContractFinding(capability, "call", text))
    calls = [seconds for implementation in bound for seconds in implementation.call_seconds]
    record.seconds_per_call = statistics.median(calls) if calls else 0.0
    record.slow = "" if record.reference else slow_note(record.seconds_per_call)
    record.seconds = time.perf_counter() - started
    return record


def _missing(adapter: Any) -> str:
    try:
        return missing(adapter) or ""
    except Exception as error:
        return f"missing() raised {type(error).__name__}: {error}"


def _check_capability(
    adapter: Any, domain: Domain, capability: str, record: ImplementationRecord
) -> list[Implementation]:
    """The capability's contract calls and fingerprint; the bindings the calls went through (each device × dtype)."""
    try:
        sizes = _sizes(domain, topic(capability).probe_sizes)
    except ValueError as error:
        record.contract.append(ContractFinding(capability, "declared", str(error)))
        return []
    every: list[Implementation] = []
    for device in available_devices():
        bound = [
            Implementation(adapter, BACKENDS[record.backend](dtype, device), domain)
            for dtype in COARSEST_FIRST  # a table cached by the first call is then the least precise one
            if _runs(adapter, domain, device, dtype)
        ]
        session = _Session(topic(capability), record)
        session.repeatable(bound, *sizes[:2])
        for implementation in bound:
            session.attempt(implementation, sizes[2])
            session.shared_positions(implementation, sizes[0])
            session.values(implementation)
        every += bound
    _fingerprint(adapter, domain, topic(capability), record)
    return every


def _runs(adapter: Any, domain: Domain, device: str, dtype: str) -> bool:
    return dtype in FLOATS and not refusal(adapter, domain, device, dtype)


def _sizes(domain: Domain, probe_sizes: tuple[int, ...]) -> tuple[int, int, int]:
    """The size the contract is checked at, another one (calls in between), and the smallest one it takes: from the
    topic's own probe sizes (d_model's 64, 32, …; a topic of heads its few heads)."""
    first = probe_d_model(domain, sizes=probe_sizes)
    taken = [d for d in domain.d_model_values(2, 4096) if d % 2 == 0] or [first]
    others = [d for d in (*probe_sizes, *taken) if d != first and d in taken]
    return first, (others[0] if others else first), taken[0]


class _Session:
    """One capability's contract calls on one device: each call's violation becomes a finding with where it was."""

    def __init__(self, topic: Topic, record: ImplementationRecord) -> None:
        self.topic, self.capability, self.record = topic, topic.name, record
        self.answers: list[tuple[str, str, np.ndarray]] = []
        """Every answer so far, in order: (its dtype, the call in words, its output as float64)."""

    def attempt(self, implementation: Implementation, d_model: int, length: int = LENGTH) -> np.ndarray | None:
        """The call's output as float64; None when it broke the contract (a finding) or fell outside the domain."""
        self.record.checked += 1
        xp = implementation.xp
        try:
            found = xp.to_float64(self.topic.contract_call(implementation, d_model, length))
        except OutsideDomain:
            return None
        except ImplementationFailure as failure:
            self._find(implementation, d_model, "call", str(failure) + self._earlier_dtype(str(failure), xp.dtype))
            return None
        size = self.topic.size_name
        self.answers.append((xp.dtype, f"{size} = {d_model}, {xp.dtype}, {xp.device}, {length} positions", found))
        return found

    def _earlier_dtype(self, problem: str, asked: str) -> str:
        """Why a result came back in the wrong dtype, when it is the dtype of an earlier call of this session."""
        earlier = [label for dtype, label, _ in self.answers if dtype != asked and f"returned {dtype} for " in problem]
        if not earlier:
            return ""
        return f": the dtype of an earlier call ({earlier[-1]}): the answer depends on earlier calls (a kept result)"

    def _source(self, again: np.ndarray, first: np.ndarray, dtype: str) -> str:
        """Which earlier call in another dtype an answer came from: the first answer or the second, whichever
        lies ten times nearer such a call's answer than to the other of the two."""
        gap = float(np.nanmax(np.abs(again - first))) if again.shape == first.shape else math.inf
        for which, answer in (("its first answer", first), ("the second answer", again)):
            matches = [
                (float(np.nanmax(np.abs(answer - found))), label)
                for other, label, found in self.answers
                if other != dtype and found.shape == answer.shape
            ]
            closest = min(matches, default=None)
            if closest is not None and closest[0] * 10 < gap:
                near = "exactly" if closest[0] == 0 else f"within {closest[0]:.3g}"
                return f"; {which} is that of an earlier call ({closest[1]}, {near}): a kept result"
        return ""

    def repeatable(self, bound: list[Implementation], size: int, other: int) -> None:
        """Each call once per dtype, coarsest first; then again, finest first, each after a call of the other size
        and one of a longer sequence (which makes a cache keyed by length rebuild itself in that dtype).

        A second answer that differs from the first means the output depends on earlier calls.
        """
        first = {b.xp.dtype: found for b in bound if (found := self.attempt(b, size)) is not None}
        for implementation in reversed([b for b in bound if b.xp.dtype in first]):
            self.attempt(implementation, other)
            self.attempt(implementation, size, LONGER)
            again, earlier = self.attempt(implementation, size), first[implementation.xp.dtype]
            if again is not None and not np.array_equal(again, earlier, equal_nan=True):
                difference = float(np.nanmax(np.abs(again - earlier))) if again.shape == earlier.shape else np.nan
                self._find(
                    implementation,
                    size,
                    "repeatable",
                    f"output depends on earlier calls: the same {self.record.name}.{self.capability} call "
                    f"({self.topic.size_name} = {size}, {implementation.xp.dtype}, {implementation.xp.device}) "
                    f"differs by {difference:.3g} from its first answer, after calls in other dtypes and sizes"
                    + self._source(again, earlier, implementation.xp.dtype),
                )

    def shared_positions(self, implementation: Implementation, d_model: int) -> None:
        """A call whose rows share positions answers each row as the call with every position once does (an
        adapter that drops or merges the rows of a repeated position does not). Only for a topic that gives such a
        call (``Topic.repeated``)."""
        if self.topic.repeated is None:
            return
        xp = implementation.xp
        self.record.checked += 1
        try:
            once, shared = (xp.to_float64(answer) for answer in self.topic.repeated(implementation, d_model))
        except (OutsideDomain, ImplementationFailure):
            return  # outside its domain, or a call failure the other calls find
        allowed = tolerance(xp.dtype).at(float(np.max(np.abs(once), initial=0.0)))
        wrong = [n for n, row in enumerate(shared) if not np.allclose(row, once[SHARED[n]], rtol=0, atol=allowed)]
        if wrong:
            n = wrong[0]
            self._find(
                implementation,
                d_model,
                "repeated",
                f"rows that share a position get another answer than that position alone: row {n} (position "
                f"{SHARED_POSITIONS[n]}) of a call with positions {list(SHARED_POSITIONS)} differs by "
                f"{float(np.max(np.abs(shared[n] - once[SHARED[n]]))):.3g} ({len(wrong)} of {len(shared)} rows)",
            )

    def values(self, implementation: Implementation) -> None:
        """The topic's ``value_cases`` against its float64 NumPy reference, where the other calls cannot tell (for
        attention: d_k and d_v ≠ d_model, and scores large enough that exp overflows float16 without the row's
        maximum subtracted first); within the dtype's rtol times the topic's first-order ``rounding_scale``."""
        reference, scale = self.topic.references.get("numpy"), self.topic.rounding_scale
        if reference is None or scale is None:
            return
        xp = implementation.xp
        for case, inputs in self.topic.value_cases.items():
            self.record.checked += 1
            given = [on_backend(xp, a) for a in inputs()]
            size = self.topic.size(tuple(given))
            try:
                found = xp.to_float64(implementation.call(self.capability, *given))
            except OutsideDomain:
                continue
            except ImplementationFailure as failure:  # a non-finite output, say: the overflow a case looks for
                self._find(implementation, size, "values", f"{case}: {failure}")
                continue
            rounded = [xp.to_float64(a) if hasattr(a, "shape") else a for a in given]
            expected = np.asarray(reference(*rounded), dtype=np.float64)
            allowed = tolerance(xp.dtype).at(scale(xp.dtype, *rounded))
            error = float(np.max(np.abs(found - expected)))
            if not error <= allowed:
                self._find(
                    implementation,
                    size,
                    "values",
                    f"{case}: differs from the float64 reference by {error:.3g}, beyond the {allowed:.3g} rounding "
                    f"allows in {xp.dtype}",
                )

    def _find(self, implementation: Implementation, size: int, check: str, text: str) -> None:
        xp = implementation.xp
        self.record.contract.append(ContractFinding(self.capability, check, text, xp.device, xp.dtype, size))


SHARED_POSITIONS = (5, 5, 0, 9, 9, 9, 2, 5)
"""Positions of a ``Topic.repeated`` call whose rows share positions: its row n answers as row SHARED[n] of the call
with positions 0 … 9 once."""
SHARED = np.array(SHARED_POSITIONS)


def _fingerprint(adapter: Any, domain: Domain, topic: Topic, record: ImplementationRecord) -> None:
    """What the adapter computes, measured by the topic's ``fingerprint`` (none: the precision it computes in,
    checks.implementations.computed_in)."""
    capability = topic.name
    if topic.fingerprint is None:
        try:
            precision = computed_in(adapter, domain, topic)
        except (ImplementationFailure, OutsideDomain, ValueError):
            return  # its contract calls say what went wrong
        if precision is not None:
            record.fingerprints[capability] = precision
            record.variants += [f"{capability}: {note}" for note in precision_variants(precision)]
        return
    try:
        found = topic.fingerprint.measure(adapter, domain)
    except (ImplementationFailure, OutsideDomain, ValueError) as error:
        record.contract.append(ContractFinding(capability, "fingerprint", f"could not be measured: {error}"))
        return
    record.fingerprints[capability] = found
    notes, broken = topic.fingerprint.variants(found, adapter)
    record.variants += [f"{capability}: {note}" for note in notes]
    record.contract += [ContractFinding(capability, "declared", text) for text in broken]
    _per_dtype(adapter, domain, topic, found, record)


def _per_dtype(adapter: Any, domain: Domain, topic: Topic, found: dict[str, Any], record: ImplementationRecord) -> None:
    """The fingerprint in every dtype it runs in on the CPU; each difference from the reference's a variant, and
    an error past the claims' tolerance up to the dtype's position limit a "values" finding."""
    assert topic.fingerprint is not None
    if topic.fingerprint.per_dtype is None or topic.fingerprint.reference is None:
        return
    capability = topic.name
    dtypes = [dtype for dtype in COARSEST_FIRST if _runs(adapter, domain, "cpu", dtype)]
    found_per_dtype = topic.fingerprint.per_dtype(adapter, domain, found, dtypes)
    measured = [m for m in found_per_dtype if isinstance(m, Measured)]
    record.contract += [
        ContractFinding(capability, "values", text) for text in found_per_dtype if isinstance(text, str)
    ]
    record.precision += [m.fingerprint for m in measured]
    record.variants += [text for m in measured if (text := broken_promises(m.fingerprint))]
    for m in measured:
        if m.over_limit:
            where = ("cpu", m.fingerprint.dtype, m.fingerprint.d_model)
            record.contract.append(ContractFinding(capability, "values", m.over_limit, *where))
    if record.reference or not measured:
        return
    size = measured[0].fingerprint.d_model
    references = {r.dtype: r for r in topic.fingerprint.reference(record.backend, domain, size, dtypes)}
    for mine in (m.fingerprint for m in measured):
        own = None if found.get("frequency_kind", DOCUMENTS) == DOCUMENTS else float(found["base"])
        difference = differences(mine, references[mine.dtype], own) if mine.dtype in references else ""
        record.variants += [difference] if difference else []
