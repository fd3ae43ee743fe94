"""Moments of polynomials in independent random variables, derived by rules with a certificate.

A proof declares random variables with their stated moments (``p.random``; ``p.random_vector``, whose components
are independent, each with the same stated moments) and which of them are independent (``p.independent``). A moment
is then derived by these rules only:

- linearity: the expression is multiplied out into terms c · Σ over its indices of a product of variables, c free of
  random variables;
- sums over a symbolic count, termwise as checks.symbolic.sums decides them: a term's summation indices are split
  by which of them are equal (i = j: n terms; i ≠ j: n(n − 1) terms; …), since components at different indices are
  distinct variables;
- independence: E of a product of distinct, independent variables is the product of their expectations;
- the stated moments: E X = mean, E X² = Var X + (E X)², E X^m as stated. A moment needed and not stated leaves the
  derivation unknown, never proved.

Each rewriting is a shown step. The regrouping of each product and the assembly of the result are polynomial
identities that the small kernel (checks.symbolic.kernel) re-checks by multiplying out: the certificate. Anything the
kernel does not read (1/√d_k, a sum with no random variable) stands in it as a variable of its own, so the identity
it checks holds whatever that value is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

import sympy as sp

from checks.symbolic.decide import as_sympy
from checks.symbolic.decision import Certificate, Decision, Relation, Step, statement

E = sp.Function("E")
"""E(x): how an expectation is shown in a step (never decided)."""
VARIANCE = sp.Function("Var")
MAXIMUM_INDICES = 6
"""Summation indices in one product beyond which the equality patterns (Bell numbers) are not enumerated."""
MAXIMUM_TERMS = 5000

Limits = tuple[sp.Symbol, sp.Expr, sp.Expr]


class RandomOutsideExpectation(TypeError):
    """A random variable where a decision needs a value: only its moments have one."""


class Open(Exception):
    """A moment the rules cannot give: the derivation stays unknown, with this reason."""


@dataclass(frozen=True)
class Variable:
    """A declared random variable (a symbol) or vector (an indexed name whose components are independent, each with
    these moments), with the moments the proof states: E X^m for m = 1 (mean), 2 (from the variance) and higher."""

    handle: sp.Symbol | sp.IndexedBase
    mean: sp.Expr | None
    variance: sp.Expr | None
    higher: tuple[tuple[int, sp.Expr], ...] = ()

    @property
    def name(self) -> str:
        return str(self.handle)

    @property
    def component(self) -> str:
        return f"{self.name}_i" if isinstance(self.handle, sp.IndexedBase) else self.name

    @property
    def assumption(self) -> str:
        """The declaration as the proof's page states it."""
        x = self.component
        stated = [f"E {x} = {sp.sstr(self.mean)}"] if self.mean is not None else []
        stated += [f"Var {x} = {sp.sstr(self.variance)}"] if self.variance is not None else []
        stated += [f"E {x}^{m} = {sp.sstr(value)}" for m, value in self.higher]
        moments = ", ".join(stated) or "no moment stated"
        if isinstance(self.handle, sp.IndexedBase):
            return f"{self.name}: components {x} independent, each with {moments}"
        return f"{self.name}: {moments}"

    def raw(self, power: int, shown: sp.Expr) -> sp.Expr:
        """E X^power from the stated moments, unevaluated so that the kernel does its arithmetic; Open if not stated."""
        if power == 0:
            return sp.Integer(1)
        if power == 1 and self.mean is not None:
            return self.mean
        if power == 2 and self.mean is not None and self.variance is not None:
            return sp.Add(self.variance, sp.Pow(self.mean, 2, evaluate=False), evaluate=False)
        higher = dict(self.higher)
        if power in higher:
            return higher[power]
        needed = "the mean" if power == 1 else "the mean and the variance" if power == 2 else f"moments={{{power}: …}}"
        raise Open(f"E[{sp.sstr(shown)}] is not stated (declare {needed} of {self.name})")


