"""Tolerances come from torch.testing's table and scale with the arguments."""

import pytest
import torch
from torch.testing._comparison import _DTYPE_PRECISIONS

from checks.tolerances import FLOATS, MEANINGFUL_FRACTION, TOLERANCES, UNIT_ROUNDOFF, position_limit, tolerance


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
