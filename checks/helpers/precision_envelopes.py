"""Precision envelopes: up to which position a low-precision computation stays within tolerance.

How the angle pos · ω_i is formed is a variable, because real implementations differ:

- ``low``: positions and ω_i in the dtype, the product and sin/cos in the dtype;
- ``float32``: angle and sin/cos in float32, the result cast to the dtype;
- ``reduced``: the angle in float64 reduced modulo 2π, cast to the dtype, sin/cos in the dtype.

Errors are measured against float64 (whose own angle error, |pos · ω| · 2⁻⁵³, stays
below 10⁻⁹ for every position examined here, far under any tolerance used).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from checks.helpers.encodings import rounded
from checks.numerics.devices import available_devices
from checks.numerics.reference_implementations import frequency_values
from checks.numerics.tolerances import FLOATS, tolerance

if TYPE_CHECKING:
    from checks.evidence.probe import Recorder
from checks.settings.extras import optional

torch = optional("torch")

ANGLE_MODES = ("low", "float32", "reduced")
CHUNK_ELEMENTS = 2**21
"""Positions × pairs evaluated at once (bounds memory)."""

ErrorFunction = Callable[[torch.Tensor], torch.Tensor]
"""positions (float64, 1-D) → largest absolute error at each position (float64)."""


def pairs_in(dtype: str, mode: str, positions: torch.Tensor, frequencies: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """sin and cos of positions · frequencies (float64 inputs), formed as ``mode`` says, returned as float64."""
    low = getattr(torch, dtype)
    if mode == "low":
        formed = positions.to(low) * frequencies.to(low)
    elif mode == "float32":
        formed = positions.float() * frequencies.float()
        return torch.sin(formed).to(low).double(), torch.cos(formed).to(low).double()
    elif mode == "reduced":
        formed = torch.remainder(positions * frequencies, 2 * math.pi).to(low)
    else:
        raise ValueError(f"angle mode {mode!r} is not one of {ANGLE_MODES}")
    return torch.sin(formed).double(), torch.cos(formed).double()


def exact_pairs(positions: torch.Tensor, frequencies: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    angles = positions * frequencies
    return torch.sin(angles), torch.cos(angles)


def frequencies_of(d_model: int, device: str = "cpu") -> torch.Tensor:
    """ω_i in float64 as a row (1, pairs)."""
    return torch.from_numpy(frequency_values(d_model))[None, :].to(device)


@dataclass
class Boundary:
    """The largest position up to which every error stayed within tolerance."""

    dtype: str
    mode: str
    device: str
    tolerance: float
    swept: int
    first_failure: int | None
    error_at_failure: float | None
    method: str
    curve: dict[str, list[float]] = field(default_factory=dict)

    @property
    def holds_up_to(self) -> int | None:
        """Last good position; None when nothing failed in the range examined."""
        return None if self.first_failure is None else self.first_failure - 1


def sweep_errors(errors: ErrorFunction, count: int, pairs: int, start: int = 0, device: str = "cpu") -> torch.Tensor:
    """Errors at every position start … start + count − 1, chunked to bound memory."""
    chunk = max(1, CHUNK_ELEMENTS // max(pairs, 1))
    stop = start + count
    parts = [
        errors(torch.arange(first, min(first + chunk, stop), dtype=torch.float64, device=device))
        for first in range(start, stop, chunk)
    ]
    return torch.cat(parts).cpu()


def find_boundary(
    errors: ErrorFunction,
    dtype: str,
    mode: str,
    pairs: int,
    scale: float = 1.0,
    device: str = "cpu",
    swept: int = 2**14,
    reach: int = 2**40,
    window: int = 256,
    confirm: int = 2**12,
) -> Boundary:
    """The first position whose error exceeds tolerance(dtype).at(scale).

    Positions below ``swept`` are checked exhaustively. Past them, bisection on
    ``window``-position windows finds the first failing window (the windowed
    error grows with pos, as the angle's rounding error does), and a sweep of the
    ``confirm`` positions before it confirms that none of them fails.
    """
    allowed = tolerance(dtype).at(scale)
    found = sweep_errors(errors, swept, pairs, device=device)
    curve = _curve(found)
    failing = torch.nonzero(found > allowed)
    if len(failing):
        first = int(failing[0])
        method = f"exhaustive sweep of positions 0 … {swept - 1}"
        return Boundary(dtype, mode, device, allowed, swept, first, float(found[first]), method, curve)

    def window_fails(start: int) -> bool:
        return bool((sweep_errors(errors, window, pairs, start, device) > allowed).any())

    if not window_fails(reach):
        method = f"exhaustive sweep of 0 … {swept - 1}; no failing {window}-position window up to {reach}"
        return Boundary(dtype, mode, device, allowed, swept, None, None, method, curve)
    low, high = swept, reach
    while high - low > window:
        middle = (low + high) // 2
        low, high = (low, middle) if window_fails(middle) else (middle, high)
    start = max(swept, high - confirm)
    region = sweep_errors(errors, high + window - start, pairs, start, device)
    first = start + int(torch.nonzero(region > allowed)[0])
    method = (
        f"exhaustive sweep of 0 … {swept - 1}; bisection on {window}-position windows up to {reach}; "
        f"sweep of {start} … {high + window - 1} confirms the first failure"
    )
    return Boundary(dtype, mode, device, allowed, swept, first, float(region[first - start]), method, curve)


def _curve(found: torch.Tensor, points: int = 120) -> dict[str, list[float]]:
    """Largest error in log-spaced bins, for a figure."""
    edges = np.unique(np.geomspace(1, len(found), points).astype(int))
    starts = np.concatenate([[0], edges[:-1]])
    return {
        "x": [float(e) for e in edges],
        "y": [float(found[s:e].max()) for s, e in zip(starts, edges, strict=True)],
    }


def pe_value_errors(dtype: str, mode: str, d_model: int, device: str = "cpu") -> ErrorFunction:
    """Largest |PE_dtype − PE_float64| over the pairs, per position."""
    frequencies = frequencies_of(d_model, device)

    def errors(positions: torch.Tensor) -> torch.Tensor:
        sin, cos = pairs_in(dtype, mode, positions[:, None], frequencies)
        exact_sin, exact_cos = exact_pairs(positions[:, None], frequencies)
        return torch.maximum((sin - exact_sin).abs(), (cos - exact_cos).abs()).amax(dim=1)

    return errors


def shift_identity_errors(dtype: str, mode: str, d_model: int, k: int, device: str = "cpu") -> ErrorFunction:
    """Largest |M_k · PE(pos) − PE(pos + k)| with M_k and PE(pos) in the dtype, PE(pos + k) in float64."""
    frequencies = frequencies_of(d_model, device)
    low = getattr(torch, dtype)
    shift = torch.full((1, 1), float(k), dtype=torch.float64, device=device)
    shift_sin, shift_cos = (x.to(low) for x in pairs_in(dtype, mode, shift, frequencies))

    def errors(positions: torch.Tensor) -> torch.Tensor:
        sin, cos = (x.to(low) for x in pairs_in(dtype, mode, positions[:, None], frequencies))
        rotated_sin = (shift_cos * sin + shift_sin * cos).double()
        rotated_cos = (-shift_sin * sin + shift_cos * cos).double()
        exact_sin, exact_cos = exact_pairs(positions[:, None] + k, frequencies)
        return torch.maximum((rotated_sin - exact_sin).abs(), (rotated_cos - exact_cos).abs()).amax(dim=1)

    return errors


def dot_identity_errors(dtype: str, mode: str, d_model: int, k: int, device: str = "cpu") -> ErrorFunction:
    """|PE(pos) · PE(pos + k) − Σ cos(ω_i k)| with both vectors in the dtype (products summed exactly)."""
    frequencies = frequencies_of(d_model, device)
    exact = float(torch.cos(k * frequencies).sum())

    def errors(positions: torch.Tensor) -> torch.Tensor:
        sin, cos = pairs_in(dtype, mode, positions[:, None], frequencies)
        sin_k, cos_k = pairs_in(dtype, mode, positions[:, None] + k, frequencies)
        return ((sin * sin_k + cos * cos_k).sum(dim=1) - exact).abs()

    return errors


def rope_vectors(d_model: int, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """The fixed query and key (entries uniform in [−1, 1]) of the RoPE envelope."""
    generator = np.random.default_rng(seed)
    return tuple(torch.from_numpy(generator.uniform(-1, 1, d_model)) for _ in range(2))


def rope_score_errors(dtype: str, mode: str, d_model: int, distance: int, device: str = "cpu") -> ErrorFunction:
    """|(R(mθ)q)·(R(nθ)k) − qᵀR((n−m)θ)k| at m = pos, n = pos + distance; q, k rounded to the dtype.

    The rotation runs in the dtype; the final dot product is exact (as a float32-accumulating matmul nearly is).
    """
    frequencies = frequencies_of(d_model, device)
    low = getattr(torch, dtype)
    q, key = (x.to(device, low) for x in rope_vectors(d_model))
    q0, q1, k0, k1 = q[0::2], q[1::2], key[0::2], key[1::2]
    gap = torch.full((1, 1), float(distance), dtype=torch.float64, device=device)
    relative_sin, relative_cos = exact_pairs(gap, frequencies)
    q0d, q1d, k0d, k1d = (x.double() for x in (q0, q1, k0, k1))
    exact = float(
        (q0d * (relative_cos * k0d - relative_sin * k1d) + q1d * (relative_sin * k0d + relative_cos * k1d)).sum()
    )

    def rotate(a: torch.Tensor, b: torch.Tensor, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        sin, cos = (x.to(low) for x in pairs_in(dtype, mode, positions, frequencies))
        return (a * cos - b * sin).double(), (a * sin + b * cos).double()

    def errors(positions: torch.Tensor) -> torch.Tensor:
        qa, qb = rotate(q0, q1, positions[:, None])
        ka, kb = rotate(k0, k1, positions[:, None] + distance)
        return ((qa * ka + qb * kb).sum(dim=1) - exact).abs()

    return errors


DTYPE_MODES: dict[str, tuple[str, ...]] = {
    "float64": ("low", "reduced"),
    "float32": ("low", "reduced"),
    "bfloat16": ANGLE_MODES,
    "float16": ANGLE_MODES,
}
"""The angle modes that differ for each dtype (for float32, ``float32`` is ``low``)."""

ErrorFactory = Callable[[str, str, str], ErrorFunction]
"""(dtype, mode, device) → per-position error function."""


def record_envelopes(r: Recorder, what: str, factory: ErrorFactory, pairs: int, scale: float) -> list[Boundary]:
    """Find every dtype × angle mode × device boundary; record each as a condition, a table and a figure."""
    boundaries = []
    for device in available_devices():
        for dtype, modes in DTYPE_MODES.items():
            for mode in modes:
                boundary = find_boundary(factory(dtype, mode, device), dtype, mode, pairs, scale, device)
                boundaries.append(boundary)
                if boundary.first_failure is not None:
                    r.condition(
                        f"{what} stays within the {dtype} tolerance ({boundary.tolerance:.3g}) only up to position "
                        f"{boundary.holds_up_to} with {mode} angles on {device}: at {boundary.first_failure} the "
                        f"error is {boundary.error_at_failure:.3g} ({boundary.method})",
                        dtype=dtype,
                        mode=mode,
                        device=device,
                        holds_up_to=boundary.holds_up_to,
                        first_failure=boundary.first_failure,
                        error=boundary.error_at_failure,
                        tolerance=boundary.tolerance,
                        method=boundary.method,
                    )
    r.measure("boundaries", [_row(b) for b in boundaries])
    r.figure(
        "envelope",
        "lines",
        f"{what}: largest error up to each position",
        alt=f"Largest absolute error of {what} against float64 by position, one curve per dtype and angle mode, "
        "with each dtype's tolerance as a constant line; a curve crossing its tolerance marks the boundary.",
        x_label="position",
        y_label="largest error in the position bin",
        series={
            **{f"{b.dtype} {b.mode}": b.curve for b in boundaries if b.device == "cpu" and b.dtype != "float64"},
            **{
                f"tolerance {b.dtype}": {"x": [1.0, float(b.swept)], "y": [b.tolerance] * 2}
                for b in boundaries
                if b.device == "cpu" and b.mode == "low" and b.dtype != "float64"
            },
        },
        marks={
            f"{b.dtype} {b.mode}": float(b.first_failure)
            for b in boundaries
            if b.first_failure is not None and b.first_failure < b.swept
        },
        log_x=True,
        log_y=True,
    )
    return boundaries


def _row(boundary: Boundary) -> dict[str, object]:
    return {
        "device": boundary.device,
        "dtype": boundary.dtype,
        "mode": boundary.mode,
        "holds_up_to": boundary.holds_up_to,
        "first_failure": boundary.first_failure,
        "error_at_failure": boundary.error_at_failure,
        "tolerance": boundary.tolerance,
        "method": boundary.method,
    }


def pe_value_envelopes(r: Recorder, d_model: int) -> list[Boundary]:
    """``record_envelopes`` of PE(pos) against float64 (the tolerance at scale 1: the entries' range)."""
    return record_envelopes(
        r, "PE(pos)", lambda dtype, mode, device: pe_value_errors(dtype, mode, d_model, device), d_model // 2, 1.0
    )


def shift_identity_envelopes(r: Recorder, d_model: int, k: int) -> list[Boundary]:
    """``record_envelopes`` of M_k · PE(pos) against the float64 PE(pos + k) (scale 1)."""

    def factory(dtype: str, mode: str, device: str) -> ErrorFunction:
        return shift_identity_errors(dtype, mode, d_model, k, device)

    return record_envelopes(r, f"M_{k} · PE(pos)", factory, d_model // 2, 1.0)


def dot_identity_envelopes(r: Recorder, d_model: int, k: int) -> list[Boundary]:
    """``record_envelopes`` of PE(pos) · PE(pos + k) against Σ cos(ω_i k) (scale d_model/2, the dot product's size)."""

    def factory(dtype: str, mode: str, device: str) -> ErrorFunction:
        return dot_identity_errors(dtype, mode, d_model, k, device)

    return record_envelopes(r, f"PE(pos) · PE(pos + {k})", factory, d_model // 2, d_model / 2)


def rope_score_envelopes(r: Recorder, d_model: int, distance: int) -> list[Boundary]:
    """``record_envelopes`` of the RoPE score at n − m = ``distance`` against qᵀR((n−m)θ)k (scale ‖q‖‖k‖ of the
    fixed ``rope_vectors``)."""
    q, key = rope_vectors(d_model)

    def factory(dtype: str, mode: str, device: str) -> ErrorFunction:
        return rope_score_errors(dtype, mode, d_model, distance, device)

    return record_envelopes(
        r, "the RoPE score", factory, d_model // 2, float(torch.linalg.norm(q) * torch.linalg.norm(key))
    )


# --- integer positions: from where two words merge ------------------------------------------------


def cosine_gaps(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """1 − cos between matching rows of x and y in float64, as ‖x̂ − ŷ‖²/2 (no cancellation near cos = 1)."""
    x = x / np.linalg.norm(x, axis=-1, keepdims=True)
    y = y / np.linalg.norm(y, axis=-1, keepdims=True)
    return np.sum((x - y) ** 2, axis=-1) / 2


def index_gaps(a: np.ndarray, b: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """1 − cos(a + p·1, b + p·1) in float64 for every integer position p in ``positions``."""
    return cosine_gaps(a[None, :] + positions[:, None], b[None, :] + positions[:, None])


def first_from(mask: np.ndarray, positions: np.ndarray) -> int | None:
    """The first position from which ``mask`` holds at every later position searched."""
    failing = np.flatnonzero(~mask)
    start = 0 if failing.size == 0 else failing[-1] + 1
    return int(positions[start]) if start < positions.size else None


def merge_thresholds(a: np.ndarray, b: np.ndarray, search: int, identical_search: int) -> dict[str, object]:
    """For the words a and b under the integer index (positions 1 … ``search``): where cos(a + p·1, b + p·1) passes
    0.99; where the exact cos rounds to 1.0 in each dtype (beyond the search: p ≈ √(variance / 2 · half spacing));
    where the rounded vectors coincide (``identical_when_rounded``); and 1 − cos at p = 10000."""
    positions = np.arange(1, search + 1, dtype=np.float64)
    gap, variance = index_gaps(a, b, positions), float(np.var(a - b))
    found = {"variance of a − b": variance, "cos ≥ 0.99 from p": first_from(gap <= 0.01, positions)}
    for dtype in FLOATS:
        half_spacing = torch.finfo(getattr(torch, dtype)).eps / 4
        key = f"{dtype}: exact cos rounds to 1.0 from p"
        found[key] = first_from(gap <= half_spacing, positions)
        if found[key] is None:
            found[key] = f"≈ {math.sqrt(variance / (2 * half_spacing)):.3g} (asymptotic, beyond {search})"
    found |= identical_when_rounded(a, b, identical_search)
    found["1 − cos at p = 10000"] = float(index_gaps(a, b, np.array([10_000.0]))[0])
    return found


def identical_when_rounded(a: np.ndarray, b: np.ndarray, search: int) -> dict[str, object]:
    """In bfloat16 and float16, over p = 0 … ``search`` − 1: the first p where a + p·1 and b + p·1 round to the same
    vector, and the share of later p where they do."""
    found, grid = {}, np.arange(0.0, float(search))
    for dtype in ("bfloat16", "float16"):
        same = np.all(rounded(a[None, :] + grid[:, None], dtype) == rounded(b[None, :] + grid[:, None], dtype), 1)
        hits = np.flatnonzero(same)
        first = int(hits[0]) if hits.size else None
        found[f"{dtype}: rounded a + p·1 and b + p·1 identical, first at p"] = first
        if first is not None:
            found[f"{dtype}: share of p in [{first}, {search}) where identical"] = float(np.mean(same[first:]))
    return found


def normalized_collisions(dtypes: tuple[str, ...], longest: int = 20_000) -> dict[str, str]:
    """Per dtype: the first sentence lengths n, n + 1 (n < ``longest``) whose normalized index-1 values 1/(n − 1) and
    1/n round to the same number."""
    lengths, collide = np.arange(2, longest, dtype=np.float64), {}
    for dtype in dtypes:
        second = rounded(1 / (lengths - 1), dtype)
        same = np.flatnonzero(second[:-1] == second[1:])
        collide[dtype] = (
            f"n = {int(lengths[same[0]])} and {int(lengths[same[0]]) + 1}" if same.size else f"none below {longest}"
        )
    return collide
