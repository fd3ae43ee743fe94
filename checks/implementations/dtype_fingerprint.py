"""Fingerprints per dtype: what an implementation computes in each dtype it runs in, against the float64 reference.

Measured on the CPU at the float64 fingerprint's d_model (checks.implementations.fingerprint), at positions
0 … 300, around 1000, around each power of two from 2⁹ to 2²⁰ and around float16's largest value (65504), as far as
the declared domain takes them:

- ``formed_in``: the dtype its positions and angles are formed in, read off how its error grows with the position
  (an angle p·ω formed in a dtype with unit roundoff u is off by about u·p);
- ``base``: the base fitted from its own values at position 1 in that dtype;
- ``duplicate_rows``: the first two distinct positions with identical rows (positions rounded to one value);
- ``first_past_tolerance``: the first position whose error passes the dtype's tolerance for values of size 1, and
  ``first_non_finite``: the first position with an inf or a NaN;
- ``rounding``: the largest error at positions 0 … 8 in units of the dtype's unit roundoff (one rounding of the exact
  value: at most 1);
- ``envelope``: the largest error up to each power of two (the precision envelope);
- ``rounding_steps``: the mean square error at positions 0 … 8 over many vectors, in units of rounding the exact
  values once (measured in the dtype, not assumed): an implementation with more than the reference's rounds more.

The exact values are the documents' formula where the float64 fingerprint found the documents' frequencies, else the
implementation's own frequencies, measured at position 1 of a float64 call with the same positions: a frequency
no formula describes, or one that depends on the call, is never read as rounding. Where a dtype's fingerprint
departs from what the dtype itself promises (angles formed in a coarser dtype, identical rows for positions it
holds exactly, values not finite where it holds the position) that is a stated finding (``broken_promises``).

Up to the dtype's position limit (checks.numerics.tolerances.position_limit, where the claims draw their positions)
the error must stay within the claims' own tolerance, scaled by the angle: beyond it is a contract finding. Past the
limit what happens is measured, and each difference from the reference in the same dtype is listed as a variant
with its numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from checks.implementations.base import Implementation, ImplementationFailure, OutsideDomain, backend_name
from checks.implementations.builtin import ReferenceAdapter
from checks.implementations.fingerprint import pair_order, probing, table_angles
from checks.implementations.frequencies import DOCUMENTS, measure
from checks.numerics.backends import BACKENDS
from checks.numerics.domain import Domain
from checks.numerics.pairing import INTERLEAVED
from checks.numerics.reference_implementations import BASE
from checks.numerics.tolerances import (
    BFLOAT16,
    COARSEST_FIRST,
    FLOAT16,
    FLOAT32,
    FLOAT64,
    UNIT_ROUNDOFF,
    angle_scale,
    position_limit,
    tolerance,
)
from checks.results.records import DtypeFingerprint

SEED = 20261202
SMALL = 8
VECTORS = 256
"""Random vectors rotated at each of positions 0 … SMALL to count a RoPE's rounding steps."""
"""Positions 0 … SMALL measure the rounding (every dtype holds them exactly: their angles carry only ω's rounding)."""
FORMATION = ((BFLOAT16, 2.0**-9.5), (FLOAT16, 2.0**-17.5), (FLOAT32, 2.0**-38.5))
"""Coarsest first: an error growing faster than this times the position was formed in that dtype (each threshold
lies halfway, in octaves, between that dtype's unit roundoff and the next finer one's)."""
ROUNDINGS = 1.5
"""Rounding steps this many times the reference's are a difference: it rounds more often. Measured: the RoPE
references 2.41, 3.49, 3.8 in bfloat16, float16, float32 (numpy's 3.49, 3.75), rounding once 1.0, cos and sin rounded
first 2.03 … 2.62, an extra rounding through bfloat16 in float16 28.5."""
SAME_BASE = 1e-3
"""Two fitted bases closer than this (relatively) are the same base."""
BASE_NOISE = 8
"""A base fitted from values rounded in a dtype is off by a few unit roundoffs (relative): two fits closer than this
many are the same base."""
FLOOR_ROUNDINGS = 8
"""The error an output carries from rounding in the asked dtype alone, in units of its unit roundoff (a few
roundings of values up to √2): subtracted before the growth with the position is read."""


