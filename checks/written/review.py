"""Every formula of a document as its reader sees it: found, parsed, decided, and its problems with a correction.

A formula is LaTeX between ``$…$`` / ``$$…$$`` or a plain-text ``left = right`` in prose (not in code). Each is
parsed by the grammar (checks.written.parse) and then:

- **does not parse**: the grammar stops (a brace that holds only ``(``);
- **does not render**: a command that lost its backslash to a string escape (``ext{`` for ``\\text{``, whose
  ``\\t`` became a tab), words in math mode outside ``\\text{}``, LaTeX commands outside ``$…$``, an unmatched ``$``;
- **disagrees with its definition**: ``PE(513, i) = …`` against ``PE(pos, 2i) = …`` defined in the same document;
- **disagrees with the notation**: ``513번째 위치의 PE(513, …)`` where the notation counts positions from 0;
- **false as written**: an identity whose two sides differ (a witness is named); identities that hold are shown so.

A correction is offered only when the corrected formula, reviewed again, has no problem left (else withheld).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy
from sympy.core.function import AppliedUndef

from checks.documents.sources import document_text
from checks.written.found import LOST, Formula, Problem, code_lines, command, found, read
from checks.written.meaning import NoMeaning, expression
from checks.written.parse import LETTER_SPACED, Node, normalise, parse

WITNESS = {
    "pos": 3,
    "k": 2,
    "i": 2,
    "d_model": 512,
    "d": 512,
    "x": sympy.Rational(7, 10),
    "theta": sympy.Rational(9, 10),
}
"""The point an identity is evaluated at when SymPy cannot simplify its difference to zero (others: 13/10, 17/10…)."""


@dataclass(frozen=True)
class _Definition:
    line: int
    function: str
    arguments: tuple[sympy.Expr, ...]
    value: sympy.Expr


def review_document(document: str) -> list[Formula]:
    """Every formula of a document of sources/, its code lines (classed ``code``, or Python) left out."""
    return review_text(document, document_text(document), code_lines(document))


def review_text(document: str, text: str, code: frozenset[str] = frozenset()) -> list[Formula]:
    """Every formula of ``text`` (``code``: the lines that are code, never read as formulas), reviewed."""
    formulas = sorted(found(document, text, code), key=lambda formula: formula.line)
    for formula in formulas:
        read(formula)
    definitions = _definitions(formulas)
    symbols = _symbol_definitions(formulas)
    first_position = _first_position(text)
    for formula in formulas:
        if formula.parsed is not None and not formula.problems:
            formula.status = _decide(formula, definitions, symbols)
            _ordinal(formula, first_position)
        elif formula.problems:
            formula.status = formula.problems[0].kind
    for formula in formulas:
        if formula.problems:
            formula.correction = _corrected(formula, definitions, symbols, first_position)
    return formulas


ORDINAL = re.compile(r"(\d+)\s*번째[^\d]*$")
POSITION_NOTATION = re.compile(r"pos[^\n]{0,12}:[^\n]*?\((\d+), (\d+), (\d+)")


def _first_position(text: str) -> tuple[int, int] | None:
    """(the first position, its line) when the document's notation lists positions (``pos: … (0, 1, 2, …)``)."""
    found = POSITION_NOTATION.search(text)
    return (int(found.group(1)), text.count("\n", 0, found.start()) + 1) if found else None


def _ordinal(formula: Formula, first_position: tuple[int, int] | None) -> None:
    """'513번째 위치의 PE(513, …)' where positions count from 0: the 513th position is pos = 512."""
    said = ORDINAL.search(formula.before)
    if said is None or first_position is None or formula.parsed is None:
        return
    ordinal, (first, line) = int(said.group(1)), first_position
    for left, _ in formula.parsed.equations:
        value = _meaning(left)
        if isinstance(value, AppliedUndef) and value.args and value.args[0] == ordinal and first == 0:
            formula.problems.append(
                Problem(
                    "disagrees with the notation",
                    f"positions count from {first} (line {line}), so the {ordinal}th position is pos = {ordinal - 1}, "
                    f"not {ordinal}",
                    f"위치는 {first}부터 셉니다({line}행). 따라서 {ordinal}번째 위치는 pos = {ordinal - 1}이고 "
                    f"{ordinal}이 아닙니다",
                )
            )
            formula.status = formula.problems[0].kind
            return


