"""What a reader sees besides sentences: blemishes of a document's surface that no claim checks and no erratum
corrects, listed apart on its page and in its errata file.

- a doubled bullet (``• •item``), a run of such lines said once;
- interface text copied with the content (``실행복사``: a code widget's Run and Copy buttons);
- a note run into a display formula where a line break was lost (``$$…$$ M_k는 …``);
- a heading with nothing under it before the next heading of its level or above;
- math copied from a rendered page with its letters spaced out, outside an equation ('P E (p o s + k)');
- a page's metadata copied as text at its top ('분류: llm', '타입: concept', …);
- an interactive figure's readout whose value was lost ('n − m—');
- a table that has its header and no row; two 'label: value' lines run into one;
- numbered demos, figures or tables whose numbers skip one (데모 6, then 데모 8: the one between was lost);
- in plain text, a heading followed directly by another heading (a figure, table or list between them lost, unless
  the second is the first's subheading: plain text does not say which).

Each is said in English and in Korean.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from checks.documents.markup import layout, marked_up
from checks.documents.sources import HEADING_LENGTH, heading_rank
from checks.written.found import COPIED
from checks.written.remarks import particle

DOUBLED_BULLET = re.compile(r"^\s*(?:([•·▪◦])\s*\1|([-*])[ \t]+\2[ \t])\s*\S")
"""Two bullets before one item ('• •item', '- - item'); a Markdown rule ('---') is none."""
INTERFACE_LABELS = ("실행", "복사", "코드 복사", "편집", "Run", "Copy", "Copy code", "Edit", "Download", "다운로드")
LABELS = "|".join(map(re.escape, sorted(INTERFACE_LABELS, key=len, reverse=True)))
INTERFACE = re.compile(rf"^\s*(?:{LABELS}){{2,}}\s*$")
CODE_LANGUAGES = ("python", "py", "bash", "shell", "sh", "javascript", "js", "typescript", "json", "text", "plaintext")
LANGUAGE_LABEL = re.compile(rf"^\s*(?:{'|'.join(CODE_LANGUAGES)})\s*$", re.IGNORECASE)
"""A code widget's language tab copied as a line of its own ('python' above the code's buttons)."""
METADATA = re.compile(r"^\s*([^\s:：]{1,12}(?: [^\s:：]{1,12})?)\s*[:：]\s*(\S.{0,60})$")
"""'key: value' as a page's metadata writes it (a short key, a short value)."""
READOUT = re.compile(r"^\s*(\S.{0,40}?\S)\s*[—–]\s*$")
"""A figure's readout whose value was lost: a short label ending in a dash ('n − m—')."""
CONTROL = re.compile(r"^\s*([^\d\s](?:(?! = )[^:]){0,30}?)\s+-?\d+(?:\.\d+)?(?:°|%|px)?\s*$")
"""An interactive figure's slider copied as its label and value ('d_model 64', 'k (몇 칸 뒤) 2')."""
LABEL = r"[^\s:：•·\-*>#$`][^:：\n.!?]{0,18}?"
NUMBERED = re.compile(r"^\s*(데모|그림|표|Demo|Figure|Fig\.|Table)\s+(\d+)[a-z]?\b", re.IGNORECASE)
"""A line that opens a numbered demo, figure or table ('데모 5a · …', 'Figure 3: …')."""
JOINED = re.compile(rf"^\s*{LABEL}[:：] (?:(?![.!?。](?:\s|$)|다\.|요\.).)+? {LABEL}[:：] \S")
"""Two 'label: value' lines run into one where a line break was lost ('학습 시: … 추론 시: …')."""
TERM = r"[A-Za-z_][\w.]*(?:\([^()]*\))?"
LABELLED_CODE = re.compile(
    rf"^\s*[A-Za-z_]\w*\s*=\s*{TERM}(?:\s*[-+*/@]\s*{TERM})+\s+(\([^()]*[^\x00-\x7f][^()]*\)(?:\s*[-+*/@]\s*\([^()]+\))+)\s*$"
)
"""A line of code (``x = a + b``) with its terms' labels run onto it: ``(의미 정보) + (위치 정보)``."""
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
    found = [*_doubled_bullets(lines), *_interface_text(lines), *_spaced_letters(lines), *_empty_tables(lines)]
    found += _skipped_numbers(lines)
    if not marked_up(document):  # in Markdown or LaTeX, prose may follow display math within its paragraph
        found += [*_run_into_display(lines), *_metadata(lines), *_readouts(lines), *_stacked_headings(lines)]
        found += _joined_lines(lines) + _labels_on_code(lines) + _one_sided_comparisons(lines)
        found += _figure_titles(lines)
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
    """A code widget's buttons ('실행복사'), with the language tab on the line above when there is one."""
    found = []
    for number, line in enumerate(lines, 1):
        if not INTERFACE.match(line):
            continue
        tab = number >= 2 and LANGUAGE_LABEL.match(lines[number - 2])
        first = number - 1 if tab else number
        shown = " / ".join(lines[n - 1].strip() for n in range(first, number + 1))
        found.append(
            Blemish(
                ((first, number),),
                shown,
                f"interface text copied with the content: {shown!r} is a code widget's language tab and buttons, "
                "not text",
                f"화면의 글자가 본문에 함께 복사되었습니다: '{shown}'는 코드 창의 언어 표시와 버튼 이름입니다"
                if tab
                else f"화면의 버튼 글자가 본문에 함께 복사되었습니다: '{shown}'는 코드 창의 버튼 이름입니다",
            )
        )
    return found


