"""Which monomials a sum-of-squares certificate needs, and which of them may share a square.

Two reductions, both lossless for the certificates the search looks for:

- **Sign symmetries** (term sparsity in the manner of TSSOS): the vectors r ∈ {0, 1}ⁿ with r·α even for every
  exponent α of f. Each flips the signs of some generators, maps every relation s² + c² − 1 to itself and leaves f
  as it is, so averaging a certificate over those flips keeps it a certificate, and its Gram matrix becomes block
  diagonal: monomials of different parities r·m mod 2 never share a square.
- **The half Newton polytope** in the free real variables: for each point of the circles, f is a polynomial in
  the reals whose squares' exponents lie in half of f's Newton polytope, so monomials whose real part 2β lies
  outside conv(the reals' exponents of f) only carry terms that vanish on the circles (a linear program decides
  each one).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

Monomial = tuple[int, ...]


def sign_symmetries(support: Iterable[Monomial], count: int) -> list[tuple[int, ...]]:
    """A basis over GF(2) of the r ∈ {0, 1}^count with r·α ≡ 0 (mod 2) for every α in ``support``."""
    rows = [[e % 2 for e in monomial] for monomial in support]
    pivots: list[int] = []
    reduced: list[list[int]] = []
    for row in rows:
        row = row[:]
        for pivot, done in zip(pivots, reduced, strict=True):
            if row[pivot]:
                row = [(x + y) % 2 for x, y in zip(row, done, strict=True)]
        lead = next((i for i, x in enumerate(row) if x), None)
        if lead is None:
            continue
        for index, done in enumerate(reduced):
            if done[lead]:
                reduced[index] = [(x + y) % 2 for x, y in zip(done, row, strict=True)]
        pivots.append(lead)
        reduced.append(row)
    free = [i for i in range(count) if i not in pivots]
    kernel = []
    for column in free:
        vector = [0] * count
        vector[column] = 1
        for pivot, done in zip(pivots, reduced, strict=True):
            vector[pivot] = done[column]
        kernel.append(tuple(vector))
    return kernel


def blocks(basis: Sequence[Monomial], symmetries: Sequence[tuple[int, ...]]) -> list[list[Monomial]]:
    """The basis split by parity under every symmetry, larger blocks first."""
    groups: dict[tuple[int, ...], list[Monomial]] = {}
    for monomial in basis:
        key = tuple(sum(r * e for r, e in zip(flip, monomial, strict=True)) % 2 for flip in symmetries)
        groups.setdefault(key, []).append(monomial)
    return sorted(groups.values(), key=len, reverse=True)


def in_half_newton_polytope(
    basis: Sequence[Monomial], support: Iterable[Monomial], reals: Sequence[int]
) -> list[Monomial]:
    """The monomials m of ``basis`` whose real part 2·m lies in the convex hull of ``support``'s real parts."""
    points = sorted({tuple(alpha[i] for i in reals) for alpha in support})
    if not reals or len(points) <= 1:
        same = points[0] if points else ()
        return [m for m in basis if tuple(2 * m[i] for i in reals) == tuple(same)] if reals else list(basis)
    from scipy.optimize import linprog

    hull = np.array(points, dtype=float).T
    equalities = np.vstack([hull, np.ones(len(points))])
    inside: dict[tuple[int, ...], bool] = {}
    kept = []
    for monomial in basis:
        doubled = tuple(2 * monomial[i] for i in reals)
        if doubled not in inside:
            target = np.array([*doubled, 1.0])
            found = linprog(np.zeros(len(points)), A_eq=equalities, b_eq=target, bounds=(0, None), method="highs")
            inside[doubled] = bool(found.status == 0)
        if inside[doubled]:
            kept.append(monomial)
    return kept
