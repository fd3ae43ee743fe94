"""Each xdist worker takes its share of the cores for PyTorch's threads (checks.engine.threads): two workers on two
cores each ran two spinning OpenMP threads, and a check's small tensor operations took 4.5× as long."""

from __future__ import annotations

from pathlib import Path

import pytest

from checks.engine.threads import available_cores, worker_threads

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("cores", "workers", "threads"), [(2, 2, 1), (16, 2, 8), (16, 3, 5), (2, 4, 1), (8, 1, 8), (4, 0, 4)]
)
def test_a_worker_takes_the_cores_divided_by_the_workers(cores, workers, threads):
    assert worker_threads(cores, workers, {}) == threads


@pytest.mark.parametrize("variable", ["OMP_NUM_THREADS", "MKL_NUM_THREADS"])
def test_a_run_that_chose_its_threads_is_left_alone(variable):
    assert worker_threads(2, 2, {variable: "2"}) is None
    assert worker_threads(2, 2, {variable: ""}) == 1, "an empty variable chooses nothing"


SEEN = """
    import os
    from pathlib import Path

    import torch

    def test_threads_seen():
        Path(f"threads-{os.environ['PYTEST_XDIST_WORKER']}.txt").write_text(str(torch.get_num_threads()))
"""


@pytest.mark.needs("torch")
def test_each_worker_of_a_run_sets_its_share(pytester, monkeypatch):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.mkdir("claims")
    pytester.makepyfile(test_seen=SEEN)
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    outcome = pytester.runpytest_subprocess("test_seen.py", "-n", "2", "-p", "no:cacheprovider", "--results", "r.json")
    outcome.assert_outcomes(passed=1)
    (seen,) = pytester.path.glob("threads-gw*.txt")
    assert int(seen.read_text()) == max(1, available_cores() // 2)