def _metadata(lines: list[str]) -> list[Blemish]:
    """Three or more 'key: value' lines at the top of a plain text, before its first paragraph: a page's metadata
    (category, type, level) copied with the content."""
    top = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if METADATA.match(line) and "$" not in line:
            top.append(number)
        elif top or len(line.strip()) > HEADING_LENGTH:
            break
    if len(top) < 3:
        return []
    keys = ", ".join(METADATA.match(lines[n - 1]).group(1) for n in top)  # type: ignore[union-attr]
    label = _first_text_line(lines)
    if label < top[0]:  # the site's own label above its metadata ('AI Research Portfolio Post')
        shown = lines[label - 1].strip()
        return [
            Blemish(
                ((label, top[-1]),),
                shown,
                f"a page's label ({shown!r}) and metadata copied as text at the top ({keys})",
                f"문서 맨 위에 웹 페이지의 이름('{shown}')과 속성 정보({keys})가 본문처럼 복사되어 있습니다",
            )
        ]
    return [
        Blemish(
            ((top[0], top[-1]),),
            " / ".join(lines[n - 1].strip() for n in top[:3]),
            f"a page's metadata copied as text at the top ({keys})",
            f"문서 맨 위에 웹 페이지의 속성 정보({keys})가 본문처럼 복사되어 있습니다",
        )
    ]


def _readouts(lines: list[str]) -> list[Blemish]:
    """Short lines ending in a dash: an interactive figure's readouts, copied without their values; and, in a text
    that has such readouts, its sliders copied as a label and a number on a line of their own."""
    found = [n for n, line in enumerate(lines, 1) if READOUT.match(line) and not line.lstrip().startswith(("-", "—"))]
    if not found:
        return []
    controls = [n for n, line in enumerate(lines, 1) if CONTROL.match(line) and _alone(lines, n)]
    seen = [
        Blemish(
            tuple((number, number) for number in found),
            " / ".join(lines[n - 1].strip() for n in found[:3]),
            f"{len(found)} readout(s) of an interactive figure copied without their values (a label, then '—')",
            f"대화형 그림의 표시값 {len(found)}개가 값 없이 이름과 '—'만 복사되어 있습니다",
        )
    ]
    if controls:
        seen.append(
            Blemish(
                tuple((number, number) for number in controls),
                " / ".join(lines[n - 1].strip() for n in controls[:3]),
                f"{len(controls)} slider(s) of an interactive figure copied as a label and its value",
                f"대화형 그림의 슬라이더 {len(controls)}개가 이름과 값만 본문에 복사되어 있습니다",
            )
        )
    return seen


def _skipped_numbers(lines: list[str]) -> list[Blemish]:
    """Numbered demos, figures or tables (each kind apart) whose numbers, in the order the text opens them, skip one;
    not where each is numbered after the part it stands in ('데모 5a' in part 5: a part with none has no number)."""
    opened: dict[str, list[tuple[int, int]]] = {}
    parts: dict[str, set[bool]] = {}
    part = 0
    for number, line in enumerate(lines, 1):
        if numbered := re.match(r"\s*(\d+)\.\s+\S", line):
            part = int(numbered.group(1))
        if match := NUMBERED.match(line):
            opened.setdefault(match.group(1).lower(), []).append((number, int(match.group(2))))
            parts.setdefault(match.group(1).lower(), set()).add(int(match.group(2)) == part)
    found = []
    for kind, seen in opened.items():
        if parts[kind] == {True}:
            continue
        for (_, before), (line, after) in itertools.pairwise(seen):
            if after > before + 1:
                label = lines[line - 1].strip().split()[0]
                missing = ", ".join(f"{label} {n}" for n in range(before + 1, after))
                found.append(
                    Blemish(
                        ((line, line),),
                        lines[line - 1].strip()[:60],
                        f"numbered {kind} skip from {before} to {after}: {missing} is not in the text",
                        f"번호가 {before} 다음에 {after}입니다. 본문에 없는 번호: {missing}",
                    )
                )
    return found


