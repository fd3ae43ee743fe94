"""Give back to the system what a finished claim freed.

glibc keeps freed blocks in its arenas, and large tensors (a sweep's chunks) come from there once its mmap
threshold has risen: a worker's RSS then only grows, claim after claim.
After each claim the plugin drops the sweeps' kept buffers (checks.evidence.sweep.memory) and asks glibc to return
free pages (``malloc_trim``, about 5 ms; with another C library that step does nothing). A full garbage collection
as well would cost 100 ms a claim here, for cycles Python's own collector frees anyway.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any

from checks.evidence.sweep.memory import release_kept


@functools.cache
def _libc() -> Any:
    try:
        library = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        library.malloc_trim.argtypes = [ctypes.c_size_t]
    except (OSError, AttributeError):
        return None
    return library


def release_freed_memory() -> None:
    """Drop the sweeps' buffers, then return the heap's free pages to the system (glibc only)."""
    release_kept()
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