@dataclass(frozen=True)
class Term:
    """coefficient · Σ over ``limits`` of the product of ``atoms`` (random variables or components, repeated)."""

    coefficient: sp.Expr
    limits: tuple[Limits, ...] = ()
    atoms: tuple[sp.Expr, ...] = ()

    def times(self, other: Term) -> Term:
        return Term(self.coefficient * other.coefficient, self.limits + other.limits, self.atoms + other.atoms)

    @property
    def shown(self) -> sp.Expr:
        """c · Σ E[Π atoms], as a step shows it."""
        inner = E(sp.Mul(*self.atoms))
        return self.coefficient * (sp.Sum(inner, *self.limits) if self.limits else inner)


@dataclass
class DerivedMoment:
    """A derived moment: the decision recording it (proved when every certificate holds) and its value."""

    decision: Decision
    value: sp.Expr


@dataclass
class Moments:
    """The random variables a proof declared, which are independent, and the moments derived from them."""

    variables: dict[sp.Basic, Variable] = field(default_factory=dict)
    groups: list[frozenset[sp.Basic]] = field(default_factory=list)
    """Each ``independent(...)`` statement: its variables (every component of a vector) are mutually independent."""
    unknown: set[sp.Symbol] = field(default_factory=set)
    """Stand-ins returned for moments the rules could not give: a decision on one of them is unknown."""

    def declare(
        self, name: str, mean: object, variance: object, moments: Mapping[int, object], vector: bool
    ) -> Variable:
        if any(v.name == name for v in self.variables.values()):
            raise ValueError(f"a random variable named {name!r} is already declared in this proof")
        if any(not isinstance(m, int) or m < 3 for m in moments):
            raise ValueError(f"moments= takes E X^m for m ≥ 3 (state m = 1, 2 with mean= and variance=): {moments}")
        handle = sp.IndexedBase(name, real=True) if vector else sp.Symbol(name, real=True)
        higher = tuple(sorted((m, self._exact(value, f"E {name}^{m}")) for m, value in moments.items()))
        variable = Variable(handle, self._exact(mean, "mean"), self._exact(variance, "variance"), higher)
        self.variables[handle] = variable
        return variable

    def _exact(self, value: object, what: str) -> sp.Expr | None:
        if value is None:
            return None
        exact = as_sympy(value)
        if exact.has(sp.Float):
            raise ValueError(f"the {what} {value} is a float: state it exactly, e.g. sp.Rational(1, 2) for 0.5")
        if self.random_in(exact):
            raise ValueError(f"the {what} {value} holds a random variable: a moment is a number or a formula")
        return exact

    def independent(self, handles: tuple[sp.Basic, ...]) -> str:
        """Record that the variables are mutually independent; the assumption as the page states it."""
        unknown = [h for h in handles if h not in self.variables]
        if unknown or len(handles) < 2:
            raise ValueError(
                f"p.independent takes two or more variables declared with p.random or p.random_vector, not {handles}"
            )
        self.groups.append(frozenset(handles))
        names = [str(h) for h in handles]
        said = f"{', '.join(names[:-1])} and {names[-1]} independent"
        if any(isinstance(h, sp.IndexedBase) for h in handles):
            said += ": all their components mutually independent"
        return said

    def admit(self, *sides: object) -> str:
        """Refuse a side that holds a random variable; the reason a side rests on an open moment ("" if none)."""
        for side in sides:
            found = self.random_in(as_sympy(side))
            if found:
                raise RandomOutsideExpectation(
                    f"p.decide got the random {', '.join(map(str, found))}, which has no single value: "
                    "decide a moment of it, p.expectation(...) or p.variance(...)"
                )
        if any(as_sympy(side).free_symbols & self.unknown for side in sides):
            return "it rests on a moment the stated assumptions do not give (see the derivation above)"
        return ""

    def random_in(self, expr: sp.Basic) -> list[sp.Basic]:
        return [handle for handle in self.variables if expr.has(handle)]

    def expectation(self, expr: object) -> DerivedMoment:
        value = as_sympy(expr)
        return self._derive(E(value), lambda derive: derive.moment(value))

    def variance(self, expr: object) -> DerivedMoment:
        value = as_sympy(expr)

        def assembly(derive: _Derive) -> sp.Expr:
            derive.steps.append(Step("Var X = E[X²] − (E X)²", sp.Eq(VARIANCE(value), E(value**2) - E(value) ** 2)))
            square, mean = derive.moment(value**2), derive.moment(value)
            return sp.Add(square, sp.Mul(-1, sp.Pow(mean, 2, evaluate=False), evaluate=False), evaluate=False)

        return self._derive(VARIANCE(value), assembly)

    def _derive(self, shown: sp.Expr, assembly: Callable[[_Derive], sp.Expr]) -> DerivedMoment:
        derive = _Derive(self, _names(shown))
        try:
            value = derive.certify(assembly(derive))
        except Open as why:
            stand_in = sp.Dummy("unknown")
            self.unknown.add(stand_in)
            steps = [Step("statement", shown), *derive.steps]
            unknown = Decision("unknown", shown, stand_in, steps, reason=str(why), methods=["moments"])
            return DerivedMoment(unknown, stand_in)
        decision = Decision("unknown", shown, value, [Step("statement", sp.Eq(shown, value)), *derive.steps])
        decision.used("moments")
        decision.certificates, decision.conditions = derive.certificates, derive.conditions
        problems = [c.problem() for c in derive.certificates if c.problem()]
        if problems:
            decision.reason = f"the certificate did not re-check: {problems[0]}"
        else:
            decision.status = "proved"
        return DerivedMoment(decision, value)


