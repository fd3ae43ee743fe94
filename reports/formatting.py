"""Jinja filters: numbers, durations and measured values as short text."""

from __future__ import annotations

import json
import math
from typing import Any

DTYPE_SHORT = {"float64": "f64", "float32": "f32", "bfloat16": "bf16", "float16": "f16"}


def number(value: Any) -> str:
    """A measured number in at most four significant digits; '—' when there is none."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if x == 0:
        return "0"
    if isinstance(value, int) or (x.is_integer() and abs(x) < 1e15):
        return f"{int(x):,}" if abs(x) >= 1e5 else str(int(x))
    if abs(x) >= 1e5 or abs(x) < 1e-3:
        return f"{x:.3g}".replace("e+0", "e+").replace("e-0", "e-")
    return f"{x:.4g}"


def count(value: Any) -> str:
    """A large count in thousands or millions (12.3 k, 15.6 M)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return "—"
    if abs(x) >= 1e6:
        return f"{x / 1e6:.1f} M"
    if abs(x) >= 1e4:
        return f"{x / 1e3:.0f} k"
    return f"{x:.0f}"


def seconds(value: Any) -> str:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.2g}×" if value < 10 else f"{value:.3g}×"


def compact(value: Any) -> str:
    """A measured value as short text: numbers rounded, lists and dicts as JSON-like text."""
    return json.dumps(_rounded(value), ensure_ascii=False, separators=(", ", ": "))


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.6g}") if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {str(k): _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


def dtype(name: str) -> str:
    return DTYPE_SHORT.get(name, name)
