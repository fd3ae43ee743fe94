"""Dense sweeps: cases counted, failures located, crashes recorded as errors."""

import gc

import pytest
import sympy
import torch

from checks.engine.discovery import claim_files, load_claims
from checks.evidence.sweep import Sweep as DeclaredSweep
from checks.evidence.sweep.grid import Grid, Hand
from checks.evidence.sweep.memory import Memory
from checks.evidence.sweep.runner import run_sweep
from checks.evidence.sweep.tables import Tables, _ahead, _by_sum, _sums
from checks.symbolic.document_formulas import k, pos, w


def Sweep(name, function, dtypes, d_models, positions, offsets=0):
    return DeclaredSweep(name, function, dtypes, d_models, positions, offsets)


def _on_the_cpu(sweep):
    """The runs of ``sweep`` on the CPU (a machine with a GPU also runs it there)."""
    return [run for run in run_sweep(sweep) if run.device == "cpu"]


def _angles(s):
    return s.pos[:, None].to(s.low) * s.omega.T.to(s.low)


def _identity(s):
    angles = _angles(s)
    error = (torch.sin(angles) ** 2 + torch.cos(angles) ** 2 - 1).abs().float()
    s.compare("sin² + cos² = 1", error, s.tolerance.at(3.0), {"pos": s.pos[:, None]})


def _wrong(s):
    angles = _angles(s)
    error = (torch.sin(angles) - torch.cos(angles)).abs().float()
    s.compare("sin = cos", error, s.tolerance.at(1.0), {"pos": s.pos[:, None]})


def _crash(s):
    raise RuntimeError("sweep bug")


def test_a_true_identity_passes_and_counts_every_case():
    (run,) = _on_the_cpu(Sweep("pythagoras", _identity, ("float32",), (8,), 100))
    assert run.status == "passed"
    assert run.positions == 100 and run.cases == 100 * 4
    assert 0 <= run.max_error <= run.tolerance and run.cases_per_second > 0


def _two_identities(s):
    angles = _angles(s)
    for label, error in (
        ("pythagoras", torch.sin(angles) ** 2 + torch.cos(angles) ** 2 - 1),
        ("double angle", torch.sin(2 * angles) - 2 * torch.sin(angles) * torch.cos(angles)),
    ):
        s.compare(label, error.float(), s.tolerance.at(3.0), {"pos": s.pos[:, None]})


def test_each_equation_at_each_grid_point_is_a_case():
    (run,) = _on_the_cpu(Sweep("two identities", _two_identities, ("float32",), (8,), 100))
    assert run.status == "passed" and run.cases == 2 * 100 * 4


def test_a_false_identity_fails_at_its_worst_case():
    (run,) = _on_the_cpu(Sweep("sin is cos", _wrong, ("float64",), (8,), 50))
    assert run.status == "failed"
    assert run.max_error > run.tolerance and "pos" in run.worst_input and run.message


def test_positions_stop_at_the_dtype_limit():
    (run,) = _on_the_cpu(Sweep("pythagoras", _identity, ("bfloat16",), (8,), 10_000))
    assert run.positions == 8


def test_a_crash_is_an_error_not_a_failure():
    (run,) = _on_the_cpu(Sweep("crash", _crash, ("float32",), (8,), 10))
    assert run.status == "error" and "sweep bug" in run.message
    assert f"test_sweeps.py:{_crash.__code__.co_firstlineno + 1} in _crash" in run.message, "the sweep's own line"


