"""Tolerances come from torch.testing's table and scale with the arguments."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.testing._comparison import _DTYPE_PRECISIONS

from checks.tolerances import (
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


def test_angle_scale_covers_what_one_angle_width_missed():
    """pe.sin-only-not-linear under the thorough profile: float16, pos 0, k = −66, ω ≈ 0.716."""
    w, k = 0.7160989713048969, -66
    mirror = math.pi / w
    angles = torch.tensor([k, mirror + k], dtype=torch.float16) * torch.tensor(w, dtype=torch.float16)
    got = float(torch.sin(angles[1]).double() - torch.sin(angles[0]).double())
    error = abs(got - (-2 * math.sin(w * k)))
    assert error > tolerance("float16").at(w * (abs(mirror) + abs(k)))  # the scale the check had
    assert error <= tolerance("float16").at(angle_scale(w * k, w * (mirror + k)))