def sample_positions(domain: Domain) -> np.ndarray:
    """The positions a dtype fingerprint looks at, those the domain takes, in order."""
    wanted = {*range(301), 999, 1000, 1001, *range(65500, 65530)}
    wanted |= {2**k + step for k in range(9, 21) for step in (-1, 0, 1)}
    return np.array(sorted(p for p in wanted if domain.takes_position(p)), dtype=np.int64)


@dataclass(frozen=True)
class DtypeAnswers:
    """One dtype's answers (in float64) beside the exact ones, rows per position, and its angles at position 1."""

    positions: np.ndarray
    found: np.ndarray
    exact: np.ndarray
    """In extended precision (numpy's longdouble), so that a float64 answer's own rounding shows."""
    value_size: float
    """The largest size of the values compared (1 for a table, a pair's norm for a rotated vector)."""
    angles_at_one: np.ndarray
    fitted_width: int
    rounding_steps: float
    """Mean square error at positions 0 … SMALL over many values, in units of rounding the exact values once."""


@dataclass(frozen=True)
class Measured:
    """One dtype's fingerprint, and where it breaks the claims' tolerance up to the dtype's limit ("" nowhere)."""

    fingerprint: DtypeFingerprint
    over_limit: str


def dtype_fingerprints(
    adapter: Any, domain: Domain, capability: str, found: dict[str, Any], dtypes: list[str]
) -> list[Measured | str]:
    """The fingerprint of ``capability`` in each of ``dtypes`` on the CPU, from the float64 one (``found``); for a
    dtype where the adapter broke its contract instead, that failure in words."""
    if "frequencies" not in found or not _documents_arrangement(capability, found, adapter):
        return []
    sample = sample_positions(domain)
    if len(sample) < 3 + len(dtypes):
        return []
    measured: list[Measured | str] = []
    for index, dtype in enumerate(dtypes):
        positions = _fresh_top(sample, index)
        bound = Implementation(adapter, BACKENDS[backend_name(adapter)](dtype, "cpu"), domain, finite=False)
        try:
            with np.errstate(all="ignore"):  # an overflow to inf is what the probe looks for, not a warning
                probe = PROBES[capability](bound, positions, found, adapter, domain)
        except (ImplementationFailure, OutsideDomain) as failure:
            measured.append(f"not measured in {dtype}: {failure}")
            continue
        measured.append(Measured(_summary(capability, dtype, probe), _over_limit(probe, dtype)))
    return measured


def _fresh_top(sample: np.ndarray, index: int) -> np.ndarray:
    """The sample without its 1 + ``index`` largest positions: each dtype's call has a length and a largest position
    no earlier call had, so a cache keyed by the shape answers it afresh (the contract's "repeatable" check reports
    such a cache)."""
    return sample[: len(sample) - 1 - index]


def reference_fingerprints(
    backend: str, domain: Domain, capability: str, d_model: int, dtypes: list[str]
) -> list[DtypeFingerprint]:
    """The project's reference measured the same way, at the same positions and size (what a variant differs from).

    Measured once per process for each backend, capability, size, dtypes and positions, and shared by every adapter
    compared with it."""
    key = (backend, capability, d_model, tuple(dtypes), sample_positions(domain).tobytes())
    if key not in _REFERENCES:
        _REFERENCES[key] = _reference_fingerprints(backend, domain, capability, d_model, dtypes)
    return _REFERENCES[key]


_REFERENCES: dict[tuple[str, str, int, tuple[str, ...], bytes], list[DtypeFingerprint]] = {}


