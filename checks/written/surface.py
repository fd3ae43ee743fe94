"""What a reader sees besides sentences: blemishes of a document's surface that no claim checks and no erratum
corrects, listed apart on its page and in its errata file.

- a doubled bullet (``• •item``), a run of such lines said once;
- interface text copied with the content (``실행복사``: a code widget's Run and Copy buttons);
- a note run into a display formula where a line break was lost (``$$…$$ M_k는 …``);
- a heading with nothing under it before the next heading of its level or above;
- math copied from a rendered page with its letters spaced out, outside an equation ('P E (p o s + k)').

Each is said in English and in Korean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from checks.markup import layout, marked_up
from checks.sources import heading_rank
from checks.written.found import COPIED

DOUBLED_BULLET = re.compile(r"^\s*(?:([•·▪◦])\s*\1|([-*])[ \t]+\2[ \t])\s*\S")
"""Two bullets before one item ('• •item', '- - item'); a Markdown rule ('---') is none."""
INTERFACE_LABELS = ("실행", "복사", "코드 복사", "편집", "Run", "Copy", "Copy code", "Edit", "Download", "다운로드")
LABELS = "|".join(map(re.escape, sorted(INTERFACE_LABELS, key=len, reverse=True)))
INTERFACE = re.compile(rf"^\s*(?:{LABELS}){{2,}}\s*$")
RUN_INTO_DISPLAY = re.compile(r"\$\$[^$]+\$\$[ \t]*(\S.*)$")


@dataclass(frozen=True)
class Blemish:
    """One kind of thing a reader sees, at every place it stands (line ranges), in English and Korean."""

    places: tuple[tuple[int, int], ...]
    """(first, last) line of each place."""
    text: str
    """What the first place shows."""
    english: str
    korean: str

    @property
    def first(self) -> int:
        return self.places[0][0]

    def said(self, language: str) -> str:
        return self.korean if language == "ko" else self.english

    def lines(self, language: str) -> str:
        ranges = [f"{a}" if a == b else f"{a}–{b}" for a, b in self.places]
        return f"{', '.join(ranges)}행" if language == "ko" else f"line(s) {', '.join(ranges)}"


def blemishes(document: str, text: str) -> list[Blemish]:
    """Every blemish of the document's text, in line order."""
    lines = text.splitlines()
    found = [*_doubled_bullets(lines), *_interface_text(lines), *_spaced_letters(lines)]
    if not marked_up(document):  # in Markdown or LaTeX, prose may follow display math within its paragraph
        found += _run_into_display(lines)
    found += _empty_headings(document, text, lines)
    return sorted(found, key=lambda blemish: blemish.first)


def _doubled_bullets(lines: list[str]) -> list[Blemish]:
    runs: list[list[int]] = []
    for number, line in enumerate(lines, 1):
        if DOUBLED_BULLET.match(line):
            if runs and runs[-1][-1] >= number - 2:  # a blank line between items keeps the run
                runs[-1].append(number)
            else:
                runs.append([number])
    if not runs:
        return []
    items = sum(len(run) for run in runs)
    return [
        Blemish(
            tuple((run[0], run[-1]) for run in runs),
            lines[runs[0][0] - 1].strip(),
            f"doubled bullets: {items} list items start with two bullets ('• •')",
            f"목록 항목 {items}개가 글머리 기호 두 개('• •')로 시작합니다",
        )
    ]


def _interface_text(lines: list[str]) -> list[Blemish]:
    return [
        Blemish(
            ((number, number),),
            line.strip(),
            f"interface text copied with the content: {line.strip()!r} is a code widget's buttons, not text",
            f"화면의 버튼 글자가 본문에 함께 복사되었습니다: '{line.strip()}'는 코드 창의 버튼 이름입니다",
        )
        for number, line in enumerate(lines, 1)
        if INTERFACE.match(line)
    ]


def _run_into_display(lines: list[str]) -> list[Blemish]:
    found = [(n, match.group(1)) for n, line in enumerate(lines, 1) if (match := RUN_INTO_DISPLAY.search(line))]
    if not found:
        return []
    return [
        Blemish(
            tuple((number, number) for number, _ in found),
            found[0][1][:60],
            "a note runs into the display formula before it, on the formula's line: a line break was lost",
            "줄바꿈이 빠져 설명 문장이 바로 앞의 수식과 같은 줄에 붙어 있습니다",
        )
    ]


def _spaced_letters(lines: list[str]) -> list[Blemish]:
    """Math copied from a rendered page with its letters spaced out ('P E (p o s + k)'), outside an equation (an
    equation's are the formula reader's, checks.written.found)."""
    found = [(n, line.strip()) for n, line in enumerate(lines, 1) if COPIED.search(line) and "=" not in line]
    return [
        Blemish(
            ((number, number),),
            text[:60],
            "math copied from a rendered page, its letters spaced out",
            "렌더링된 수식을 복사하면서 글자가 띄어졌습니다",
        )
        for number, text in found
    ]


def _empty_headings(document: str, text: str, lines: list[str]) -> list[Blemish]:
    """Headings followed, past blank lines only, by another heading of their level or above (or the end)."""
    heads = _heading_lines(document, text, lines)
    empty = []
    for index, (number, level) in enumerate(heads):
        following = next(((n, lv) for n, lv in heads[index + 1 :] if n > number), None)
        end = following[0] - 1 if following else len(lines)
        between = [line for line in lines[number:end] if line.strip() and line.strip() != "---"]
        deeper = following is not None and following[1] > level
        if not between and not deeper and following is not None:  # the last heading may be an excerpt's cut
            empty.append(
                Blemish(
                    ((number, number),),
                    lines[number - 1].strip(),
                    "a heading with nothing under it",
                    "제목 아래에 내용이 없습니다",
                )
            )
    return empty


def _heading_lines(document: str, text: str, lines: list[str]) -> list[tuple[int, int]]:
    """(line, level) of each heading: from the markup, or in plain text its structural headings ('## …', '3. …';
    a short line may be a heading or a label, so it is not judged)."""
    if marked_up(document):
        try:
            blocks = layout(document, text).headings
        except ValueError:
            return []
        return [(text.count("\n", 0, block.start) + 1, block.level) for block in blocks]
    return [
        (number, rank[1])
        for number, line in enumerate(lines, 1)
        if (rank := heading_rank(line)) and "   " not in line and "\t" not in line  # a table's row is no heading
    ]
