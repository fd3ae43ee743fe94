"""Give back to the system what a finished claim freed.

glibc keeps freed blocks in its arenas, and large tensors and tables (a sweep's chunks, the document adapters'
tables) come from there once its mmap threshold has risen: a worker's RSS then only grows, claim after claim.
After each claim the plugin drops the sweeps' kept buffers (checks.engine.sweep_memory), collects garbage and asks
glibc to return free pages (``malloc_trim``; with another C library that step does nothing).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
from typing import Any

from checks.engine.sweep_memory import release_kept


@functools.cache
def _libc() -> Any:
    try:
        library = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        library.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return library


def release_freed_memory() -> None:
    """Drop the sweeps' buffers, collect garbage, then return the heap's free pages to the system (glibc only)."""
    release_kept()
    gc.collect()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
