"""Speed budgets, each measured by pytest-benchmark (run with `tox -e bench`).

- the whole catalog under pytest with the ci profile: under 60 s;
- every claim that examines implementations, with 15 adapters loaded (the built-in and optional ones and two of
  tests/faulty_adapters.py) on 2 workers: each under 60 s (contract and fingerprints are measured once per process);
- every symbolic proof: under 3 s, the solver's import not counted;
- the report build from a results file: under 10 s, and for 45 claims with a figure of each kind on every one;
- every decision of the inequality corpora (tests/inequality_corpus.py: the first corpus, the families, 25 + 25
  generated sums): under 3 s, the solver's import not counted;
- a script in the lesson-code sandbox's warm worker: under half the time of starting a Python interpreter
  that imports numpy
  (a ratio, so it holds on a slow machine as on a fast one);
- every dense sweep in float32 on the CPU: at least 10⁷ cases/s, and within 2× of a
  plain torch.sin + torch.cos over the same number of elements (the floor); a sweep known to
  miss it is listed, with why, in ABOVE_THE_FLOOR (an expected failure where it misses);
- the lesson's failing cells (its PyTorch class in pe.bounded): under twice its passing ones (a ratio).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from checks.engine.discovery import claim_files, load_claims
from checks.engine.launcher import pytest_command, run_pytest
from checks.evidence.proof import SymbolicProof
from checks.evidence.sweep import Sweep
from checks.evidence.sweep.runner import run_sweep
from checks.numerics.reference_implementations import frequency_values
from checks.results import read_results
from checks.settings.profiles import SWEEP_ELEMENTS as PROFILE_SWEEP_ELEMENTS
from checks.symbolic import Proof
from checks.symbolic.decide import decide
from checks.written.reading import read_documents
from tests.inequality_corpus import FALSE, TRUE, families, generated_sums

CATALOG_SECONDS, PROOF_SECONDS, REPORT_SECONDS = 60.0, 3.0, 10.0
SWEEP_CASES_PER_SECOND, FLOOR_FACTOR = 1e7, 2.0
ROOT = Path(__file__).resolve().parents[2]
CLAIMS = [claim for path in claim_files() for claim in load_claims(path)]
PROOFS = [(claim, proof) for claim in CLAIMS for proof in claim.declared(SymbolicProof)]


def _once(benchmark, function):
    return benchmark.pedantic(function, rounds=1, iterations=1, warmup_rounds=0)


@pytest.fixture(scope="module")
def catalog_results(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("catalog") / "results.json"


def test_catalog_under_60_seconds(benchmark, catalog_results):
    command = pytest_command([ROOT / "claims"], results=catalog_results)
    _once(benchmark, lambda: run_pytest(command, profile="ci", capture=True))
    assert catalog_results.exists()
    assert benchmark.stats.stats.max < CATALOG_SECONDS


FIFTEEN = ("tests.faulty_adapters:RoundOnceRope", "tests.faulty_adapters:RoundedCosSinRope")
"""Two RoPE adapters of this project's own beside the 13 built-in and optional ones: RoPE claims are the slow ones."""


def test_each_implementation_claim_under_60_seconds_with_15_adapters(benchmark, tmp_path, monkeypatch):
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "1")
    results = tmp_path / "results.json"
    extra = ["--implementation-claims"]
    command = pytest_command([ROOT / "claims"], results=results, workers=2, implementations=FIFTEEN, extra=extra)
    _once(benchmark, lambda: run_pytest(command, profile="ci", capture=True))
    document = read_results(results)
    claim_seconds = {claim.id: round(claim.seconds, 1) for claim in sorted(document.claims, key=lambda c: -c.seconds)}
    call_ms = {record.name: round(record.seconds_per_call * 1e3, 2) for record in document.implementations}
    benchmark.extra_info.update(claim_seconds=claim_seconds, milliseconds_per_call=call_ms)
    print("seconds per implementation claim:", ", ".join(f"{name} {s} s" for name, s in claim_seconds.items()))
    print("milliseconds a call (median of its contract calls):", ", ".join(f"{n} {ms}" for n, ms in call_ms.items()))
    loaded = [record.name for record in document.implementations if not record.missing]
    if len(loaded) < 15:
        pytest.skip(
            f"{len(loaded)} adapters could load here ({', '.join(loaded)}): install requirements-implementations.txt"
        )
    slowest = max(document.claims, key=lambda claim: claim.seconds)
    assert slowest.seconds < CATALOG_SECONDS, f"{slowest.id} took {slowest.seconds:.1f} s with {len(loaded)} adapters"