def _signed(s):
    """A signed difference that is largest in magnitude (negative) at pos 7, pair 3; tolerance per position."""
    positions, d_model = s.pos, s.d_model
    difference = torch.zeros(d_model // 2, len(positions), dtype=s.wide, device=s.device)
    difference[3, positions == 7] = -0.5
    difference[1, positions == 2] = 0.25
    inputs = {"pos": positions, "pair": torch.arange(d_model // 2, device=s.device)[:, None]}
    allowed = torch.full((len(positions),), 0.1, dtype=s.wide, device=s.device)
    s.compare("signed", difference, allowed, inputs)


def test_a_signed_difference_is_located_through_the_reduced_axis():
    (run,) = _on_the_cpu(Sweep("signed", _signed, ("float32",), (8,), 10))
    assert run.status == "failed"
    assert run.worst_input == {"pos": 7.0, "pair": 3.0}
    assert run.max_error == 0.5 and abs(run.tolerance - 0.1) < 1e-7


def _full_tolerance(s):
    positions = s.pos
    difference = torch.linspace(-1, 0.5, len(positions) * 3, dtype=s.wide, device=s.device).view(3, -1)
    allowed = torch.full_like(difference, 2.0)
    allowed[2, -1] = 0.25  # the one case beyond its tolerance: 0.5 > 0.25
    inputs = {"row": torch.arange(3, device=s.device)[:, None], "pos": positions}
    s.compare("ratio", difference, allowed, inputs)


def test_a_tolerance_per_case_finds_the_worst_ratio_not_the_worst_error():
    (run,) = _on_the_cpu(Sweep("ratio", _full_tolerance, ("float64",), (8,), 5000))
    assert run.status == "failed" and run.worst_input == {"row": 2.0, "pos": 4999.0}
    assert run.max_error == 0.5 and run.tolerance == 0.25


def _peak_at_37(s, layout):
    """|difference| / allowed peaks at pos 37 (pair 2); pos 61 has the same ratio, found later."""
    positions = s.pos
    pairs = torch.arange(4, dtype=s.wide, device=s.device)[:, None]
    near = torch.exp(-((positions.to(s.wide)[None, :] - 37) ** 2)) + torch.exp(
        -((positions.to(s.wide)[None, :] - 61) ** 2)
    )
    difference = -(0.1 + 0.5 * near) * (1 + (pairs == 2))  # signed: the peak is a negative one
    allowed = {
        "scalar": 2.0,
        "per-position": torch.full((len(positions),), 2.0),
        "full": torch.full((4, len(positions)), 2.0),
    }
    s.compare("peak", difference, allowed[layout], {"pair": pairs, "pos": positions})


@pytest.mark.parametrize("layout", ["scalar", "per-position", "full"])
def test_the_worst_case_is_found_across_chunks_and_the_first_of_equals_kept(monkeypatch, layout):
    monkeypatch.setattr(
        "checks.evidence.sweep.runner.COMPARED_ELEMENTS", 40
    )  # 1 position, then chunks of 10 (4 pairs each)
    sweep = Sweep("peak", lambda s: _peak_at_37(s, layout), ("float64",), (8,), 100)
    (run,) = _on_the_cpu(sweep)
    assert run.status == "passed" and run.cases == 4 * 100
    assert run.worst_input == {"pair": 2.0, "pos": 37.0}
    assert abs(run.max_error - 1.2) < 1e-12 and run.tolerance == 2.0


def _growing_with_k(s, lowest, peak):
    """|difference| / allowed, allowed = 1 + k · pos over k = 1 … 4, peaks at pos ``peak``, k = 3, pair 1.

    With ``lowest`` the tolerance is given as a function and bounded by its k = 1 row.
    """
    positions = s.pos
    k = torch.arange(1, 5, dtype=s.wide, device=s.device)[:, None, None]
    pos = positions.to(s.wide)
    allowed = 1 + k * pos
    near = torch.exp(-((pos - peak) ** 2)) * (k == 3) * (torch.arange(3, device=s.device)[:, None] == 1)
    difference = (0.2 + 0.7 * near) * allowed * torch.where(pos.long() % 2 == 0, 1.0, -1.0)
    inputs = {"k": k, "pair": torch.arange(3, device=s.device)[:, None], "pos": positions}
    if lowest:
        s.compare("growing", difference, lambda: allowed, inputs, lowest=allowed[0])
    else:
        s.compare("growing", difference, allowed, inputs)


@pytest.mark.parametrize("peak", [3, 47, 95, 99])  # in the first chunk, a middle one, the last one, its end
def test_a_tolerance_given_with_its_lowest_finds_what_the_full_one_finds(monkeypatch, peak):
    monkeypatch.setattr(
        "checks.evidence.sweep.runner.COMPARED_ELEMENTS", 12 * 10
    )  # chunks of 10 positions (4 k × 3 pairs)
    runs = {
        lowest: _on_the_cpu(
            Sweep(
                "growing",
                lambda s, lowest=lowest: _growing_with_k(s, lowest, peak),
                ("float64",),
                (8,),
                100,
            )
        )[0]
        for lowest in (False, True)
    }
    full, bounded = runs[False], runs[True]
    assert bounded.status == full.status == "passed" and bounded.cases == full.cases == 12 * 100
    assert bounded.worst_input == full.worst_input == {"k": 3.0, "pair": 1.0, "pos": float(peak)}
    assert (bounded.max_error, bounded.tolerance) == (full.max_error, full.tolerance)


def _lowest_too_high(s):
    difference = torch.zeros(2, len(s.pos), dtype=s.wide, device=s.device)
    ones = torch.ones(2, 1, dtype=s.wide)
    s.compare("high", difference, lambda: ones, {"pos": s.pos}, lowest=torch.full((1, 1), 2.0))


def _function_without_lowest(s):
    s.compare("bare", torch.zeros(len(s.pos), dtype=s.wide), lambda: 1.0, {"pos": s.pos})


def test_a_lowest_above_the_tolerance_or_a_function_without_one_is_an_error():
    (high,) = _on_the_cpu(Sweep("high", _lowest_too_high, ("float64",), (8,), 10))
    assert high.status == "error" and "lowest exceeds allowed" in high.message
    (bare,) = _on_the_cpu(Sweep("bare", _function_without_lowest, ("float64",), (8,), 10))
    assert bare.status == "error" and "needs its lower bound" in bare.message


def _nan_in_a_deferred_chunk(s):
    difference = torch.zeros(2, len(s.pos), dtype=s.wide, device=s.device)
    difference[1, s.pos == 13] = float("nan")
    allowed = torch.ones(2, 1, dtype=s.wide)
    s.compare("nan", difference, lambda: allowed, {"row": torch.arange(2)[:, None], "pos": s.pos}, lowest=allowed)


def test_nan_in_a_deferred_chunk_is_a_failure_located(monkeypatch):
    monkeypatch.setattr("checks.evidence.sweep.runner.COMPARED_ELEMENTS", 2 * 10)
    (run,) = _on_the_cpu(Sweep("nan", _nan_in_a_deferred_chunk, ("float64",), (8,), 50))
    assert run.status == "failed" and run.worst_input == {"row": 1.0, "pos": 13.0}


def test_chunks_follow_what_the_first_compared_and_cover_every_position_once(monkeypatch):
    seen = []

    def per_position(s):
        seen.append((int(s.pos[0]), len(s.pos)))
        s.compare("zero", torch.zeros(len(s.pos), dtype=s.wide), 1.0, {"pos": s.pos})

    monkeypatch.setattr("checks.evidence.sweep.runner.COMPARED_ELEMENTS", 64)
    (run,) = _on_the_cpu(Sweep("per position", per_position, ("float32",), (8,), 1000))
    assert seen[:2] == [(0, 2), (2, 64)]  # 64 // (4 · 8) positions first, then 64 compared elements a chunk
    assert sorted(p for first, n in seen for p in range(first, first + n)) == list(range(1000))
    assert run.cases == 1000 and run.positions == 1000


@pytest.mark.parametrize("enabled", [True, False])
def test_a_sweep_pauses_the_garbage_collector_and_restores_it(enabled):
    states = []
    (gc.enable if enabled else gc.disable)()
    try:
        _on_the_cpu(Sweep("gc", lambda s: states.append(gc.isenabled()) or _identity(s), ("float32",), (8,), 10))
        assert states == [False] and gc.isenabled() == enabled
    finally:
        gc.enable()


def _not_a_number(s):
    difference = torch.zeros(len(s.pos), dtype=s.wide, device=s.device)
    difference[(s.pos == 5) | (s.pos == 35)] = float("nan")
    s.compare("nan", difference, 1.0, {"pos": s.pos})


def test_nan_is_a_failure_and_the_first_one_is_reported(monkeypatch):
    monkeypatch.setattr("checks.evidence.sweep.runner.COMPARED_ELEMENTS", 10)  # the two NaNs in different chunks
    (run,) = _on_the_cpu(Sweep("nan", _not_a_number, ("float32",), (8,), 50))
    assert run.status == "failed" and run.worst_input == {"pos": 5.0}


def _nothing(s):
    pass


def test_a_sweep_that_compares_nothing_is_an_error():
    (run,) = _on_the_cpu(Sweep("nothing", _nothing, ("float32",), (8,), 10))
    assert run.status == "error" and "no case" in run.message


def test_ahead_reads_the_table_k_columns_on():
    table = torch.arange(3 * 12, dtype=torch.float32).view(3, 12)
    view = _ahead(table, 8, 4)
    assert view.shape == (4, 3, 8)
    for k_ in range(1, 5):
        assert torch.equal(view[k_ - 1], table[:, k_ : k_ + 8])
    transposed = table.T.contiguous().T  # pairs adjacent in memory, same shape
    assert torch.equal(_ahead(transposed, 8, 4), view)


@pytest.mark.parametrize("pairs_innermost", [False, True])
def test_pe_ahead_is_the_table_at_pos_plus_k(pairs_innermost):
    s = Grid("cpu", "float64", 8, offsets=4)
    s.begin(torch.arange(5.0, 9.0, dtype=torch.float64))
    here, ahead = s.pe(pairs_innermost=pairs_innermost), s.pe(ahead=True, pairs_innermost=pairs_innermost)
    for k_ in range(5):
        angles = s.omega * (s.pos + k_)
        table = here if k_ == 0 else Hand(ahead.sin[k_ - 1], ahead.cos[k_ - 1])
        assert torch.equal(table.sin, torch.sin(angles)) and torch.equal(table.cos, torch.cos(angles))


def test_by_sum_reads_a_table_over_2_pos_plus_k_for_every_pos_and_k():
    positions, reach, scale = torch.arange(7.0, 12.0, dtype=torch.float64), 8, torch.tensor([[1.0], [10.0], [100.0]])
    table = _sums(positions, reach) * scale.double()  # (2, 3 pairs, width)
    view = _by_sum(table, len(positions), reach).reshape(reach, 3, len(positions))
    k_ = torch.arange(1, reach + 1, dtype=torch.float64)[:, None, None]
    assert torch.equal(view, (2 * positions + k_) * scale.double())


def test_sum_angles_combine_with_a_per_k_value_by_plus_and_minus():
    s = Grid("cpu", "float64", 8, offsets=8)
    s.begin(torch.arange(10.0, 15.0, dtype=torch.float64))
    swing = s.of_sum_angles(lambda angle: angle.cos_())
    half = torch.cos(s.k * s.omega)
    exact = torch.cos(s.omega * (2 * s.pos + s.k))
    assert torch.equal(half - swing, half - exact) and torch.equal(half + swing, half + exact)


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16", "float16"])
def test_products_and_their_miss_follow_the_dtype(dtype):
    s = Grid("cpu", dtype, 8)
    values = [torch.rand(4, 5, dtype=torch.float64).to(s.low) for _ in range(4)]
    a, x, b, y = (v.to(s.wide) for v in values)
    exact = a.double() * x.double() + b.double() * y.double()
    combined = s.forming.combination(s.products(a, x, b, y))
    expected = exact if s.low == s.wide else _stored_sum(values)
    assert torch.allclose(combined.double(), expected, rtol=0, atol=4 * torch.finfo(s.wide).eps)
    missed = s.forming.miss(0.5, s.products(a, x, b, y, minus=True))
    reference = 0.5 - (a.double() * x.double() - b.double() * y.double())
    ulp = torch.finfo(s.low).eps
    assert torch.allclose(missed.double(), reference, rtol=0, atol=4 * ulp)


def _stored_sum(values):
    """Each product and the sum rounded to the 16-bit dtype."""
    a, x, b, y = values
    return ((a * x).float() + (b * y).float()).to(a.dtype).double()


def test_memory_is_reused_across_chunks_and_after_an_equation(monkeypatch):
    monkeypatch.setattr("checks.evidence.sweep.memory._KEPT", {})
    memory = Memory("cpu")
    first = memory.take((4, 8), torch.float32)
    assert memory.take((4, 8), torch.float32).data_ptr() != first.data_ptr(), "a lent buffer is not lent twice"
    memory.give(first)
    smaller = memory.take((2, 8), torch.float32)
    assert smaller.data_ptr() == first.data_ptr() and smaller.shape == (2, 8)
    memory.reset()
    assert memory.take((4, 8), torch.float32).data_ptr() == first.data_ptr()


def test_an_equation_consumes_what_it_compares():
    s = Grid("cpu", "float32", 8)
    s.begin(torch.arange(4.0, dtype=torch.float64))
    here = s.pe()
    norms = s.sqrt(s.cumsum(s.products(here.sin, here.sin, here.cos, here.cos), dim=0))
    s.equal("norm", norms, torch.sqrt(s.pair + 1.0), scale=1.0)
    with pytest.raises(ValueError, match="compared already"):
        s.equal("norm again", norms, torch.sqrt(s.pair + 1.0), scale=1.0)


def test_a_scale_formula_that_grows_with_k_is_compared_first_at_its_lowest():
    s = Grid("cpu", "float32", 8, offsets=4)
    s.begin(torch.arange(6.0, dtype=torch.float64))
    difference = torch.zeros(4, 4, 6)
    allowed, lowest, text = s._allowed(2 + w * (2 * pos + k), difference)
    assert callable(allowed) and lowest is not None and lowest.shape == (1, 4, 6)
    assert torch.equal(allowed()[:1], lowest) and bool((allowed() >= lowest).all())
    assert text == "atol + rtol · (omega*(k + 2*pos) + 2)"
    small, none, _ = s._allowed(pos + k, difference)
    assert not callable(small) and none is None and tuple(small.shape) == (4, 1, 6), "no pair axis: formed whole"
    with pytest.raises(ValueError, match="may use pos, k, omega, i"):
        s._allowed(pos + sympy.Symbol("q"), difference)


CATALOG_CLAIMS = [claim for path in claim_files() for claim in load_claims(path)]
CATALOG_SWEEPS = [(claim.id, sweep) for claim in CATALOG_CLAIMS for sweep in claim.declared(DeclaredSweep)]


def test_the_catalog_has_dense_sweeps():
    assert len({claim_id for claim_id, _ in CATALOG_SWEEPS}) >= 7


@pytest.mark.parametrize(("claim_id", "sweep"), CATALOG_SWEEPS, ids=[c for c, _ in CATALOG_SWEEPS])
def test_every_catalog_sweep_passes_and_fails_on_a_table_one_part_in_a_thousand_off(monkeypatch, claim_id, sweep):
    """Each sweep passes on the true table and fails when sin comes out 0.1 % too large (float64 and float32)."""
    small = Sweep(sweep.name, sweep.function, ("float64", "float32"), (64, 512), sweep.positions, sweep.offsets)
    assert all(run.status == "passed" for run in run_sweep(small)), claim_id
    honest = Tables._table

    def skewed(self, pairs_innermost):
        sin, cos = honest(self, pairs_innermost)
        return Hand(sin.mul_(1.001), cos)

    monkeypatch.setattr(Tables, "_table", skewed)
    runs = run_sweep(small)
    assert all(run.status == "failed" for run in runs), [(r.dtype, r.d_model, r.status, r.message) for r in runs]
