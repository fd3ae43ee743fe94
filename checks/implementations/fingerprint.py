"""Fingerprints, measured by probing an implementation: what it actually computes, in the documents' terms.

RoPE: which pairs rotate together, which dimensions rotate at all (a partial rotation), its frequencies and the
simplest model of them (checks.implementations.frequencies), any factor the rotated vectors are scaled by, the
precision its angles are formed in (against its own frequencies, in the same call), and what it does at an odd
d_model. Sinusoidal: where sin and cos sit (the layout), the amplitude, the frequencies, the precision of its table
and its odd sizes.

The checks compare against the fingerprint where it records a convention (a partial rotation is a variant, not a
pairing failure); frequencies that differ from the documents' are reported as a variant here and still fail the
checks whose statement depends on them. What an adapter declares of its variant is checked against it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from checks.implementations.base import Implementation, ImplementationFailure, OutsideDomain, backend_name
from checks.implementations.frequencies import DOCUMENTS, PIECES, Frequencies, formula, measure
from checks.implementations.frequencies import residual as _residual
from checks.implementations.topic_records import PROBE_SIZES
from checks.numerics.backends import BACKENDS
from checks.numerics.domain import Domain
from checks.numerics.pairing import (
    HALF_SPLIT,
    INTERLEAVED,
    LAYOUTS,
    RopeLayout,
    rope_layout,
    to_document_layout,
    to_interleaved,
)
from checks.numerics.reference_implementations import BASE
from checks.results.codec import JSON

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
    first, second = order[0:rotated:2], order[1:rotated:2]
    image = _rope(bound, np.eye(d_model), 1)
    frequencies = measure(np.arctan2(image[first, second], image[first, first]), rotated)
    far, error, called = _rope_angle_error(bound, d_model, order, rotated)
    return {
        "d_model": d_model,
        "pairing": pairing_name(order, rotated),
        "rotated": rotated,
        "attention_factor": float(np.mean(np.hypot(image[first, second], image[first, first]))),
        **_frequency_fields(frequencies, called, rotated),
        "far_position": far,
        "angle_error": error,
        "angle_precision": precision_of(error, far),
        **_odd_rope(bound, domain, d_model, frequencies),
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
    frequencies = measure(table_angles(rows[1], sines, cosines, amplitude), d_model)
    far, error, called = _table_error(bound, d_model, sines, cosines, amplitude)
    return {
        "d_model": d_model,
        "layout": layout,
        "amplitude": amplitude,
        **_frequency_fields(frequencies, called, d_model),
        "far_position": far,
        "table_error": error,
        "table_precision": precision_of(error, far),
        **_odd_table(bound, domain, d_model, frequencies, amplitude),
    }


def _frequency_fields(frequencies: Frequencies, far: np.ndarray, width: int) -> dict[str, JSON]:
    """A fingerprint's frequencies: measured, against the formula, their model, and how a far call changes them."""
    model = frequencies.model
    changed = _residual(far, frequencies.measured) if len(far) == len(frequencies.measured) else math.inf
    return {
        "frequencies": frequencies.measured.tolist(),
        "frequency_ratios": [float(f"{ratio:.6g}") for ratio in frequencies.ratios],
        "frequency_model": frequencies.describe(),
        "frequency_kind": model.kind,
        "frequency_residual": model.residual,
        "frequency_tolerance": frequencies.tolerance,
        "frequencies_stored_in": frequencies.stored_in,
        "base": frequencies.one_base.base,
        "position_scale": frequencies.one_base.scale,
        "call_dependent": bool(changed > frequencies.tolerance),
        **(_far_call(far, width) if changed > frequencies.tolerance else {}),
    }


def _far_call(far: np.ndarray, width: int) -> dict[str, JSON]:
    """The frequencies of a call that reaches far positions, where they differ from a short call's."""
    return {"far_call_frequencies": far.tolist(), "far_call_model": measure(far, width).describe() if len(far) else ""}


def _odd_words(found: dict[str, JSON]) -> str:
    behaviour = str(found["odd_sizes"])
    if behaviour == "zero pad":
        if "odd_last" in found:
            return (
                f"zero pad: a zero partner is rotated with the last dimension and dropped (it is multiplied by "
                f"{float(found['odd_last']):.6g} at position {found['odd_position']}, not left as it is); the "
                "frequencies follow d + 1"
            )
        return "zero pad: a zero last column, not a lone sine; the other frequencies follow d − 1"
    if behaviour == "round up":
        return "round up: the table of d + 1 with its last column dropped; the frequencies follow d + 1"
    return behaviour


def _call_change(found: dict[str, JSON]) -> float:
    """How far, relatively, the frequencies of a far call are from those of a call up to position 1."""
    return _residual(np.array(found["far_call_frequencies"]), np.array(found["frequencies"]))