def test_report_build_under_10_seconds(benchmark, catalog_results, tmp_path):
    from reports.build import build_site

    if not catalog_results.exists():
        pytest.fail("run test_catalog_under_60_seconds first (it writes the results file)")
    _once(benchmark, lambda: build_site([catalog_results], tmp_path / "html", documents=read_documents))
    assert benchmark.stats.stats.max < REPORT_SECONDS


def test_45_claims_build_under_10_seconds(benchmark, tmp_path):
    from reports.build import build_site
    from tests.report_fixtures import many_claims, write_document, write_fixture_results

    fixtures = write_fixture_results(tmp_path / "fixtures")
    path = write_document(tmp_path / "many.json", *many_claims(fixtures[0], 45))
    _once(benchmark, lambda: build_site([path, path], tmp_path / "html", documents=read_documents))
    assert benchmark.stats.stats.max < REPORT_SECONDS


DECISIONS = [*TRUE, *FALSE, *(e for part in (*families(), *generated_sums(25, seed=20261202)) for e in part)]


@pytest.mark.parametrize(("lhs", "relation", "rhs"), DECISIONS, ids=[f"{a} {r} {b}" for a, r, b in DECISIONS])
def test_inequality_decision_under_3_seconds(benchmark, lhs, relation, rhs):
    pytest.importorskip("cvxpy")  # the solver's import is not counted against a proof
    decision = _once(benchmark, lambda: decide(lhs, rhs, relation))
    assert decision.status in ("proved", "refuted", "unknown")
    assert benchmark.stats.stats.max < PROOF_SECONDS


def test_a_warm_sandbox_script_beats_a_fresh_interpreter(benchmark):
    """A script in the warm worker takes under half the time of one ``python -c "import numpy"``."""
    from claims.catalog.lesson_code import run_script

    run_script("import numpy")  # the worker starts here, not in the timing
    benchmark.pedantic(lambda: run_script("print(1)"), rounds=5, iterations=1)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import numpy"], check=True)
    fresh = time.perf_counter() - started
    benchmark.extra_info.update(fresh_interpreter_seconds=fresh, ratio=benchmark.stats.stats.min / fresh)
    assert benchmark.stats.stats.min < fresh / 2


FAILING_FACTOR = 2.0
"""A failing cell of the lesson's code may cost this many times its passing cells: finding, shrinking and sizing a
failure asks for tables the passing cells built, or that the document's code refused once (measured on the 2-core
machine: 0.91× at 1d65474; 5.3× before it, when every refusal ran the lesson's code again in the sandbox)."""


def test_the_lessons_failing_cells_cost_about_what_its_passing_ones_do(benchmark, tmp_path, monkeypatch):
    """pe.bounded under ci: the document's PyTorch class fails in every dtype (it raises at odd d_model), its NumPy
    function passes; both ask the sandbox for their tables. A ratio, so it means the same on any machine."""
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "0")
    results = tmp_path / "results.json"
    command = pytest_command([ROOT / "claims" / "pe_bounded.py"], results=results)
    _once(benchmark, lambda: run_pytest(command, profile="ci", capture=True))
    (claim,) = read_results(results).claims
    seconds = {"failed": 0.0, "passed": 0.0}
    for run in claim.evidence:
        if (getattr(run, "implementation", None) or "").startswith("document-") and run.status in seconds:
            seconds[run.status] += run.seconds
    ratio = seconds["failed"] / seconds["passed"]
    benchmark.extra_info.update(seconds=seconds, ratio=ratio)
    assert seconds["failed"] > 0, "the document's PyTorch class no longer fails pe.bounded: pick another failing cell"
    assert ratio < FAILING_FACTOR, f"failing cells {seconds['failed']:.2f} s, passing {seconds['passed']:.2f} s"


