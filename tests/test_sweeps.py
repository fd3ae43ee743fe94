"""Dense sweeps: cases counted, failures located, crashes recorded as errors."""

import torch

from checks.sweeps import Sweep, run_sweep


def _identity(s, positions, d_model):
    w = s.frequencies(d_model)
    angles = positions[:, None].to(s.low) * w
    error = (torch.sin(angles) ** 2 + torch.cos(angles) ** 2 - 1).abs().float()
    s.compare(error, s.allowed(torch.tensor(3.0)), {"pos": positions[:, None]}, cases=error.numel())


def _wrong(s, positions, d_model):
    w = s.frequencies(d_model)
    angles = positions[:, None].to(s.low) * w
    error = (torch.sin(angles) - torch.cos(angles)).abs().float()
    s.compare(error, s.allowed(torch.tensor(1.0)), {"pos": positions[:, None]}, cases=error.numel())


def _crash(s, positions, d_model):
    raise RuntimeError("sweep bug")


def test_a_true_identity_passes_and_counts_every_case():
    (run,) = run_sweep(Sweep("pythagoras", _identity, ("float32",), (8,), 100))
    assert run.status == "passed"
    assert run.positions == 100 and run.cases == 100 * 4
    assert 0 <= run.max_error <= run.tolerance and run.cases_per_second > 0


def test_a_false_identity_fails_at_its_worst_case():
    (run,) = run_sweep(Sweep("sin is cos", _wrong, ("float64",), (8,), 50))
    assert run.status == "failed"
    assert run.max_error > run.tolerance and "pos" in run.worst_input and run.message


def test_positions_stop_at_the_dtype_limit():
    (run,) = run_sweep(Sweep("pythagoras", _identity, ("bfloat16",), (8,), 10_000))
    assert run.positions == 8


def test_a_crash_is_an_error_not_a_failure():
    (run,) = run_sweep(Sweep("crash", _crash, ("float32",), (8,), 10))
    assert run.status == "error" and "sweep bug" in run.message