def _alone(lines: list[str], number: int) -> bool:
    """Whether a line stands between blank lines (or the text's ends)."""
    return (number == 1 or not lines[number - 2].strip()) and (number == len(lines) or not lines[number].strip())


def _joined_lines(lines: list[str]) -> list[Blemish]:
    """Lines that hold two 'label: value' lines run together (a line break lost in the copy)."""
    found = [n for n, line in enumerate(lines, 1) if JOINED.match(line) and "$" not in line]
    shown = lines[found[0] - 1].strip()[:60] if found else ""
    return _at_lines(
        found,
        shown,
        "two 'label: value' lines run into one: a line break was lost",
        "줄바꿈이 빠져 '항목: 값' 두 줄이 한 줄에 붙어 있습니다",
    )


def _at_lines(numbers: list[int], shown: str, english: str, korean: str) -> list[Blemish]:
    """One blemish at each of ``numbers`` (a line each), or none where there is none."""
    return [Blemish(tuple((n, n) for n in numbers), shown, english, korean)] if numbers else []


def _empty_tables(lines: list[str]) -> list[Blemish]:
    """A tab-separated header of three or more cells with no row of as many cells after it (past blank lines)."""
    found = []
    for number, line in enumerate(lines, 1):
        cells = line.split("\t")
        if len(cells) < 3 or not all(cell.strip() for cell in cells):
            continue
        if number >= 2 and lines[number - 2].count("\t") >= 2:
            continue  # a row, not the header
        after = next((later for later in lines[number:] if later.strip()), "")
        if after.count("\t") < 2:
            found.append(
                Blemish(
                    ((number, number),),
                    line.strip().replace("\t", " | "),
                    "a table with its header and no row: its rows were not copied",
                    "표의 머리글만 있고 행이 없습니다. 표의 내용이 복사되지 않았습니다",
                )
            )
    return found


def _stacked_headings(lines: list[str]) -> list[Blemish]:
    """In plain text, a heading-like line followed, past blank lines, by another one: unless the second is the
    first's subheading (which plain text does not show), what stood under the first was lost."""
    heads = [n for n, line in enumerate(lines, 1) if heading_like(lines, n)]
    stacked = []
    for first, second in itertools.pairwise(heads):
        between = [line for line in lines[first : second - 1] if line.strip()]
        opens = first == _first_text_line(lines) or _after_rule(lines, first)  # a title, a part: subheadings follow
        generic = _generic_label(lines[second - 1])  # '핵심 아이디어' under a topic's heading is its subheading
        if not between and not opens and not generic and heading_rank(lines[second - 1]) is None:  # nor '1. …'
            stacked.append(first)
    return _at_lines(
        stacked,
        " / ".join(lines[n - 1].strip() for n in stacked[:3]),
        "a heading followed directly by another heading: unless that one is its subheading, the figure, table "
        "or list under it was lost",
        "제목 바로 다음에 다른 제목이 옵니다. 다음 제목이 하위 제목이 아니라면 이 제목 아래의 그림·표·목록이 "
        "빠진 것입니다",
    )


GENERIC_WORDS = frozenset({
    "핵심", "아이디어", "개요", "비교", "정리", "요약", "예시", "예제", "방식", "두",
    "세", "가지", "구현", "원리", "직관", "비유", "정의", "특징", "장점", "단점",
    "장단점", "배경", "동기", "결론", "참고", "코드", "실습", "설명", "소개", "방법",
    "overview", "key", "idea", "ideas", "summary", "comparison", "example", "examples",
    "intuition", "definition", "background", "motivation", "implementation", "code", "notes", "introduction",
    "the", "two", "main",
})  # fmt: skip
"""Words of a heading that names a part of the section above it, not a topic of its own ('핵심 아이디어')."""


def _generic_label(line: str) -> bool:
    words = re.findall(r"[가-힣]+|[A-Za-z]+", line.lower())
    return bool(words) and all(w in GENERIC_WORDS for w in words)


def _first_text_line(lines: list[str]) -> int:
    return next((n for n, line in enumerate(lines, 1) if line.strip()), 0)


def _after_rule(lines: list[str], number: int) -> bool:
    """Whether the line opens a part: the last non-blank line above it is a rule ('---')."""
    above = next((line.strip() for line in reversed(lines[: number - 1]) if line.strip()), "")
    return bool(re.fullmatch(r"-{3,}|\*{3,}|_{3,}", above))


