"""Presentation MathML from the results file, checked and re-serialised before it is inserted as markup.

SymPy writes the MathML from our own expressions; still, only whitelisted presentation
elements and attributes pass, and the output is rebuilt from the parsed tokens, so what
reaches the page is exactly what was checked.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser

from markupsafe import Markup

NAMESPACE = "http://www.w3.org/1998/Math/MathML"
ELEMENTS = frozenset(
    {
        "mi",
        "mn",
        "mo",
        "ms",
        "mtext",
        "mspace",
        "mrow",
        "mfrac",
        "msqrt",
        "mroot",
        "mstyle",
        "merror",
        "mpadded",
        "mphantom",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mmultiscripts",
        "mprescripts",
        "none",
        "mtable",
        "mtr",
        "mtd",
        "semantics",
        "annotation",
    }
)
VOID = frozenset({"mspace", "mprescripts", "none"})
ATTRIBUTES = frozenset(
    {
        "mathvariant",
        "stretchy",
        "fence",
        "separator",
        "form",
        "largeop",
        "movablelimits",
        "accent",
        "accentunder",
        "lspace",
        "rspace",
        "linethickness",
        "displaystyle",
        "scriptlevel",
        "columnalign",
        "rowalign",
        "columnspan",
        "rowspan",
        "width",
        "height",
        "depth",
    }
)
SAFE_VALUE = re.compile(r"^[\w .%+-]*$")


class UnsafeMathML(ValueError):
    """The MathML holds something other than whitelisted presentation markup."""


class _Rebuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ELEMENTS:
            raise UnsafeMathML(f"element <{tag}> is not presentation MathML")
        rendered = []
        for name, value in attrs:
            if name not in ATTRIBUTES or not SAFE_VALUE.match(value or ""):
                raise UnsafeMathML(f"attribute {name}={value!r} on <{tag}> is not allowed")
            rendered.append(f' {name}="{escape(value or "")}"')
        self.parts.append(f"<{tag}{''.join(rendered)}>")
        if tag in VOID:
            self.parts.append(f"</{tag}>")
        else:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.open or self.open.pop() != tag:
            raise UnsafeMathML(f"unbalanced </{tag}>")
        self.parts.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "mo" and data.strip() == "-":
            data = "\u2212"  # SymPy writes hyphen-minus; a minus sign reads right in every font
        self.parts.append(escape(data, quote=False))

    def handle_comment(self, data: str) -> None:
        raise UnsafeMathML("comments are not allowed")

    def handle_decl(self, decl: str) -> None:
        raise UnsafeMathML("declarations are not allowed")

    def handle_pi(self, data: str) -> None:
        raise UnsafeMathML("processing instructions are not allowed")

    def unknown_decl(self, data: str) -> None:
        raise UnsafeMathML("CDATA is not allowed")


def sanitize(fragment: str) -> str:
    """The fragment rebuilt from whitelisted MathML tokens; UnsafeMathML otherwise."""
    lowered = fragment.lower()
    if "<script" in lowered or re.search(r"\bon\w+\s*=", lowered):
        raise UnsafeMathML("script or event-handler attribute")
    parser = _Rebuilder()
    parser.feed(fragment)
    parser.close()
    if parser.open:
        raise UnsafeMathML(f"unclosed <{parser.open[-1]}>")
    return "".join(parser.parts)


def block(fragment: str) -> tuple[Markup | None, str]:
    """A display <math> element for a SymPy MathML fragment, or None and why (empty or unsafe)."""
    if not fragment.strip():
        return None, "the results file has no MathML for this step"
    try:
        body = sanitize(fragment)
    except UnsafeMathML as unsafe:
        return None, str(unsafe)
    return Markup(f'<math display="block" xmlns="{NAMESPACE}">{body}</math>'), ""


WIDEST_DISPLAY = 150
"""LaTeX characters past which a display formula is shown as its source: rendered, a formula this long (a row of
matrices) is wider than a printed page and cannot wrap; its source wraps, and is what an author pastes."""
TEX = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.DOTALL)
"""A display formula ($$…$$) or an inline one ($…$) in a document's sentence."""
WRAPPER = re.compile(r"^\s*<math[^>]*>(.*)</math>\s*$", re.DOTALL)


def with_tex(text: str) -> Markup:
    """``text`` as HTML with each $…$ and $$…$$ formula as MathML (latex2mathml, then the same whitelist as
    every other formula); a formula that cannot be converted safely, or a display formula too wide to print
    (WIDEST_DISPLAY), stays as its escaped source."""
    from latex2mathml.converter import convert

    parts, at = [], 0
    for found in TEX.finditer(text):
        parts.append(escape(text[at : found.start()]))
        display, inline = found.group(1), found.group(2)
        source = display if display is not None else inline
        if display is not None and len(source) > WIDEST_DISPLAY:
            parts.append(f'<code class="tex-source">{escape(found.group(0))}</code>')
            at = found.end()
            continue
        try:
            body = WRAPPER.match(convert(source.strip()))
            if body is None:
                raise UnsafeMathML("latex2mathml returned no <math> element")
            kind = "block" if display is not None else "inline"
            parts.append(f'<math display="{kind}" xmlns="{NAMESPACE}">{sanitize(body.group(1))}</math>')
        except Exception:  # an unknown command or unsafe output: the reader sees the source, escaped
            parts.append(escape(found.group(0)))
        at = found.end()
    parts.append(escape(text[at:]))
    return Markup("".join(parts))
