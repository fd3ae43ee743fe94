"""Tolerances come from torch.testing's table and scale with the arguments."""

import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.testing._comparison import _DTYPE_PRECISIONS

from checks.helpers.encodings import clockwise_turn
from checks.implementations.registry import by_name
from checks.numerics.reference_implementations import frequency_values
from checks.numerics.tolerances import (
    FLOATS,
    MEANINGFUL_FRACTION,
    TOLERANCES,
    UNIT_ROUNDOFF,
    angle_scale,
    position_limit,
    tolerance,
)


@pytest.mark.parametrize("dtype", FLOATS)
def test_table_matches_torch_assert_close(dtype):
    rtol, atol = _DTYPE_PRECISIONS[getattr(torch, dtype)]
    assert (TOLERANCES[dtype].rtol, TOLERANCES[dtype].atol) == (rtol, atol)


def test_tolerance_scales_with_the_size_of_the_arguments():
    t = tolerance("float32")
    assert t.at(0) == t.atol
    assert t.at(1000) == pytest.approx(t.atol + 1000 * t.rtol)
    assert t.at(-1000) == t.at(1000)


@pytest.mark.parametrize("dtype", FLOATS)
def test_position_limit_keeps_the_scaled_tolerance_meaningful(dtype):
    limit = position_limit(dtype)
    assert tolerance(dtype).rtol * limit <= MEANINGFUL_FRACTION < tolerance(dtype).rtol * 2 * limit


def test_low_precision_limits_are_smaller():
    assert (
        position_limit("bfloat16") < position_limit("float16") < position_limit("float32") < position_limit("float64")
    )


def test_unknown_dtype_is_a_clear_error():
    with pytest.raises(ValueError, match="int8"):
        tolerance("int8")


@pytest.mark.parametrize("dtype", FLOATS)
def test_unit_roundoff_is_half_of_torch_epsilon(dtype):
    assert UNIT_ROUNDOFF[dtype] == torch.finfo(getattr(torch, dtype)).eps / 2


@settings(max_examples=300, deadline=None)
@given(
    position=st.floats(-300.0, 300.0, allow_nan=False),
    frequency=st.floats(1e-4, 1.0),
    dtype=st.sampled_from(["float16", "bfloat16", "float32"]),
)
def test_angle_scale_covers_an_angle_formed_in_the_dtype(position, frequency, dtype):
    low = getattr(torch, dtype)
    angle = torch.tensor([position], dtype=low) * torch.tensor([frequency], dtype=low)
    error = abs(float(torch.sin(angle).double()) - math.sin(position * frequency))
    assert error <= tolerance(dtype).at(angle_scale(position * frequency))


def _sin_only_not_linear(w: float, k: int) -> tuple[float, float, tuple[float, ...]]:
    """sin(ω(π/ω + k)) − sin(ωk) at pos 0 in float16, its exact value, and the angles."""
    angles = torch.tensor([k, math.pi / w + k], dtype=torch.float16) * torch.tensor(w, dtype=torch.float16)
    got = float(torch.sin(angles[1]).double() - torch.sin(angles[0]).double())
    return got, -2 * math.sin(w * k), (w * k, w * (math.pi / w + k))


def _sin_ambiguous(pos: int, w: float) -> tuple[float, float, tuple[float, ...]]:
    """cos(ω p′) at the partner p′ = π/ω − pos in float16, its exact value, and the angle."""
    partner = math.pi / w - pos
    angle = torch.tensor([partner], dtype=torch.float16) * torch.tensor([w], dtype=torch.float16)
    return float(torch.cos(angle).double()), -math.cos(w * pos), (w * partner,)


@pytest.mark.parametrize(
    ("case", "one_width_scale"),
    [
        (_sin_only_not_linear(0.7160989713048969, -66), 0.7160989713048969 * (math.pi / 0.7160989713048969 + 66)),
        (_sin_ambiguous(30, 0.03273041806020417), math.pi - 30 * 0.03273041806020417),
    ],
    ids=["pe.sin-only-not-linear", "pe.sin-ambiguous"],
)
def test_angle_scale_covers_what_one_angle_width_missed(case, one_width_scale):
    """float16 inputs the thorough profile found when those checks' scale counted each angle once."""
    got, exact, angles = case
    error = abs(got - exact)
    assert error > tolerance("float16").at(one_width_scale)
    assert error <= tolerance("float16").at(angle_scale(*angles))


def test_a_turn_between_two_hands_carries_both_angles_rounding():
    """Found by a thorough run of pe.shift-angle-pos-free: in float16 the turn from PE(39) to PE(39 − 78) errs by
    0.0454, over rtol · max(|pos|, |pos + k|) = 0.045 (the check's old scale) and within rtol · angle_scale(pos,
    pos + k), which counts each hand's angle."""
    impl, start, k, d = by_name("reference-torch"), np.array([39]), np.array([-78]), 128
    cosine, _ = clockwise_turn(
        impl.sinusoidal(start, d, "float16", "cpu"), impl.sinusoidal(start + k, d, "float16", "cpu")
    )
    error = float(np.max(np.abs(np.asarray(cosine, dtype=np.float64) - np.cos(k[:, None] * frequency_values(d)))))
    assert error > tolerance("float16").at(45.0)
    assert error <= tolerance("float16").at(angle_scale(start, start + k)[0])
