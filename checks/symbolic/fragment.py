"""Translate sin/cos of linear angle expressions into polynomials in s_j, c_j.

Every angle argument is expanded into rational multiples of monomials; each
monomial, divided by the lcm of its denominators, becomes an angle atom t_j.
sin and cos of an integer combination of atoms are expanded exactly through
(c_j + i s_j)^n, so the result is a polynomial in s_j = sin t_j, c_j = cos t_j
and the remaining (opaque) generators.  Whatever does not fit raises
``OutsideFragment``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm

import sympy as sp

MAX_MULTIPLE = 64
"""Largest integer multiple of an atom expanded; beyond it the answer is unknown."""

_TRIG = (sp.sin, sp.cos)


class OutsideFragment(ValueError):
    """The expression is not a polynomial in sin/cos of linear angles."""


@dataclass(frozen=True)
class Atom:
    """One independent angle t with its sine and cosine variables."""

    angle: sp.Expr
    sin: sp.Symbol
    cos: sp.Symbol

    @property
    def relation(self) -> sp.Expr:
        return self.sin**2 + self.cos**2 - 1


@dataclass(frozen=True)
class Translation:
    """A trig expression rewritten as a polynomial over atoms."""

    polynomial: sp.Expr
    atoms: tuple[Atom, ...]
    generators: tuple[sp.Expr, ...]

    @property
    def relations(self) -> tuple[sp.Expr, ...]:
        return tuple(atom.relation for atom in self.atoms)


def translate(expr: sp.Expr) -> Translation:
    """Rewrite ``expr`` as a polynomial in atom sines/cosines and other generators."""
    _reject_foreign_functions(expr)
    applications = sorted(expr.atoms(*_TRIG), key=sp.default_sort_key)
    decomposed = {app: _linear_terms(app.args[0]) for app in applications}
    atoms, multiples = _choose_atoms(decomposed, expr)
    replacements = {app: _expand_application(app, multiples[app], atoms) for app in applications}
    polynomial = sp.expand(expr.xreplace(replacements))
    if polynomial.atoms(*_TRIG):
        raise OutsideFragment("sin/cos remain after substitution (nested trig?)")
    trig_vars = [a.sin for a in atoms] + [a.cos for a in atoms]
    others = _other_generators(polynomial, set(trig_vars))
    return Translation(polynomial, tuple(atoms), tuple(trig_vars) + tuple(others))


def _reject_foreign_functions(expr: sp.Expr) -> None:
    foreign = [f for f in expr.atoms(sp.Function) if not isinstance(f, _TRIG)]
    if foreign:
        raise OutsideFragment(f"functions outside sin/cos: {sorted(map(str, foreign))}")
    for app in expr.atoms(*_TRIG):
        if app.args[0].atoms(*_TRIG) or app.args[0].atoms(sp.Function):
            raise OutsideFragment(f"non-linear angle {app.args[0]}")


def _linear_terms(angle: sp.Expr) -> list[tuple[sp.Rational, sp.Expr]]:
    """Split an angle into (rational coefficient, monomial) pairs."""
    terms = []
    for term in sp.Add.make_args(sp.expand(angle)):
        coeff, monomial = term.as_coeff_Mul()
        if not coeff.is_Rational:
            raise OutsideFragment(f"angle coefficient {coeff} is not rational")
        terms.append((sp.Rational(coeff), monomial))
    return terms


def _choose_atoms(
    decomposed: dict[sp.Expr, list[tuple[sp.Rational, sp.Expr]]], expr: sp.Expr
) -> tuple[list[Atom], dict[sp.Expr, list[tuple[int, sp.Expr]]]]:
    """One atom per monomial, scaled so every multiple is an integer."""
    denominators: dict[sp.Expr, int] = {}
    for terms in decomposed.values():
        for coeff, monomial in terms:
            denominators[monomial] = lcm(denominators.get(monomial, 1), int(coeff.q))
    taken = {str(s) for s in expr.free_symbols}
    atoms: dict[sp.Expr, Atom] = {}
    for index, monomial in enumerate(sorted(denominators, key=sp.default_sort_key), 1):
        angle = monomial / denominators[monomial]
        atoms[monomial] = Atom(angle, _fresh(f"s_{index}", taken), _fresh(f"c_{index}", taken))
    multiples = {app: [(int(coeff * denominators[m]), m) for coeff, m in terms] for app, terms in decomposed.items()}
    for app, pairs in multiples.items():
        for n, _ in pairs:
            if abs(n) > MAX_MULTIPLE:
                raise OutsideFragment(f"multiple {n} in {app} exceeds {MAX_MULTIPLE}")
    return list(atoms.values()), {app: [(n, atoms[m]) for n, m in pairs] for app, pairs in multiples.items()}


def _fresh(name: str, taken: set[str]) -> sp.Symbol:
    while name in taken:
        name += "'"
    taken.add(name)
    return sp.Symbol(name, real=True)


def _expand_application(app: sp.Expr, multiples: list[tuple[int, Atom]], atoms: list[Atom]) -> sp.Expr:
    """sin/cos(sum n_j t_j) as the imaginary/real part of prod (c_j + i s_j)^n_j."""
    re, im = sp.Integer(1), sp.Integer(0)
    for n, atom in multiples:
        c, s = _constant_pair(atom)
        step_im = s if n > 0 else -s
        for _ in range(abs(n)):
            re, im = sp.expand(re * c - im * step_im), sp.expand(re * step_im + im * c)
    return im if isinstance(app, sp.sin) else re


def _constant_pair(atom: Atom) -> tuple[sp.Expr, sp.Expr]:
    """Exact cos/sin for constant angles with a closed form, else the atom's variables."""
    if atom.angle.is_number:
        cos_value, sin_value = sp.cos(atom.angle), sp.sin(atom.angle)
        if not (cos_value.atoms(*_TRIG) or sin_value.atoms(*_TRIG)):
            return cos_value, sin_value
    return atom.cos, atom.sin


def _other_generators(polynomial: sp.Expr, trig_vars: set[sp.Symbol]) -> list[sp.Expr]:
    """Generators besides the atom variables: symbols, indexed entries, powers."""
    if polynomial.is_number:
        return []
    found = sp.Poly(polynomial).gens if polynomial.free_symbols else ()
    others = []
    for gen in found:
        if gen in trig_vars:
            continue
        if not isinstance(gen, (sp.Symbol, sp.Indexed, sp.Pow)) and not gen.is_number:
            raise OutsideFragment(f"generator {gen} is outside the fragment")
        others.append(gen)
    return sorted(others, key=sp.default_sort_key)
