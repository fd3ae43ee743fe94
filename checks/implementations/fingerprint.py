"""Fingerprints, measured by probing an implementation: what it actually computes, in the documents' terms.

RoPE: which pairs rotate together, which dimensions rotate at all (a partial rotation), the base θ and
any position scaling fitted from the measured angles, and the precision its angles are formed in.
Sinusoidal: where sin and cos sit (the layout), the amplitude, the base fitted from the measured
frequencies, and the precision its table is computed in.

The checks compare against the fingerprint where it records a convention (a partial rotation is a
variant, not a pairing failure); a base or a scale that differs from the documents' is reported as a
variant here and still fails the checks whose statement depends on it.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np

from checks.implementations.base import Implementation, backend_name
from checks.numerics.backends import BACKENDS
from checks.numerics.domain import Domain
from checks.numerics.pairing import (
    CONCATENATED,
    HALF_SPLIT,
    INTERLEAVED,
    RopeLayout,
    rope_layout,
    to_interleaved,
)
from checks.numerics.reference import BASE
from checks.results.codec import JSON

PROBE_D_MODELS = (64, 32, 16, 128, 8, 256, 4)
"""The d_model a fingerprint is measured at: the first of these the implementation takes."""
FAR = 2**20
"""Angles and tables are compared with exact values at positions up to here (or the largest one taken)."""
MOVED = 1e-9
"""A dimension moves when the rotation changes it by more than this (float64 probing)."""
SAME = 1e-3
"""A fitted base or scale within this relative distance of the documents' is the documents'."""


def prober(implementation: Implementation) -> Implementation:
    """The same adapter and domain bound to float64 on the CPU (or its first declared dtype), for probing."""
    domain = implementation.domain
    dtype = "float64" if domain.dtypes is None or "float64" in domain.dtypes else domain.dtypes[0]
    device = "cpu" if domain.devices is None or "cpu" in domain.devices else domain.devices[0]
    backend = BACKENDS[backend_name(implementation.adapter)](dtype, device)
    return Implementation(implementation.adapter, backend, domain)


def probing(adapter: Any, domain: Domain | None = None) -> Implementation:
    """``adapter`` bound for probing: float64 on the CPU where its domain allows (see prober)."""
    return prober(Implementation(adapter, BACKENDS[backend_name(adapter)]("float64"), domain))


def layout_of(implementation: Implementation, d_model: int) -> RopeLayout:
    """How an implementation's rotation sits in d_model dimensions: its pairs, and which dimensions rotate.

    The pairs are the declared ``pairing``; the rotated dimensions are measured: a partial rotation is a variant,
    not a failure.
    """
    if implementation.reference:
        return rope_layout(d_model, implementation.pairing)
    return rope_layout(d_model, implementation.pairing, rotated_dimensions(implementation, d_model))


def rotated_dimensions(implementation: Implementation, d_model: int) -> int:
    """How many leading dimensions the rotation moves: d_model, or fewer for a partial rotation.

    Dimensions that move but are not the first ones (a frozen pair in the middle) count as a full
    rotation: the checks then compare against the full rotation and say where it differs.
    Measured once per adapter and d_model.
    """
    return _once("rotated", implementation, d_model, _rotated)


_MEASURED: dict[tuple[str, int, int], tuple[Any, Any]] = {}
"""Per (what, adapter, d_model): the adapter (kept, so that its id is not reused) and what was measured."""


def _once(what: str, implementation: Implementation, d_model: int, measure: Any) -> Any:
    key = (what, id(implementation.adapter), d_model)
    if key not in _MEASURED:
        _MEASURED[key] = (implementation.adapter, measure(implementation, d_model))
    return _MEASURED[key][1]


def _rotated(implementation: Implementation, d_model: int) -> int:
    moved = _moved(prober(implementation), d_model)
    count = int(moved.sum())
    if 0 < count < d_model and count % 2 == 0 and moved[:count].all():
        return count
    return d_model


def _moved(implementation: Implementation, d_model: int) -> np.ndarray:
    """Which dimensions move at position 1 (and at a far position, where slow pairs turn visibly)."""
    moved = np.zeros(d_model, dtype=bool)
    eye = np.eye(d_model)
    for position in _probe_positions(implementation.domain, (1, 1000)):
        image = _rope(implementation, eye, position)
        moved |= np.abs(image - eye).max(axis=1) > MOVED
    return moved


def _rope(implementation: Implementation, rows: np.ndarray, position: int) -> np.ndarray:
    xp = implementation.xp
    at = np.full(len(rows), position, dtype=np.int64)
    return xp.to_float64(implementation.rope(xp.array(rows), at))


def pair_order(implementation: Implementation, d_model: int) -> np.ndarray:
    """The permutation p with x_interleaved = x[p] over the rotated dimensions, read off the rotation itself.

    Each basis vector e_j rotated at position 1 moves into exactly two dimensions: j (cos) and its
    partner (sin). The dimension whose partner receives +sin comes first; pairs are ordered by their
    angle (the frequency), fastest first. Dimensions that do not move come last, in order.
    Measured once per adapter and d_model.
    """
    return _once("pairs", implementation, d_model, _pair_order)


def _pair_order(implementation: Implementation, d_model: int) -> np.ndarray:
    bound = prober(implementation)
    image = _rope(bound, np.eye(d_model), 1)
    moved = _moved(bound, d_model)
    pairs: dict[tuple[int, int], float] = {}
    for j in np.flatnonzero(moved):
        row = np.where(moved, np.abs(image[j]), -1.0)
        row[j] = -1.0
        partner = int(np.argmax(row))
        if image[j, partner] > 0:
            pairs[(int(j), partner)] = float(np.arctan2(image[j, partner], image[j, j]))
    ordered = sorted(pairs, key=lambda pair: -pairs[pair])
    return np.array([index for pair in ordered for index in pair] + np.flatnonzero(~moved).tolist())


def pairing_name(order: np.ndarray, rotated: int) -> str:
    """The pairing a pair order is, over the rotated dimensions ("other: [...]" when neither)."""
    for pairing in (INTERLEAVED, HALF_SPLIT):
        if np.array_equal(order[:rotated], to_interleaved(rotated, pairing)):
            return pairing
    return f"other: {order[:rotated].tolist()}"


def rope_fingerprint(adapter: Any, domain: Domain) -> dict[str, JSON]:
    """What a RoPE implementation computes, measured at one d_model in float64."""
    d_model = probe_d_model(domain)
    bound = probing(adapter, domain)
    rotated = rotated_dimensions(bound, d_model)
    order = pair_order(bound, d_model)
    image = _rope(bound, np.eye(d_model), 1)
    first = order[0:rotated:2]
    measured = np.arctan2(image[first, order[1:rotated:2]], image[first, first])
    base, scale, residual = fit_angles(measured, rotated)
    documents = math.isclose(base, BASE, rel_tol=SAME) and math.isclose(scale, 1.0, rel_tol=SAME)
    frequencies = (
        _document_frequencies(rotated) if documents else scale * base ** (-np.arange(len(first)) * 2 / rotated)
    )
    far, error = _rope_angle_error(bound, d_model, order, frequencies)
    return {
        "d_model": d_model,
        "pairing": pairing_name(order, rotated),
        "rotated": rotated,
        "base": base,
        "position_scale": scale,
        "fit_residual": residual,
        "far_position": far,
        "angle_error": error,
        "angle_precision": precision_of(error, far),
    }


def sinusoidal_fingerprint(adapter: Any, domain: Domain) -> dict[str, JSON]:
    """What a sinusoidal implementation computes, measured at one d_model in float64."""
    d_model = probe_d_model(domain, even=True)
    bound = probing(adapter, domain)
    at = _probe_positions(domain, (0, 1))
    if at != [0, 1]:
        return {"d_model": d_model, "layout": "not measured: positions 0 and 1 are outside the declared domain"}
    rows = bound.xp.to_float64(bound.as_given("sinusoidal", np.array([0, 1]), d_model))
    layout, sines, cosines = _layout(rows[0])
    if not sines:
        return {"d_model": d_model, "layout": layout}
    amplitude = float(np.mean(rows[0][cosines]))
    measured = np.arcsin(np.clip(rows[1][sines] / amplitude, -1.0, 1.0))
    base, scale, residual = fit_angles(measured, d_model)
    documents = math.isclose(base, BASE, rel_tol=SAME) and math.isclose(scale, 1.0, rel_tol=SAME)
    frequencies = (
        _document_frequencies(d_model) if documents else scale * base ** (-np.arange(len(sines)) * 2 / d_model)
    )
    far, error = _table_error(bound, d_model, sines, cosines, amplitude, frequencies)
    return {
        "d_model": d_model,
        "layout": layout,
        "amplitude": amplitude,
        "base": base,
        "position_scale": scale,
        "fit_residual": residual,
        "far_position": far,
        "table_error": error,
        "table_precision": precision_of(error, far),
    }


def variants(capability: str, found: dict[str, JSON], declared: str) -> tuple[list[str], list[str]]:
    """(variants of the documents' formula, contract violations) a fingerprint shows."""
    notes, broken = [], []
    if "base" not in found:
        return notes, broken
    arrangement = found.get("pairing", found.get("layout"))
    if capability == "rope" and found["rotated"] < found["d_model"]:
        notes.append(f"partial rotation: the first {found['rotated']} of {found['d_model']} dimensions rotate")
    if arrangement != declared and capability == "rope":
        broken.append(f"declares {declared} pairs but rotates {arrangement} pairs (d = {found['d_model']})")
    if arrangement != declared and capability == "sinusoidal":
        broken.append(f"declares layout {declared} but its table is {arrangement} (d = {found['d_model']})")
    elif capability == "sinusoidal" and declared != INTERLEAVED:
        notes.append(f"layout {declared}: sines and cosines in separate halves")
    if not math.isclose(float(found["base"]), BASE, rel_tol=SAME):
        notes.append(f"base θ ≈ {float(found['base']):.6g}, not {BASE:g}")
    if not math.isclose(float(found["position_scale"]), 1.0, rel_tol=SAME):
        notes.append(f"positions scaled by {float(found['position_scale']):.6g}")
    if capability == "sinusoidal" and not math.isclose(float(found["amplitude"]), 1.0, rel_tol=SAME):
        notes.append(f"amplitude {float(found['amplitude']):.6g}, not 1")
    if capability == "rope" and found["angle_precision"] != "float64":
        notes.append(
            f"float64 inputs get angles formed in {found['angle_precision']} "
            f"(error {float(found['angle_error']):.3g} rad "
            f"at position {found['far_position']})"
        )
    if capability == "sinusoidal" and found["table_precision"] != "float64":
        notes.append(
            f"float64 tables computed in {found['table_precision']} (error {float(found['table_error']):.3g} "
            f"at position {found['far_position']})"
        )
    return notes, broken


def precision_of(error: float, position: int) -> str:
    """The precision an angle (or a table) of size ``position`` was formed in, from its measured error."""
    if error <= 1e3 * 2.0**-53 * max(position, 1):
        return "float64"
    if error <= 4 * 2.0**-24 * max(position, 1) + 1e-6:
        return "float32"
    return "coarser than float32"


def probe_d_model(domain: Domain, even: bool = True) -> int:
    for d_model in PROBE_D_MODELS:
        if domain.takes_d_model(d_model) and (d_model % 2 == 0 or not even):
            return d_model
    taken = domain.d_model_values(2, 4096)
    if not taken:
        raise ValueError(f"no d_model between 2 and 4096 is inside the declared domain ({domain.describe()})")
    return taken[0]


def _probe_positions(domain: Domain, wanted: tuple[int, ...]) -> list[int]:
    """The wanted positions the domain takes; one beyond its largest position becomes that largest one."""
    found = []
    for position in wanted:
        if not domain.takes_position(position) and domain.max_position is not None:
            position = min(position, domain.max_position)
        if domain.takes_position(position) and position not in found:
            found.append(position)
    return found


def _far_positions(domain: Domain) -> np.ndarray:
    top = min(FAR, domain.max_position if domain.max_position is not None else FAR)
    return np.arange(max(top - 15, domain.min_position or 0), top + 1)


def fit_angles(angles: np.ndarray, d_model: int) -> tuple[float, float, float]:
    """Fit ω_i = s · base^(−2i/d) to measured angles (log-linear least squares): base, s, max |log residual|."""
    if len(angles) == 1 or not np.all(angles > 0):
        return BASE, float(angles[0]) if len(angles) else 1.0, 0.0
    exponent = np.arange(len(angles)) * 2 / d_model
    slope, intercept = np.polyfit(exponent, np.log(angles), 1)
    residual = float(np.max(np.abs(np.log(angles) - (slope * exponent + intercept))))
    return float(np.exp(-slope)), float(np.exp(intercept)), residual


@cache
def _document_frequencies(d_model: int) -> np.ndarray:
    from checks.numerics.reference import frequency_values

    return frequency_values(d_model)


def _rope_angle_error(
    bound: Implementation, d_model: int, order: np.ndarray, frequencies: np.ndarray
) -> tuple[int, float]:
    """Every pair's angle at far positions against the exact one: (the farthest position, the max error)."""
    positions = _far_positions(bound.domain)
    first, second = order[0 : 2 * len(frequencies) : 2], order[1 : 2 * len(frequencies) : 2]
    units = np.zeros((len(positions), len(first), d_model))
    units[:, np.arange(len(first)), first] = 1.0
    xp = bound.xp
    rows = units.reshape(-1, d_model)
    image = xp.to_float64(bound.rope(xp.array(rows), np.repeat(positions, len(first)))).reshape(units.shape)
    measured = np.arctan2(image[:, np.arange(len(first)), second], image[:, np.arange(len(first)), first])
    exact = positions[:, None].astype(np.float64) * frequencies[None, :]
    error = np.abs(np.mod(measured - exact + math.pi, 2 * math.pi) - math.pi)
    return int(positions[-1]), float(error.max())


def _table_error(
    bound: Implementation,
    d_model: int,
    sines: list[int],
    cosines: list[int],
    amplitude: float,
    frequencies: np.ndarray,
) -> tuple[int, float]:
    positions = _far_positions(bound.domain)
    table = bound.xp.to_float64(bound.as_given("sinusoidal", positions, d_model))
    angles = positions[:, None].astype(np.float64) * frequencies[None, : len(sines)]
    error = np.abs(table[:, sines] - amplitude * np.sin(angles)).max()
    error = max(error, np.abs(table[:, cosines] - amplitude * np.cos(angles[:, : len(cosines)])).max())
    return int(positions[-1]), float(error)


def _layout(row: np.ndarray) -> tuple[str, list[int], list[int]]:
    """The layout of PE(0): sines are 0 there, cosines the amplitude. Returns it with the sine and cosine columns."""
    d_model = len(row)
    zero = np.abs(row) <= 1e-12 * max(float(np.abs(row).max()), 1.0)
    candidates = {
        INTERLEAVED: np.arange(d_model) % 2 == 0,
        CONCATENATED: np.arange(d_model) < (d_model + 1) // 2,
        "interleaved, cos first": np.arange(d_model) % 2 == 1,
        "concatenated, cos first": np.arange(d_model) >= d_model // 2,
    }
    for name, sines in candidates.items():
        if np.array_equal(zero, sines):
            return name, np.flatnonzero(sines).tolist(), np.flatnonzero(~sines).tolist()
    return f"other: PE(0) = {np.round(row, 3).tolist()}", [], []
