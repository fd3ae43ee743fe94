"""Near-miss identities made mechanically from the true ones in tests/identities.py.

Each mutant changes one node of one side of a true identity: a coefficient, the sign of a
term, an angle's multiple, a constant added to an angle, an angle's sign, omega's base 10000 → 1000, or sin
swapped for cos. The generator is seeded, so the corpus is the same on every run. Some
mutants are still true (cos is even, sin² + cos² = 1 for any angle): the tests classify
them numerically instead of assuming they are false.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import sympy as sp

from tests.identities import TRUE

SEED = 20_240_601
TARGET = 240
"""How many mutants to generate (the tests require at least 200 of them to be false)."""

Path = tuple[int, ...]
Side = sp.Basic | sp.MatrixBase


@dataclass(frozen=True)
class Mutant:
    """One perturbed identity and where it came from."""

    name: str
    origin: str
    kind: str
    lhs: Side
    rhs: Side


def _nodes(expr: sp.Basic, path: Path = ()) -> Iterator[tuple[Path, sp.Basic]]:
    """Every node with its path of argument indices; a Sum's limits are left alone."""
    yield path, expr
    arguments = expr.args[:1] if isinstance(expr, sp.Sum) else expr.args
    for index, argument in enumerate(arguments):
        if isinstance(argument, sp.Basic) and not isinstance(argument, sp.Tuple):
            yield from _nodes(argument, (*path, index))


def _replace(expr: sp.Basic, path: Path, new: sp.Basic) -> sp.Basic:
    """``expr`` with the node at ``path`` replaced (the rebuilt tree is evaluated as SymPy does)."""
    if not path:
        return new
    arguments = list(expr.args)
    arguments[path[0]] = _replace(arguments[path[0]], path[1:], new)
    return expr.func(*arguments)


def _new_number(number: sp.Number, rng: random.Random) -> sp.Basic | None:
    if not number.is_Rational:
        return None
    choices = [number + 1, number - 1, 2 * number, -number, number / 2 if number.is_Integer else number + 2]
    choices = [c for c in choices if c != number and c != 0]
    return rng.choice(choices)


def _coefficient(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    return _new_number(node, rng) if isinstance(node, sp.Number) else None


def _sign(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    if not isinstance(node, sp.Add):
        return None
    terms = list(node.args)
    flipped = rng.randrange(len(terms))
    terms[flipped] = -terms[flipped]
    return sp.Add(*terms)


def _multiple(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    if not isinstance(node, sp.sin | sp.cos):
        return None
    return node.func(rng.choice([2, 3, sp.Rational(1, 2)]) * node.args[0])


def _constant(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    if not isinstance(node, sp.sin | sp.cos):
        return None
    return node.func(node.args[0] + rng.choice([sp.Integer(1), sp.Rational(1, 3), sp.pi / 3, sp.pi / 4]))


def _negate(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    """sin(-θ) or cos(-θ), kept unevaluated: true wherever only an even function of it matters."""
    if not isinstance(node, sp.sin | sp.cos):
        return None
    return node.func(-node.args[0], evaluate=False)


def _swap(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    if not isinstance(node, sp.sin | sp.cos):
        return None
    return (sp.cos if isinstance(node, sp.sin) else sp.sin)(node.args[0])


def _base(node: sp.Basic, rng: random.Random) -> sp.Basic | None:
    if isinstance(node, sp.Pow) and node.base == 10000:
        return sp.Pow(sp.Integer(1000), node.exp)
    return None


MUTATIONS: dict[str, Callable[[sp.Basic, random.Random], sp.Basic | None]] = {
    "coefficient": _coefficient,
    "sign": _sign,
    "angle multiple": _multiple,
    "angle constant": _constant,
    "angle sign": _negate,
    "sin-cos swap": _swap,
    "base 1000": _base,
}


def _sides(lhs: object, rhs: object) -> list[tuple[str, tuple[int, int] | None, sp.Basic]]:
    """The mutable expressions of an identity: each side, or each entry of a matrix side."""
    found = []
    for label, side in (("lhs", lhs), ("rhs", rhs)):
        if isinstance(side, sp.MatrixBase):
            found += [(label, (r, c), side[r, c]) for r in range(side.rows) for c in range(side.cols)]
        else:
            found.append((label, None, _sympy(side)))
    return found


def _sympy(value: object) -> Side:
    """A side as a SymPy object: matrices immutable, Python ints as Integer."""
    if isinstance(value, sp.MatrixBase):
        return sp.ImmutableMatrix(value)
    return value if isinstance(value, sp.Basic) else sp.Integer(value)


def _mutate(lhs: object, rhs: object, kind: str, rng: random.Random) -> tuple[Side, Side] | None:
    """One mutation of ``kind`` at a random applicable node, or None where it applies nowhere."""
    mutation = MUTATIONS[kind]
    sites = [
        (label, entry, path, node)
        for label, entry, expr in _sides(lhs, rhs)
        for path, node in _nodes(expr)
        if mutation(node, random.Random(0)) is not None
    ]
    if not sites:
        return None
    label, entry, path, node = rng.choice(sites)
    new = mutation(node, rng)
    side = lhs if label == "lhs" else rhs
    if entry is None:
        mutated: Side = _replace(_sympy(side), path, new)
    else:
        entries = sp.Matrix(side)
        entries[entry] = _replace(side[entry], path, new)
        mutated = sp.ImmutableMatrix(entries)
    return (mutated, _sympy(rhs)) if label == "lhs" else (_sympy(lhs), mutated)


def mutants(target: int = TARGET, seed: int = SEED) -> list[Mutant]:
    """``target`` distinct mutants of the true identities, the same list for the same seed."""
    rng = random.Random(seed)
    seen = {sp.srepr((_sympy(lhs), _sympy(rhs))) for _, lhs, rhs in TRUE}
    found: list[Mutant] = []
    for _ in range(50):
        for origin, lhs, rhs in TRUE:
            for kind in MUTATIONS:
                changed = _mutate(lhs, rhs, kind, rng)
                if changed is None:
                    continue
                key = sp.srepr(changed)
                if key in seen:
                    continue
                seen.add(key)
                found.append(Mutant(f"{origin} / {kind} #{len(found) + 1}", origin, kind, *changed))
                if len(found) == target:
                    return found
    raise RuntimeError(f"only {len(found)} distinct mutants after 50 rounds")
