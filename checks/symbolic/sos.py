"""Sum-of-squares certificates: f = ε + Σ w_i·ℓ_i² + Σ q_j·(s_j² + c_j² − 1), exactly.

A Gram matrix Q ⪰ 0 with f ≡ ε + mᵀ Q m modulo s_j² + c_j² = 1 (m: monomials of half f's degree) is found by
semidefinite programming (cvxpy with Clarabel), in floating point. It then becomes exact: rounded to rationals,
projected onto the linear equations in exact arithmetic (Peyrl and Parrilo's rounding), and factored as
Q = L·diag(w)·Lᵀ by exact elimination, which fails unless Q is positive semidefinite. The quotients q_j come
from dividing the rest by the relations. Only ``Certificate.verify`` (an exact expansion) decides: the
floating-point solution is a guess and never proves anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from checks.symbolic.fragment import Translation

Monomial = tuple[int, ...]
"""Exponents over the translation's generators."""

DENOMINATORS = (10**4, 10**6, 10**9, 10**12)
"""Rounding grids tried in turn: coarse grids give short certificates, fine ones pass near the cone's boundary."""
MAX_BASIS = 24
"""Monomials in m at most (300 Gram entries): beyond, the exact projection would not fit the proof budget."""
INTERIOR = 1e-7
"""Below this smallest eigenvalue the solution is on the cone's boundary: drop the monomials it does not use."""


class SosSearch:
    """The search for one polynomial ``f`` ≥ 0 (or > 0 when ``strict``) over a translation's generators."""

    def __init__(self, translation: Translation, polynomial: sp.Expr, strict: bool) -> None:
        self.generators = translation.generators
        self.pairs = [(self.generators.index(a.sin), self.generators.index(a.cos)) for a in translation.atoms]
        self.sines = {sine for sine, _ in self.pairs}
        self.strict = strict
        self.target = self.normal_form(_terms(polynomial, self.generators))

    def normal_form(self, terms: dict[Monomial, Fraction]) -> dict[Monomial, Fraction]:
        """The remainder modulo s_j² + c_j² − 1 (lex, s before c): every s_j² becomes 1 − c_j²."""
        done: dict[Monomial, Fraction] = {}
        pending = list(terms.items())
        while pending:
            monomial, coefficient = pending.pop()
            pair = next(((s, c) for s, c in self.pairs if monomial[s] >= 2), None)
            if pair is None:
                done[monomial] = done.get(monomial, Fraction(0)) + coefficient
                continue
            sine, cosine = pair
            lowered = list(monomial)
            lowered[sine] -= 2
            pending.append((tuple(lowered), coefficient))
            lowered[cosine] += 2
            pending.append((tuple(lowered), -coefficient))
        return {m: c for m, c in done.items() if c != 0}

    def half_basis(self, extra: int = 0) -> list[Monomial]:
        """Monomials of degree ≤ ⌈deg f / 2⌉ (+ extra), with each s_j at most linear (s_j² reduces)."""
        degree = max((sum(m) for m in self.target), default=0)
        half = (degree + 1) // 2 + extra
        count = len(self.generators)
        basis = []
        for total in range(half + 1):
            for combination in itertools.combinations_with_replacement(range(count), total):
                exponents = [0] * count
                for index in combination:
                    exponents[index] += 1
                if all(exponents[s] <= 1 for s in self.sines):
                    basis.append(tuple(exponents))
        return basis

    def certificate(self) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """(ε, [(w_i, ℓ_i)]) with f ≡ ε + Σ w_i ℓ_i² exactly in the quotient ring, or None."""
        if not self.target:
            return (Fraction(0), []) if not self.strict else None
        for extra in (0, 1):
            basis = self.half_basis(extra)
            if len(basis) > MAX_BASIS:
                return None
            found = self._on_face(basis)
            if found is not None:
                return found
        return None

    def _on_face(self, basis: list[Monomial]) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """Solve; while the solution sits on the cone's boundary, drop the monomials it gives no weight."""
        while basis:
            system = GramSystem(self, basis)
            if not system.consistent:
                return None
            solution = system.solve_numerically()
            if solution is None:
                return None
            gram, epsilon, smallest = solution
            if smallest < -INTERIOR:
                return None  # the best Gram matrix has a negative eigenvalue: no certificate on this basis
            exact = system.exact(gram, epsilon)
            if exact is not None:
                return exact
            if smallest > INTERIOR:
                return None
            keep = [m for m, weight in zip(basis, np.diag(gram), strict=True) if weight > 1e-6 * max(1.0, gram.max())]
            if len(keep) == len(basis):
                return None
            basis = keep
        return None


