"""Variants named for what they are (issue 46): frequencies as measured, precision only when measured, every
difference said, extra roundings, findings from fingerprints and declared variants, each with an adapter of this
project's own making (tests/variant_adapters.py)."""

from __future__ import annotations

import numpy as np
import pytest

from checks.implementations.builtin import ReferenceAdapter
from checks.implementations.contract import check_implementation
from checks.implementations.frequencies import DOCUMENTS, NONE, PIECES, formula, measure
from checks.numerics.pairing import LAYOUTS, to_document_layout
from checks.results import DtypeFingerprint, ImplementationRecord
from tests.faulty_adapters import Bfloat16AnglesRope, RoundOnceRope
from tests.variant_adapters import (
    AttentionFactorRope,
    BaseAndOddPadRope,
    CosFirstSinusoidal,
    DynamicNtkRope,
    ExtraRoundingRope,
    FalselyDeclaredRope,
    Float32TableSinusoidal,
    Llama3Rope,
    llama3_frequencies,
)


@pytest.fixture(scope="module")
def records() -> dict[str, ImplementationRecord]:
    adapters = [
        Llama3Rope(),
        DynamicNtkRope(),
        BaseAndOddPadRope(),
        AttentionFactorRope(),
        FalselyDeclaredRope(),
        ExtraRoundingRope(),
        Float32TableSinusoidal(),
        CosFirstSinusoidal(),
        Bfloat16AnglesRope(),
        RoundOnceRope(),
        ReferenceAdapter("torch"),
    ]
    return {adapter.name: check_implementation(adapter) for adapter in adapters}


def _in(record: ImplementationRecord, capability: str, dtype: str) -> DtypeFingerprint:
    return next(p for p in record.precision if (p.capability, p.dtype) == (capability, dtype))


def _notes(record: ImplementationRecord, start: str) -> list[str]:
    return [note for note in record.variants if note.startswith(start)]


# 1. Frequencies as measured


def test_piecewise_frequencies_are_named_as_pieces_with_their_residual(records):
    """Was: "θ ≈ 71690, positions scaled by 1.32", with no word on how poorly that fits."""
    found = records["llama3-scaled-rope"].fingerprints["rope"]
    assert found["frequency_kind"] == PIECES
    assert found["frequency_model"].startswith("pairs 0–3 as the formula's, pairs 9–31 divided by 8, a ramp between")
    assert "linear in the frequency" in found["frequency_model"]
    assert float(found["frequency_residual"]) < 1e-6  # float32's rounding of ω, no more
    assert "one base would leave 0.89" in found["frequency_model"]
    assert found["frequency_ratios"][0] == 1.0 and found["frequency_ratios"][-1] == pytest.approx(0.125, rel=1e-6)


@pytest.mark.parametrize(
    ("frequencies", "kind", "words"),
    [
        (formula(32, 64), DOCUMENTS, "the formula's"),
        (0.25 * formula(32, 64), "position scale", "positions scaled by 0.25"),
        (formula(32, 64, 500000.0), "base", "base θ ≈ 500000"),
        (1.3 * formula(32, 64, 500000.0), "base and position scale", "positions scaled by 1.3"),
        (llama3_frequencies(32, 64).double().numpy(), PIECES, "divided by 8"),
    ],
)
def test_the_simplest_model_that_fits_is_chosen(frequencies, kind, words):
    found = measure(frequencies, 64)
    assert found.model.kind == kind and words in found.describe()


def test_frequencies_no_model_fits_are_said_so_with_the_best_base_and_its_residual():
    scattered = formula(32, 64) * np.exp(np.random.default_rng(0).normal(0.0, 0.1, 32))
    found = measure(scattered, 64)
    assert found.model.kind == NONE
    assert found.describe().startswith("no single base fits (the best, θ ≈ ")
    assert found.model.residual > 0.1


def test_frequencies_rounded_to_half_precision_are_still_the_formula_s():
    """Rounding ω to bfloat16 moves it by up to 2⁻⁸: the tolerance is that precision's, measured from the values."""
    import torch

    found = measure(torch.tensor(formula(32, 64)).bfloat16().double().numpy(), 64)
    assert found.stored_in == "bfloat16" and found.model.kind == DOCUMENTS


# 2. Precision only when measured


def test_precision_is_measured_against_the_implementation_s_own_frequencies(records):
    """Was: the fit's residual blamed on precision ("formed in bfloat16") for angles formed in float32."""
    record = records["llama3-scaled-rope"]
    assert record.fingerprints["rope"]["angle_precision"] == "float32"
    assert {p.dtype: p.formed_in for p in record.precision if p.dtype != "bfloat16"} == {
        "float16": "float32",
        "float32": "float32",
        "float64": "float32",
    }
    assert not [f for f in record.contract if f.check == "values"]


