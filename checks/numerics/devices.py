"""The devices a claim runs on: the one list, and which of them this machine has."""

from __future__ import annotations

DEVICES: tuple[str, ...] = ("cpu", "cuda")
"""Every device a check can ask for, in the order reports show them."""


def available_devices() -> list[str]:
    """cpu always; cuda when torch is installed and sees a GPU."""
    from checks.settings.extras import installed

    if not installed("torch"):
        return ["cpu"]
    import torch

    return ["cpu", "cuda"] if torch.cuda.is_available() else ["cpu"]