@pytest.mark.parametrize(("claim", "declared"), PROOFS, ids=[claim.id for claim, _ in PROOFS])
def test_proof_under_3_seconds(benchmark, claim, declared):
    pytest.importorskip("cvxpy")  # the solver's import is not counted against a proof

    def prove() -> Proof:
        proof = Proof()
        for function in declared.functions:
            function(proof)
        return proof

    proof = _once(benchmark, prove)
    assert proof.status in ("proved", "refuted", "unknown")
    assert benchmark.stats.stats.max < PROOF_SECONDS


SWEEPS = [(claim.id, sweep) for claim in CLAIMS for sweep in claim.declared(Sweep) if "float32" in sweep.dtypes]
SWEEP_ELEMENTS = PROFILE_SWEEP_ELEMENTS["thorough"]
"""Positions × d_model per benchmarked run: the dense sweep as the thorough profile runs it (the ci profile's
2^18 is a one-chunk smoke run); each sweep still stops at its own positions (65,536 at most)."""


ABOVE_THE_FLOOR = {
    "pe.constant-norm": (
        "unmet, known: its own sin and cos are the whole floor (one of each per prefix norm) and the squares, "
        "running sum, square root, subtraction and reductions take about 1.8 ns a case more (README, Speed budgets)"
    ),
}
"""Sweeps known to miss the 2× budget on some machines, with why: an expected failure where they miss it.

Not strict: pe.constant-norm sits near the budget (1.7 to 2.6× by d_model on one 2-core machine, 2.5 to
5.2× on another), so a strict marker would fail or pass by machine and load rather than by a change."""


@pytest.mark.parametrize(("claim_id", "sweep"), SWEEPS, ids=[f"{c}:{s.name[:30]}" for c, s in SWEEPS])
@pytest.mark.parametrize("d_model", [64, 512, 4096])
def test_sweep_throughput(benchmark, claim_id, sweep, d_model):
    """Best of 3 warm runs, against the best of 3 of the floor over as many elements as the sweep checks cases."""
    single = Sweep(sweep.name, sweep.function, ("float32",), (d_model,), sweep.positions, sweep.offsets)
    (run,) = benchmark.pedantic(lambda: run_sweep(single, SWEEP_ELEMENTS), rounds=3, iterations=1, warmup_rounds=1)
    assert run.status == "passed", run.message
    best = benchmark.stats.stats.min
    floor = _floor_seconds(run.cases, run.positions, d_model)
    benchmark.extra_info.update(
        cases=run.cases, cases_per_second=run.cases / best, floor_seconds=floor, ratio_to_floor=best / floor
    )
    assert run.cases / best >= SWEEP_CASES_PER_SECOND
    if claim_id in ABOVE_THE_FLOOR and best > FLOOR_FACTOR * floor:
        pytest.xfail(ABOVE_THE_FLOOR[claim_id])
    assert best <= FLOOR_FACTOR * floor


def _floor_seconds(elements: int, positions: int, d_model: int, repeats: int = 3) -> float:
    """Best of a few runs of torch.sin + torch.cos over ``elements`` float32 values, in cache-sized chunks.

    On one thread, as the sweeps run; the values are the sweep's own angles pos · ω_i (pos < ``positions``),
    since sin and cos of large arguments cost more (up to 1.8× for pos ≥ 8192 on this machine).
    """
    chunk = _grid_angles(min(elements, 2**17), positions, d_model)
    rounds = max(1, elements // chunk.numel())
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    best = float("inf")
    try:
        for _ in range(repeats):
            started = time.perf_counter()
            for _ in range(rounds):
                torch.sin(chunk)
                torch.cos(chunk)
            best = min(best, time.perf_counter() - started)
    finally:
        torch.set_num_threads(threads)
    return best


def _grid_angles(count: int, positions: int, d_model: int) -> torch.Tensor:
    """``count`` angles pos · ω_i of the grid pos < ``positions`` × the d_model's frequencies, evenly spread."""
    frequencies = torch.from_numpy(frequency_values(d_model)).float()
    spread = torch.linspace(0, positions - 1, max(1, count // frequencies.numel())).floor()
    return torch.outer(frequencies, spread).reshape(-1).repeat(2)[:count].contiguous()
