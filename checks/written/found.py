"""The formulas of a document as its reader sees them, each with where it stands; and what a reader meets when one
does not render.

A plain-text document (the lessons, ``.txt``) is read line by line: LaTeX between ``$…$`` / ``$$…$$`` and plain-text
equations in prose (code lines left out). Markdown and LaTeX are read in their markup: delimited math (``$…$``,
``$$…$$``, ``\\(…\\)``, ``\\[…\\]``, a math environment) outside code, comments and front matter, and in Markdown
the plain-text equations of prose too.

A problem is said only where it is certain: delimited math that no renderer can set (unbalanced braces, an unmatched
``\\left``, ``\\begin`` or ``$``), a known loss (a backslash eaten by a string escape, a formula copied from a rendered
page with its letters spaced out, LaTeX typed outside math), words set as math letters. Math that the grammar merely
cannot read (plain-text or Unicode math in prose, LaTeX beyond the grammar) is no problem of the document: it is
logged and left alone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePath

from checks.documents.coverage import ClassificationError, classification_path, read_entries
from checks.documents.markup import layout, marked_up
from checks.written.parse import FormulaError, Parsed, parse

LOG = logging.getLogger(__name__)

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
MATH_ENVIRONMENTS = "equation|align|alignat|flalign|gather|multline|eqnarray|displaymath|math"
DELIMITED = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|\\\[(?P<bracket>.+?)\\\]"
    r"|\\\((?P<paren>.+?)\\\)"
    rf"|\\begin\{{(?P<environment>(?:{MATH_ENVIRONMENTS})\*?)\}}(?P<body>.+?)\\end\{{(?P=environment)\}}"
    r"|(?<![\\$])\$(?![\s$])(?P<inline>(?:[^$\n\\]|\\.|\n(?![ \t]*\n))*?(?:\\.|[^\s\\$]))\$(?!\d)",
    re.DOTALL,
)
"""Delimited math in Markdown and LaTeX: display ``$$…$$``, ``\\[…\\]``, inline ``\\(…\\)``, a math environment, and
inline ``$…$`` as pandoc reads it (no space inside either ``$``, no digit after the closing one: '$5 and $10' is
prose)."""
COPIED = re.compile(r"(?<![A-Za-z_^])[A-Za-z](?: [A-Za-z]){2,}(?![A-Za-z_])")
"""Three or more single letters spaced out ('p o s', 's i n'), no subscript among them: a formula copied from a
rendered page, whose letters came apart (the known loss a plain-text formula is reported for)."""
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
LATEX_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
URL = re.compile(r"(?:https?|ftp)://[^\s)>\]]+|\]\([^)\s]*\)")
"""An address, and a Markdown link's target: 'id=SygkZ3MTJE' in a query string is no equation."""
HIDDEN = ("code", "front-matter", "markup")
"""The blocks of a marked-up document that hold no formula a reader sees as math."""


@dataclass(frozen=True)
class Problem:
    """What a reader of the formula meets: ``kind`` (does not parse, does not render, disagrees with its
    definition, false as written) and what is wrong, in words: English, and Korean for a Korean document's
    errata."""

    kind: str
    detail: str
    korean: str = ""

    def said(self, language: str) -> tuple[str, str]:
        """(kind, detail) in ``language`` (English where it has no text in that language)."""
        if language == "ko" and self.korean:
            return KINDS_KOREAN.get(self.kind, self.kind), self.korean
        return self.kind, self.detail


KINDS_KOREAN = {
    "does not parse": "읽히지 않습니다",
    "does not render": "제대로 표시되지 않습니다",
    "disagrees with its definition": "문서의 정의와 맞지 않습니다",
    "disagrees with the notation": "문서의 표기와 맞지 않습니다",
    "false as written": "쓰인 대로는 틀립니다",
}
"""What a reader meets, as a Korean predicate ("이 식은 …")."""
ESCAPES_KOREAN = {
    "t": "탭으로",
    "f": "폼 피드로",
    "b": "백스페이스로",
    "r": "캐리지 리턴으로",
    "n": "줄바꿈으로",
    "v": "수직 탭으로",
    "a": "벨 문자로",
}
"""Each escape's name with its particle ('탭으로', '폼 피드로')."""


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
    """Every formula of ``text``: in a Markdown or LaTeX document from its markup, else line by line."""
    if marked_up(document):
        yield from _marked_up(document, text, PurePath(document).suffix.lower())
    else:
        yield from _plain_text(document, text, code)