def test_frequencies_that_depend_on_the_call_are_compared_within_the_same_call(records):
    record = records["dynamic-ntk-rope"]
    found = record.fingerprints["rope"]
    assert found["call_dependent"] and found["angle_precision"] == "float64"
    (note,) = _notes(record, "rope: its frequencies depend on the call")
    assert "in a call that reaches position 1048576 they are base θ ≈ 1.279" in note
    assert _in(record, "rope", "float64").formed_in == "float64"
    assert not [f for f in record.contract if f.check == "values"]  # no precision blamed for another base


# 3 is tests/test_size_rules.py's. 4. Every difference said


def test_a_different_base_does_not_hide_a_zero_pad_at_odd_sizes(records):
    record = records["base-and-odd-pad-rope"]
    assert "rope: frequencies: base θ ≈ 500000 (residual" in record.variants[0]
    (odd,) = _notes(record, "rope: at an odd d_model (d = 65): zero pad")
    assert "the frequencies follow d + 1" in odd


def test_the_references_leave_the_last_dimension_alone_at_odd_sizes(records):
    found = records["reference-torch"].fingerprints
    assert found["rope"]["odd_sizes"] == "last alone" and found["rope"]["odd_width"] == 0
    assert found["sinusoidal"]["odd_sizes"] == "last alone"
    assert not records["reference-torch"].variants


# 5. Extra roundings


def test_an_extra_rounding_in_half_precision_is_told_apart_from_the_reference_s_own(records):
    record, reference = records["extra-rounding-rope"], records["reference-torch"]
    mine, theirs = _in(record, "rope", "float16"), _in(reference, "rope", "float16")
    assert mine.rounding_steps > 2 * theirs.rounding_steps
    (note,) = _notes(record, "rope in float16:")
    assert "it rounds more often than the reference" in note
    assert not _notes(record, "rope in float32:") and not _notes(record, "rope in bfloat16:")  # the same arithmetic


def test_rounding_once_counts_one_rounding():
    """The unit is measured, not assumed: the whole rotation in float64 rounded once reads about one."""
    record = check_implementation(RoundOnceRope())
    steps = {p.dtype: p.rounding_steps for p in record.precision}
    assert all(0.8 < steps[dtype] < 1.25 for dtype in ("bfloat16", "float16", "float32"))


# 6. Findings from fingerprints


def test_float64_asked_and_float32_computed_is_a_stated_finding(records):
    """Was: only in the per-dtype record."""
    record = records["float32-table-sinusoidal"]
    assert _in(record, "sinusoidal", "float64").formed_in == "float32"
    (note,) = _notes(record, "sinusoidal in float64 departs from what float64 promises")
    assert "its angles are formed in float32, not in float64" in note


def test_the_reference_keeps_every_promise_of_its_dtypes(records):
    assert not [note for note in records["reference-torch"].variants if "promises" in note]


# 8. Declared variants


def test_a_true_declaration_is_compared_as_declared(records):
    record = records["declared-scale-rope"]
    assert "rope: frequencies as declared: the formula's times 0.25 (positions scaled by 0.25)" in record.variants[0]
    assert "rope: rotated vectors scaled by 1.1386, not 1 (declared)" in record.variants
    assert not record.contract


def test_a_false_declaration_is_a_finding(records):
    (finding,) = [f for f in records["falsely-declared-rope"].contract if f.check == "declared"]
    assert finding.text.startswith("declares base 500000 and position scale 1, but its frequencies are the formula's")


def test_a_cos_first_table_with_a_zero_pad_is_declared_and_measured(records):
    record = records["cos-first-sinusoidal"]
    found = record.fingerprints["sinusoidal"]
    assert found["layout"] == "concatenated, cos first" and found["odd_sizes"] == "zero pad"
    assert not record.contract
    texts = " ".join(record.variants)
    assert "sinusoidal: at an odd d_model (d = 65) (declared): zero pad: a zero last column" in texts


def test_a_false_odd_size_declaration_is_a_finding():
    class SaysLastAlone(CosFirstSinusoidal):
        name, odd = "says-last-alone", "last alone"

    (finding,) = check_implementation(SaysLastAlone()).contract
    assert finding.text.startswith("declares odd sizes 'last alone', but at d_model = 65: zero pad")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("d_model", [6, 7])
def test_every_layout_is_a_permutation_that_keeps_the_lone_sine_last(layout, d_model):
    order = to_document_layout(d_model, layout)
    assert sorted(order) == list(range(d_model))
    if d_model % 2:
        assert order[-1] == (d_model - 1 if layout != "concatenated" else (d_model + 1) // 2 - 1)


def test_a_declared_number_that_is_no_number_is_a_finding():
    class Malformed(AttentionFactorRope):
        name, base = "malformed-base", "10000"

    texts = [f.text for f in check_implementation(Malformed()).contract]
    assert "declares base = '10000': not a positive number" in texts