def _meaning(node: Node) -> sympy.Expr | None:
    try:
        return expression(node)
    except (NoMeaning, TypeError, ValueError, ZeroDivisionError):
        return None


def _definitions(formulas: list[Formula]) -> dict[str, list[_Definition]]:
    """Functions defined as ``F(pos, 2i) = …``: arguments that are symbols or linear in one, a value without F."""
    found: dict[str, list[_Definition]] = {}
    for formula in formulas:
        for left, right in formula.parsed.equations if formula.parsed and not formula.problems else []:
            if left.kind != "application":
                continue
            lhs, rhs = _meaning(left), _meaning(right)
            if lhs is None or rhs is None or not lhs.args or rhs.has(lhs.func):
                continue
            if all(
                arg.free_symbols and sympy.Poly(arg, *arg.free_symbols).is_linear
                for arg in lhs.args
                if _polynomial(arg)
            ) and all(_polynomial(arg) for arg in lhs.args):
                existing = found.setdefault(str(lhs.func), [])
                if not any(_same_pattern(d.arguments, lhs.args) for d in existing):
                    existing.append(_Definition(formula.line, str(lhs.func), tuple(lhs.args), rhs))
    return found


def _polynomial(arg: sympy.Expr) -> bool:
    return bool(arg.free_symbols) and arg.is_polynomial(*arg.free_symbols)


def _same_pattern(a: tuple[sympy.Expr, ...], b: tuple[sympy.Expr, ...]) -> bool:
    return len(a) == len(b) and all(sympy.simplify(x - y) == 0 for x, y in zip(a, b, strict=True))


def _symbol_definitions(formulas: list[Formula]) -> dict[sympy.Symbol, sympy.Expr]:
    """Symbols defined once in the document (``\\omega_i = 1/10000^{2i/d}``), substituted into its identities."""
    seen: dict[sympy.Symbol, list[sympy.Expr]] = {}
    for formula in formulas:
        for left, right in formula.parsed.equations if formula.parsed else []:
            lhs, rhs = _meaning(left), _meaning(right)
            if isinstance(lhs, sympy.Symbol) and rhs is not None and rhs.free_symbols:
                seen.setdefault(lhs, []).append(rhs)
    return {symbol: values[0] for symbol, values in seen.items() if len(values) == 1}


def _decide(
    formula: Formula, definitions: dict[str, list[_Definition]], symbols: dict[sympy.Symbol, sympy.Expr]
) -> str:
    assert formula.parsed is not None
    statuses = []
    for sides, signs in formula.parsed.relations:
        for n, sign in enumerate(signs):
            statuses.append(_relation(formula, sides[n], sign, sides[n + 1], definitions, symbols))
    statuses = [s for s in statuses if s]
    return "; ".join(dict.fromkeys(statuses)) or "parsed (nothing to decide)"


def _relation(
    formula: Formula,
    left: Node,
    sign: str,
    right: Node,
    definitions: dict[str, list[_Definition]],
    symbols: dict[sympy.Symbol, sympy.Expr],
) -> str:
    lhs, rhs = _meaning(left), _meaning(right)
    if lhs is None or rhs is None:
        return "parsed (not a single value)"
    if sign == "approx":
        return _approximately(formula, lhs, rhs)
    if sign != "=":
        return "parsed"
    if isinstance(lhs, sympy.Symbol):
        return f"defines {lhs}"
    if isinstance(lhs, AppliedUndef):
        return _against_definition(formula, lhs, rhs, definitions)
    return _identity(formula, lhs, rhs, symbols)