def _reference_fingerprints(
    backend: str, domain: Domain, capability: str, d_model: int, dtypes: list[str]
) -> list[DtypeFingerprint]:
    documents = {
        "d_model": d_model,
        "frequencies": [],
        "frequency_kind": DOCUMENTS,
        "amplitude": 1.0,
        "attention_factor": 1.0,
        "rotated": d_model,
    }
    found = dtype_fingerprints(ReferenceAdapter(backend), domain, capability, documents, dtypes)
    return [measured.fingerprint for measured in found if isinstance(measured, Measured)]


def _documents_arrangement(capability: str, found: dict[str, Any], adapter: Any) -> bool:
    """A fingerprint per dtype compares in the documents' arrangement: a sinusoidal table whose layout is the
    declared one (Implementation maps it), any RoPE pairing (measured)."""
    return capability == "rope" or found.get("layout", INTERLEAVED) == getattr(adapter, "layout", INTERLEAVED)


def _frequencies(found: dict[str, Any], width: int, own: Callable[[], np.ndarray]) -> np.ndarray:
    """ω_i in extended precision: the documents' (base 10000, no scale) where the float64 fingerprint found them,
    else the implementation's own, measured at position 1 of a float64 call with the same positions (``own``), so
    that a frequency no formula describes, or one that depends on the call's largest position, is not read as
    rounding."""
    if found["frequency_kind"] == DOCUMENTS and not found.get("call_dependent"):
        return np.longdouble(BASE) ** (-np.arange(0, width, 2, dtype=np.longdouble) / width)
    return own().astype(np.longdouble)


def _exact_angles(positions: np.ndarray, frequencies: np.ndarray) -> np.ndarray:
    return positions.astype(np.longdouble)[:, None] * frequencies[None, :]


def _at_one(positions: np.ndarray) -> int | None:
    """The row of position 1 in a call (None: the call has none)."""
    where = np.flatnonzero(positions == 1)
    return int(where[0]) if len(where) else None


def sinusoidal_probe(
    bound: Implementation, positions: np.ndarray, found: dict[str, Any], adapter: Any, domain: Domain
) -> DtypeAnswers:
    """Rows PE(p) in the documents' layout beside amplitude · (sin, cos)(p · ω)."""
    d_model, amplitude = int(found["d_model"]), float(found["amplitude"])
    rows = bound.xp.to_float64(bound.sinusoidal(positions, d_model))

    def own() -> np.ndarray:
        row = _at_one(positions)
        if row is None:
            return np.array(found["frequencies"])
        table = probing(adapter, domain)
        at_one = table.xp.to_float64(table.sinusoidal(positions, d_model))[row]
        sines, cosines = list(range(0, d_model, 2)), list(range(1, d_model, 2))
        return table_angles(at_one, sines, cosines, amplitude)

    angles = _exact_angles(positions, _frequencies(found, d_model, own))
    exact = amplitude * np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(len(positions), -1)[:, :d_model]
    at_one = rows[positions == 1]
    sines = np.arcsin(np.clip(at_one[0, 0::2] / amplitude, -1.0, 1.0)) if len(at_one) else np.zeros(0)
    small = positions <= SMALL
    steps = rounding_steps(bound, rows[small], exact[small])
    return DtypeAnswers(positions, rows, exact, abs(amplitude), sines, d_model, steps)


