"""The prover never proves a false identity: checked against the numbers at 30 digits.

Every identity (the hand-written corpus in tests/identities.py and the seeded mutants of
tests/identity_mutations.py) is evaluated at random rational points that respect the
symbols' assumptions. Substitution and evaluation are SymPy's own (xreplace, doit, N at
30 digits): no text is parsed. The numbers are the referee:

- proved, but nonzero at some point: the prover is unsound, the build fails;
- refuted, but zero at every point: the refutation is wrong, the build fails;
- unknown: allowed either way (never proved).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
import sympy as sp

from checks.symbolic import decide
from tests.identities import FALSE, TRUE, UNKNOWN
from tests.identity_mutations import Mutant, mutants

DIGITS = 30
POINTS = 4
ZERO = sp.Float("1e-20", DIGITS)
"""|lhs − rhs| ≤ ZERO · max(1, |lhs|, |rhs|) counts as zero (30-digit evaluation leaves about 1e-29)."""


def _value(symbol: sp.Symbol, rng: random.Random) -> sp.Expr:
    """A random rational consistent with the symbol's assumptions (independent of the prover's sampler)."""
    if symbol.is_even:
        return sp.Integer(2 * rng.randint(1, 12))
    if symbol.is_integer:
        low = 1 if symbol.is_positive else 0 if symbol.is_nonnegative else -20
        return sp.Integer(rng.randint(low, 20))
    if symbol.is_positive or symbol.is_nonnegative:
        return sp.Rational(rng.randint(1, 997), rng.randint(1, 97))
    return sp.Rational(rng.randint(-997, 997), rng.randint(1, 97))


def _entries(side: object) -> list[sp.Expr]:
    if isinstance(side, sp.MatrixBase):
        return list(side)
    return [side if isinstance(side, sp.Basic) else sp.Integer(side)]


def _number(expr: sp.Expr, assignment: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    concrete = expr.xreplace(assignment)
    if concrete.has(sp.Sum):
        concrete = concrete.doit()
    return sp.N(concrete, DIGITS)


def numerically_zero(lhs: object, rhs: object, points: int = POINTS, seed: int = 1) -> bool:
    """lhs − rhs vanishes (to 1e-20 relative) at every one of ``points`` random assignments."""
    left, right = _entries(lhs), _entries(rhs)
    assert len(left) == len(right), "sides of different shapes"
    symbols = set().union(*(e.free_symbols for e in left + right))
    rng = random.Random(seed)
    for _ in range(points):
        assignment = {s: _value(s, rng) for s in sorted(symbols, key=sp.default_sort_key)}
        for a, b in zip(left, right, strict=True):
            x, y = _number(a, assignment), _number(b, assignment)
            assert x.is_number and y.is_number, f"not a number after substitution: {x}, {y}"
            if abs(x - y) > ZERO * max(1, abs(x), abs(y)):
                return False
    return True


@cache
def _corpus() -> tuple[Mutant, ...]:
    return tuple(mutants())


def _verdict(lhs: object, rhs: object) -> tuple[str, bool, str]:
    decision = decide(lhs, rhs)
    return decision.status, numerically_zero(lhs, rhs), decision.reason


@cache
def _mutant_verdict(mutant: Mutant) -> tuple[str, bool, str]:
    return _verdict(mutant.lhs, mutant.rhs)


def _assert_agrees(status: str, zero: bool, label: str) -> None:
    if status == "proved":
        assert zero, f"UNSOUND: {label} is proved, but lhs − rhs is nonzero at a random point"
    if status == "refuted":
        assert not zero, f"WRONG REFUTATION: {label} is refuted, but lhs − rhs vanishes at every point"


@pytest.mark.parametrize("mutant", _corpus(), ids=lambda m: m.name)
def test_mutant_decision_agrees_with_the_numbers(mutant: Mutant):
    status, zero, reason = _mutant_verdict(mutant)
    _assert_agrees(status, zero, f"{mutant.name}: {mutant.lhs} = {mutant.rhs} ({reason})")


@pytest.mark.parametrize(
    ("group", "name", "lhs", "rhs"),
    [("true", *t) for t in TRUE] + [("false", *t) for t in FALSE] + [("unknown", *t) for t in UNKNOWN],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_hand_written_identity_agrees_with_the_numbers(group, name, lhs, rhs):
    status, zero, _ = _verdict(lhs, rhs)
    _assert_agrees(status, zero, name)
    if group != "unknown":
        assert zero == (group == "true"), f"{name}: the corpus calls it {group}, the numbers disagree"


def test_corpus_has_200_false_mutants_none_proved():
    """The census: at least 200 mutants are false by the numbers, and the prover proves none of them."""
    corpus = _corpus()
    assert len({m.name for m in corpus}) == len(corpus) == 240
    verdicts = [_mutant_verdict(m)[:2] for m in corpus]
    false = [status for status, zero in verdicts if not zero]
    true = [status for status, zero in verdicts if zero]
    assert len(false) >= 200, f"only {len(false)} false mutants"
    assert "proved" not in false
    assert len(true) + len(false) == len(corpus)
    assert {m.kind for m in corpus} >= {"coefficient", "sign", "angle multiple", "angle constant", "sin-cos swap"}
    assert any(m.kind == "base 1000" for m in corpus)


def test_generation_is_deterministic():
    again = mutants()
    assert [(m.name, sp.srepr(m.lhs), sp.srepr(m.rhs)) for m in again] == [
        (m.name, sp.srepr(m.lhs), sp.srepr(m.rhs)) for m in _corpus()
    ]


def test_the_referee_tells_tiny_differences_and_sees_true_mutants():
    """The numeric oracle itself: 1e-12 is not zero, an even-function sign flip is zero."""
    x = sp.Symbol("x", real=True)
    assert not numerically_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1 + sp.Rational(1, 10**12))
    assert numerically_zero(sp.cos(-x, evaluate=False), sp.cos(x))
    assert not numerically_zero(sp.sin(-x, evaluate=False), sp.sin(x))


def test_an_unsound_prover_would_fail_the_build():
    """The agreement check can fail: a prover that proves everything is caught on the first false mutant."""
    false = next(m for m in _corpus() if not _mutant_verdict(m)[1])
    with pytest.raises(AssertionError, match="UNSOUND"):
        _assert_agrees("proved", False, false.name)
    with pytest.raises(AssertionError, match="WRONG REFUTATION"):
        _assert_agrees("refuted", True, "a true mutant")
