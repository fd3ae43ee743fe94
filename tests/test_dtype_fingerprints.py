"""Fingerprints per dtype (checks.implementations.dtype_fingerprint), each miss of issue 30 with an adapter of this
project's own that carries the behaviour (tests/faulty_adapters.py), not a library's code."""

from __future__ import annotations

import numpy as np
import pytest

from checks.implementations.builtin import ReferenceAdapter
from checks.implementations.contract import check_implementation
from checks.implementations.dtype_fingerprint import formed_in, sample_positions
from checks.numerics.domain import Domain
from checks.results import DtypeFingerprint, ImplementationRecord
from tests.faulty_adapters import (
    Bfloat16AnglesRope,
    InDtypeTableSinusoidal,
    RoundedCosSinRope,
    RoundOnceRope,
)


@pytest.fixture(scope="module")
def records() -> dict[str, ImplementationRecord]:
    adapters = [InDtypeTableSinusoidal(), Bfloat16AnglesRope(), RoundedCosSinRope(), RoundOnceRope()]
    adapters.append(ReferenceAdapter("torch"))
    return {adapter.name: check_implementation(adapter) for adapter in adapters}


def _in(record: ImplementationRecord, capability: str, dtype: str) -> DtypeFingerprint:
    return next(p for p in record.precision if (p.capability, p.dtype) == (capability, dtype))


def test_a_table_formed_in_the_compute_dtype_shows_its_rounded_positions_and_its_overflow(records):
    """Was missed: fingerprints were measured in float64 only, and the contract checked type and finiteness at
    positions 0 … 299, not values."""
    record = records["faulty-in-dtype-table"]
    bf16, fp16, fp64 = (_in(record, "sinusoidal", dtype) for dtype in ("bfloat16", "float16", "float64"))
    assert bf16.duplicate_rows == [256, 257] and bf16.formed_in == "bfloat16"
    assert bf16.first_past_tolerance is not None and bf16.first_past_tolerance < 64
    assert fp16.first_non_finite == 65520 and fp16.duplicate_rows == [2048, 2049]
    assert fp64.duplicate_rows == [] and fp64.first_non_finite is None and fp64.formed_in == "float64"
    assert bf16.envelope[-1][1] > 0.1 > bf16.envelope[0][1]


def test_the_reference_forms_its_angles_in_the_dtype_too_so_that_table_is_no_variant(records):
    record, reference = records["faulty-in-dtype-table"], records["reference-torch"]
    assert _in(reference, "sinusoidal", "bfloat16").duplicate_rows == [256, 257]
    assert not [note for note in record.variants if "bfloat16" in note]


def test_angles_formed_in_bfloat16_are_a_variant_in_float16_too(records):
    """Was missed in float16: the mutant was caught in float64 and float32 only."""
    record = records["faulty-bfloat16-angles"]
    assert _in(record, "rope", "float16").formed_in == "bfloat16"
    (note,) = [note for note in record.variants if note.startswith("rope in float16 departs from")]
    assert "its angles are formed in bfloat16, not in float16" in note
    assert "positions 256 and 257 get identical rows, though float16 holds every integer to 2048" in note


def test_an_error_past_the_claims_tolerance_below_the_position_limit_is_a_values_finding(records):
    findings = [f for f in records["faulty-bfloat16-angles"].contract if f.check == "values"]
    assert {f.dtype for f in findings} == {"float32", "float64"}
    assert all("beyond the" in f.text and "the claims allow there" in f.text for f in findings)
    assert not [f for f in records["reference-torch"].contract]


def test_rounding_cos_and_sin_first_shows_as_more_roundings_than_rounding_once(records):
    """Was shown only indirectly: a RoPE that rounds cos and sin before multiplying."""
    twice = _in(records["faulty-rounded-cos-sin"], "rope", "bfloat16")
    once = _in(records["round-once-rope"], "rope", "bfloat16")
    assert once.rounding <= 1.0 < 1.5 * once.rounding < twice.rounding
    assert 0.9 < once.rounding_steps < 1.1 < 1.5 < twice.rounding_steps  # one rounding's mean square, measured


def test_the_formation_dtype_is_read_off_the_growth_of_the_error():
    positions = np.array([16, 100, 1000, 2**20])
    growth = {"bfloat16": 2.0**-8, "float16": 2.0**-11, "float32": 2.0**-24, "float64": 2.0**-53}
    for dtype, unit in growth.items():
        assert formed_in(positions, unit * positions, "float64") == dtype
    assert formed_in(positions, 2.0**-24 * positions, "bfloat16") == "float32"
    assert formed_in(np.array([16, 20]), np.zeros(2), "bfloat16") == "bfloat16 or finer"  # nothing to tell


def test_the_positions_sampled_stay_inside_the_domain():
    taken = sample_positions(Domain(min_position=3, max_position=4095))
    assert taken[0] == 3 and taken[-1] == 4095 and 256 in taken and 257 in taken
