"""A formula as written, parsed by a grammar (checks/written/formula.lark, Lark's Earley parser): never eval.

``parse(text, latex=True)`` normalises spacing and size commands, then returns a ``Parsed``: the relations
as trees of ``Node`` (a kind and its parts) and what the grammar saw on the way (words and commands), or raises
``FormulaError`` naming the column where the formula stops making sense.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

GRAMMAR = Path(__file__).with_name("formula.lark")

SPACING = re.compile(r"(?<!\\)\\[,;:! ]|\\q?quad\b|~")
SIZING = re.compile(r"\\(?:left|right|[bB]igg?[lr]?)\s*(?=[()\[\].|]|\\[{}])")
LETTER_SPACED = re.compile(r"(?<![A-Za-z])[A-Za-z](?: [A-Za-z])+(?![A-Za-z])")
"""Single letters separated by single spaces ('P E', 'p o s'): a formula copied from a rendered page."""
NAMED = re.compile(r"\\(?:text|mathrm|operatorname)\{([A-Za-z]+)\}")
"""``\text{PE}``: a name set upright, read as the name."""
PLAIN_SYMBOLS = {
    "·": r"\cdot ",
    "×": r"\times ",
    "−": "-",
    "√": r"\sqrt ",
    "ᵀ": r"^\top ",
    "ω": r"\omega ",
    "θ": r"\theta ",
    "π": r"\pi ",
    "φ": r"\phi ",
    "≈": r"\approx ",
    "≤": r"\le ",
    "≥": r"\ge ",
    **{superscript: f"^{digit}" for digit, superscript in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")},
}
PLAIN_FUNCTIONS = ("sin", "cos", "tan", "exp", "log", "ln")


LONGEST = 2000
"""The longest formula the grammar reads: Earley parsing grows with the cube of the length in the worst case, so a
document's runaway ``$…`` span is a problem of its own, never a stalled report."""


class FormulaError(ValueError):
    """A formula the grammar cannot read: where it stops and what was expected there."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Node:
    """One piece of a parsed formula: ``kind`` (add, mul, power, application, name, number, …) and its parts."""

    kind: str
    parts: tuple[Node | str, ...] = ()

    def walk(self):
        """This node and every node below it."""
        yield self
        for part in self.parts:
            if isinstance(part, Node):
                yield from part.walk()


@dataclass(frozen=True)
class Parsed:
    """A parsed formula: its relations (each a chain of expressions joined by relation signs)."""

    text: str
    """The normalised text the grammar read."""
    relations: tuple[tuple[tuple[Node, ...], tuple[str, ...]], ...]

    @property
    def equations(self) -> list[tuple[Node, Node]]:
        """Every ``left = right`` of the formula (neighbours of a chain ``a = b = c``)."""
        found = []
        for sides, signs in self.relations:
            found += [(sides[n], sides[n + 1]) for n, sign in enumerate(signs) if sign == "="]
        return found

    def nodes(self):
        for sides, _ in self.relations:
            for side in sides:
                yield from side.walk()


@cache
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="earley", ambiguity="resolve")


def normalise(text: str, latex: bool) -> str:
    """Drop spacing and sizing commands; in plain text join letter-spaced words and spell symbols as LaTeX."""
    if not latex:
        text = LETTER_SPACED.sub(lambda m: m.group(0).replace(" ", ""), text)
        for symbol, command in PLAIN_SYMBOLS.items():
            text = text.replace(symbol, command)
        text = re.sub(rf"(?<![\\A-Za-z])({'|'.join(PLAIN_FUNCTIONS)})(?=\s*[(^\\]|\s+[A-Za-z])", r"\\\1 ", text)
    text = SIZING.sub("", SPACING.sub(" ", text))
    text = NAMED.sub(r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def parse(text: str, latex: bool = True) -> Parsed:
    """The formula's relations, or FormulaError naming where the grammar stops."""
    normal = normalise(text, latex)
    if len(normal) > LONGEST:
        raise FormulaError(f"{len(normal)} characters: longer than a formula is read ({LONGEST})", LONGEST)
    try:
        tree = _parser().parse(normal)
    except UnexpectedCharacters as error:
        raise FormulaError(
            f"cannot read {normal[error.column - 1 : error.column + 11]!r} at column {error.column}", error.column
        ) from None
    except UnexpectedEOF:
        raise FormulaError("ends before it is complete (an unclosed bracket or brace)", len(normal)) from None
    except UnexpectedInput as error:
        column = getattr(error, "column", 0) or 0
        raise FormulaError(f"cannot read it at column {column}", column) from None
    except LarkError as error:  # the grammar's own limits (deep nesting): still one message, never a traceback
        raise FormulaError(f"cannot read it ({type(error).__name__})", 0) from None
    relations = []
    for relation in tree.children:
        sides = tuple(
            _node(child)
            for child in relation.children
            if isinstance(child, Tree | Token) and not (isinstance(child, Token) and child.type == "REL")
        )
        signs = tuple(
            str(child).lstrip("\\") if str(child) != "=" else "="
            for child in relation.children
            if isinstance(child, Token) and child.type == "REL"
        )
        relations.append((sides, signs))
    return Parsed(normal, tuple(relations))


def _node(item: Tree | Token) -> Node:
    if isinstance(item, Token):
        kind = {
            "NUMBER": "number",
            "DIGIT": "number",
            "WORD": "name",
            "LETTER": "name",
            "GREEK": "name",
            "OTHER": "other",
            "TEXTBODY": "text",
            "TOP": "transpose",
        }.get(item.type, "token")
        return Node(kind, (str(item).lstrip("\\"),))
    kind = str(item.data)
    if kind in {"number", "name", "greek", "other", "transpose"}:
        token = item.children[0]
        return Node("name" if kind == "greek" else kind, (str(token).lstrip("\\"),))
    if kind == "text":
        body = "".join(str(c) for c in item.children[1:] if isinstance(c, Token))
        return Node("text", (body.strip(),))
    if kind == "function":
        name = str(item.children[0]).lstrip("\\")
        return Node("function", (name, *(_node(c) for c in item.children[1:])))
    if kind == "application":
        name = str(item.children[0])
        return Node("application", (name, *(_node(c) for c in item.children[1:])))
    if kind == "empty":
        return Node("empty")
    if kind in {"frac", "sqrt", "sum", "underbrace", "matrix"}:
        return Node(kind, tuple(_node(c) for c in item.children if not _is_keyword(c)))
    return Node(kind, tuple(_node(c) for c in item.children if not _is_keyword(c)))


def _is_keyword(item: Tree | Token) -> bool:
    return isinstance(item, Token) and item.type in {
        "FRAC",
        "SQRT",
        "SUM",
        "UNDERBRACE",
        "BEGIN_MATRIX",
        "END_MATRIX",
        "ROWSEP",
        "MULOP",
        "TEXT",
        "NAME_CMD",
    }