def _plain_text(document: str, text: str, code: frozenset[str]) -> Iterator[Formula]:
    """A plain-text document's formulas, line by line: the LaTeX spans of a line with ``$``, else its equations."""
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
                    Problem(
                        "does not render",
                        "an unmatched $: the rest of the line is set as math",
                        "짝이 없는 $ 때문에 줄의 나머지가 수식으로 조판됩니다",
                    )
                )
                yield formula
            continue
        if line.strip() in code or line.startswith("    ") or PYTHON.search(line):
            continue
        yield from _plain_formulas_of_line(document, number, line)


def _plain_formulas_of_line(document: str, number: int, line: str) -> Iterator[Formula]:
    for cell in re.split(r"\t|`[^`]*`| · ", line):
        for left, right in _plain_formulas(cell):
            written = re.search(rf"{re.escape(left)}\s*=\s*{re.escape(right)}", line)
            span = written.group(0) if written else f"{left} = {right}"
            yield Formula(document, number, span, False, span, line[: written.start()] if written else "")


def _marked_up(document: str, text: str, suffix: str) -> Iterator[Formula]:
    """A Markdown or LaTeX document's delimited math, outside code, comments and front matter; in Markdown also the
    plain-text equations of its prose."""
    try:
        blocks = layout(document, text).blocks
    except ValueError as error:  # markup a parser cannot read: no formula is said to be wrong for it
        LOG.info("%s", error)
        return
    visible = _blanked(text, [(b.start, b.end) for b in blocks if b.kind in HIDDEN])
    hidden = INLINE_CODE if suffix == ".md" else LATEX_COMMENT
    visible = _blanked(visible, [m.span() for m in hidden.finditer(visible)])
    visible = _blanked(visible, [m.span() for m in URL.finditer(visible)])
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    for match in DELIMITED.finditer(visible):
        inner = next(name for name in ("display", "bracket", "paren", "body", "inline") if match.group(name))
        line = text.count("\n", 0, match.start()) + 1
        yield Formula(
            document,
            line,
            text[match.start(inner) : match.end(inner)],
            True,
            text[match.start() : match.end()],
            text[starts[line - 1] : match.start()],
        )
    if suffix != ".md":
        return
    prose = _blanked(visible, [m.span() for m in DELIMITED.finditer(visible)])
    for number, line in enumerate(prose.split("\n"), 1):
        if line.strip() and not line.startswith("    ") and not PYTHON.search(line):
            yield from _plain_formulas_of_line(document, number, line)


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span's characters but line ends replaced by spaces (offsets and lines kept)."""
    characters = list(text)
    for start, end in spans:
        for at in range(start, end):
            if characters[at] != "\n":
                characters[at] = " "
    return "".join(characters)


def _plain_formulas(cell: str) -> list[tuple[str, str]]:
    """The ``left = right (= …)`` spans of a line of prose, made of formula characters only and cut where prose
    words run on ('we use d_k = 64 heads in all' is ``d_k = 64``)."""
    found, covered = [], -1
    for equals in re.finditer(r"(?<![=<>!])=(?!=)", cell):
        if equals.start() < covered:
            continue
        left = PLAIN_LEFT.search(cell[: equals.start()]).group(0)
        if left.count("{") > left.count("}"):  # the = of a subscript, Σ_{i=1}
            continue
        left = _balanced(_after_prose(left), from_end=True)
        right = _before_prose(PLAIN_RIGHT.match(cell, equals.end()).group(0))
        right = _balanced(right.rstrip(" ."), from_end=False)
        covered = equals.end() + len(right) + 1
        if re.search(r"[A-Za-z0-9]", left) and re.search(r"[A-Za-z0-9]", right):
            found.append((left, right))
    return found


PROSE_WORD = re.compile(r"[A-Za-z]{2,}[,.;:]?")


def _after_prose(left: str) -> str:
    """The end of ``left`` after its last run of two prose words ('we use d_k' → 'd_k')."""
    words = list(re.finditer(r"\S+", left))
    for at in range(len(words) - 1, 0, -1):
        if PROSE_WORD.fullmatch(words[at].group()) and PROSE_WORD.fullmatch(words[at - 1].group()):
            return left[words[at].end() :].strip()
    return left


