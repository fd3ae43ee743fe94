"""Faulty adapters (tests/faulty_adapters.py), all registered at once: each is reported as itself, in its own
cells and findings, and every claim's verdict, decided by the references alone, stays what it was.

Issue 15's cases: an adapter that raises, returns the wrong shape, NaN, None, a list, NumPy for torch, the
wrong dtype, writes into its input, keeps a cache stale across dtypes, crashes at one small d_model only,
or rotates only part of each head.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from checks.engine.discovery import find_claim
from checks.engine.outcomes import Outcomes
from checks.engine.reuse import Earlier
from checks.evidence.check import CheckRun
from checks.implementations.contract import check_implementation
from checks.implementations.registry import register, unregister
from checks.implementations.third_party import THIRD_PARTY_ENV
from checks.results import ClaimRecord, ImplementationRecord
from checks.settings.profiles import register_profiles
from tests.faulty_adapters import FAULTY
from tests.variant_adapters import BaseAndOddPadRope, CosFirstSinusoidal, DynamicNtkRope, Llama3Rope

ROOT = Path(__file__).resolve().parent.parent
GATE_RESULTS = ROOT / "reports" / "html" / "results.json"
pytestmark = pytest.mark.slow  # five claims, 24 adapters, beside the gate's records (two more: test_faulty_probes)
CLAIMS = (
    "rope.relative-score",
    "rope.norm-preserving",
    "pe.formula",
    "pe.shift-is-rotation",
    "attention.parallel-equals-sequential",
)
CONTRACT = {
    "faulty-raises": ("call", "raised RuntimeError: The size of tensor a (32)"),
    "faulty-wrong-shape": ("call", "returned shape (300, 32), not (300, 64)"),
    "faulty-nan": ("call", "non-finite value(s)"),
    "faulty-none": ("call", "returned NoneType, not torch.Tensor"),
    "faulty-list": ("call", "returned list, not torch.Tensor"),
    "faulty-numpy": ("call", "returned numpy.ndarray, not torch.Tensor"),
    "faulty-mutates": ("call", "changed its input x"),
    "faulty-small-head": ("call", "Tensor 300×2 on cpu, positions: 300 positions 0 … 299) raised ZeroDivisionError"),
    "faulty-wrong-dtype": ("call", "returned float64 for float16"),
    "faulty-stale-cache": ("repeatable", "output depends on earlier calls"),
    "faulty-scaled-by-width": ("values", "d_model 8, d_k 4, d_v 6: differs from the float64 reference by "),
    "faulty-naive-softmax": ("values", "scores up to about 25 (exp overflows float16 without the row maximum"),
    "faulty-shared-rows": ("repeated", "rows that share a position get another answer than that position alone: row 1"),
    "faulty-stale-dtype": ("call", "for float16: the dtype of an earlier call (d_model = "),
}
VARIANTS = (Llama3Rope, DynamicNtkRope, BaseAndOddPadRope, CosFirstSinusoidal)
"""Variants of issue 46 whose cells fail in ways of their own (pieces, a call-dependent base, a pad at odd sizes, a
cos-first table with a zero column): they must not move a reference either."""
BROKEN_CALLS = ("faulty-raises", "faulty-wrong-shape", "faulty-nan", "faulty-none", "faulty-list", "faulty-numpy")


Runs = tuple[dict[str, ClaimRecord], dict[str, ClaimRecord], dict[str, ImplementationRecord]]


def _verdicts(outcomes: Outcomes, claims: tuple[str, ...]) -> dict[str, ClaimRecord]:
    return {claim_id: outcomes.record(find_claim(claim_id)) for claim_id in claims}


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    """(without the faulty adapters, with them, their contract records), beside the project's own adapters only:
    the third-party libraries a test environment happens to have (transformers) would only add time."""
    register_profiles("ci")  # the draws these tests count on, whatever profile an earlier test module loaded
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(THIRD_PARTY_ENV, "0")
        yield faulty_runs(CLAIMS)
    register_profiles()


def faulty_runs(claims: tuple[str, ...]) -> Runs:
    """``claims`` without the faulty adapters and with them, and the adapters' contract records (the two probes'
    claims run in tests/test_faulty_probes.py: the module's fixture is built on one worker, so two modules use
    both)."""
    # without the faulty adapters: the gate's own records where their keys say the inputs are the same (CI runs
    # this tier after the gate, in its checkout), else evaluated here
    before = _verdicts(Outcomes(earlier=Earlier(GATE_RESULTS)), claims)
    adapters = [kind() for kind in (*FAULTY, *VARIANTS)]
    for adapter in adapters:
        register(adapter)
    try:
        checked = {adapter.name: check_implementation(adapter) for adapter in adapters}
        after = _verdicts(Outcomes(), claims)
    finally:
        for adapter in adapters:
            unregister(adapter)
    return before, after, checked


def _own(record: ClaimRecord) -> list[tuple[str, str, str, str]]:
    return sorted((r.name, r.device, r.dtype, r.status) for r in record.of(CheckRun) if r.reference)


def _reference_findings(record: ClaimRecord) -> list[tuple[str, str]]:
    return sorted((f.kind, f.text) for f in record.findings if f.kind != "implementation")


def test_every_reference_verdict_and_finding_is_unchanged(runs):
    before, after, _ = runs
    for claim_id in after:
        assert after[claim_id].observed == before[claim_id].observed == after[claim_id].expected, claim_id
        assert _own(after[claim_id]) == _own(before[claim_id]), claim_id
        assert _reference_findings(after[claim_id]) == _reference_findings(before[claim_id]), claim_id
        assert not after[claim_id].errors, claim_id


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_the_contract_checks_name_each_fault(runs, name):
    _, _, checked = runs
    check, text = CONTRACT[name]
    findings = checked[name].contract
    assert any(f.check == check and text in f.text for f in findings), [f.text for f in findings]
    assert all(f.text.startswith(name) or f.check == "repeatable" for f in findings if f.check == "call")


@pytest.mark.parametrize("name", [*BROKEN_CALLS, "faulty-mutates"])
def test_an_adapter_that_broke_its_contract_fails_its_cells_with_the_contract_finding(runs, name):
    _, after, _ = runs
    mine = [r for r in after["rope.relative-score"].of(CheckRun) if r.implementation == name and r.ran]
    assert mine and all(r.status == "failed" for r in mine)
    assert all(
        r.message.startswith(f"not run: it broke its contract in {r.dtype} on cpu: {name}.rope(x: ") for r in mine
    )


def test_a_broken_call_inside_a_check_is_that_cell_with_its_input_as_counterexample(runs):
    _, after, checked = runs
    assert not [f for f in checked["faulty-far-none"].contract if f.check == "call"]  # positions 0 … 319 are fine
    far = ("float64", "float32")  # bfloat16 and float16 draw positions below 1000 (their meaningful limit)
    runs_ = after["rope.relative-score"].of(CheckRun)
    mine = [r for r in runs_ if r.implementation == "faulty-far-none" and r.dtype in far and r.device == "cpu"]
    assert len(mine) == 4 and all(r.status == "failed" for r in mine)
    for run in mine:
        assert run.message.startswith("ImplementationFailure: faulty-far-none.rope(x: "), run.message
        assert "returned NoneType, not torch.Tensor" in run.message
        # the call that failed was given a position past 1000 (a drawn one, or a sum such as m + shift)
        called = re.search(r"positions: (?:\d+ (?:positions|× position) )?([^)]*)\)", run.message)
        assert called and max(int(n) for n in re.findall(r"\d+", called.group(1))) > 1000, run.message
        # issue 30: stated as a rule of the position, not "fails at every size tried"
        rule = re.search(
            r"It fails once a call holds a position ≥ (\d+) .*holds at every position below it", run.message
        )
        assert rule and int(rule.group(1)) > 1000 and "every size tried" not in run.message, run.message


def test_a_crash_at_one_small_d_model_does_not_hide_the_other_sizes(runs):
    _, after, _ = runs
    mine = [r for r in after["rope.relative-score"].of(CheckRun) if r.implementation == "faulty-small-head" and r.ran]
    assert mine and all(r.status == "failed" for r in mine)
    for run in mine:
        assert "raised ZeroDivisionError" in run.message
        # only even sizes drawn: d = 2 is the rule "below 3" among even sizes (no odd size was drawn to name);
        # odd ones too: d = 1 holds, and d = 2 is one size alone
        below = "It fails for every even d_model below 3 (tried: d_model = 2); holds at the other sizes drawn"
        alone = "It fails for d_model = 2; holds for d_model 1 … "
        assert below in run.message or alone in run.message, run.message


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("faulty-pair-of-pairs", "every d_model with an odd number of pairs (d_model · 1/2 odd)"),
        ("faulty-partial-pair-of-pairs", "every d_model with an odd number of rotated pairs (d_model · 1/4 odd)"),
    ],
)
def test_a_failure_at_some_sizes_is_stated_as_the_rule_that_separates_them(runs, name, rule):
    """Issue 30: not "it fails at every size tried (d_model = 2, 6, 10)" nor "d_model = 4, 20, 36" but the rule
    over the rotated pairs (d ≡ 2 mod 4 for a full rotation, d ≡ 4 mod 8 where half of each head rotates), with
    the sizes on both sides and the verdict where it holds."""
    _, after, _ = runs
    mine = [r for r in after["rope.relative-score"].of(CheckRun) if r.implementation == name]
    failed = [r for r in mine if r.status == "failed"]
    stated = [r for r in failed if f"It fails for {rule} (tried: d_model = " in r.message]
    assert stated, [r.message for r in failed]
    for run in stated:
        held = re.search(r"holds at the other sizes drawn, d_model ([\d, …]+), over (\d+) examples", run.message)
        assert held and int(held.group(2)) > 0, run.message
    for run in failed:  # a rule is stated only once a run without its sizes held; else the sizes are listed
        assert (
            "It fails for every" in run.message or "It fails for d_model" in run.message or "every size" in run.message
        )


def test_the_wrong_dtype_is_said_in_every_low_precision_cell(runs):
    _, after, _ = runs
    mine = [r for r in after["pe.formula"].of(CheckRun) if r.implementation == "faulty-wrong-dtype" and r.ran]
    low = [r for r in mine if r.dtype != "float64"]
    assert low and all(r.status == "failed" and f"returned float64 for {r.dtype}" in r.message for r in low)
    assert all(r.status == "passed" for r in mine if r.dtype == "float64")


def test_the_document_adapters_are_never_asked_past_their_table(runs):
    """pos + k is drawn inside the declared positions: no false failure "position 4096 exceeds ... table"."""
    before, _, _ = runs
    mine = [r for r in before["pe.shift-is-rotation"].of(CheckRun) if r.implementation.startswith("document-")]
    assert mine and all(r.status in ("passed", "skipped") for r in mine), [r.message for r in mine]


def test_a_module_or_constructor_that_raises_is_one_usage_error(pytester, monkeypatch):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.makepyfile(
        broken_import="raise ImportError('no module named flash_attn_cuda')",
        broken_init=textwrap.dedent(
            """
            class Rope:
                name = "broken-init"
                def __init__(self):
                    raise RuntimeError("CUDA driver not found")
                def rope(self, x, positions):
                    return x
            """
        ),
    )
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}:{pytester.path}")
    for spec, said in (
        ("broken_import:Rope", "importing broken_import raised ImportError: no module named flash_attn_cuda"),
        ("broken_init:Rope", "Rope() raised RuntimeError: CUDA driver not found"),
    ):
        outcome = pytester.runpytest_subprocess("--impl", spec, "-p", "no:cacheprovider")
        assert outcome.ret == pytest.ExitCode.USAGE_ERROR
        text = outcome.stderr.str()
        assert f"--impl {spec!r}: {said}" in text
        assert "INTERNALERROR" not in text + outcome.stdout.str() and "Traceback" not in text


def test_a_stale_answer_names_the_earlier_call_it_came_from(runs):
    """Issue 30: not only "returned bfloat16 for float16" or "differs from its first answer", but which earlier
    call the answer is (a cache keyed without the dtype)."""
    _, _, checked = runs
    dtype = [f.text for f in checked["faulty-stale-dtype"].contract if f.check == "call" and "earlier call" in f.text]
    assert dtype and all("the answer depends on earlier calls (a kept result)" in text for text in dtype), dtype
    values = [f.text for f in checked["faulty-stale-cache"].contract if f.check == "repeatable"]
    assert values and all("; its first answer is that of an earlier call (d_model = 64, " in text for text in values)


@pytest.mark.parametrize(
    ("claim_id", "name"), [("pe.formula", "faulty-rounds-odd-up"), ("rope.norm-preserving", "faulty-odd-head")]
)
def test_an_adapter_wrong_only_at_odd_sizes_fails_the_claims_own_checks_as_a_rule(runs, claim_id, name):
    """Issue 30: odd sizes never reached these adapters (a sinusoidal one rounding an odd d_model up passed all 28
    cells; an odd head size never reached a RoPE). The claims' own checks now draw odd and small d_model."""
    _, after, _ = runs
    mine = [r for r in after[claim_id].of(CheckRun) if r.implementation == name and r.dtype in ("float64", "float32")]
    mine = [r for r in mine if r.device == "cpu"]
    assert mine and all(r.ran and r.status == "failed" for r in mine), [r.message for r in mine]
    assert all("It fails for every odd d_model (tried: d_model = " in r.message for r in mine), mine[0].message


@pytest.mark.parametrize("name", ["faulty-scaled-by-width", "faulty-naive-softmax"])
def test_attention_faults_at_other_widths_and_large_scores_fail_the_claims_own_checks(runs, name):
    """Issue 30: attention inputs always had d_k = d_model and scores below about 1, so a scale by √d_model and a
    softmax without the row's maximum passed every cell."""
    _, after, _ = runs
    mine = [r for r in after["attention.parallel-equals-sequential"].of(CheckRun) if r.implementation == name]
    failed = {r.dtype for r in mine if r.ran and r.status == "failed"}
    assert failed >= ({"float16"} if name == "faulty-naive-softmax" else {"float64", "float32"}), mine
