"""Array backends (NumPy, PyTorch) bound to one device and dtype."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from checks.numerics.devices import available_devices
from checks.numerics.tolerances import BFLOAT16
from checks.settings.extras import installed, line, optional

torch = optional("torch")

Array = Any
"""A numpy.ndarray or a torch.Tensor, depending on the backend."""


@dataclass(frozen=True)
class NumpyBackend:
    """NumPy arrays on the CPU."""

    dtype: str
    device: str = "cpu"
    name = "numpy"

    @staticmethod
    def unsupported(device: str, dtype: str) -> str | None:
        if device != "cpu":
            return "NumPy runs on the CPU only"
        if dtype == BFLOAT16:
            return "NumPy has no bfloat16"
        return None

    def array(self, values: object) -> np.ndarray:
        return np.asarray(values, dtype=np.dtype(self.dtype))

    def arange(self, n: int) -> np.ndarray:
        return np.arange(n, dtype=np.dtype(self.dtype))

    def zeros(self, *shape: int) -> np.ndarray:
        return np.zeros(shape, dtype=np.dtype(self.dtype))

    sin, cos, exp, sqrt = staticmethod(np.sin), staticmethod(np.cos), staticmethod(np.exp), staticmethod(np.sqrt)

    def stack(self, arrays: list[np.ndarray], axis: int = 0) -> np.ndarray:
        return np.stack(arrays, axis=axis)

    def sum(self, x: np.ndarray, axis: int | None = None) -> np.ndarray:
        return np.sum(x, axis=axis, dtype=x.dtype)

    def softmax(self, x: np.ndarray, axis: int = -1) -> np.ndarray:
        shifted = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return shifted / np.sum(shifted, axis=axis, keepdims=True)

    @staticmethod
    def to_float64(x: object) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)


def _elementwise(name: str) -> staticmethod:
    """torch's elementwise function ``name``, looked up when called (torch may be an extra not installed)."""

    def apply(x: torch.Tensor) -> torch.Tensor:
        return getattr(torch, name)(x)

    apply.__name__ = name
    return staticmethod(apply)


@dataclass(frozen=True)
class TorchBackend:
    """PyTorch tensors on one device."""

    dtype: str
    device: str = "cpu"
    name = "torch"

    @staticmethod
    def unsupported(device: str, dtype: str) -> str | None:
        if not installed("torch"):
            return line("torch", "torch")
        if device == "cuda" and not torch.cuda.is_available():
            return "torch.cuda.is_available() is False on this machine"
        return None

    @property
    def torch_dtype(self) -> torch.dtype:
        return getattr(torch, self.dtype)

    def array(self, values: object) -> torch.Tensor:
        return torch.as_tensor(np.asarray(values, dtype=np.float64)).to(self.device, self.torch_dtype)

    def arange(self, n: int) -> torch.Tensor:
        return torch.arange(n, dtype=self.torch_dtype, device=self.device)

    def zeros(self, *shape: int) -> torch.Tensor:
        return torch.zeros(shape, dtype=self.torch_dtype, device=self.device)

    sin, cos, exp, sqrt = (_elementwise(name) for name in ("sin", "cos", "exp", "sqrt"))

    def stack(self, arrays: list[torch.Tensor], axis: int = 0) -> torch.Tensor:
        return torch.stack(arrays, dim=axis)

    def sum(self, x: torch.Tensor, axis: int | None = None) -> torch.Tensor:
        return torch.sum(x) if axis is None else torch.sum(x, dim=axis)

    def softmax(self, x: torch.Tensor, axis: int = -1) -> torch.Tensor:
        return torch.softmax(x, dim=axis)

    @staticmethod
    def to_float64(x: object) -> np.ndarray:
        if installed("torch") and isinstance(x, torch.Tensor):
            return x.detach().to("cpu", torch.float64).numpy()
        return np.asarray(x, dtype=np.float64)


Backend = NumpyBackend | TorchBackend
__all__ = ["BACKENDS", "Array", "Backend", "NumpyBackend", "TorchBackend", "available_devices"]

BACKENDS: dict[str, type[NumpyBackend] | type[TorchBackend]] = {"numpy": NumpyBackend, "torch": TorchBackend}
