"""Sum-of-squares certificates: f = ε + Σ w_i·ℓ_i² + Σ q_j·(s_j² + c_j² − 1), exactly.

A Gram matrix Q ⪰ 0 with f ≡ ε + mᵀ Q m modulo s_j² + c_j² = 1 (m: monomials of half f's degree, those in half
the Newton polytope of f's free reals; Q block diagonal by f's sign symmetries, checks.symbolic.sparsity) is found
by semidefinite programming (cvxpy with Clarabel), in floating point. It then becomes exact: rounded to
rationals, projected onto the linear equations in exact arithmetic (Peyrl and Parrilo's rounding), and factored
as Q = L·diag(w)·Lᵀ by exact elimination, which fails unless Q is positive semidefinite. Where f is tight, every
Q is singular and no rounding passes: the kernel is found exactly and the search goes on on that face
(checks.symbolic.face). The quotients q_j come from dividing the rest by the relations. Only
``Certificate.verify`` (the small kernel, checks.symbolic.kernel) decides: the floating-point solution is a guess
and never proves anything.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.matrices import DomainMatrix

from checks.symbolic.face import complement, exact_kernel
from checks.symbolic.fragment import Translation
from checks.symbolic.sparsity import blocks, in_half_newton_polytope, sign_symmetries

Monomial = tuple[int, ...]
"""Exponents over the translation's generators."""

Polynomial = dict[Monomial, Fraction]

DENOMINATORS = (10**4, 10**6, 10**9, 10**12)
"""Rounding grids tried in turn: coarse grids give short certificates, fine ones pass near the cone's boundary."""
MAX_CELLS = 2500
"""Gram entries (over all blocks) at most: beyond, the exact projection would not fit the proof budget."""
INTERIOR = 1e-7
"""Below this smallest eigenvalue the solution is on the cone's boundary: reduce to the face it lies on."""
TOLERANCES = {"tol_gap_abs": 1e-12, "tol_gap_rel": 1e-12, "tol_feas": 1e-12}
"""Clarabel's stopping rule, far below its default 1e-8: on a face the kernel's accuracy is the square root of it."""
FACES = 3
"""Facial reductions tried before the search gives up on a basis."""