def _against_definition(
    formula: Formula, lhs: sympy.Expr, rhs: sympy.Expr, definitions: dict[str, list[_Definition]]
) -> str:
    candidates = [d for d in definitions.get(str(lhs.func), []) if len(d.arguments) == len(lhs.args)]
    own = [d for d in candidates if d.line == formula.line and _same_pattern(d.arguments, lhs.args)]
    if own:
        return f"defines {lhs.func}"
    disagreements = []
    for definition in candidates:
        value = _instantiated(definition, lhs.args)
        if value is None:
            continue
        if _zero(value - rhs):
            return f"agrees with its definition (line {definition.line})"
        if value.func == rhs.func:
            disagreements.append((definition, value))
    if not disagreements:
        return "parsed (no definition to compare)"
    definition, value = disagreements[0]
    even, korean_even = _divisibility(definition, lhs.args)
    witness = korean_witness = _witness(value - rhs)
    if witness:
        point = _point(value - rhs)
        values = sympy.N(value.subs(point), 6), sympy.N(rhs.subs(point), 6)
        witness += f": {values[0]} against {values[1]}"
        korean_witness += f"에서 {values[0]} 대 {values[1]}"
    formula.problems.append(
        Problem(
            "disagrees with its definition",
            f"by the definition on line {definition.line}, {_shown(lhs)} = {_shown(value)}{even}, not {_shown(rhs)}"
            + (f" (at {witness})" if witness else ""),
            f"{definition.line}행의 정의에 따르면 {korean_even}{_shown(lhs)} = {_shown(value)}이며 {_shown(rhs)}가 "
            "아닙니다" + (f"({korean_witness})" if korean_witness else ""),
        )
    )
    return formula.problems[-1].kind


def _divisibility(definition: _Definition, arguments: tuple[sympy.Expr, ...]) -> tuple[str, str]:
    """The condition under which the definition covers the instance, in English and Korean: a definition of
    ``PE(pos, 2i)`` says nothing of ``PE(513, i)`` for an odd i (its i stands for 2i′). Empty when it covers all."""
    fresh = {s: sympy.Dummy(str(s)) for a in definition.arguments for s in a.free_symbols}
    equations = [a.subs(fresh) - b for a, b in zip(definition.arguments, arguments, strict=True)]
    solutions = sympy.solve(equations, list(fresh.values()), dict=True)
    english, korean = [], []
    for solved in solutions[0].values() if len(solutions) == 1 else ():
        numerator, denominator = sympy.fraction(sympy.together(solved))
        if denominator.is_Integer and denominator > 1 and numerator.free_symbols:
            if denominator == 2:
                english.append(f"{_shown(numerator)} even")
                korean.append(f"{_shown(numerator)}가 짝수일 때 ")
            else:
                english.append(f"{_shown(numerator)} a multiple of {denominator}")
                korean.append(f"{_shown(numerator)}가 {denominator}의 배수일 때 ")
    return (f" (for {' and '.join(english)})" if english else ""), "".join(korean)


def _instantiated(definition: _Definition, arguments: tuple[sympy.Expr, ...]) -> sympy.Expr | None:
    """The definition's value at the instance's arguments (its symbols renamed, then solved for)."""
    fresh = {s: sympy.Dummy(str(s)) for a in definition.arguments for s in a.free_symbols}
    equations = [a.subs(fresh) - b for a, b in zip(definition.arguments, arguments, strict=True)]
    solutions = sympy.solve(equations, list(fresh.values()), dict=True)
    if len(solutions) != 1 or set(solutions[0]) != set(fresh.values()):
        return None
    return definition.value.subs(fresh).subs(solutions[0])


