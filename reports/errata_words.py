"""The words of a document's errata file and errata table, in the document's language (English, or Korean for a
Korean document): an author reads the whole file in the language they wrote in. The implementers' list stays
English."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """What a reader's errata say besides each row's own problem and wording."""

    title: str
    nothing: str
    severity: dict[str, str]
    """Each reader severity's name."""
    meaning: dict[str, str]
    """What each reader severity means."""
    summary: str
    """``{changes}`` sentences to change (``{by_severity}``), ``{suggestions}`` suggestions, in line order."""
    repeated: str
    """``{also}`` places that make the same point as a changed one."""
    apart: str
    where: str
    """``{line}`` and ``{section}`` of a place."""
    problem: str
    could_read: str
    also: str
    """The places that make the same point, ``{places}``."""
    line: str
    """A place's line, ``{line}``."""
    no_wording: str
    pages: str
    columns: tuple[str, str, str, str, str]
    """The errata table's headers: severity, the sentence, what is wrong, could read, evidence."""
    surface: str
    """The heading of the short list of what a reader sees besides sentences (checks.written.surface)."""
    verdicts: dict[str, str]
    """A verdict's name as a row's heading shows it (the report's English name where none is given)."""
    findings: dict[str, str]
    """What a row no claim makes found (a formula as written, the notation, an example), as its heading shows it."""
    as_written: str
    """``{finding}``: the heading's mark for a row no claim makes."""

    def verdict(self, verdict: str, finding: str) -> str:
        """A row's verdict, or what was found as written, in these words."""
        if finding:
            return self.as_written.format(finding=self.findings.get(finding, finding))
        return self.verdicts.get(verdict, verdict)


ENGLISH = Words(
    title="Errata: {name}",
    nothing="No sentence of this document misleads its reader, as far as the claims find.",
    severity={"error": "error", "condition": "condition", "notation": "notation"},
    meaning={
        "error": "false as stated: a reader who believes it is misled",
        "condition": "true only under a condition that a reader of the document meets and the sentence leaves out",
        "notation": "the content stands, but a sign, a symbol list or a convention misleads the reader",
    },
    summary="{changes} sentence(s) to change ({by_severity}), in {suggestions} suggestion(s), in the document's "
    "line order.",
    repeated=" {also} other place(s) that make the same point are named in the suggestion they belong to.",
    apart="Precision limits and implementation notes are listed apart, for implementers.",
    where="Line {line}, section: {section}",
    problem="Problem.",
    could_read="Could read:",
    also="Also says it: {places}.",
    line="line {line}",
    no_wording="No corrected wording could be checked: the problem says what to change.",
    pages="Evidence",
    columns=("severity", "the sentence", "what is wrong", "could read", "evidence"),
    surface="What a reader sees besides sentences",
    verdicts={},
    findings={},
    as_written="as written: {finding}",
)
KOREAN = Words(
    title="정오표: {name}",
    nothing="이 문서에서 독자를 오해하게 하는 문장은 찾지 못했습니다.",
    severity={"error": "오류", "condition": "조건 누락", "notation": "표기"},
    meaning={
        "error": "틀린 진술입니다. 그대로 믿으면 오해하게 됩니다",
        "condition": "독자가 마주치는 조건에서만 참인데, 문장이 그 조건을 말하지 않습니다",
        "notation": "내용은 맞지만 기호·기호 설명·관례가 독자를 헷갈리게 합니다",
    },
    summary="고칠 문장 {changes}개({by_severity}), 제안 {suggestions}건을 문서의 줄 순서대로 정리했습니다.",
    repeated=" 같은 점을 다른 곳에서 다시 말하는 {also}곳은 해당 제안 안에 함께 적었습니다.",
    apart="정밀도 한계와 구현 관련 메모는 구현자용 목록에 따로 있습니다.",
    where="{line}행, 「{section}」",
    problem="문제.",
    could_read="고친 문장:",
    also="같은 점을 말하는 곳: {places}.",
    line="{line}행",
    no_wording="검증된 고친 문장이 없습니다. 위의 문제를 보고 고쳐 주세요.",
    pages="근거",
    columns=("심각도", "문장", "문제", "고친 문장", "근거"),
    surface="문장 밖에서 독자가 보는 것",
    verdicts={
        "proved": "증명됨(proved)",
        "holds": "성립(holds)",
        "qualified": "조건부 성립(qualified)",
        "refuted": "반박됨(refuted)",
    },
    findings={
        "does not parse": "식을 읽을 수 없음",
        "does not render": "식이 제대로 표시되지 않음",
        "disagrees with its definition": "식이 문서의 정의와 다름",
        "disagrees with the notation": "식이 문서의 표기와 다름",
        "false as written": "쓰인 식이 틀림",
        "symbol list": "기호 설명과 식이 다름",
        "two meanings": "한 기호에 두 뜻",
        "run-on subscript": "아래첨자가 이어 붙음",
        "bare function": "함수 이름의 백슬래시 빠짐",
        "direction": "같은 이동을 반대 방향으로 말함",
        "omitted index": "이름에 빠진 첨자",
        "undefined operator": "정의되지 않은 기호",
        "backward move": "'뒤로 가기'가 반대 방향으로도 읽힘",
        "dimension level": "'낮은/높은 차원'이 저차원/고차원으로 읽힘",
        "ordinal position": "'N번째 위치'가 0부터 세는 위치와 헷갈림",
        "appended, not added": "더하기를 '추가'라고 말함",
        "example column never changes": "예시 표에서 변하지 않는 열",
        "example's grammar fixes the roles": "예문의 문법이 역할을 정함",
        "position counting": "위치를 세는 방식이 다른 레슨과 다름",
    },
    as_written="문서에서 찾음: {finding}",
)
BY_LANGUAGE = {"en": ENGLISH, "ko": KOREAN}


def words(language: str) -> Words:
    """The errata's words in ``language`` (English for a language they are not written in)."""
    return BY_LANGUAGE.get(language, ENGLISH)
