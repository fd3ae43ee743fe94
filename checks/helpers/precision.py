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
import torch

from checks.numerics.devices import available_devices
from checks.numerics.reference import frequency_values
from checks.numerics.tolerances import tolerance

if TYPE_CHECKING:
    from checks.evidence.probe import Recorder

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