ODD_SIZES = ("last alone", "zero pad", "round up")
"""What an implementation does at an odd d_model: "last alone" (the documents' and the references': the last dimension
left as it is, or a lone sine, frequencies over d), "zero pad" (a zero dimension added, d + 1 rotated (RoPE) or
d − 1 tabled, and dropped: the last dimension multiplied by a cosine, or a zero column), "round up" (computed for
d + 1 and the last column dropped)."""


def _odd_size(domain: Domain, d_model: int) -> int | None:
    """The odd d_model the odd-size behaviour is measured at: d_model + 1 or the nearest odd size the domain takes."""
    taken = [d for d in domain.d_model_values(3, 4096) if d % 2]
    return min(taken, key=lambda d: abs(d - d_model - 1), default=None)


def _odd_rope(bound: Implementation, domain: Domain, d_model: int, frequencies: Frequencies) -> dict[str, JSON]:
    """What the rotation does at an odd d_model: to its last dimension, and which width its frequencies follow."""
    odd = _odd_size(domain, d_model)
    if odd is None:
        return {"odd_sizes": "not taken: its domain has no odd d_model"}
    far = _probe_positions(domain, (1000,))[-1]
    try:
        image = _rope(bound, np.eye(odd), 1)
        order = pair_order(bound, odd)
        turned = _rope(bound, np.eye(odd)[-1:], far)[0]
    except (ImplementationFailure, OutsideDomain) as failure:
        return {"odd_d_model": odd, "odd_sizes": f"raises at d_model = {odd}: {failure}"}
    last, others = turned[odd - 1], turned[: odd - 1]
    paired = [(int(a), int(b)) for a, b in zip(order[0::2], order[1::2], strict=False) if odd - 1 not in (a, b)]
    first, second = np.array([a for a, _ in paired], dtype=int), np.array([b for _, b in paired], dtype=int)
    width = _odd_width(np.arctan2(image[first, second], image[first, first]), odd, frequencies)
    if np.abs(others).max(initial=0.0) > MOVED:
        behaviour = "other: the last dimension is mixed with the others"
    elif abs(last - 1.0) <= MOVED and width == 0:
        behaviour = "last alone"
    elif abs(last - 1.0) > MOVED and width == 1:
        behaviour = "zero pad"
    else:
        behaviour = f"other: the last dimension is multiplied by {last:.6g} at position {far}; {_width_words(width)}"
    return {
        "odd_d_model": odd,
        "odd_sizes": behaviour,
        "odd_last": float(last),
        "odd_position": int(far),
        "odd_width": width,
    }


