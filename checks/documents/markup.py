"""A document's layout, read from its markup: its headings (with their titles, without markers), the spans that are not
prose (display math, tables, code, front matter, captions, reference lists, comments), and the prose where its
sentences are.

Markdown (``.md``) is read by markdown-it-py (CommonMark with tables, front matter and ``$$`` math), LaTeX (``.tex``)
by pylatexenc. A plain-text document (``.txt``) has no markup: every line is prose, cut into sentences line by line,
and any short line may head a section (checks.documents.sources), as the lesson documents were written against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePath
from typing import Any, Literal

BlockKind = Literal["heading", "math", "table", "code", "front-matter", "caption", "references", "markup"]
KINDS: dict[str, str] = {
    "heading": "a title or section heading",
    "math": "a display formula",
    "table": "a table",
    "code": "a code block",
    "front-matter": "front matter or preamble: metadata, packages, macros",
    "caption": "a figure's or table's caption, or an image",
    "references": "a reference list",
    "markup": "markup with no sentence: a comment, an HTML block, a label",
}
"""What each kind of block is; each is classified as such (not a claim) with no entry in a classification file."""
FORMATS: dict[str, str] = {".txt": "plain text", ".md": "Markdown", ".tex": "LaTeX"}
"""The documents' formats, by file suffix."""
REFERENCES = re.compile(r"(references|bibliography|works cited|참고\s*문헌)\s*$", re.IGNORECASE)
CAPTION = re.compile(r"(fig\.|figure|table|tab\.|그림|표)\s*\d+[.:]", re.IGNORECASE)


@dataclass(frozen=True)
class Block:
    """A span of the document that holds no sentence, or a heading (``level`` 1 for a title or ``#``)."""

    kind: BlockKind
    start: int
    end: int
    level: int = 0
    title: str = ""
    """A heading's words without its markers (``## 4 Why`` → ``4 Why``; ``\\section{Why}`` → ``Why``)."""


@dataclass(frozen=True)
class Layout:
    """The blocks of a document, in order, and its prose: the spans where its sentences are."""

    blocks: tuple[Block, ...]
    prose: tuple[tuple[int, int], ...]
    joined: bool
    """Whether a paragraph's lines are one run of text (Markdown, LaTeX), rather than each line its own (plain
    text)."""
    title: str = ""
    """The document's title without markers: its front matter's or ``\\title``'s, else its first heading's (plain
    text: its first line)."""

    @property
    def headings(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind == "heading")


def format_of(name: str) -> str:
    """The format of the document called ``name`` (its suffix); ValueError naming the known ones."""
    suffix = PurePath(name).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{name}: a document is one of {', '.join(FORMATS)} ({', '.join(FORMATS.values())})")
    return suffix


def marked_up(name: str) -> bool:
    """Whether the document called ``name`` has markup (Markdown, LaTeX) rather than plain lines (.txt, unknown)."""
    suffix = PurePath(name).suffix.lower()
    return suffix in FORMATS and suffix != ".txt"


@lru_cache(maxsize=64)
def layout(name: str, text: str) -> Layout:
    """The layout of document ``name`` (its format from its suffix) whose text is ``text``."""
    suffix = format_of(name)
    readers = {".md": _markdown, ".tex": _latex}
    if suffix in readers:
        try:
            return readers[suffix](text)
        except Exception as error:  # a parser's failure on this text: one line naming it
            raise ValueError(
                f"{name}: its {FORMATS[suffix]} could not be read ({type(error).__name__}: {error}); check its markup"
            ) from None
    title = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return Layout((), ((0, len(text)),), joined=False, title=title)


def paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The paragraphs of ``text[start:end]``: runs of lines between blank lines, spaces trimmed."""
    found = []
    for match in re.finditer(r"\S(?:.|\n(?![ \t]*\n))*", text[start:end]):
        found.append((start + match.start(), start + match.start() + len(match.group().rstrip())))
    return found


def _markdown(text: str) -> Layout:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    parser = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(dollarmath_plugin)
    starts = _line_starts(text)
    blocks: list[Block] = []
    prose: list[tuple[int, int]] = []
    references_level = 0
    tokens = parser.parse(text)
    for index, token in enumerate(tokens):
        if token.map is None or (token.level > 0 and token.type != "paragraph_open"):
            continue
        start, end = starts[token.map[0]], _trimmed_end(text, starts[token.map[1]])
        if token.type == "heading_open":
            level = int(token.tag[1])
            title = tokens[index + 1].content.strip()
            blocks.append(Block("heading", start, end, level, title))
            if REFERENCES.match(title):
                references_level = level
            elif level <= references_level:
                references_level = 0
        elif references_level and token.type in ("paragraph_open", "bullet_list_open", "ordered_list_open"):
            if token.level == 0:
                blocks.append(Block("references", start, end))
        elif token.type == "paragraph_open":
            inline = tokens[index + 1].content.strip()
            if CAPTION.match(inline) or re.fullmatch(r"!\[[^\]]*\]\([^)]*\)", inline):
                blocks.append(Block("caption", start, end))
            else:  # a list item's text begins after its marker
                marker = re.match(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+", text[start:end]) if token.level else None
                prose.append((start + (marker.end() if marker else 0), end))
        elif kind := _MARKDOWN_BLOCKS.get(token.type):
            blocks.append(Block(kind, start, end))
    front = next((t.content for t in tokens if t.type == "front_matter"), "")
    titled = re.search(r"^title:\s*[\"']?(.+?)[\"']?\s*$", front, re.MULTILINE)
    title = titled.group(1) if titled else next((b.title for b in blocks if b.kind == "heading"), "")
    return Layout(tuple(blocks), tuple(prose), joined=True, title=title)


_MARKDOWN_BLOCKS: dict[str, BlockKind] = {
    "front_matter": "front-matter",
    "math_block": "math",
    "math_block_label": "math",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
    "html_block": "markup",
}


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _trimmed_end(text: str, end: int) -> int:
    return len(text[:end].rstrip())


_LATEX_SECTIONS = {"title": 1, "part": 1, "chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4}
_LATEX_SECTIONS |= {"paragraph": 5, "subparagraph": 6}
_LATEX_ENVIRONMENTS: dict[str, BlockKind] = {
    **dict.fromkeys(("equation", "align", "gather", "multline", "eqnarray", "displaymath", "math"), "math"),
    **dict.fromkeys(("table", "tabular", "tabularx", "longtable"), "table"),
    **dict.fromkeys(("figure", "wrapfigure"), "caption"),
    **dict.fromkeys(("verbatim", "lstlisting", "minted", "algorithmic", "algorithm"), "code"),
    "thebibliography": "references",
}
_LATEX_MARKUP = ("label", "maketitle", "tableofcontents", "bibliographystyle", "newcommand", "renewcommand", "input")


def _latex(text: str) -> Layout:
    from pylatexenc.latexwalker import LatexEnvironmentNode, LatexWalker

    nodes, _, _ = LatexWalker(text, tolerant_parsing=True).get_latex_nodes()
    found = _LatexBlocks(text)
    document = next((n for n in nodes if isinstance(n, LatexEnvironmentNode) and n.environmentname == "document"), None)
    if document is None:  # a fragment: all of it is the body
        found.walk(nodes)
    else:
        body = document.pos + len("\\begin{document}")
        found.blocks.append(Block("front-matter", 0, body))
        found.title = next((found.heading(n).title for n in nodes if _macro(n) == "title"), "")
        found.walk(document.nodelist)
        found.blocks.append(Block("markup", document.pos + document.len - len("\\end{document}"), len(text)))
    taken = sorted([(b.start, b.end) for b in found.blocks] + found.holes)
    prose = [p for start, end in _gaps(taken, 0, len(text)) for p in paragraphs(text, start, end)]
    for start, end in found.footnotes:
        inner = [span for span in taken if start <= span[0] and span[1] <= end]
        prose += [p for gap in _gaps(inner, start, end) for p in paragraphs(text, *gap)]
    blocks = tuple(sorted(found.blocks, key=lambda b: b.start))
    title = found.title or next((b.title for b in blocks if b.kind == "heading"), "")
    return Layout(blocks, tuple(sorted(prose)), joined=True, title=title)


class _LatexBlocks:
    """The blocks, the markers that are neither block nor prose (``\\begin{abstract}``, ``\\label``, a footnote's
    macro) and the footnotes' texts (prose of their own) of a LaTeX body."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: list[Block] = []
        self.holes: list[tuple[int, int]] = []
        self.footnotes: list[tuple[int, int]] = []
        self.title = ""

    def walk(self, nodes: list[Any]) -> None:
        from pylatexenc.latexwalker import LatexCommentNode, LatexEnvironmentNode, LatexMathNode

        for node in nodes or []:
            start, end, macro = node.pos, node.pos + node.len, _macro(node)
            if isinstance(node, LatexEnvironmentNode):
                name = node.environmentname
                if kind := _LATEX_ENVIRONMENTS.get(name.rstrip("*")):
                    self.blocks.append(Block(kind, start, end))
                else:  # abstract, itemize, quote…: their text is prose
                    self.holes += [(start, start + len(f"\\begin{{{name}}}")), (end - len(f"\\end{{{name}}}"), end)]
                    self.walk(node.nodelist)
            elif isinstance(node, LatexMathNode) and node.displaytype == "display":
                self.blocks.append(Block("math", start, end))
            elif isinstance(node, LatexCommentNode):
                self.blocks.append(Block("markup", start, _trimmed_end(self.text, end)))
            elif macro.rstrip("*") in _LATEX_SECTIONS:
                self.blocks.append(self.heading(node))
            elif macro in ("bibliography", "printbibliography"):
                self.blocks.append(Block("references", start, end))
            elif macro in _LATEX_MARKUP:
                self.holes.append((start, end))
            elif macro == "footnote":
                self.holes.append((start, end))
                if (argument := _last_argument(node)) is not None:
                    self.footnotes.append((argument.pos + 1, argument.pos + argument.len - 1))

    def heading(self, node: Any) -> Block:
        argument = _last_argument(node)
        title = self.text[argument.pos + 1 : argument.pos + argument.len - 1] if argument is not None else ""
        end = _trimmed_end(self.text, node.pos + node.len)
        return Block("heading", node.pos, end, _LATEX_SECTIONS[_macro(node).rstrip("*")], " ".join(title.split()))


def _macro(node: Any) -> str:
    return getattr(node, "macroname", "") or ""


def _last_argument(node: Any) -> Any:
    arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
    return next((a for a in reversed(arguments) if a is not None), None)


def _gaps(taken: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The spans of [start, end) that no span of ``taken`` (sorted) covers."""
    gaps, at = [], start
    for begin, finish in taken:
        if finish <= at or begin >= end:
            continue
        if begin > at:
            gaps.append((at, begin))
        at = max(at, finish)
    if at < end:
        gaps.append((at, end))
    return gaps


__all__ = ["FORMATS", "KINDS", "Block", "BlockKind", "Layout", "format_of", "layout", "marked_up", "paragraphs"]