def rope_probe(
    bound: Implementation, positions: np.ndarray, found: dict[str, Any], adapter: Any, domain: Domain
) -> DtypeAnswers:
    """One vector rotated at every position beside its exact rotation (the measured pairs and frequencies, and any
    factor the rotated vectors are scaled by)."""
    d_model, rotated = int(found["d_model"]), int(found["rotated"])
    prober = probing(adapter, domain)
    order = pair_order(prober, d_model)
    first, second = order[0:rotated:2], order[1:rotated:2]
    xp = bound.xp
    given = xp.array(np.random.default_rng(SEED).uniform(-1.0, 1.0, (1, d_model)))
    x = xp.to_float64(given)[0]
    many = np.repeat(x[None, :], len(positions), axis=0)
    rows = xp.to_float64(bound.rope(xp.array(many), positions))

    def own() -> np.ndarray:
        row = _at_one(positions)
        if row is None:
            return np.array(found["frequencies"])
        turned = prober.xp.to_float64(prober.rope(prober.xp.array(many), positions))[row]
        cross = x[first] * turned[second] - x[second] * turned[first]
        return np.arctan2(cross, x[first] * turned[first] + x[second] * turned[second])

    frequencies = _frequencies(found, rotated, own)
    factor = np.longdouble(found.get("attention_factor", 1.0))
    rotation = _Rotation(first, second, frequencies, factor)
    exact = rotation(many, positions)
    small = positions[positions <= SMALL]
    vectors = xp.to_float64(xp.array(np.random.default_rng(SEED + 1).uniform(-1.0, 1.0, (VECTORS, d_model))))
    at = np.tile(small, VECTORS)
    given = np.repeat(vectors, len(small), axis=0)
    steps = rounding_steps(bound, xp.to_float64(bound.rope(xp.array(given), at)), rotation(given, at))
    return DtypeAnswers(
        positions,
        rows,
        exact,
        _pair_norm(x, first, second),
        _angles_at_one(bound, d_model, order, rotated),
        rotated,
        steps,
    )