def _odd_table(
    bound: Implementation, domain: Domain, d_model: int, frequencies: Frequencies, amplitude: float
) -> dict[str, JSON]:
    """What the table does at an odd d_model: its last column (a lone sine, or zero), and the width its frequencies
    follow."""
    odd = _odd_size(domain, d_model)
    if odd is None:
        return {"odd_sizes": "not taken: its domain has no odd d_model"}
    try:
        rows = bound.xp.to_float64(bound.sinusoidal(np.array([0, 1]), odd))
    except (ImplementationFailure, OutsideDomain) as failure:
        return {"odd_d_model": odd, "odd_sizes": f"raises at d_model = {odd}: {failure}"}
    sines, cosines = list(range(0, odd - 1, 2)), list(range(1, odd, 2))
    width = _odd_width(table_angles(rows[1], sines, cosines, amplitude), odd, frequencies)
    last = rows[:, odd - 1]
    if not np.any(np.abs(last) > MOVED):
        behaviour = "zero pad" if width == -1 else f"other: a zero last column; {_width_words(width)}"
    else:
        lone = math.asin(max(-1.0, min(1.0, last[1] / amplitude)))
        expected = {w: float(_own(frequencies, odd + w, (odd + 1) // 2)[-1]) for w in (0, 1)}
        matches = [w for w, omega in expected.items() if math.isclose(lone, omega, rel_tol=1e-6) and w == width]
        behaviour = {0: "last alone", 1: "round up"}[matches[0]] if matches else f"other: {_width_words(width)}"
    return {"odd_d_model": odd, "odd_sizes": behaviour, "odd_width": width}


def _own(frequencies: Frequencies, width: int, count: int) -> np.ndarray:
    """The implementation's own frequency model (one base and a scale) over another width."""
    model = frequencies.model if frequencies.model.kind != PIECES else frequencies.one_base
    return model.scale * formula(count, width, model.base)


def _odd_width(measured: np.ndarray, odd: int, frequencies: Frequencies) -> int | None:
    """Which width, odd − 1, odd or odd + 1 (as −1, 0, 1), the frequencies at an odd d_model follow under the
    implementation's own model; None when none of them fits."""
    if not len(measured):
        return None
    gaps = {w: _residual(measured, _own(frequencies, odd + w, len(measured))) for w in (-1, 0, 1)}
    best = min(gaps, key=lambda w: gaps[w])
    return best if gaps[best] <= max(frequencies.tolerance, 1e-6) else None


def _width_words(width: int | None) -> str:
    if width is None:
        return "its frequencies follow no width near d"
    return "its frequencies follow d" + {-1: " − 1", 0: "", 1: " + 1"}[width]


def table_angles(row: np.ndarray, sines: list[int], cosines: list[int], amplitude: float) -> np.ndarray:
    """Each column pair's angle in one row: atan2(sin, cos) where a cosine partners the sine, else arcsin."""
    angles = np.arcsin(np.clip(row[sines] / amplitude, -1.0, 1.0))
    paired = min(len(sines), len(cosines))
    angles[:paired] = np.arctan2(row[sines[:paired]], row[cosines[:paired]])
    return angles


DECLARED_NUMBERS = ("base", "position_scale", "attention_factor")
"""Numbers an adapter may declare of its variant (each checked against the fingerprint): the base θ of its
frequencies, the factor its positions are multiplied by, and the factor its cos and sin are (YaRN's attention
factor; a table's amplitude)."""
DECLARED_CLOSE = 1e-6
"""A declared number holds when the measured one is this close, relatively (or within the frequencies' tolerance)."""


def variants(capability: str, found: dict[str, JSON], adapter: Any) -> tuple[list[str], list[str]]:
    """(variants of the documents' formula, contract violations) a fingerprint shows; what the adapter declares of
    its variant (its pairing or layout, base, position scale, attention factor, odd sizes) is checked against it."""
    notes, broken = [], []
    declared = str(getattr(adapter, "pairing" if capability == "rope" else "layout", INTERLEAVED))
    if "frequencies" not in found:
        return notes, broken
    numbers, wrong = _declared_numbers(adapter)
    broken += wrong
    arrangement = found.get("pairing", found.get("layout"))
    if capability == "rope" and found["rotated"] < found["d_model"]:
        notes.append(f"partial rotation: the first {found['rotated']} of {found['d_model']} dimensions rotate")
    if arrangement != declared and capability == "rope":
        broken.append(f"declares {declared} pairs but rotates {arrangement} pairs (d = {found['d_model']})")
    if arrangement != declared and capability == "sinusoidal":
        broken.append(f"declares layout {declared} but its table is {arrangement} (d = {found['d_model']})")
    elif capability == "sinusoidal" and declared != INTERLEAVED:
        notes.append(f"layout {declared} (declared, and measured)")
    frequencies = _declared_frequencies(found, numbers)
    if frequencies:
        broken.append(frequencies)
    elif "base" in numbers or "position_scale" in numbers:
        notes.append(f"frequencies as declared: {found['frequency_model']}")
    elif found["frequency_kind"] != DOCUMENTS:
        notes.append(f"frequencies: {found['frequency_model']}")
    if found["call_dependent"]:
        notes.append(
            f"its frequencies depend on the call: in a call that reaches position {found['far_position']} they are "
            f"{found['far_call_model']}, {_call_change(found):.3g} (in log) from those of a call up to position 1"
        )
    odd = str(found.get("odd_sizes", ODD_SIZES[0]))
    said = getattr(adapter, "odd", None)
    if said is not None and said != odd and not odd.startswith("not taken"):
        broken.append(f"declares odd sizes {said!r}, but at d_model = {found['odd_d_model']}: {_odd_words(found)}")
    elif odd != ODD_SIZES[0] and not odd.startswith("not taken"):
        declared_odd = " (declared)" if said == odd else ""
        notes.append(f"at an odd d_model (d = {found['odd_d_model']}){declared_odd}: {_odd_words(found)}")
    factor = float(found.get("attention_factor", found.get("amplitude", 1.0)))
    what = "rotated vectors scaled by" if capability == "rope" else "amplitude"
    promised = numbers.get("attention_factor", 1.0)
    if not math.isclose(factor, promised, rel_tol=DECLARED_CLOSE) and "attention_factor" in numbers:
        broken.append(f"declares attention factor {promised:g}, but its {what} {factor:.6g}")
    elif not math.isclose(factor, 1.0, rel_tol=SAME):
        notes.append(f"{what} {factor:.6g}, not 1" + (" (declared)" if "attention_factor" in numbers else ""))
    return notes, broken


def _declared_numbers(adapter: Any) -> tuple[dict[str, float], list[str]]:
    """The numbers the adapter declares of its variant, and a violation for each that is not a positive number."""
    numbers, wrong = {}, []
    for name in DECLARED_NUMBERS:
        value = getattr(adapter, name, None)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0 or math.isinf(value):
            wrong.append(f"declares {name} = {value!r}: not a positive number")
        else:
            numbers[name] = float(value)
    return numbers, wrong


def _declared_frequencies(found: dict[str, JSON], numbers: dict[str, float]) -> str:
    """A violation when the declared base and position scale do not give the measured frequencies ("" none)."""
    if "base" not in numbers and "position_scale" not in numbers:
        return ""
    measured = np.array(found["frequencies"], dtype=np.float64)
    base, scale = numbers.get("base", BASE), numbers.get("position_scale", 1.0)
    width = int(found.get("rotated", found["d_model"]))
    gap = _residual(measured, scale * formula(len(measured), width, base))
    if gap <= max(float(found.get("frequency_tolerance", DECLARED_CLOSE)), DECLARED_CLOSE):
        return ""
    return (
        f"declares base {base:g} and position scale {scale:g}, but its frequencies are {found['frequency_model']} "
        f"(the declared ones are off by up to {gap:.3g} in log)"
    )


def precision_of(error: float, position: int) -> str:
    """The precision an angle (or a table) of size ``position`` was formed in, from its measured error."""
    if error <= 1e3 * 2.0**-53 * max(position, 1):
        return "float64"
    if error <= 4 * 2.0**-24 * max(position, 1) + 1e-6:
        return "float32"
    return "coarser than float32"


def probe_d_model(domain: Domain, even: bool = True, sizes: tuple[int, ...] = PROBE_SIZES) -> int:
    """The first of ``sizes`` (a topic's probe_sizes) the domain takes (even, unless ``even`` is False); else the
    smallest size it takes."""
    for d_model in sizes:
        if domain.takes_d_model(d_model) and (d_model % 2 == 0 or not even):
            return d_model
    taken = domain.d_model_values(2, 4096)
    if not taken:
        raise ValueError(f"no size between 2 and 4096 is inside the declared domain ({domain.describe()})")
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


def _rope_angle_error(
    bound: Implementation, d_model: int, order: np.ndarray, rotated: int
) -> tuple[int, float, np.ndarray]:
    """Every pair's angle at far positions against p · ω with the frequencies ω measured at position 1 in the same
    call (an implementation whose frequencies depend on the call's largest position is held to its own): (the
    farthest position, the largest error, those frequencies)."""
    positions = np.concatenate([[1], _far_positions(bound.domain)])
    first, second = order[0:rotated:2], order[1:rotated:2]
    units = np.zeros((len(positions), len(first), d_model))
    units[:, np.arange(len(first)), first] = 1.0
    xp = bound.xp
    rows = units.reshape(-1, d_model)
    image = xp.to_float64(bound.rope(xp.array(rows), np.repeat(positions, len(first)))).reshape(units.shape)
    measured = np.arctan2(image[:, np.arange(len(first)), second], image[:, np.arange(len(first)), first])
    frequencies = measured[0]
    exact = positions[1:, None].astype(np.float64) * frequencies[None, :]
    error = np.abs(np.mod(measured[1:] - exact + math.pi, 2 * math.pi) - math.pi)
    return int(positions[-1]), float(error.max()), frequencies


def _table_error(
    bound: Implementation, d_model: int, sines: list[int], cosines: list[int], amplitude: float
) -> tuple[int, float, np.ndarray]:
    """The table at far positions against amplitude · (sin, cos)(p · ω), ω measured at position 1 in the same call:
    (the farthest position, the largest error, those frequencies)."""
    positions = np.concatenate([[1], _far_positions(bound.domain)])
    table = bound.xp.to_float64(bound.as_given("sinusoidal", positions, d_model))
    frequencies = table_angles(table[0], sines, cosines, amplitude)
    angles = positions[1:, None].astype(np.float64) * frequencies[None, :]
    error = np.abs(table[1:, sines] - amplitude * np.sin(angles)).max()
    error = max(error, np.abs(table[1:, cosines] - amplitude * np.cos(angles[:, : len(cosines)])).max())
    return int(positions[-1]), float(error), frequencies


def _layout(row: np.ndarray) -> tuple[str, list[int], list[int]]:
    """The layout of PE(0): sines are 0 there, cosines the amplitude. Returns it with the sine and cosine columns."""
    d_model = len(row)
    zero = np.abs(row) <= 1e-12 * max(float(np.abs(row).max()), 1.0)
    for name in LAYOUTS:
        order = to_document_layout(d_model, name)
        sines, cosines = order[0::2], order[1::2]
        if zero[sines].all() and not zero[cosines].any():
            return name, sines.tolist(), cosines.tolist()
    return f"other: PE(0) = {np.round(row, 3).tolist()}", [], []
