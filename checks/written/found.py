"""The formulas of a document as its reader sees them: LaTeX between ``$…$`` / ``$$…$$`` and plain-text equations
in prose (code lines left out), each with where it stands; and what a reader meets when one does not render."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from checks.coverage import ClassificationError, classification_path, read_entries
from checks.written.parse import FormulaError, Parsed, parse

MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$")
ESCAPES = {
    "t": "tab",
    "f": "form feed",
    "b": "backspace",
    "r": "carriage return",
    "n": "newline",
    "v": "vertical tab",
    "a": "bell",
}
"""The letters a string escape eats after a backslash (``"\\text"`` in a Python or JSON string is a tab + ``ext``)."""
BRACE_COMMANDS = ("text", "frac", "begin", "right", "nabla", "vec", "bar", "binom", "boldsymbol", "textbf", "tfrac")
LOST = re.compile(
    r"(?<![\\A-Za-z])("
    + "|".join(sorted({c[1:] for c in BRACE_COMMANDS if c[0] in ESCAPES}, key=len, reverse=True))
    + r")(?=[{(])"
)
TEXT_BODY = re.compile(r"\\(?:text|mathrm|operatorname|textbf)\{[^{}]*\}")
NON_ASCII_LETTERS = re.compile(r"[^\x00-\x7f\sᵀ·×−√ωθπφ≈≤≥]+")
PLAIN_FORMULA_CHARS = r"A-Za-z0-9_ ^{}()\[\],./+\-*·×−√ᵀωθπ⁰¹²³⁴⁵⁶⁷⁸⁹\\"
PLAIN_LEFT = re.compile(rf"[{PLAIN_FORMULA_CHARS}]*$")
PLAIN_RIGHT = re.compile(rf"[{PLAIN_FORMULA_CHARS}=]*")
PYTHON = re.compile(r"\b(?:np|torch|plt|nn|math|self)\.|\*\*|^\s*(?:def|class|import|from|for|if|return|print)\b|\[:")
BARE_FUNCTIONS = re.compile(r"(?<![\\A-Za-z])(sin|cos|tan|exp|log)(?=\s*\()")


@dataclass(frozen=True)
class Problem:
    """What a reader of the formula meets: ``kind`` (does not parse, does not render, disagrees with its
    definition, false as written) and what is wrong, in words."""

    kind: str
    detail: str


@dataclass
class Formula:
    """One formula of a document, as written, with what the review found."""

    document: str
    line: int
    text: str
    """The formula as the document writes it (without its ``$`` signs)."""
    latex: bool
    span: str = ""
    """The formula as it stands in the line, delimiters included (what a correction replaces)."""
    before: str = ""
    """The line's text before the formula (where an ordinal such as '513번째 위치의' stands)."""
    parsed: Parsed | None = None
    status: str = ""
    """What was decided: holds, agrees with line N, defines a symbol, parsed (nothing to decide), or the problem."""
    problems: list[Problem] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    """Typographic remarks that mislead no one (sin set in italics)."""
    correction: str = ""
    """The formula corrected, reviewed again with no problem left; empty when none could be checked."""
    correction_latex: bool = False
    """The correction is LaTeX (a plain formula copied from a rendered one is given back as LaTeX)."""

    @property
    def corrected_span(self) -> str:
        """The span as it could read instead (delimiters kept; a plain formula given back as LaTeX gets ``$…$``)."""
        if not self.correction:
            return ""
        correction = f"${self.correction}$" if self.correction_latex and not self.latex else self.correction
        return self.span.replace(self.text, correction, 1)


def code_lines(document: str) -> frozenset[str]:
    """The sentences the document's classification file classes as code (none when it cannot be read)."""
    try:
        entries = read_entries(classification_path(document))
    except ClassificationError:
        return frozenset()
    return frozenset(entry.text for entry in entries if entry.category == "code")


