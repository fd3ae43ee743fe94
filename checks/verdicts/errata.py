"""What a claim tells the people who act on a sentence it finds wrong or incomplete: an erratum.

A claim whose verdict is refuted or qualified declares one (``Claim(erratum=Erratum(...))``). Its severity says who
it is for. A document's reader is misled by an ``error`` (false as stated), a ``condition`` (true only under a
condition a reader of the document meets, which the sentence leaves out) or its ``notation`` (a sign that means two
things, a symbol left undefined, a convention the companion documents do not share): those are the document's
errata, with a corrected wording in the document's language that replaces exactly the quoted span. Precision limits,
implementation details (the document's code, sizes the text never uses) and remarks are for implementers: they are
listed apart and never counted as sentences to fix.

Figures in ``problem`` and ``wording`` come from the run: a field such as ``{half_period:,.0f}`` or
``{first_increase[64]}`` is filled from the data the claim's findings recorded (``r.condition(..., half_period=x)``),
so a change of evidence changes the text. A field the run did not record withholds the erratum (checks.engine).
"""

from __future__ import annotations

import _string  # the parser str.format itself uses: field names split without evaluating anything
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from string import Formatter
from typing import Any, Literal

Severity = Literal["error", "condition", "notation", "precision", "implementation", "note"]
SEVERITIES: dict[str, str] = {
    "error": "false as stated: a reader who believes it is misled",
    "condition": "true only under a condition that a reader of the document meets and the sentence leaves out",
    "notation": "the notation misleads: a sign with two meanings, a symbol left undefined, a convention other than "
    "the companion documents', a formula a reader cannot read as written",
    "precision": "true in exact arithmetic; fails only in low precision or at extreme inputs",
    "implementation": "true of what the text presents; an implementation (the document's code, a size the text "
    "never uses) departs from it",
    "note": "a remark for the record; no change to the sentence is proposed",
}
"""The scale, most serious first: errata are listed in this order."""
AGREES_WITH: dict[str, tuple[str, ...]] = {
    "error": ("refuted",),
    "condition": ("qualified",),
    "notation": ("proved", "holds", "qualified", "refuted"),
    "precision": ("proved", "holds", "qualified"),
    "implementation": ("proved", "holds", "qualified"),
    "note": ("proved", "holds", "qualified", "refuted"),
}
"""The verdicts each severity's description is true beside: "false as stated" only beside refuted, "true only under
a condition" only beside qualified, "true in exact arithmetic" and "true of what the text presents" never beside
refuted. A claim declares only an agreeing severity, and a page shows an erratum only beside a verdict it agrees
with."""
FOR_READERS = ("error", "condition", "notation")
"""The severities that mislead a document's reader: the document's errata, the sentences to fix."""
FOR_IMPLEMENTERS = ("precision", "implementation", "note")
"""The severities listed for implementers (the implementations page), never counted as sentences to fix."""


