"""Facial reduction: the kernel a tight bound forces on every Gram matrix, found numerically, kept only if exact.

Where f vanishes at a point p of the circles, every Gram matrix Q with f ≡ mᵀ Q m has Q·m(p) = 0, so Q lies on a
face of the cone and no rounding of a numerical Q is positive semidefinite. The kernel of the solver's Q spans the
m(p) (and their Galois conjugates), a subspace defined over the rationals: its reduced row echelon form, snapped to
fractions with small denominators, is that subspace exactly when the snapping moves no entry by more than
``SNAP``. The search then writes Q = N Q' Nᵀ with the columns of N spanning the kernel's orthogonal complement
and solves for the smaller Q', which has an interior again. A wrong guess only makes the equations inconsistent:
whatever is found is re-checked exactly, so the guess never decides anything.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

KERNEL = 1e-6
"""Eigenvalues below this fraction of the largest are the kernel."""
SNAP = 1e-3
"""How far a kernel entry may move when it is snapped to a fraction."""
DENOMINATOR = 60
"""The largest denominator a snapped kernel entry may have."""


def exact_kernel(gram: np.ndarray) -> list[list[Fraction]] | None:
    """Rows spanning the numerical kernel of ``gram`` in exact reduced echelon form; [] when it has none, None when
    the kernel is not close to a subspace with small rational coordinates."""
    values, vectors = np.linalg.eigh(gram)
    scale = max(float(np.max(np.abs(values))), 1e-12)
    kernel = vectors[:, values < KERNEL * scale].T
    if kernel.shape[0] == 0:
        return []
    echelon = _echelon(kernel)
    snapped = [[Fraction(float(v)).limit_denominator(DENOMINATOR) for v in row] for row in echelon]
    for row, exact in zip(echelon, snapped, strict=True):
        if max(abs(float(e) - v) for e, v in zip(exact, row, strict=True)) > SNAP:
            return None
    return snapped


def complement(kernel: list[list[Fraction]], size: int) -> list[dict[int, Fraction]]:
    """Columns of N (as index → entry) spanning the orthogonal complement of the echelon rows ``kernel``."""
    pivots = [next(i for i, x in enumerate(row) if x != 0) for row in kernel]
    columns = []
    for free in (j for j in range(size) if j not in pivots):
        column = {free: Fraction(1)}
        for pivot, row in zip(pivots, kernel, strict=True):
            if row[free] != 0:
                column[pivot] = -row[free]
        columns.append(column)
    return columns


def _echelon(rows: np.ndarray) -> np.ndarray:
    """Reduced row echelon form by Gauss–Jordan elimination with partial pivoting (rows independent)."""
    work = np.array(rows, dtype=float)
    count, size = work.shape
    row = 0
    for column in range(size):
        if row == count:
            break
        best = row + int(np.argmax(np.abs(work[row:, column])))
        if abs(work[best, column]) < 1e-9:
            continue
        work[[row, best]] = work[[best, row]]
        work[row] /= work[row, column]
        for other in range(count):
            if other != row:
                work[other] -= work[other, column] * work[row]
        row += 1
    return work[:row]