def heading_like(lines: list[str], number: int, titled: bool = False) -> bool:
    """A short line standing alone between blank lines, with no sentence end, list mark, code or table in it;
    ``titled``: also a 'label: title' line ('실행해보기: …', which page metadata looks like too)."""
    line = lines[number - 1].strip()
    alone = (number == 1 or not lines[number - 2].strip()) and (number == len(lines) or not lines[number].strip())
    labelled = METADATA.match(line) and not titled
    if not alone or not line or len(line) > 40 or "\t" in line or labelled or READOUT.match(line):
        return False
    if re.search(r"\d\s*(?:°|%|px)$", line):  # a slider's value ('θ (12시에서 시계 방향) 40°'), not a title
        return False
    remark = re.search(r"[가-힣A-Za-z] \([^()]+\)$", line)  # a title's remark, '정규화 (0~1로 맞추기)'
    ended = line[-1] in ".!:;,)]}=" and not remark
    if ended or line.endswith(("다", "요", "까")) or line[0] in "•·-*>#$`([{←→↓" or "=" in line:
        return False
    worded = titled and re.search(r"[가-힣]", line) and not re.search(r"[{}\[\]_=+*/<>|\\]", line)
    return not re.search(r"[(){}\[\]_=+*/<>|\\]|\d\s*$", line) or bool(heading_rank(line)) or bool(worded)


FIGURE_TITLE = re.compile(
    r"(?:변화|분포|패턴|시각화|그래프|곡선|히트맵|heatmap|plot|chart|visuali[sz]ation)\s*$", re.IGNORECASE
)
"""How a figure's title ends ('주파수별 변화', 'Attention heatmap')."""


def _figure_titles(lines: list[str]) -> list[Blemish]:
    """A heading worded as a figure's title ('주파수별 변화') with a paragraph of prose right under it and no
    figure, table, list or code: the figure was not copied (a numbered demo's figure is said by its readouts)."""
    found = []
    for number, line in enumerate(lines, 1):
        if not FIGURE_TITLE.search(line.strip()) or NUMBERED.match(line) or not heading_like(lines, number):
            continue
        below = next((n for n in range(number + 1, len(lines) + 1) if lines[n - 1].strip()), 0)
        prose = below and not heading_like(lines, below) and lines[below - 1].lstrip()[:1] not in "•·-*|>`$"
        if prose:
            found.append(number)
    return _at_lines(
        found,
        lines[found[0] - 1].strip() if found else "",
        "a figure's title with prose right under it and no figure: the figure was not copied",
        "그림 제목으로 보이는 줄 아래에 그림 없이 바로 본문이 이어집니다. 그림이 복사되지 않은 것으로 보입니다",
    )


def _one_sided_comparisons(lines: list[str]) -> list[Blemish]:
    """A heading that compares two things ('A vs B') over a section (to the next rule or numbered heading) that
    never names one of them: the comparison, or that side of it, was lost."""
    found = []
    for number, line in enumerate(lines, 1):
        sides = re.split(r"\s+vs\.?\s+", line.strip())
        if len(sides) != 2 or not heading_like(lines, number):
            continue
        body = []
        for below in lines[number:]:
            if re.fullmatch(r"\s*(?:---+|\*\*\*+|___+)\s*", below) or heading_rank(below):
                break
            body.append(below.lower())
        text = "\n".join(body)
        if not text.strip():
            continue  # a heading with nothing under it is said as such
        missing = [side for side in sides if not _named_in(side, text)]
        if len(missing) == 1:
            side, other = missing[0], next(s for s in sides if s != missing[0])
            found.append(
                Blemish(
                    ((number, number + len(body)),),
                    line.strip(),
                    f"the heading compares {side!r} with {other!r}, but what follows it never names {side!r}: "
                    "that side of the comparison was lost",
                    f"제목은 '{side}'{particle(side, '과와')} '{other}'{particle(other, '을를')} 비교한다고 하지만, "
                    f"아래 내용에는 '{side}' 쪽이 없습니다. "
                    "비교의 한쪽(표나 문단)이 빠진 것으로 보입니다",
                )
            )
    return found


def _named_in(side: str, text: str) -> bool:
    """Whether a section names a side of a comparison by its first word ('Sinusoidal', '학습')."""
    words = re.findall(r"[A-Za-z]{3,}|[가-힣]{2,}", side)
    return not words or words[0].lower() in text


def _labels_on_code(lines: list[str]) -> list[Blemish]:
    """Labels meant to stand under a formula's terms, run onto its line: ``x = a + b (의미) + (위치)``."""
    found = [(n, match.group(1)) for n, line in enumerate(lines, 1) if (match := LABELLED_CODE.match(line))]
    return [
        Blemish(
            ((number, number),),
            labels,
            f"the labels {labels!r}, meant to stand under the terms of the code before them, run onto its line: "
            "a line break was lost",
            f"줄바꿈이 빠져, 식의 각 항 아래에 있어야 할 설명 '{labels}' 부분이 식과 같은 줄에 붙어 있습니다",
        )
        for number, labels in found
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
