"""Faulty adapters against the two claims whose probes hold every adapter's results side by side
(rope.pairing-permutation, rope.low-precision-paths): tests/test_faulty_adapters.py's cases, in a module of their own
so that the slow tier's two workers share the work."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from checks.evidence.check import CheckRun
from checks.evidence.probe import ProbeRecord
from checks.implementations.third_party import THIRD_PARTY_ENV
from checks.settings.profiles import register_profiles
from tests.test_faulty_adapters import (
    BROKEN_CALLS,
    Runs,
    faulty_runs,
    test_every_reference_verdict_and_finding_is_unchanged,  # noqa: F401 (run here on these claims too)
)

pytestmark = pytest.mark.slow
CLAIMS = ("rope.pairing-permutation", "rope.low-precision-paths")


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    register_profiles("ci")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(THIRD_PARTY_ENV, "0")
        yield faulty_runs(CLAIMS)
    register_profiles()


def test_a_partial_rotation_is_a_variant_not_a_failure(runs):
    _, after, checked = runs
    assert not checked["faulty-partial"].contract
    assert any("partial rotation: the first 32 of 64" in v for v in checked["faulty-partial"].variants)
    partial = [r for c in after.values() for r in c.of(CheckRun) if r.implementation == "faulty-partial" and r.ran]
    assert partial and all(r.status == "passed" for r in partial), [r.message for r in partial if r.status != "passed"]
    pairing = after["rope.pairing-permutation"]
    assert not [f for f in pairing.findings if f.data.get("implementation") == "faulty-partial"]


@pytest.mark.parametrize("claim_id", ["rope.pairing-permutation", "rope.low-precision-paths"])
def test_a_probe_keeps_every_adapter_apart(runs, claim_id):
    _, after, _ = runs
    found = after[claim_id].findings
    for name in BROKEN_CALLS:
        mine = [f for f in found if f.kind == "implementation" and f.data.get("implementation") == name]
        assert mine and all(f.text.startswith(f"{name}.rope(") for f in mine)
    if claim_id == "rope.low-precision-paths":
        (probe,) = after[claim_id].of(ProbeRecord)
        measured = {row["implementation"] for row in probe.measurements["boundaries"]}
        assert {"faulty-partial", "faulty-small-head", "reference, float32 angles"} <= measured
