"""The implementation protocol: registry, --impl, pairings, and the third-party adapters when installed."""

import textwrap
from pathlib import Path

import numpy as np
import pytest
import torch

from checks.evidence.check import CheckRun
from checks.implementations.base import Implementation, missing
from checks.implementations.fingerprint import layout_of, pair_order, probing
from checks.implementations.registry import by_name, implementations, load, offering
from checks.numerics.backends import TorchBackend
from checks.numerics.pairing import HALF_SPLIT, to_interleaved
from checks.results import read_results

ROOT = Path(__file__).resolve().parent.parent
ADAPTER = textwrap.dedent(
    """
    import torch


    class ShiftedRope:
        name = "shifted-rope"
        pairing = "interleaved"

        def rope(self, x, positions):
            d = x.shape[-1]
            inverse = 1.0 / (10000.0 ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
            angles = (torch.as_tensor(positions, dtype=torch.float64)[:, None] + 1) * inverse[None, :]
            cos, sin = torch.cos(angles).to(x.dtype), torch.sin(angles).to(x.dtype)
            even, odd = x[..., 0::2], x[..., 1::2]
            return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
    """
)

CLAIM = textwrap.dedent(
    """
    import numpy as np
    from hypothesis import strategies as st
    from checks import given
    from checks import Claim, Quote

    claim = Claim(id="demo.rope-norm", title="t", statement="s", expect="holds",
                  sources=[Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")])

    @claim.check(dtypes=("float64",), devices=("cpu",), uses="rope")
    @given(m=st.integers(0, 50))
    def starts_at_zero(t, m):
        x = np.eye(4)[:1]
        t.close(t.xp.to_float64(t.impl.rope(t.xp.array(x), [0]))[0], x[0], label="position 0 rotates nothing")
    """
)


def test_names_are_unique_and_capabilities_found():
    names = [adapter.name for adapter in implementations()]
    assert len(names) == len(set(names))
    assert {"reference-torch", "half-split-rope", "meta-complex-rope", "torchtune", "hf-llama"} <= {
        a.name for a in offering("rope")
    }
    assert {"reference-numpy", "document-numpy", "document-torch"} <= {a.name for a in offering("sinusoidal")}


def test_a_bad_spec_is_a_clear_error():
    with pytest.raises(ValueError, match=r"expected module:NAME"):
        load("no_colon")
    with pytest.raises(ValueError, match="no_such_module_xyz"):
        load("no_such_module_xyz:Adapter")


@pytest.mark.parametrize("name", ["half-split-rope", "meta-complex-rope"])
def test_probing_finds_the_declared_pairing(name):
    adapter = by_name(name)
    assert np.array_equal(pair_order(probing(adapter), 8), to_interleaved(8, adapter.pairing))


def test_half_split_is_the_interleaved_rotation_on_permuted_dimensions():
    x = torch.randn(3, 16, dtype=torch.float64)
    positions = np.array([0, 5, 300])
    order = to_interleaved(16, HALF_SPLIT)
    reference = by_name("reference-torch").rope(x[:, order], positions)[:, np.argsort(order)]
    # half-split-rope forms its angles in float32 as model code does: about 2⁻²⁴ · 300 · ‖x‖ apart from float64
    torch.testing.assert_close(by_name("half-split-rope").rope(x, positions), reference, rtol=1e-4, atol=1e-4)


def test_an_external_adapter_runs_through_impl_and_a_wrong_one_gets_a_counterexample(pytester, monkeypatch):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.makepyfile(user_adapter=ADAPTER)
    (pytester.mkdir("claims") / "demo_rope_norm.py").write_text(CLAIM)
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}:{pytester.path}")
    # a subprocess: third-party adapters register torch libraries that cannot be imported twice in one process
    outcome = pytester.runpytest_subprocess("claims", "--impl", "user_adapter:ShiftedRope", "--results", "r.json")
    outcome.assert_outcomes(passed=1)
    (record,) = read_results(pytester.path / "r.json").claims
    runs = [r for r in record.of(CheckRun) if r.implementation == "shifted-rope"]
    assert runs and runs[0].status == "failed" and runs[0].counterexample
    assert record.observed == "holds"
    assert any(f.kind == "implementation" and "shifted-rope" in f.text for f in record.findings)


@pytest.mark.parametrize("name", ["torchtune", "hf-llama", "rotary-embedding-torch", "x-transformers-rope"])
def test_third_party_adapters_rotate_like_the_reference_in_their_layout_when_installed(name):
    """Their pairs and, for x-transformers, a partial rotation (the first half of each head, its own frequencies)."""
    adapter = by_name(name)
    if missing(adapter):
        assert missing(adapter).startswith(("not installed", "left out here")), missing(adapter)
        return
    x = torch.randn(4, 16, dtype=torch.float32)
    positions = np.array([0, 1, 7, 1000])
    implementation = Implementation(adapter, TorchBackend("float32"))
    reference = layout_of(implementation, 16).apply(
        x.double().numpy(), lambda part: by_name("reference-numpy").rope(part, positions)
    )
    got = implementation.rope(x, positions).double()
    torch.testing.assert_close(got, torch.from_numpy(reference), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("name", "amplitude"), [("positional-encodings", 1.0), ("x-transformers-sinusoidal", 0.25)])
def test_third_party_sinusoidal_tables_are_the_formula_in_the_documents_layout_when_installed(name, amplitude):
    """x-transformers scales its table by d^(−1/2) (0.25 for d = 16) and puts all sines first."""
    adapter = by_name(name)
    if missing(adapter):
        assert missing(adapter).startswith(("not installed", "left out here")), missing(adapter)
        return
    positions = np.array([0, 1, 7, 1000])
    table = Implementation(adapter, TorchBackend("float32")).sinusoidal(positions, 16).double()
    reference = amplitude * by_name("reference-torch").sinusoidal(positions, 16, "float64", "cpu")
    torch.testing.assert_close(table, reference, rtol=1e-4, atol=1e-4)


def test_implementation_claims_are_those_with_a_uses_check_or_a_probe_of_the_adapters():
    from checks.engine.discovery import claim_files, load_claims
    from checks.engine.plugin import examines_implementations

    chosen = {claim.id for path in claim_files() for claim in load_claims(path) if examines_implementations(claim)}
    assert {"pe.bounded", "rope.low-precision-paths", "attention.parallel-equals-sequential"} <= chosen
    assert not {"pe.sin-ambiguous", "rope.long-term-decay", "training.learns-order"} & chosen


def test_third_party_adapters_can_be_left_out_where_their_library_is_installed(monkeypatch):
    """tox's tests and flake environments have transformers for the library claims, not to examine hf-llama."""
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "0")
    assert missing(by_name("hf-llama")).startswith("left out here (THEORY_CLAIMS_THIRD_PARTY=0)")
    assert missing(by_name("half-split-rope")) is None
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "1")
    assert not (missing(by_name("hf-llama")) or "").startswith("left out")