def _before_prose(right: str) -> str:
    """The start of ``right`` before its first run of two prose words ('8 parallel attention layers' → '8')."""
    words = list(re.finditer(r"\S+", right))
    for at in range(len(words) - 1):
        if PROSE_WORD.fullmatch(words[at].group()) and PROSE_WORD.fullmatch(words[at + 1].group()):
            return right[: words[at].start()].rstrip()
    return right


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
            korean = ", ".join(
                f"`{word}{{`는 원래 `\\{command(word)}{{`인데 `\\{command(word)[0]}`가 "
                f"{ESCAPES_KOREAN[command(word)[0]]} 읽혔습니다"
                for word in dict.fromkeys(lost)
            )
            formula.problems.append(
                Problem(
                    "does not render",
                    f"{said} by a string escape: the page shows the letters of the command's name in italics",
                    f"문자열 이스케이프 때문에 {korean}. 페이지에는 명령 이름의 글자가 기울어진 수식 문자로 나옵니다",
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
                    "수식 모드에서 \\text{} 밖에 있는 낱말("
                    + ", ".join(dict.fromkeys(words))
                    + ")은 기호로 조판되어 띄어쓰기가 사라집니다",
                )
            )
        if bare := BARE_FUNCTIONS.findall(source):
            formula.remarks.append(
                ", ".join(dict.fromkeys(bare)) + " without a backslash is set as italic letters"
                " (\\sin, \\cos set them upright)"
            )
        if failure := unrenderable(source):
            formula.problems.append(Problem("does not render", *failure))
    elif commands := re.findall(r"\\[A-Za-z]+", source):
        typed = ", ".join(dict.fromkeys(commands))
        formula.problems.append(
            Problem(
                "does not render",
                f"LaTeX outside $…$ is shown as typed: {typed}",
                f"$…$ 밖의 LaTeX({typed})는 입력한 글자 그대로 보입니다",
            )
        )
    try:
        formula.parsed = parse(source, latex=formula.latex)
    except FormulaError as error:
        if formula.latex or not COPIED.search(source):  # the grammar's limit, not the document's fault
            formula.status = f"not read by the grammar ({error})"
            LOG.info("%s, line %d: %s not read by the grammar: %s", formula.document, formula.line, source, error)
            return
        spaced = ", ".join(dict.fromkeys(m.group(0) for m in COPIED.finditer(source)))
        formula.problems.insert(
            0,
            Problem(
                "does not parse",
                f"copied from a rendered formula, its letters spaced out ({spaced}): {error}",
                f"렌더링된 수식을 복사하면서 글자가 띄어지고({spaced}) 괄호가 흐트러져 "
                f"{_unread(error)} 부분부터 식으로 읽을 수 없습니다",
            ),
        )


def _unread(error: FormulaError) -> str:
    """The text the grammar stopped at, quoted ('} 2 i / d))'), or where it stopped."""
    found = re.search(r"cannot read '(.*)' at column", str(error))
    return f"'{found.group(1)}'" if found else f"{error.column}번째 글자"


def unrenderable(latex: str) -> tuple[str, str] | None:
    """Why no LaTeX renderer can set ``latex`` (braces, ``\\left``/``\\right`` or environments that do not pair up),
    in English and Korean; None when it is well formed as far as that goes."""
    bare = re.sub(r"\\\\|\\[{}$%&#_]", "", latex)
    depth = 0
    for character in bare:
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth < 0:
            return "a closing brace } with no opening one", "닫는 중괄호 }에 짝이 되는 여는 중괄호가 없습니다"
    if depth:
        plural = "s" if depth > 1 else ""
        return f"{depth} opening brace{plural} {{ never closed", f"여는 중괄호 {{ {depth}개가 닫히지 않습니다"
    lefts, rights = len(re.findall(r"\\left(?![A-Za-z])", bare)), len(re.findall(r"\\right(?![A-Za-z])", bare))
    if lefts != rights:
        return (
            f"{lefts} \\left against {rights} \\right: each \\left needs its \\right",
            f"\\left {lefts}개에 \\right {rights}개: \\left마다 짝이 되는 \\right가 있어야 합니다",
        )
    opened: list[str] = []
    for kind, name in re.findall(r"\\(begin|end)\{([^{}]*)\}", bare):
        if kind == "begin":
            opened.append(name)
        elif not opened or opened.pop() != name:
            return (
                f"\\end{{{name}}} does not close the environment opened before it",
                f"\\end{{{name}}}가 앞에서 연 환경을 닫지 않습니다",
            )
    if opened:
        return f"\\begin{{{opened[-1]}}} is never ended", f"\\begin{{{opened[-1]}}}이 끝나지 않습니다"
    return None


def command(word: str) -> str:
    return next(c for c in BRACE_COMMANDS if c[1:] == word and c[0] in ESCAPES)