def pending(lhs: object, rhs: object, relation: Relation, reason: str) -> Decision:
    """An unknown decision that was not attempted, with its reason."""
    left, right = as_sympy(lhs), as_sympy(rhs)
    return Decision("unknown", left, right, [Step("statement", statement(left, right, relation))], reason=reason)


class _Derive:
    """One derivation's expansion, shown steps, certificates and conditions."""

    def __init__(self, moments: Moments, taken: set[str]) -> None:
        self.moments = moments
        self.taken = taken
        self.steps: list[Step] = []
        self.certificates: list[Certificate] = []
        self.conditions: list[str] = []
        self.opaque: dict[sp.Basic, sp.Symbol] = {}
        self.shown: set[tuple[sp.Basic, int]] = set()

    def moment(self, expr: sp.Expr) -> sp.Expr:
        """E[expr] as an unevaluated assembly of coefficients, counts and stated moments (Open if a rule fails)."""
        terms = self.terms(expr)
        self.steps.append(Step("linearity", sp.Eq(E(expr), sp.Add(*(t.shown for t in terms)))))
        if not expr.has(sp.Sum):
            written = sp.Add(*(sp.Mul(t.coefficient, *t.atoms, evaluate=False) for t in terms), evaluate=False)
            self.check(sp.Add(expr, sp.Mul(-1, written, evaluate=False), evaluate=False))
        return sp.Add(*(piece for term in terms for piece in self.pieces(term)), evaluate=False)

    def terms(self, expr: sp.Expr) -> list[Term]:
        """expr multiplied out (linearity, products of sums as sums over several indices)."""
        moments = self.moments
        if not moments.random_in(expr):
            return [Term(expr)]
        if isinstance(expr, sp.Symbol | sp.Indexed) and (expr.base if isinstance(expr, sp.Indexed) else expr) in (
            moments.variables
        ):
            return [Term(sp.Integer(1), (), (expr,))]
        if isinstance(expr, sp.Add):
            return [t for arg in expr.args for t in self.terms(arg)]
        if isinstance(expr, sp.Mul):
            return self.product([self.terms(arg) for arg in expr.args])
        if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Integer) and expr.exp >= 0:
            return self.product([self.terms(expr.base) for _ in range(int(expr.exp))])  # fresh indices each time
        if isinstance(expr, sp.Sum):
            return self.summed(expr)
        raise Open(f"{sp.sstr(expr)} is not a sum of products of the random variables: no rule gives its moment")

    def product(self, factors: list[list[Term]]) -> list[Term]:
        result = [Term(sp.Integer(1))]
        for factor in factors:
            result = [left.times(right) for left in result for right in factor]
            if len(result) > MAXIMUM_TERMS:
                raise Open(f"the expansion has more than {MAXIMUM_TERMS} terms")
        return result

    def summed(self, expr: sp.Sum) -> list[Term]:
        """Σ over each range, the index renamed apart (a square of a sum is a double sum over i and j)."""
        function, limits = expr.function, []
        for index, low, high in expr.limits:
            fresh = sp.Symbol(_fresh(index.name, self.taken), **index.assumptions0)
            function, limits = function.xreplace({index: fresh}), [*limits, (fresh, low, high)]
        return [Term(t.coefficient, t.limits + tuple(limits), t.atoms) for t in self.terms(function)]

    def pieces(self, term: Term) -> Iterator[sp.Expr]:
        """E of one term: one piece per pattern of equal indices, c · (number of index tuples) · Π stated moments."""
        indices = [index for index, _, _ in term.limits]
        if term.coefficient.has(*indices) or any(b.has(*indices) for _, low, high in term.limits for b in (low, high)):
            raise Open(f"a coefficient or a range of {sp.sstr(term.shown)} depends on a summation index")
        used = [limits for limits in term.limits if any(a.has(limits[0]) for a in term.atoms)]
        if len(used) > MAXIMUM_INDICES:
            raise Open(f"more than {MAXIMUM_INDICES} summation indices in one product")
        self._components(term, {index: (low, high) for index, low, high in used})
        spread = [self.count(limits) for limits in term.limits if limits not in used]
        for blocks in _partitions(used):
            yield self.piece(term, blocks, spread)

    def piece(self, term: Term, blocks: list[list[Limits]], spread: list[sp.Expr]) -> sp.Expr:
        same = {index: block[0][0] for block in blocks for index, _, _ in block}
        merged = [atom.xreplace(same) for atom in term.atoms]
        powers = Counter(merged)
        grouped = sp.Mul(*(atom**power for atom, power in powers.items()))
        if len(merged) > 1:
            self.check(sp.Add(sp.Mul(*merged, evaluate=False), sp.Mul(-1, grouped, evaluate=False), evaluate=False))
        self._independent(list(powers))
        counts = [*spread, *self.tuples(blocks)]
        pattern = " ≠ ".join(" = ".join(str(index) for index, _, _ in block) for block in blocks)
        label = f"{pattern}: {sp.sstr(sp.Mul(*counts))} term(s)" if blocks else "one product"
        factored = sp.Mul(*(E(atom**power) for atom, power in powers.items()))
        self.steps.append(Step(f"{label}; independence factors it", sp.Eq(E(grouped), factored)))
        stated = [self.stated(atom, power) for atom, power in powers.items()]
        return sp.Mul(term.coefficient, *counts, *stated, evaluate=False)

    def tuples(self, blocks: list[list[Limits]]) -> list[sp.Expr]:
        """How many index tuples have this equality pattern: n(n − 1)…(n − b + 1) for b distinct values per range."""
        ranges = Counter((low, high) for ((_, low, high), *_) in blocks)
        return [
            sp.Add(self.count((None, low, high)), -taken)
            for (low, high), distinct in ranges.items()
            for taken in range(distinct)
        ]

    def count(self, limits: tuple) -> sp.Expr:
        """The number of terms of a range (the condition that it is a whole number, unless that is assumed)."""
        _, low, high = limits
        count = high - low + 1
        if count.is_integer is not True:
            condition = f"the number of terms {sp.sstr(count)} is a whole number"
            if condition not in self.conditions:
                self.conditions.append(condition)
        return count

    def stated(self, atom: sp.Expr, power: int) -> sp.Expr:
        """E atom^power from the declaration, shown once per variable and power."""
        variable = self.moments.variables[atom.base if isinstance(atom, sp.Indexed) else atom]
        value = variable.raw(power, atom**power)
        if (variable.handle, power) not in self.shown:
            self.shown.add((variable.handle, power))
            self.steps.append(Step(f"the stated moment of {variable.component}", sp.Eq(E(atom**power), value)))
        return value

    def _independent(self, distinct: list[sp.Expr]) -> None:
        handles = {atom.base if isinstance(atom, sp.Indexed) else atom for atom in distinct}
        if len(handles) > 1 and not any(handles <= group for group in self.moments.groups):
            names = " and ".join(sorted(map(str, handles)))
            raise Open(f"{names} are not stated independent (p.independent({', '.join(sorted(map(str, handles)))}))")

    def _components(self, term: Term, summed: dict[sp.Symbol, tuple[sp.Expr, sp.Expr]]) -> None:
        """Which components of a vector may be the same one is decided only when its summation indices share one
        range (then the equality patterns cover it) and its other indices are different whole numbers."""
        by_vector: dict[sp.Basic, set[sp.Expr]] = {}
        for atom in term.atoms:
            if not isinstance(atom, sp.Indexed):
                continue
            if len(atom.indices) != 1:
                raise Open(f"{atom}: a vector's component takes one index")
            (index,) = atom.indices
            if index not in summed and index.has(*summed):
                raise Open(f"{atom}: a summed component's index must be the summation index itself")
            by_vector.setdefault(atom.base, set()).add(index)
        for vector, indices in by_vector.items():
            if len({summed[index] for index in indices if index in summed}) > 1:
                raise Open(f"sums over {vector} with different ranges: which of their components meet is not decided")
            fixed = {index for index in indices if index not in summed}
            if fixed and len(fixed) < len(indices):
                raise Open(f"{vector} at {sp.sstr(sorted(fixed, key=sp.default_sort_key))} beside a sum over {vector}")
            if len(fixed) > 1 and not all(isinstance(index, sp.Integer) for index in fixed):
                raise Open(f"the components of {vector} at {', '.join(map(str, fixed))} may be the same one")

    def check(self, identity: sp.Expr) -> None:
        """Keep ``identity`` ≡ 0 as a certificate for the kernel, whatever it does not read standing as a variable."""
        self.certificates.append(Certificate(self._readable(identity), (), ()))

    def certify(self, assembly: sp.Expr) -> sp.Expr:
        """The value of the assembly; the kernel re-checks assembly − value ≡ 0 by multiplying out."""
        readable = self._readable(assembly)
        value = sp.expand(readable)
        self.check(sp.Add(readable, sp.Mul(-1, value, evaluate=False), evaluate=False))
        stood = {symbol: subtree for subtree, symbol in self.opaque.items()}
        result = sp.expand(value.xreplace(stood))
        shown = sp.Eq(assembly, result, evaluate=False)
        self.steps.append(Step("assembled; the kernel re-checks the arithmetic by multiplying out", shown))
        return result

    def _readable(self, tree: sp.Basic) -> sp.Basic:
        if isinstance(tree, sp.Rational | sp.Symbol | sp.Indexed):
            return tree
        if isinstance(tree, sp.Add | sp.Mul):
            return tree.func(*(self._readable(arg) for arg in tree.args), evaluate=False)
        if isinstance(tree, sp.Pow) and isinstance(tree.exp, sp.Integer) and tree.exp >= 0:
            return sp.Pow(self._readable(tree.base), tree.exp, evaluate=False)
        if tree not in self.opaque:
            self.opaque[tree] = sp.Symbol(_fresh("κ", self.taken))
        return self.opaque[tree]


def _partitions(items: list[Limits]) -> Iterator[list[list[Limits]]]:
    """Every way of making summation indices equal: set partitions whose blocks share one range."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        for at, block in enumerate(partition):
            if block[0][1:] == first[1:]:
                yield [*partition[:at], [first, *block], *partition[at + 1 :]]
        yield [[first], *partition]


def _names(expr: sp.Basic) -> set[str]:
    return {str(node) for node in sp.preorder_traversal(expr) if isinstance(node, sp.Symbol | sp.IndexedBase)}


def _fresh(stem: str, taken: set[str]) -> str:
    number = 1
    while f"{stem}_{number}" in taken:
        number += 1
    taken.add(f"{stem}_{number}")
    return f"{stem}_{number}"