class SosSearch:
    """The search for one polynomial ``f`` ≥ 0 (or > 0 when ``strict``) over a translation's generators."""

    def __init__(self, translation: Translation, polynomial: sp.Expr, strict: bool) -> None:
        self.generators = translation.generators
        self.pairs = [(self.generators.index(a.sin), self.generators.index(a.cos)) for a in translation.atoms]
        self.sines = {sine for sine, _ in self.pairs}
        self.reals = [i for i in range(len(self.generators)) if all(i not in pair for pair in self.pairs)]
        self.strict = strict
        self.target = self.normal_form(_terms(polynomial, self.generators))
        self.symmetries = sign_symmetries(self.target, len(self.generators))
        self._reduced: dict[Monomial, Polynomial] = {}

    def normal_form(self, terms: Polynomial) -> Polynomial:
        """The remainder modulo s_j² + c_j² − 1 (lex, s before c): every s_j² becomes 1 − c_j²."""
        done: Polynomial = {}
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

    def reduced_product(self, first: Polynomial, second: Polynomial) -> Polynomial:
        """NF(first · second), each monomial's normal form computed once."""
        product: Polynomial = {}
        for m, a in first.items():
            for n, b in second.items():
                joined = tuple(x + y for x, y in zip(m, n, strict=True))
                if joined not in self._reduced:
                    self._reduced[joined] = self.normal_form({joined: Fraction(1)})
                for monomial, c in self._reduced[joined].items():
                    product[monomial] = product.get(monomial, Fraction(0)) + a * b * c
        return product

    def half_basis(self, extra: int = 0) -> list[Monomial]:
        """Monomials of degree ≤ ⌈deg f / 2⌉ (+ extra), each s_j at most linear (s_j² reduces), whose real part lies
        in half the Newton polytope of f's real part (checks.symbolic.sparsity)."""
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
        return in_half_newton_polytope(basis, self.target, self.reals)

    def certificate(self) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """(ε, [(w_i, ℓ_i)]) with f ≡ ε + Σ w_i ℓ_i² exactly in the quotient ring, or None."""
        if not self.target:
            return (Fraction(0), []) if not self.strict else None
        for extra in (0, 1):
            split = blocks(self.half_basis(extra), self.symmetries)
            if sum(len(b) * (len(b) + 1) // 2 for b in split) > MAX_CELLS:
                return None
            found = self._on_face([[{m: Fraction(1)} for m in block] for block in split])
            if found is not None:
                return found
        return None

    def _on_face(self, split: list[list[Polynomial]]) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """Solve; while the solution sits on the cone's boundary, restrict each block whose kernel is exact to its
        face (checks.symbolic.face) and solve again."""
        for _ in range(FACES + 1):
            system = GramSystem(self, split)
            if not system.consistent:
                return None
            solution = system.solve_numerically()
            if solution is None:
                return None
            grams, epsilon, smallest = solution
            scale = max(1.0, *(float(np.max(np.abs(gram))) for gram in grams))
            if smallest < -INTERIOR * scale:
                return None  # the best Gram matrix has a negative eigenvalue: no certificate on this basis
            exact = system.exact(grams, epsilon)
            if exact is not None or smallest > INTERIOR * scale:
                return exact
            faces = [_restricted(block, gram) for block, gram in zip(split, grams, strict=True)]
            faces = [block if face is None else face for face, block in zip(faces, split, strict=True)]
            if all(len(face) == len(block) for face, block in zip(faces, split, strict=True)):
                return None
            split = [face for face in faces if face]
            if not split:
                return None
        return None


def _restricted(block: list[Polynomial], gram: np.ndarray) -> list[Polynomial] | None:
    """The block's polynomials Nᵀ·p spanning the complement of the Gram matrix's exact kernel (None: not exact;
    [] when the whole block is kernel)."""
    kernel = exact_kernel(gram)
    if kernel is None:
        return None
    reduced = []
    for column in complement(kernel, len(block)):
        combined: Polynomial = {}
        for index, weight in column.items():
            for monomial, c in block[index].items():
                combined[monomial] = combined.get(monomial, Fraction(0)) + weight * c
        reduced.append({m: c for m, c in combined.items() if c != 0})
    return reduced


class GramSystem:
    """The linear equations NF(Σ_B p_Bᵀ Q_B p_B) + ε = NF(f) over the upper triangles of the blocks' Q_B (and ε
    when strict); each block is a list of polynomials p_B (monomials, or their combinations on a face)."""

    def __init__(self, search: SosSearch, split: list[list[Polynomial]]) -> None:
        self.search, self.split = search, split
        self.cells = [
            (k, a, b) for k, block in enumerate(split) for a in range(len(block)) for b in range(a, len(block))
        ]
        rows: dict[Monomial, dict[int, Fraction]] = {}
        for column, (k, a, b) in enumerate(self.cells):
            factor = Fraction(1 if a == b else 2)
            for monomial, coefficient in search.reduced_product(split[k][a], split[k][b]).items():
                row = rows.setdefault(monomial, {})
                row[column] = row.get(column, Fraction(0)) + factor * coefficient
        self.unknowns = len(self.cells) + (1 if search.strict else 0)
        if search.strict:
            rows.setdefault(tuple([0] * len(search.generators)), {})[len(self.cells)] = Fraction(1)
        self.monomials = sorted(set(rows) | set(search.target))
        self.matrix = [[rows.get(m, {}).get(j, Fraction(0)) for j in range(self.unknowns)] for m in self.monomials]
        self.rhs = [search.target.get(m, Fraction(0)) for m in self.monomials]
        self.consistent = all(any(row) or value == 0 for row, value in zip(self.matrix, self.rhs, strict=True))

    def solve_numerically(self) -> tuple[list[np.ndarray], float, float] | None:
        """([Q_B], ε, min_B λ_min(Q_B)) maximizing the smallest eigenvalue (and ε), or None when the solver fails."""
        import cvxpy as cp

        grams = [cp.Variable((len(block), len(block)), symmetric=True) for block in self.split]
        floor = cp.Variable()
        epsilon = cp.Variable(nonneg=True) if self.search.strict else None
        values = [grams[k][a, b] for k, a, b in self.cells] + ([epsilon] if epsilon is not None else [])
        matrix = np.array([[float(x) for x in row] for row in self.matrix])
        constraints = [matrix @ cp.hstack(values) == np.array([float(x) for x in self.rhs]), floor <= 1]
        constraints += [gram - floor * np.eye(gram.shape[0]) >> 0 for gram in grams]
        objective = floor + (cp.minimum(epsilon, 1) if epsilon is not None else 0)
        problem = cp.Problem(cp.Maximize(objective), constraints)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "may be inaccurate": the exact steps decide
                problem.solve(solver=cp.CLARABEL, **TOLERANCES)
        except cp.error.SolverError:
            return None
        if problem.status not in ("optimal", "optimal_inaccurate") or any(g.value is None for g in grams):
            return None
        found_epsilon = float(epsilon.value) if epsilon is not None else 0.0
        return [np.array(g.value) for g in grams], found_epsilon, float(floor.value)

    def exact(self, grams: list[np.ndarray], epsilon: float) -> tuple[Fraction, list[tuple[Fraction, sp.Expr]]] | None:
        """Round, project onto the equations exactly and factor each block; None unless every Q_B ⪰ 0 (and ε > 0
        when strict)."""
        guess = [grams[k][a, b] for k, a, b in self.cells] + ([epsilon / 2] if self.search.strict else [])
        for denominator in DENOMINATORS:
            rounded = [Fraction(round(value * denominator), denominator) for value in guess]
            values = _project(self.matrix, self.rhs, rounded)
            if values is None:
                return None
            exact_epsilon = values[len(self.cells)] if self.search.strict else Fraction(0)
            if self.search.strict and exact_epsilon <= 0:
                continue
            squares = self._squares(values)
            if squares is not None:
                return exact_epsilon, squares
        return None

    def _squares(self, values: list[Fraction]) -> list[tuple[Fraction, sp.Expr]] | None:
        """[(w, ℓ)] from the exact LDLᵀ factors of every block, or None when one block is not ⪰ 0."""
        matrices = [[[Fraction(0)] * len(block) for _ in block] for block in self.split]
        for (k, a, b), value in zip(self.cells, values, strict=False):
            matrices[k][a][b] = matrices[k][b][a] = value
        squares = []
        for block, matrix in zip(self.split, matrices, strict=True):
            factors = _ldl(matrix)
            if factors is None:
                return None
            polynomials = [_expression(p, self.search.generators) for p in block]
            for weight, row in factors:
                if weight != 0:
                    form = sum((c * p for c, p in zip(row, polynomials, strict=True)), sp.Integer(0))
                    squares.append((weight, sp.expand(form)))
        return squares


def _project(
    matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction], guess: list[Fraction]
) -> list[Fraction] | None:
    """The point of {y : A y = b} nearest ``guess``, in exact rationals (None when the equations have no solution).

    Sparse throughout: R y = t, the independent rows of the reduced echelon form of [A | b], then
    y − Rᵀ·z with (R Rᵀ) z = R y − t, solved by a second sparse elimination."""
    rows = [(row, value) for row, value in zip(matrix, rhs, strict=True) if any(row)]
    if not rows:
        return guess
    width = len(guess)
    augmented = DomainMatrix(
        {
            i: {j: QQ(x.numerator, x.denominator) for j, x in enumerate((*row, value)) if x}
            for i, (row, value) in enumerate(rows)
        },
        (len(rows), width + 1),
        QQ,
    )
    reduced, pivots = augmented.rref()
    if width in pivots:
        return None
    independent = reduced[: len(pivots), :width]
    target = reduced[: len(pivots), width:]
    y = DomainMatrix({i: {0: QQ(v.numerator, v.denominator)} for i, v in enumerate(guess) if v}, (width, 1), QQ)
    residual = independent * y - target
    normal = (independent * independent.transpose()).hstack(residual)
    solved, _ = normal.rref()
    correction = independent.transpose() * solved[:, len(pivots) :]
    projected = (y - correction).to_list_flat()
    return [Fraction(int(v.numerator), int(v.denominator)) for v in projected]


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


def _expression(polynomial: Polynomial, generators: Sequence[sp.Expr]) -> sp.Expr:
    return sp.Add(
        *(
            sp.Rational(c.numerator, c.denominator) * sp.Mul(*(g**e for g, e in zip(generators, m, strict=True)))
            for m, c in polynomial.items()
        )
    )