class GramSystem:
    """The linear equations NF(mᵀ Q m) + ε = NF(f) over the upper triangle of Q (and ε when strict)."""

    def __init__(self, search: SosSearch, basis: list[Monomial]) -> None:
        self.search, self.basis = search, basis
        self.cells = [(a, b) for a in range(len(basis)) for b in range(a, len(basis))]
        rows: dict[Monomial, dict[int, Fraction]] = {}
        for column, (a, b) in enumerate(self.cells):
            product = tuple(x + y for x, y in zip(basis[a], basis[b], strict=True))
            factor = Fraction(1 if a == b else 2)
            for monomial, coefficient in search.normal_form({product: Fraction(1)}).items():
                row = rows.setdefault(monomial, {})
                row[column] = row.get(column, Fraction(0)) + factor * coefficient
        self.unknowns = len(self.cells) + (1 if search.strict else 0)
        if search.strict:
            rows.setdefault(tuple([0] * len(search.generators)), {})[len(self.cells)] = Fraction(1)
        self.monomials = sorted(set(rows) | set(search.target))
        self.matrix = [[rows.get(m, {}).get(j, Fraction(0)) for j in range(self.unknowns)] for m in self.monomials]
        self.rhs = [search.target.get(m, Fraction(0)) for m in self.monomials]
        self.consistent = all(any(row) or value == 0 for row, value in zip(self.matrix, self.rhs, strict=True))

    def solve_numerically(self) -> tuple[np.ndarray, float, float] | None:
        """(Q, ε, λ_min(Q)) maximizing the smallest eigenvalue (and ε), or None when the solver finds nothing."""
        import cvxpy as cp

        size = len(self.basis)
        gram, floor = cp.Variable((size, size), symmetric=True), cp.Variable()
        epsilon = cp.Variable(nonneg=True) if self.search.strict else None
        values = [gram[a, b] for a, b in self.cells] + ([epsilon] if epsilon is not None else [])
        matrix = np.array([[float(x) for x in row] for row in self.matrix])
        vector = cp.hstack(values)
        constraints = [
            matrix @ vector == np.array([float(x) for x in self.rhs]),
            gram - floor * np.eye(size) >> 0,
            floor <= 1,
        ]
        objective = floor + (cp.minimum(epsilon, 1) if epsilon is not None else 0)
        problem = cp.Problem(cp.Maximize(objective), constraints)
        try:
            problem.solve(solver=cp.CLARABEL)
        except cp.error.SolverError:
            return None
        if problem.status not in ("optimal", "optimal_inaccurate") or gram.value is None:
            return None
        found_epsilon = float(epsilon.value) if epsilon is not None else 0.0
        return np.array(gram.value), found_epsilon, float(floor.value)

    def exact(self, gram: np.ndarray, epsilon: float) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """Round, project onto the equations exactly and factor; None unless Q ⪰ 0 (and ε > 0 when strict)."""
        guess = [gram[a, b] for a, b in self.cells] + ([epsilon / 2] if self.search.strict else [])
        for denominator in DENOMINATORS:
            rounded = [Fraction(round(value * denominator), denominator) for value in guess]
            values = _project(self.matrix, self.rhs, rounded)
            if values is None:
                return None
            exact_epsilon = values[len(self.cells)] if self.search.strict else Fraction(0)
            if self.search.strict and exact_epsilon <= 0:
                continue
            size = len(self.basis)
            matrix = [[Fraction(0)] * size for _ in range(size)]
            for (a, b), value in zip(self.cells, values, strict=False):
                matrix[a][b] = matrix[b][a] = value
            factors = _ldl(matrix)
            if factors is not None:
                monomials = [_monomial(m, self.search.generators) for m in self.basis]
                squares = [
                    (weight, sum((c * m for c, m in zip(row, monomials, strict=True)), sp.Integer(0)))
                    for weight, row in factors
                ]
                return exact_epsilon, [(w, sp.expand(form)) for w, form in squares if w != 0]
        return None


def _project(
    matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction], guess: list[Fraction]
) -> list[Fraction] | None:
    """The point of {y : A y = b} nearest ``guess``, in exact rationals (None when the equations have no solution)."""
    rows = [(list(row), value) for row, value in zip(matrix, rhs, strict=True) if any(row)]
    if not rows:
        return guess
    a = DomainMatrix([[QQ(x.numerator, x.denominator) for x in row] for row, _ in rows], (len(rows), len(guess)), QQ)
    b = DomainMatrix([[QQ(v.numerator, v.denominator)] for _, v in rows], (len(rows), 1), QQ)
    y = DomainMatrix([[QQ(v.numerator, v.denominator)] for v in guess], (len(guess), 1), QQ)
    augmented = a.hstack(b)
    reduced, pivots = augmented.rref()
    if len(guess) in pivots:
        return None
    independent = reduced[: len(pivots), : len(guess)]
    target = reduced[: len(pivots), len(guess) :]
    residual = independent * y - target
    correction = independent.transpose() * (independent * independent.transpose()).inv() * residual
    projected = (y - correction).to_Matrix()
    return [Fraction(int(sp.numer(v)), int(sp.denom(v))) for v in projected]


def _ldl(matrix: list[list[Fraction]]) -> list[tuple[Fraction, list[Fraction]]] | None:
    """Q = Σ w_i ℓ_i ℓ_iᵀ with w_i ≥ 0, by exact symmetric elimination; None unless Q ⪰ 0."""
    work = [row[:] for row in matrix]
    size = len(work)
    factors = []
    for pivot in range(size):
        weight = work[pivot][pivot]
        if weight < 0:
            return None
        if weight == 0:
            if any(work[pivot][j] != 0 for j in range(pivot, size)):
                return None
            continue
        column = [Fraction(0)] * pivot + [work[i][pivot] / weight for i in range(pivot, size)]
        factors.append((weight, column))
        for i in range(pivot, size):
            for j in range(pivot, size):
                work[i][j] -= weight * column[i] * column[j]
    return factors


def _terms(polynomial: sp.Expr, generators: Sequence[sp.Expr]) -> dict[Monomial, Fraction]:
    """The polynomial's rational coefficients by monomial (ValueError for any other coefficient)."""
    terms: dict[Monomial, Fraction] = {}
    for monomial, coefficient in sp.Poly(polynomial, *generators).terms():
        exact = sp.Rational(coefficient) if coefficient.is_Float else coefficient  # a float's exact binary value
        if not exact.is_Rational:
            raise ValueError(f"coefficient {coefficient} is not rational")
        terms[monomial] = Fraction(int(exact.p), int(exact.q))
    return terms


def _monomial(exponents: Iterable[int], generators: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Mul(*(g**e for g, e in zip(generators, exponents, strict=True)))
