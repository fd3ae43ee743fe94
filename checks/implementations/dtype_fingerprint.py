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
- ``envelope``: the largest error up to each power of two (the precision envelope).

Up to the dtype's position limit (checks.numerics.tolerances.position_limit, where the claims draw their positions)
the error must stay within the claims' own tolerance, scaled by the angle: beyond it is a contract finding. Past the
limit what happens is measured, and each difference from the reference in the same dtype is listed as a variant
with its numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from checks.implementations.base import Implementation, ImplementationFailure, OutsideDomain, backend_name
from checks.implementations.builtin import ReferenceAdapter
from checks.implementations.fingerprint import SAME, fit_angles, pair_order, probing
from checks.numerics.backends import BACKENDS
from checks.numerics.domain import Domain
from checks.numerics.pairing import INTERLEAVED
from checks.numerics.reference import BASE
from checks.numerics.tolerances import (
    BFLOAT16,
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
"""Positions 0 … SMALL measure the rounding (every dtype holds them exactly: their angles carry only ω's rounding)."""
FORMATION = ((BFLOAT16, 2.0**-9.5), (FLOAT16, 2.0**-17.5), (FLOAT32, 2.0**-38.5))
"""Coarsest first: an error growing faster than this times the position was formed in that dtype (each threshold
lies halfway, in octaves, between that dtype's unit roundoff and the next finer one's)."""
ROUNDINGS = 1.5
"""An error at small positions this many times the reference's (and one rounding's) is a difference."""
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
class Probe:
    """One dtype's answers (in float64) beside the exact ones, rows per position, and its angles at position 1."""

    positions: np.ndarray
    found: np.ndarray
    exact: np.ndarray
    """In extended precision (numpy's longdouble), so that a float64 answer's own rounding shows."""
    value_size: float
    """The largest size of the values compared (1 for a table, a pair's norm for a rotated vector)."""
    angles_at_one: np.ndarray
    fitted_width: int


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
    if "base" not in found or not _documents_arrangement(capability, found, adapter):
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
    """The project's reference measured the same way, at the same positions and size (what a variant differs from)."""
    documents = {"d_model": d_model, "base": BASE, "position_scale": 1.0, "amplitude": 1.0, "rotated": d_model}
    found = dtype_fingerprints(ReferenceAdapter(backend), domain, capability, documents, dtypes)
    return [measured.fingerprint for measured in found if isinstance(measured, Measured)]


def _documents_arrangement(capability: str, found: dict[str, Any], adapter: Any) -> bool:
    """A fingerprint per dtype compares in the documents' arrangement: a sinusoidal table whose layout is the
    declared one (Implementation maps it), any RoPE pairing (measured)."""
    return capability == "rope" or found.get("layout", INTERLEAVED) == getattr(adapter, "layout", INTERLEAVED)


def _frequencies(found: dict[str, Any], width: int) -> np.ndarray:
    """ω_i in extended precision: the documents' (base 10000, no scale) where the float64 fingerprint found them,
    else the fitted ones."""
    base, scale = float(found["base"]), float(found["position_scale"])
    if math.isclose(base, BASE, rel_tol=SAME) and math.isclose(scale, 1.0, rel_tol=SAME):
        base, scale = BASE, 1.0
    return np.longdouble(scale) * np.longdouble(base) ** (-np.arange(0, width, 2, dtype=np.longdouble) / width)


def _exact_angles(positions: np.ndarray, frequencies: np.ndarray) -> np.ndarray:
    return positions.astype(np.longdouble)[:, None] * frequencies[None, :]


def sinusoidal_probe(
    bound: Implementation, positions: np.ndarray, found: dict[str, Any], adapter: Any, domain: Domain
) -> Probe:
    """Rows PE(p) in the documents' layout beside amplitude · (sin, cos)(p · ω) with the fitted base and scale."""
    d_model, amplitude = int(found["d_model"]), float(found["amplitude"])
    rows = bound.xp.to_float64(bound.sinusoidal(positions, d_model))
    angles = _exact_angles(positions, _frequencies(found, d_model))
    exact = amplitude * np.stack([np.sin(angles), np.cos(angles)], axis=-1).reshape(len(positions), -1)[:, :d_model]
    at_one = rows[positions == 1]
    sines = np.arcsin(np.clip(at_one[0, 0::2] / amplitude, -1.0, 1.0)) if len(at_one) else np.zeros(0)
    return Probe(positions, rows, exact, abs(amplitude), sines, d_model)


def rope_probe(
    bound: Implementation, positions: np.ndarray, found: dict[str, Any], adapter: Any, domain: Domain
) -> Probe:
    """One vector rotated at every position beside its exact rotation (the measured pairs, the fitted base)."""
    d_model, rotated = int(found["d_model"]), int(found["rotated"])
    order = pair_order(probing(adapter, domain), d_model)
    xp = bound.xp
    given = xp.array(np.random.default_rng(SEED).uniform(-1.0, 1.0, (1, d_model)))
    x = xp.to_float64(given)[0]
    rows = xp.to_float64(bound.rope(xp.array(np.repeat(x[None, :], len(positions), axis=0)), positions))
    angles = _exact_angles(positions, _frequencies(found, rotated))
    first, second = order[0:rotated:2], order[1:rotated:2]
    exact = np.repeat(x[None, :].astype(np.longdouble), len(positions), axis=0)
    c, s = np.cos(angles), np.sin(angles)
    exact[:, first], exact[:, second] = x[first] * c - x[second] * s, x[first] * s + x[second] * c
    return Probe(
        positions, rows, exact, _pair_norm(x, first, second), _angles_at_one(bound, d_model, order, rotated), rotated
    )


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


def _summary(capability: str, dtype: str, probe: Probe) -> DtypeFingerprint:
    positions, error = probe.positions, _errors(probe)
    finite = np.isfinite(error)
    allowed = tolerance(dtype).at(probe.value_size)
    small = positions <= SMALL
    base = fit_angles(probe.angles_at_one, probe.fitted_width)[0] if len(probe.angles_at_one) else math.nan
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


def _errors(probe: Probe) -> np.ndarray:
    """The largest error of each row against the exact one; inf for a row with a value that is not finite."""
    finite = np.isfinite(probe.found).all(axis=1)
    error = np.max(np.abs(probe.found - probe.exact), axis=1, initial=0.0).astype(np.float64)
    return np.where(finite, error, math.inf)


def _over_limit(probe: Probe, dtype: str) -> str:
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


def differences(found: DtypeFingerprint, reference: DtypeFingerprint) -> str:
    """Where one dtype's fingerprint differs from the reference's in the same dtype, with its numbers, in one line
    ("" where it does not). In float64 the formation dtype is left to the float64 fingerprint's own variant."""
    parts = []
    finer = _rank(found.formed_in) - _rank(reference.formed_in)
    if finer and found.dtype != FLOAT64:
        parts.append(f"angles formed in {found.formed_in} (the reference: {reference.formed_in})")
    if found.duplicate_rows and found.duplicate_rows != reference.duplicate_rows:
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
    if finer >= 0 and found.rounding > ROUNDINGS * max(reference.rounding, 1.0):
        parts.append(
            f"values at positions 0 … {SMALL} are off by {found.rounding:.3g} roundings (the reference: "
            f"{reference.rounding:.3g}): it rounds more often than the reference"
        )
    noise = max(SAME, BASE_NOISE * UNIT_ROUNDOFF[found.dtype])
    if not math.isclose(found.base, reference.base, rel_tol=noise) and not math.isnan(found.base):
        parts.append(f"fitted base θ ≈ {found.base:.6g} (the reference: {reference.base:.6g}; {BASE:g} exactly)")
    return f"{found.capability} in {found.dtype}: " + "; ".join(parts) if parts else ""


def _rank(formed: str) -> int:
    """How fine a formation dtype is ("float32 or finer" ranks as float32)."""
    order = (BFLOAT16, FLOAT16, FLOAT32, FLOAT64)
    name = formed.removesuffix(" or finer")
    return order.index(name) if name in order else -1


def _pair(fingerprint: DtypeFingerprint) -> str:
    return "positions {} and {}".format(*fingerprint.duplicate_rows) if fingerprint.duplicate_rows else "none"
