"""Decide lhs ≤ rhs (≥, <, >) for every real value of the symbols, in the identities' fragment.

The difference f (rhs − lhs for ≤ and <, lhs − rhs for ≥ and >) is translated to a polynomial in s_j, c_j of
the angle atoms and the free real variables. Proved: an exact sum-of-squares certificate
f = ε + Σ w_i·ℓ_i² + Σ q_j·(s_j² + c_j² − 1) that re-checks by expansion (checks.symbolic.sos; ε > 0 for a
strict relation). Refuted: a point where the relation fails, confirmed at 50 and 80 digits (or exactly).
Otherwise unknown. Symbols are treated as any real numbers and every atom as an independent angle, so a proof
holds a fortiori; an inequality true only for integers or only on the atoms' actual dependence is unknown.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from checks.symbolic.decision import Certificate, Decision, Relation, Step, atom_steps, statement
from checks.symbolic.fragment import OutsideFragment, Translation, translate
from checks.symbolic.refutation import descend, structured_points
from checks.symbolic.sos import SosSearch
from checks.symbolic.sums import common_limits, instances, summand
from checks.symbolic.witness import CONFIRM_PRECISION, PRECISION, ZERO, evaluate, sample

FLIPPED = {"<=": ">=", "<": ">"}
SYMBOLS = {"<=": "≤", ">=": "≥", "<": "<", ">": ">"}
TRIES = 96
"""Sample points tried for a violation, a third of them at multiples of π/12 where sin and cos are exact."""
SCREEN = 1e-6
"""A point whose float64 value exceeds this (relative to the size of the difference's terms) holds: it is not
evaluated exactly. Every point below it is, so the screen only saves time."""


def decide_inequality(lhs: sp.Expr, rhs: sp.Expr, relation: Relation) -> Decision:
    """Decide ``lhs relation rhs``: proved with an exactly checked certificate, refuted with a confirmed point."""
    if relation not in SYMBOLS:
        raise ValueError(f"relation {relation!r} is not one of ==, {', '.join(SYMBOLS)}")
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        raise TypeError("inequalities compare scalars, not matrices")
    if lhs.has(sp.Sum) or rhs.has(sp.Sum):
        return _decide_sums(lhs, rhs, relation)
    decision = Decision("unknown", lhs, rhs, [Step("statement", statement(lhs, rhs, relation))], relation=relation)
    strict = relation in ("<", ">")
    difference = rhs - lhs if relation in FLIPPED else lhs - rhs
    decision.steps.append(Step("must be " + ("> 0" if strict else "≥ 0"), difference))
    violation = find_violation(difference, strict)
    if violation is not None:
        decision.used("witness")
        decision.status, decision.witness = "refuted", violation
        decision.reason = f"at this point {SYMBOLS[relation]} fails"
        return decision
    numerator, denominator = sp.fraction(sp.together(difference))
    if denominator.is_positive is not True:
        decision.reason = f"the denominator {sp.sstr(denominator)} may change sign: only polynomials are ordered here"
        return decision
    if denominator != 1:
        decision.steps.append(Step("times the positive denominator", numerator))
    squares = _as_squares(numerator)
    if squares:
        shown = sp.Tuple(*(sp.Eq(a, b) for a, b in squares.items()))
        decision.steps.append(Step("each nonnegative symbol is a square", shown))
        numerator = numerator.xreplace(squares)
    try:
        translation = translate(sp.expand(numerator))
        constants = [g for g in translation.generators if g.is_number]
        if constants:
            raise OutsideFragment(f"the constant {sp.sstr(constants[0])} is not rational (bound it by a rational)")
        search = SosSearch(translation, translation.polynomial, strict)
    except (OutsideFragment, ValueError, sp.PolynomialError) as outside:
        decision.reason = f"outside the decidable fragment: {outside}"
        return decision
    decision.steps += atom_steps(translation)
    decision.steps.append(Step("the gap between the sides, in those variables", translation.polynomial))
    found = search.certificate()
    if found is None:
        decision.reason = "no sum-of-squares certificate found at degree ⌈deg/2⌉ or one above, and no violation"
        return decision
    epsilon, squares = found
    certificate = _certificate(translation.polynomial, translation, strict, epsilon, squares)
    if certificate is not None and certificate.verify():
        decision.used("sum of squares")
        decision.status = "proved"
        decision.certificates.append(certificate)
        decision.steps.append(Step("sum of squares", _shown(certificate)))
    else:
        decision.reason = "the certificate did not re-check by exact expansion"
    return decision


def _decide_sums(lhs: sp.Expr, rhs: sp.Expr, relation: Relation) -> Decision:
    """Sums over one symbolic range: proved for every number of terms when the terms satisfy the relation
    termwise (a sum-free side spread evenly); refuted at a confirmed point of an instance with 1–4 terms."""
    decision = Decision("unknown", lhs, rhs, [Step("statement", statement(lhs, rhs, relation))], relation=relation)
    limits = common_limits(lhs, rhs)
    if limits is None:
        decision.reason = "only a single Sum per side over one common range is decided"
        return decision
    index, low, high = limits
    count = sp.simplify(high - low + 1)
    left, right = (summand(side, limits, count) for side in (lhs, rhs))
    if left is None or right is None:
        decision.reason = "a sum-free side depends on the summation index"
        return decision
    termwise = decide_inequality(left, right, relation)
    decision.used("termwise", *termwise.methods)
    shown = statement(left, right, relation)
    decision.steps.append(Step(f"termwise over {index} = {low} … {high} ({sp.sstr(count)} terms)", shown))
    decision.steps += termwise.steps[1:]
    if termwise.status == "proved":
        decision.status, decision.certificates = "proved", termwise.certificates
        spread = not (isinstance(lhs, sp.Sum) and isinstance(rhs, sp.Sum))
        least = 1 if relation in ("<", ">") or spread else 0  # a strict sum needs a term; a spread side divides
        if not (count.is_integer and (count - least).is_nonnegative):
            decision.conditions.append(f"the number of terms {sp.sstr(count)} is a whole number ≥ {least}")
        return decision
    for size, (concrete_lhs, concrete_rhs) in _instances(lhs, rhs, count):
        instance = decide_inequality(concrete_lhs, concrete_rhs, relation)
        if instance.status == "refuted":
            decision.used("witness")
            decision.status, decision.witness = "refuted", dict(instance.witness or {}, terms=str(size))
            decision.reason = f"with {size} terms, at this point {SYMBOLS[relation]} fails"
            return decision
    decision.reason = f"not proved termwise ({termwise.reason}), and no instance with 1–4 terms refuted"
    return decision


def _instances(lhs: sp.Expr, rhs: sp.Expr, count: sp.Expr) -> list[tuple[int, tuple[sp.Expr, sp.Expr]]]:
    left, right = instances(lhs, count, range(1, 5)), instances(rhs, count, range(1, 5))
    return [(n, (a, b)) for (n, a), (_, b) in zip(left, right, strict=True)]


def _as_squares(difference: sp.Expr) -> dict[sp.Symbol, sp.Expr]:
    """n → r_n² for every symbol assumed nonnegative (or positive): every such value is a real square, so a
    proof over all real r_n covers it (strictness at n = 0 aside, which only makes the claim stronger)."""
    taken = {str(symbol) for symbol in difference.free_symbols}
    squares = {}
    for symbol in sorted(difference.free_symbols, key=sp.default_sort_key):
        if isinstance(symbol, sp.Symbol) and symbol.is_nonnegative:
            name = f"r_{symbol}"
            while name in taken:
                name += "'"
            taken.add(name)
            squares[symbol] = sp.Symbol(name, real=True) ** 2
    return squares


def _certificate(
    polynomial: sp.Expr,
    translation: Translation,
    strict: bool,
    epsilon: Fraction,
    squares: list[tuple[Fraction, sp.Expr]],
) -> Certificate | None:
    """The quotients of the rest by the relations: the certificate anyone re-checks by expansion."""
    weights = tuple(sp.Rational(w.numerator, w.denominator) for w, _ in squares)
    forms = tuple(form for _, form in squares)
    exact_epsilon = sp.Rational(epsilon.numerator, epsilon.denominator)
    rest = sp.expand(
        polynomial - exact_epsilon - sum((w * f**2 for w, f in zip(weights, forms, strict=True)), sp.Integer(0))
    )
    relations = translation.relations
    quotients, remainder = [sp.Integer(0)] * len(relations), rest
    if relations and rest != 0:
        quotients, remainder = sp.reduced(rest, list(relations), *translation.generators, order="lex")
    if sp.expand(remainder) != 0:
        return None
    kind = ">" if strict else ">="
    return Certificate(polynomial, tuple(relations), tuple(quotients), kind, weights, forms, exact_epsilon)


def _shown(certificate: Certificate) -> sp.Expr:
    """ε + Σ w_i·(ℓ_i)², unevaluated so that the squares stay visible."""
    terms = [
        sp.Mul(w, sp.Pow(f, 2, evaluate=False), evaluate=False)
        for w, f in zip(certificate.weights, certificate.squares, strict=True)
    ]
    if certificate.epsilon != 0:
        terms.insert(0, certificate.epsilon)
    return sp.Add(*terms, evaluate=False) if terms else sp.Integer(0)


def find_violation(difference: sp.Expr, strict: bool, tries: int = TRIES, seed: int = 0) -> dict[str, str] | None:
    """A point where ``difference`` < 0 (or = 0 exactly, when ``strict``), confirmed at 50 and 80 digits.

    The structure first (checks.symbolic.refutation: every free real jointly at each multiple of π/12, all of them at
    0 or π, alternating signs), then random points, a third of them at multiples of π/12; last, a local descent from
    the lowest point seen, rounded to rationals before it is confirmed."""
    rng = random.Random(seed)
    lowest: tuple[float, dict] | None = None
    randoms = (sample(difference, rng, special_angles=n % 3 == 2) for n in range(tries))
    screen = float_screen(difference)
    for assignment in (*structured_points(difference, rng), *randoms):
        screened = screen(assignment) if screen else None
        if screened is not None and screened[0] > SCREEN * (1 + screened[1]):
            if lowest is None or screened[0] < lowest[0]:
                lowest = (screened[0], assignment)
            continue  # far above zero in float64: no exact evaluation needed
        found, value = _violated(difference, assignment, strict)
        if found is not None:
            return found
        if value is not None and (lowest is None or value < lowest[0]):
            lowest = (value, assignment)
    if lowest is None:
        return None
    descended = descend(difference, lowest[1])
    return _violated(difference, descended, strict)[0] if descended else None


def float_screen(difference: sp.Expr) -> Callable[[dict], tuple[float, float] | None] | None:
    """(value, Σ |term|) of ``difference`` in float64 at an assignment (None where it does not evaluate); None for
    a difference with indexed entries or sums, which only the exact path evaluates."""
    if difference.has(sp.Indexed, sp.Sum):
        return None
    symbols = sorted(difference.free_symbols, key=sp.default_sort_key)
    terms = sp.Add.make_args(difference)
    function = sp.lambdify(symbols, [difference, sum((sp.Abs(t) for t in terms), sp.Integer(0))], modules="math")

    def screen(assignment: dict) -> tuple[float, float] | None:
        try:
            value, size = function(*(float(assignment[s]) for s in symbols))
            return (float(value), float(size)) if math.isfinite(value) and math.isfinite(size) else None
        except (KeyError, TypeError, ValueError, ZeroDivisionError, OverflowError):
            return None

    return screen


def _violated(difference: sp.Expr, assignment: dict, strict: bool) -> tuple[dict[str, str] | None, float | None]:
    """(the witness, when ``difference`` fails at ``assignment``; its value at 50 digits as a float, else None)."""
    exact = sp.expand(difference.xreplace(assignment))
    if exact.is_Rational:
        return (_witness(assignment, exact) if exact < 0 or (strict and exact == 0) else None), float(exact)
    value = evaluate(difference, assignment, PRECISION)
    if value is None:
        return None, None
    if value >= -ZERO:
        return None, float(value)
    confirmed = evaluate(difference, assignment, CONFIRM_PRECISION)
    if confirmed is not None and confirmed < 0 and abs(confirmed - value) <= abs(value) / 10**20:
        return _witness(assignment, value), float(value)
    return None, float(value)


def _witness(assignment: dict, value: sp.Expr) -> dict[str, str]:
    witness = {str(k): str(v) for k, v in assignment.items()}
    witness["difference"] = str(sp.N(value, 20))
    return witness
