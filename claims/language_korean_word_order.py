"""Document 000's Korean examples of word order: the case particles keep each noun's role, so they mean the same."""

import re

from checks import Claim, Erratum
from checks.written import KOREAN_ROLES, roles_korean
from claims.catalog.works import LESSON_000

BOARD, ATTENTION = "비유: 줄 번호 없는 칠판", "위치 정보 없이는 어떤 문제가 생기나?"
PAIR = 'A: "사람이 개를 물었다" B: "개를 사람이 물었다"'
QUESTION = "이것은 아래 두 문장 중 어느 것일까요?"
WORDS = '줄 번호가 없는 칠판: "물었다" "개를" "사람이"'
ORDERS = '"고양이가 쥐를 쫓았다" = "쥐를 고양이가 쫓았다" = "쫓았다 고양이가 쥐를"'
# The assumption the check rests on (checks.written.examples.CASE_PARTICLES): in Korean the case particles -이/-가
# mark the subject and -을/-를 the object wherever the word stands (scrambling keeps who does what).

claim = Claim(
    id="language.korean-word-order",
    title="The Korean examples keep every noun's case particle, so their reorderings do not change the meaning",
    statement=(
        "Assuming Korean case particles mark the roles (-이/-가 the subject, -을/-를 the object) wherever the "
        "word stands: '사람이 개를 물었다' and '개를 사람이 물었다' give each noun the same role, and so do the "
        "three orders of '고양이가 쥐를 쫓았다'; the examples meant to show that order changes meaning show the same "
        "meaning."
    ),
    sources=[
        LESSON_000.quote(BOARD, WORDS),
        LESSON_000.quote(BOARD, QUESTION),
        LESSON_000.quote(BOARD, PAIR),
        LESSON_000.quote(ATTENTION, ORDERS),
    ],
    erratum=Erratum(
        severity="error",
        sentence=PAIR,
        problem=(
            "The examples do not show what they illustrate: in Korean the case particles fix who does what, so "
            "every reordering keeps the roles ({pair_roles}; {orders_roles}) and the meaning; a pair whose modifiers "
            "describe another noun once reordered shows it ('큰 고양이의 작은 집' / '작은 고양이의 큰 집')."
        ),
        reader_problem=(
            "예문이 보여 주려는 것을 보여 주지 못합니다. 한국어에서는 조사가 누가 무엇을 하는지를 정하므로, "
            "어순을 바꿔도 역할({pair_roles_korean}; {orders_roles_korean})과 뜻이 그대로입니다. 어순을 바꾸면 "
            "꾸밈을 받는 명사가 달라지는 예('큰 고양이의 작은 집' / '작은 고양이의 큰 집')라야 어순이 뜻을 바꾼다는 "
            "점이 드러납니다."
        ),
        wording='A: "큰 고양이의 작은 집"\nB: "작은 고양이의 큰 집"',  # the two, on a line each
        also={
            QUESTION: "이것은 아래 두 표현 중 어느 것일까요?",
            WORDS: '줄 번호가 없는 칠판: "집" "고양이의" "작은" "큰"',
            ORDERS: '"큰 고양이의 작은 집" = "작은 고양이의 큰 집"',
        },
    ),
    expect="refuted",
)


def same_roles(text: str) -> dict[str, str] | None:
    """The roles shared by every quoted sentence of ``text`` when they all mark the same ones, else None."""
    sentences = [s for s in re.findall(r'"([^"]+)"', text) if " " in s]
    marked = [roles_korean(s) for s in sentences]
    if len(sentences) < 2 or not marked[0] or any(m != marked[0] for m in marked):
        return None
    return marked[0]


@claim.probe
def case_particles(r):
    """The roles each example sentence's particles give its nouns, per example."""
    for name, example in (("pair_roles", PAIR), ("orders_roles", ORDERS)):
        shared = same_roles(example)
        r.measure(f"roles in {example}", shared or "differ, or not marked by particles")
        if shared:
            r.counterexample(
                f"{example}: every sentence gives the same roles ({shared}), so the reordering keeps the meaning",
                **{
                    name: ", ".join(f"{noun} {role}" for noun, role in shared.items()),
                    f"{name}_korean": ", ".join(f"{noun} {KOREAN_ROLES[role]}" for noun, role in shared.items()),
                },
            )


@claim.corrected
def reordering_changes_the_roles(sentence, wording):
    """The corrected example's sentences do not all keep the same particle-marked roles."""
    shared = same_roles(wording)
    assert shared is None, f"the corrected example still keeps the roles {shared}"
