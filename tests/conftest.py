"""Shared set-up of the engine's tests."""

import importlib

import torch


def pytest_configure() -> None:
    """Import once, before any in-process pytester run, the torch modules that register operator libraries.

    pytester's in-process runs remove the modules imported during them; a third-party adapter probed there imports
    torch.distributed, and importing it a second time (torch.testing.assert_close does, lazily) fails with
    "Only a single TORCH_LIBRARY can be used to register the namespace c10d_functional".
    """
    if torch.distributed.is_available():
        importlib.import_module("torch.distributed.tensor")