def _identity(formula: Formula, lhs: sympy.Expr, rhs: sympy.Expr, symbols: dict[sympy.Symbol, sympy.Expr]) -> str:
    difference = (lhs - rhs).subs(symbols)
    if undefined := sorted({str(f.func) for f in difference.atoms(AppliedUndef)}):
        return f"parsed (not decided: {', '.join(undefined)} applied to arguments no definition covers)"
    if _zero(difference):
        return "holds (SymPy simplifies left − right to 0)"
    if (lhs.free_symbols or rhs.free_symbols) and lhs.free_symbols != rhs.free_symbols:
        # 'd_model/h = 64': an equation that holds for the document's values, not an identity in its symbols
        return "parsed (an equation in " + ", ".join(sorted(map(str, difference.free_symbols))) + ", not an identity)"
    witness = _witness(difference)
    if witness:
        formula.problems.append(
            Problem(
                "false as written",
                f"{_shown(lhs)} ≠ {_shown(rhs)} at {witness}",
                f"{witness}에서 {_shown(lhs)} ≠ {_shown(rhs)}",
            )
        )
        return formula.problems[-1].kind
    return "parsed (not decided)"


def _approximately(formula: Formula, lhs: sympy.Expr, rhs: sympy.Expr) -> str:
    if lhs.free_symbols or rhs.free_symbols or not rhs.is_number:
        return "parsed"
    written = sympy.nsimplify(rhs)
    decimals = 0 if written.is_Integer else len(str(sympy.N(written, 15)).rstrip("0").partition(".")[2])
    if round(float(sympy.N(lhs, 30)), decimals) == round(float(sympy.N(rhs, 30)), decimals):
        return f"holds ({_shown(lhs)} = {sympy.N(lhs, 4)})"
    value = sympy.N(lhs, 4)
    formula.problems.append(
        Problem(
            "false as written",
            f"{_shown(lhs)} = {value}, not ≈ {_shown(rhs)}",
            f"{_shown(lhs)} = {value}이므로 ≈ {_shown(rhs)}가 아닙니다",
        )
    )
    return formula.problems[-1].kind


def _zero(expr: sympy.Expr) -> bool:
    """Left − right is 0: first evaluated at two points (a nonzero value ends it), then simplified to 0 by SymPy."""
    if _witness(expr):
        return False
    simplified = sympy.simplify(sympy.expand_trig(expr))
    if isinstance(simplified, sympy.MatrixBase):
        return all(sympy.simplify(entry) == 0 for entry in simplified)
    return simplified == 0


def _witness(difference: sympy.Expr) -> str:
    """A point where ``difference`` is clearly nonzero, said as ``d_model = 512, i = 2``; empty when none is found."""
    point = _point(difference)
    return ", ".join(f"{s} = {v}" for s, v in point.items()) if point else ""


def _point(difference: sympy.Expr) -> dict[sympy.Symbol, sympy.Expr]:
    """The first of WITNESS's points where ``difference`` is clearly nonzero (an empty dict when none is)."""
    free = sorted(difference.free_symbols, key=str)
    others = iter(sympy.Rational(n, 10) for n in (13, 17, 19, 23, 29, 31, 37))
    point = {s: WITNESS.get(str(s)) or next(others) for s in free}
    for candidate in (point, {s: (4 if str(s) == "i" else v) for s, v in point.items()}):
        value = difference.subs(candidate)
        entries = list(value) if isinstance(value, sympy.MatrixBase) else [value]
        numbers = [sympy.N(entry, 30) for entry in entries]
        if all(n.is_number for n in numbers) and any(abs(n) > 1e-12 for n in numbers):
            return candidate
    return {}


def _shown(expr: sympy.Expr) -> str:
    """An expression in plain text (``sin(513/10000^(2i/d_model))``)."""
    text = sympy.sstr(expr).replace("**", "^")
    return re.sub(r"(\d)\*([A-Za-z(])", r"\1\2", text)