@dataclass(frozen=True)
class _Rotation:
    """The exact rotation (in extended precision) of the pairs (first, second) by p · ω, times ``factor``."""

    first: np.ndarray
    second: np.ndarray
    frequencies: np.ndarray
    factor: np.longdouble

    def __call__(self, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        angles = _exact_angles(positions, self.frequencies)
        c, s = self.factor * np.cos(angles), self.factor * np.sin(angles)
        exact = x.astype(np.longdouble)
        a, b = x[:, self.first], x[:, self.second]
        exact[:, self.first], exact[:, self.second] = a * c - b * s, a * s + b * c
        return exact


def rounding_steps(bound: Implementation, found: np.ndarray, exact: np.ndarray) -> float:
    """The mean square error of ``found`` against ``exact``, in units of the mean square error of the exact values
    rounded once to the dtype: about how many roundings each value carries (nan: nothing to measure)."""
    once = bound.xp.to_float64(bound.xp.array(exact.astype(np.float64)))
    unit = float(np.mean((once - exact) ** 2)) if exact.size else 0.0
    finite = np.isfinite(found)
    if unit == 0.0 or not finite.all():
        return math.nan
    return float(np.mean((found - exact) ** 2)) / unit


def _pair_norm(x: np.ndarray, first: np.ndarray, second: np.ndarray) -> float:
    return float(np.max(np.hypot(x[first], x[second]), initial=1.0))


def _angles_at_one(bound: Implementation, d_model: int, order: np.ndarray, rotated: int) -> np.ndarray:
    """Each pair's angle at position 1, from the pair's first unit vector rotated in the dtype."""
    if not bound.domain.takes_position(1):
        return np.zeros(0)
    first, second = order[0:rotated:2], order[1:rotated:2]
    units = np.zeros((len(first), d_model))
    units[np.arange(len(first)), first] = 1.0
    xp = bound.xp
    image = xp.to_float64(bound.rope(xp.array(units), np.ones(len(first), dtype=np.int64)))
    return np.arctan2(image[np.arange(len(first)), second], image[np.arange(len(first)), first])


PROBES = {"sinusoidal": sinusoidal_probe, "rope": rope_probe}


def _summary(capability: str, dtype: str, probe: DtypeAnswers) -> DtypeFingerprint:
    positions, error = probe.positions, _errors(probe)
    finite = np.isfinite(error)
    allowed = tolerance(dtype).at(probe.value_size)
    small = positions <= SMALL
    base = measure(probe.angles_at_one, probe.fitted_width).one_base.base if len(probe.angles_at_one) else math.nan
    return DtypeFingerprint(
        capability=capability,
        dtype=dtype,
        d_model=int(probe.found.shape[1]),
        formed_in=formed_in(positions, error / probe.value_size, dtype),
        base=float(base),
        duplicate_rows=_duplicates(positions, probe.found),
        first_past_tolerance=_first(positions, error > allowed),
        tolerance=allowed,
        first_non_finite=_first(positions, ~finite),
        rounding=float(np.max(error[small], initial=0.0)) / (UNIT_ROUNDOFF[dtype] * probe.value_size),
        envelope=_envelope(positions, error),
        rounding_steps=probe.rounding_steps,
    )


def formed_in(positions: np.ndarray, error: np.ndarray, dtype: str) -> str:
    """The dtype an answer's angles were formed in, from how its error (relative to the values' size) grows with the
    position past 16.

    "X or finer" where the positions measured cannot tell X from finer dtypes under the asked dtype's own rounding.
    """
    floor = FLOOR_ROUNDINGS * UNIT_ROUNDOFF[dtype]
    usable = (positions >= 16) & np.isfinite(error)
    if not usable.any():
        return "not measured"
    growth = float(np.max((error[usable] - floor) / positions[usable]))
    top = float(positions[usable].max())
    for name, threshold in FORMATION:
        if growth > threshold:
            return name
        if floor / top > threshold:
            return f"{name} or finer"
    return FLOAT64


def _first(positions: np.ndarray, where: np.ndarray) -> int | None:
    return int(positions[where][0]) if where.any() else None


def _duplicates(positions: np.ndarray, rows: np.ndarray) -> list[int]:
    """The first two neighbouring positions (of those measured) whose rows are identical, else []."""
    same = np.all(rows[1:] == rows[:-1], axis=1)
    index = np.flatnonzero(same)
    return [int(positions[index[0]]), int(positions[index[0] + 1])] if len(index) else []


def _envelope(positions: np.ndarray, error: np.ndarray) -> list[list[float]]:
    """[[2^k, the largest error at positions in (2^(k−1), 2^k]]] for each power of two measured (position 0 in the
    first); inf where a value is not finite."""
    found = []
    for k in range(math.ceil(math.log2(max(int(positions.max()), 1))) + 1):
        inside = (positions <= 2**k) & (positions > (2 ** (k - 1) if k else -1))
        if inside.any():
            found.append([float(2**k), float(error[inside].max())])
    return found


def _errors(probe: DtypeAnswers) -> np.ndarray:
    """The largest error of each row against the exact one; inf for a row with a value that is not finite."""
    finite = np.isfinite(probe.found).all(axis=1)
    error = np.max(np.abs(probe.found - probe.exact), axis=1, initial=0.0).astype(np.float64)
    return np.where(finite, error, math.inf)


def _over_limit(probe: DtypeAnswers, dtype: str) -> str:
    """Where, up to the dtype's position limit, the error passes the claims' own tolerance there ("" nowhere)."""
    positions, error, limit = probe.positions, _errors(probe), position_limit(dtype)
    allowed = tolerance(dtype).at(angle_scale(positions.astype(np.float64)) * probe.value_size)
    wrong = (positions <= limit) & ~(error <= allowed)
    if not wrong.any():
        return ""
    n = int(np.flatnonzero(wrong)[0])
    return (
        f"in {dtype}, position {int(positions[n])} differs from the float64 reference by {error[n]:.3g}, beyond the "
        f"{allowed[n]:.3g} the claims allow there (positions up to {limit} are held to it)"
    )


def differences(found: DtypeFingerprint, reference: DtypeFingerprint, own_base: float | None = None) -> str:
    """Where one dtype's fingerprint differs from the reference's in the same dtype, with its numbers, in one line
    ("" where it does not). What broken_promises says is not said again; the fitted base is compared with
    ``own_base`` (the implementation's own in float64, where its frequencies are not the documents') if given."""
    parts = []
    finer = _rank(found.formed_in) - _rank(reference.formed_in)
    if finer and _rank(found.formed_in) >= _rank(found.dtype):
        parts.append(f"angles formed in {found.formed_in} (the reference: {reference.formed_in})")
    within = bool(found.duplicate_rows) and found.duplicate_rows[1] <= EXACT_INTEGERS[found.dtype]
    if found.duplicate_rows and found.duplicate_rows != reference.duplicate_rows and not within:
        p, q = found.duplicate_rows
        parts.append(f"positions {p} and {q} get identical rows (the reference: {_pair(reference)})")
    for what, mine, theirs in (
        (
            f"its error passes {found.tolerance:.3g} from position",
            found.first_past_tolerance,
            reference.first_past_tolerance,
        ),
        ("values are not finite from position", found.first_non_finite, reference.first_non_finite),
    ):
        if mine is not None and (theirs is None or mine < theirs):
            parts.append(f"{what} {mine} (the reference: {'never' if theirs is None else f'from {theirs}'})")
    if finer >= 0 and found.rounding_steps > ROUNDINGS * reference.rounding_steps:
        parts.append(
            f"its values at positions 0 … {SMALL} carry the error of {found.rounding_steps:.3g} roundings (mean "
            f"square, against rounding the exact value once; the reference: {reference.rounding_steps:.3g}): it "
            "rounds more often than the reference"
        )
    noise = max(SAME_BASE, BASE_NOISE * UNIT_ROUNDOFF[found.dtype])
    if own_base is not None and not math.isclose(found.base, own_base, rel_tol=noise) and not math.isnan(found.base):
        parts.append(f"fitted base θ ≈ {found.base:.6g} (its own in float64: {own_base:.6g})")
    elif (
        own_base is None and not math.isclose(found.base, reference.base, rel_tol=noise) and not math.isnan(found.base)
    ):
        parts.append(f"fitted base θ ≈ {found.base:.6g} (the reference: {reference.base:.6g}; {BASE:g} exactly)")
    return f"{found.capability} in {found.dtype}: " + "; ".join(parts) if parts else ""


EXACT_INTEGERS = {BFLOAT16: 2**8, FLOAT16: 2**11, FLOAT32: 2**24, FLOAT64: 2**53}
"""Every integer position up to this is held exactly by the dtype (its significand's bits)."""
LARGEST = {FLOAT16: 65504.0}
"""The largest finite value of a dtype whose range the positions reach (the others hold every position measured)."""


def broken_promises(found: DtypeFingerprint) -> str:
    """Where one dtype's fingerprint departs from what the dtype itself promises, in one line ("" nowhere): angles
    formed in a coarser dtype, identical rows for positions the dtype holds exactly, values that are not finite
    where the dtype holds the position."""
    parts = []
    if 0 <= _rank(found.formed_in) < _rank(found.dtype) and not found.formed_in.endswith("or finer"):
        parts.append(f"its angles are formed in {found.formed_in}, not in {found.dtype}")
    exact = EXACT_INTEGERS[found.dtype]
    if found.duplicate_rows and found.duplicate_rows[1] <= exact:
        p, q = found.duplicate_rows
        parts.append(f"positions {p} and {q} get identical rows, though {found.dtype} holds every integer to {exact}")
    largest = LARGEST.get(found.dtype, math.inf)
    if found.first_non_finite is not None and found.first_non_finite <= largest:
        parts.append(f"values are not finite from position {found.first_non_finite}, which {found.dtype} holds")
    if not parts:
        return ""
    return f"{found.capability} in {found.dtype} departs from what {found.dtype} promises: " + "; ".join(parts)


def _rank(formed: str) -> int:
    """How fine a formation dtype is ("float32 or finer" ranks as float32)."""
    name = formed.removesuffix(" or finer")
    return COARSEST_FIRST.index(name) if name in COARSEST_FIRST else -1


def _pair(fingerprint: DtypeFingerprint) -> str:
    return "positions {} and {}".format(*fingerprint.duplicate_rows) if fingerprint.duplicate_rows else "none"
