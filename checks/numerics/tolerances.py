"""Per-dtype tolerances, taken from torch.testing.assert_close and scaled by magnitude."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

FLOAT64, FLOAT32, BFLOAT16, FLOAT16 = "float64", "float32", "bfloat16", "float16"
"""The floating-point dtypes a check runs in, by name."""
FLOATS: tuple[str, ...] = (FLOAT64, FLOAT32, BFLOAT16, FLOAT16)
"""Every dtype a check runs in by default, the finest first."""
COARSEST_FIRST: tuple[str, ...] = (BFLOAT16, FLOAT16, FLOAT32, FLOAT64)
"""The float dtypes by the bits of their significand, fewest first."""
LOW_PRECISION: tuple[str, ...] = (BFLOAT16, FLOAT16)
"""The half precisions (sums in them are accumulated in float32 by torch and NumPy)."""


@dataclass(frozen=True)
class Tolerance:
    """|actual − expected| ≤ atol + rtol · scale, where scale is the size of the arguments."""

    rtol: float
    atol: float

    def at(self, scale: float) -> float:
        return self.atol + self.rtol * abs(scale)


TOLERANCES: dict[str, Tolerance] = {
    FLOAT64: Tolerance(rtol=1e-7, atol=1e-7),
    FLOAT32: Tolerance(rtol=1.3e-6, atol=1e-5),
    BFLOAT16: Tolerance(rtol=1.6e-2, atol=1e-5),
    FLOAT16: Tolerance(rtol=1e-3, atol=1e-5),
}
"""Copied from torch.testing's table (tests/test_tolerances.py keeps them equal)."""

UNIT_ROUNDOFF: dict[str, float] = {FLOAT64: 2.0**-53, FLOAT32: 2.0**-24, BFLOAT16: 2.0**-8, FLOAT16: 2.0**-11}
"""u = half the machine epsilon: one rounding moves a value by at most u times its size."""

MEANINGFUL_FRACTION = 0.25
"""A bounded quantity checked with a tolerance above this share of its range says nothing."""


def tolerance(dtype: str) -> Tolerance:
    """The tolerance of ``dtype`` (torch.testing's rtol and atol for it)."""
    try:
        return TOLERANCES[dtype]
    except KeyError:
        raise ValueError(f"no tolerance for dtype {dtype!r}; known: {sorted(TOLERANCES)}") from None


def angle_scale(*angles: float | np.ndarray) -> float | np.ndarray:
    """The scale for sin and cos of angles p · ω formed in the dtype from float64 p and ω.

    Each angle is rounded three times, each time by at most u · |angle| to first order: p cast to
    the dtype (exact for integer positions below the dtype's limit, not for one like π/ω − pos),
    ω cast, and their product; sin and cos add their own rounding (u · 1) and pass the angle's error
    on unchanged at most. A compared value that combines several angles (a difference of two sines)
    carries all their errors. rtol ≥ 2u in every dtype, so rtol · this scale covers the bound. Arrays of angles
    (a batch) give one scale per row.
    """
    return 3 * sum(abs(angle) for angle in angles) + 1


def position_limit(dtype: str) -> int:
    """Largest power of two p with rtol(dtype) · p ≤ 1/4.

    An angle pos·ω with ω ≤ 1 scales the tolerance of a sin/cos in [−1, 1];
    beyond this position the scaled tolerance would exceed a quarter of the range.
    """
    return 2 ** math.floor(math.log2(MEANINGFUL_FRACTION / tolerance(dtype).rtol))