def _corrected(
    formula: Formula,
    definitions: dict[str, list[_Definition]],
    symbols: dict[sympy.Symbol, sympy.Expr],
    first_position: tuple[int, int] | None,
) -> str:
    """The formula with each problem's repair applied, kept only when a second review finds nothing left."""
    text, latex = formula.text, formula.latex
    if formula.latex:
        text = LOST.sub(lambda m: f"\\{command(m.group(1))}", text)
        text = re.sub(r"\\text\{([^{}]*)\}", r"\\text{\1}", text)
    else:
        text = LETTER_SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)
        text = re.sub(r"([A-Za-z])\s+\(", r"\1(", text)
        text = re.sub(r"(\d) ([A-Za-z])\b", r"\1\2", text).replace(" ᵀ", "ᵀ")
        text = re.sub(r"\^\{\(\}\s*([^()]*?)\s*\)", lambda m: f"^({m.group(1).replace(' ', '')})", text)
        if LETTER_SPACED.search(formula.text):  # copied from a rendered formula: given back as LaTeX
            text, latex = as_latex(text), True
    for problem in formula.problems:
        if problem.kind == "disagrees with its definition":
            text = _with_definition_arguments(formula, text, definitions)
        if problem.kind == "disagrees with the notation" and (said := ORDINAL.search(formula.before)):
            ordinal = int(said.group(1))
            text = re.sub(rf"(?<![\d.]){ordinal}(?![\d.])", str(ordinal - 1), text)
    if text == formula.text:
        return ""
    again = Formula(formula.document, formula.line, text, latex, text, formula.before)
    read(again)
    if again.parsed is not None and not again.problems:
        _decide(again, definitions, symbols)
        _ordinal(again, first_position)
    if again.problems or again.parsed is None:
        return ""
    formula.correction_latex = latex
    return text


def as_latex(text: str) -> str:
    """A plain-text formula as LaTeX: functions upright, exponents and roots braced."""
    latex = normalise(text, latex=False)
    latex = re.sub(r"\^\(([^()]*)\)", r"^{\1}", latex)
    latex = re.sub(r"\\sqrt\s*([A-Za-z0-9]+)_\{?([A-Za-z0-9]+)\}?", r"\\sqrt{\1_\2}", latex)
    latex = re.sub(r"(?<![\\A-Za-z])([A-Za-z]{2,})(?=\s*\()", r"\\mathrm{\1}", latex)
    return re.sub(r"\s+\(", "(", latex)


def _with_definition_arguments(formula: Formula, text: str, definitions: dict[str, list[_Definition]]) -> str:
    """``PE(513, i)`` → ``PE(513, 2i)``: each argument the definition writes as a pattern, written so."""
    assert formula.parsed is not None
    for left, right in formula.parsed.equations:
        lhs, rhs = _meaning(left), _meaning(right)
        if lhs is None or rhs is None or not hasattr(lhs, "args") or str(getattr(lhs, "func", "")) not in definitions:
            continue
        for definition in definitions[str(lhs.func)]:
            if definition.value.func != rhs.func or len(definition.arguments) != len(lhs.args):
                continue
            arguments = [
                _shown(pattern)
                if not isinstance(pattern, sympy.Symbol) and pattern.free_symbols <= rhs.free_symbols
                else _shown(given)
                for pattern, given in zip(definition.arguments, lhs.args, strict=True)
            ]
            call = re.compile(rf"{lhs.func}\s*\(([^()]*)\)")
            return call.sub(f"{lhs.func}({', '.join(arguments)})", text, count=1)
    return text


@dataclass(frozen=True)
class Use:
    """One argument a formula gives a function (``2i`` in ``PE(pos, 2i) = …``), read as written or, for a
    formula that does not parse, from its checked correction (``corrected``)."""

    line: int
    formula: str
    argument: sympy.Expr
    corrected: bool


def uses(formulas: list[Formula], function: str, position: int) -> list[Use]:
    """The arguments at ``position`` of ``function`` on the left of the formulas' equations."""
    found = []
    for formula in formulas:
        parsed, corrected = formula.parsed, False
        if parsed is None and formula.correction:
            parsed, corrected = parse(formula.correction, formula.correction_latex), True
        for left, _ in parsed.equations if parsed else []:
            value = _meaning(left)
            if isinstance(value, AppliedUndef) and str(value.func) == function and len(value.args) > position:
                found.append(Use(formula.line, formula.span, value.args[position], corrected))
    return found