@dataclass(frozen=True)
class Erratum:
    """The correction a claim proposes for the sentence it quotes first (or for ``sentence``, another one of its
    quotes, by its exact text).

    ``point``: a short key shared by the errata of several claims that make one point (one caveat for sentences in
    several places); the report merges them into one suggestion that names each place. Write ``{{`` and ``}}`` for a
    literal brace (LaTeX): single braces are the run's values.
    """

    severity: Severity
    problem: str
    """One line, in English: what is wrong, or which condition the sentence needs (the claim page, implementers)."""
    wording: str = ""
    """The quoted span as it could read instead, in the document's language; it may hold line breaks where the
    quoted span does, or where a note goes on a line of its own (required for a reader's erratum;
    optional for an implementer's)."""
    sentence: str = ""
    point: str = ""
    """Shared by the errata of several claims that make one point; one of them may carry the wording alone."""
    also: dict[str, str] = field(default_factory=dict)
    """Other sentences the claim quotes that make the same point, each with its wording ("" where the point is
    worded at another place): one idea, one caveat wherever a document says it."""
    stated_by: str = ""
    """Another of the claim's quotes, in another document, that states the condition this erratum asks for: the
    document's errata cite it (one idea, stated once, borrowed where it is left out); it is not corrected."""
    reader_problem: str = ""
    """``problem`` for the document's reader, in the document's language (one line, its figures from the run as in
    ``problem``): what the document's errata show. Empty: ``problem`` is shown."""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"erratum severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")
        if self.for_readers and not (self.wording.strip() or self.point):
            raise ValueError(
                f"a {self.severity} erratum needs a wording (the sentence as a reader could read it), or a point "
                "whose wording another claim's erratum gives"
            )
        if not self.problem.strip() or "\n" in self.problem:
            raise ValueError(f"erratum problem must be one non-empty line, not {self.problem!r}")
        if "\n" in self.reader_problem:
            raise ValueError(f"erratum reader_problem must be one line, not {self.reader_problem!r}")

    def corrections(self, first_quote: str) -> list[tuple[str, str]]:
        """(sentence, wording) for every sentence it corrects: the one it names (else ``first_quote``, the claim's
        first), then ``also``'s."""
        return [(self.sentence or first_quote, self.wording), *self.also.items()]

    def agrees_with(self, verdict: str) -> bool:
        """Whether its severity's description is true beside ``verdict`` (AGREES_WITH)."""
        return str(verdict) in AGREES_WITH[self.severity]

    @property
    def for_readers(self) -> bool:
        """Misleads the document's reader (an error or a condition), rather than a remark for implementers."""
        return self.severity in FOR_READERS

    @property
    def fields(self) -> list[str]:
        """The names of the run's values its texts cite (ValueError for a malformed or attribute field; a claim
        checks this when it is declared, before any run). A filled erratum's text is final and not parsed again."""
        texts = (self.problem, self.reader_problem, self.wording, *self.also.values())
        return sorted({name for text in texts for name in fields(text)})

    def filled(self, values: Mapping[str, Any]) -> Erratum:
        """The erratum with every field replaced by the run's value (KeyError naming the first one missing)."""
        return replace(
            self,
            problem=fill(self.problem, values),
            reader_problem=fill(self.reader_problem, values),
            wording=fill(self.wording, values),
            also={sentence: fill(wording, values) for sentence, wording in self.also.items()},
        )


def fields(text: str) -> list[str]:
    """The top-level names of the fields in ``text`` (ValueError for attribute access or a malformed field)."""
    names = []
    for _, field_name, _, _ in Formatter().parse(text):
        if field_name is None:
            continue
        first, rest = _string.formatter_field_name_split(field_name)
        if not isinstance(first, str) or not first.isidentifier():
            raise ValueError(f"erratum field {{{field_name}}} must start with a name the run records")
        if any(is_attribute for is_attribute, _ in rest):
            raise ValueError(f"erratum field {{{field_name}}}: use [key] for a recorded value's part, not '.'")
        names.append(first)
    return names


def fill(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with its fields replaced: a name from ``values``, then ``[key]`` parts (a whole-number key also
    finds a string key, as JSON keeps them), then the format spec."""
    out = []
    for literal, field_name, spec, conversion in Formatter().parse(text):
        out.append(literal)
        if field_name is None:
            continue
        first, rest = _string.formatter_field_name_split(field_name)
        value = values[first]
        for _, key in rest:
            value = value[key] if not (isinstance(value, dict) and key not in value) else value[str(key)]
        if conversion:
            raise ValueError(f"erratum field {{{field_name}!{conversion}}}: no conversion, only a format spec")
        out.append(format(value, spec or ""))
    return "".join(out)


def rank(severity: str) -> int:
    """The place of ``severity`` on the scale (0: most serious); unknown ones last."""
    order = list(SEVERITIES)
    return order.index(severity) if severity in order else len(order)