def found(document: str, text: str, code: frozenset[str]) -> Iterator[Formula]:
    """Every formula of ``text``, line by line: the LaTeX spans of a line with ``$``, else its plain equations."""
    for number, line in enumerate(text.splitlines(), 1):
        if "$" in line:
            for match in MATH.finditer(line):
                yield Formula(
                    document, number, match.group(1) or match.group(2), True, match.group(0), line[: match.start()]
                )
            rest = MATH.sub(" ", line)
            if "$" in rest:
                formula = Formula(document, number, line.strip(), latex=True, span=line.strip())
                formula.problems.append(
                    Problem("does not render", "an unmatched $: the rest of the line is set as math")
                )
                yield formula
            continue
        if line.strip() in code or line.startswith("    ") or PYTHON.search(line):
            continue
        for cell in re.split(r"\t|`[^`]*`| · ", line):
            for left, right in _plain_formulas(cell):
                written = re.search(rf"{re.escape(left)}\s*=\s*{re.escape(right)}", line)
                span = written.group(0) if written else f"{left} = {right}"
                yield Formula(document, number, span, False, span, line[: written.start()] if written else "")


def _plain_formulas(cell: str) -> list[tuple[str, str]]:
    """The ``left = right (= …)`` spans of a line of prose, made of formula characters only."""
    found, covered = [], -1
    for equals in re.finditer(r"(?<![=<>!])=(?!=)", cell):
        if equals.start() < covered:
            continue
        left = _balanced(PLAIN_LEFT.search(cell[: equals.start()]).group(0), from_end=True)
        right = _balanced(PLAIN_RIGHT.match(cell, equals.end()).group(0).rstrip(" ."), from_end=False)
        covered = equals.end() + len(right) + 1
        if re.search(r"[A-Za-z0-9]", left) and re.search(r"[A-Za-z0-9]", right):
            found.append((left, right))
    return found


def _balanced(side: str, from_end: bool) -> str:
    """The side trimmed to balanced brackets: a prose '(' before or after a formula is not part of it."""
    side = side.strip(" ,.")
    while side and side.count("(") != side.count(")"):
        side = side[1:] if from_end else side[:-1]
    return side.strip(" ,")


def read(formula: Formula) -> None:
    """Parse the formula and note what its reader meets before any meaning: problems, and remarks on typesetting."""
    if formula.problems:  # an unmatched $: no formula to read
        return
    source = formula.text
    if formula.latex:
        if lost := LOST.findall(source):
            said = ", ".join(
                f"`{word}{{` is `\\{command(word)}{{`, its `\\{command(word)[0]}` read as a {ESCAPES[command(word)[0]]}"
                for word in dict.fromkeys(lost)
            )
            formula.problems.append(
                Problem(
                    "does not render",
                    f"{said} by a string escape: the page shows the letters of the command's name in italics",
                )
            )
        words = NON_ASCII_LETTERS.findall(TEXT_BODY.sub(" ", source))
        if words:
            formula.problems.append(
                Problem(
                    "does not render",
                    "words in math mode outside \\text{} ("
                    + ", ".join(dict.fromkeys(words))
                    + ") are set as symbols, their spaces"
                    " dropped",
                )
            )
        if bare := BARE_FUNCTIONS.findall(source):
            formula.remarks.append(
                ", ".join(dict.fromkeys(bare)) + " without a backslash is set as italic letters"
                " (\\sin, \\cos set them upright)"
            )
    elif commands := re.findall(r"\\[A-Za-z]+", source):
        formula.problems.append(
            Problem("does not render", "LaTeX outside $…$ is shown as typed: " + ", ".join(dict.fromkeys(commands)))
        )
    try:
        formula.parsed = parse(source, latex=formula.latex)
    except FormulaError as error:
        formula.problems.insert(0, Problem("does not parse", str(error)))


def command(word: str) -> str:
    return next(c for c in BRACE_COMMANDS if c[1:] == word and c[0] in ESCAPES)
