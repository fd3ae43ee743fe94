"""One idea, one verdict: sentences that state the same thing carry the same verdict and the same caveat.

Each group lists sentences of the documents that say one thing (in different words, sections or documents). For
every sentence, the claims quoting it give a verdict (the most severe) and the points of the reader's errata that
correct it (checks.verdicts.errata, ``point`` or the sentence itself); a group whose sentences differ in either fails,
naming the sentence that lacks what another carries.
"""

from __future__ import annotations

import pytest

from checks.claim import Claim
from checks.engine.discovery import claims_index
from checks.verdicts import most_severe

ORDER_000, ORDER_001, ORDER_002 = "000_1100ff0056b332e7.txt", "001_53050abb35828e70.txt", "002_86fa32f25d4c4c54.txt"
GROUPS: dict[str, list[tuple[str, str]]] = {
    # Said of attention (or the Transformer) in general, as a document's reader meets it: true only when every word
    # attends to every other, so each carries the causal-mask caveat (worded once per document).
    "attention does not know word order": [
        (ORDER_000, '"Transformer는 칠판에 적힌 글을 한눈에 보지만, 줄 번호가 없으면 순서를 모른다."'),
        (ORDER_000, "하지만 줄 번호가 없으면 어떤 단어가 먼저 나왔는지 알 수 없습니다."),
        (ORDER_000, '위치 정보가 없으면 Self-Attention은 "Bag of Words"와 같아집니다:'),
        (ORDER_000, "모두 같은 단어 집합이므로 같은 결과가 나옵니다."),
        (ORDER_001, "토큰의 순서 정보가 사라집니다."),
        (ORDER_001, "Self-Attention만 사용하면 두 문장은 동일한 토큰 집합으로 처리됩니다."),
        (ORDER_001, "Transformer는 위치 정보를 자동으로 이해한다고 생각한다"),
        (ORDER_001, "positional encoding은 optional이라고 생각한다"),
        (ORDER_001, "token 순서는 attention에서 자동 반영된다고 생각한다"),
    ],
    # Document 002 says it of attention over all word pairs: its opening sentence is followed at once by the passage
    # that defines that attention (line 9), so the lesson states the condition itself: proved there, no caveat (the
    # author reviews rejected a third copy of the causal caveat in 002).
    "attention over all word pairs does not know word order": [
        (ORDER_002, "어텐션은 단어 순서를 모릅니다."),
        (ORDER_002, "셀프 어텐션은 모든 단어 쌍의 내적을 구하고, 그 가중치로 값 벡터를 섞습니다."),
        (ORDER_002, "그래서 입력 순서를 섞으면 출력도 똑같이 섞여 나올 뿐, 각 단어가 받는 결과는 변하지 않습니다."),
        (ORDER_002, "dog bites man과 man bites dog가 단어마다 같은 표현을 받는다는 뜻입니다."),
    ],
    # The notation of the sin/cos formula: i numbers the pairs (dimensions 2i and 2i+1), whatever the line calls it.
    "i is the index of a sin/cos pair": [
        (ORDER_000, "• •$i$: 차원 인덱스 (0, 1, 2, ..., $d_{\\text{model}}/2 - 1$)"),
        (ORDER_001, "i : embedding 차원 index"),
    ],
    # Said of every position encoding, true only of fixed ones such as sin/cos (learned tables are parameters).
    "position encodings are not learned": [
        (ORDER_001, "positional encoding은 학습 파라미터가 아닙니다."),
        (ORDER_001, "positional encoding은 학습되는 파라미터라고 생각한다"),
    ],
    "the input is the embedding plus the position encoding": [
        (ORDER_001, "X = E + P"),
        (ORDER_000, "4. 최종 입력 = 임베딩 + PE:"),
        (ORDER_002, "사인·코사인 위치 인코딩은 위치 벡터를 임베딩에 더합니다."),
        (ORDER_001, "Transformer 입력은 다음 두 정보를 결합합니다."),
    ],
}


def corrected_sentences(claim: Claim) -> list[str]:
    """The sentences a claim's erratum corrects: the one it names (else its first quote) and ``also``'s."""
    if claim.erratum is None:
        return []
    return [sentence for sentence, _ in claim.erratum.corrections(claim.quotes[0].text if claim.quotes else "")]


def signature(document: str, sentence: str, claims: list[Claim]) -> tuple[str, frozenset[str]]:
    """The sentence's verdict (most severe expected verdict of the claims quoting it) and the reader's errata that
    correct it, each by its point (else the sentence its claim's erratum names first: one suggestion, as the
    report merges them)."""
    quoting = [c for c in claims if any(q.document == document and sentence in q.text for q in c.quotes)]
    assert quoting, f"no claim quotes {sentence!r} of {document}: the group cannot be checked"
    points = {
        c.erratum.point or f"sentence:{corrected_sentences(c)[0]}"
        for c in quoting
        if c.erratum is not None and c.erratum.for_readers and any(sentence in s for s in corrected_sentences(c))
    }
    return str(most_severe({c.expect for c in quoting})), frozenset(points)


@pytest.mark.needs("torch")
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_sentences_that_say_one_thing_share_verdict_and_caveat(group: str) -> None:
    claims = list(claims_index().values())
    signatures = {(document, sentence): signature(document, sentence, claims) for document, sentence in GROUPS[group]}
    first_place, first = next(iter(signatures.items()))
    for place, found in signatures.items():
        assert found == first, (
            f"{group!r}: {place[1]!r} ({place[0]}) is {found[0]} with caveat(s) {sorted(found[1]) or 'none'}, "
            f"but {first_place[1]!r} ({first_place[0]}) is {first[0]} with {sorted(first[1]) or 'none'}"
        )


@pytest.mark.needs("torch")
def test_a_sentence_without_the_caveat_is_caught() -> None:
    """The check fails on a group that mixes a caveated sentence with one no erratum corrects."""
    claims = list(claims_index().values())
    caveated = signature(ORDER_000, '위치 정보가 없으면 Self-Attention은 "Bag of Words"와 같아집니다:', claims)
    plain = signature(ORDER_002, "셀프 어텐션은 모든 단어 쌍의 내적을 구하고, 그 가중치로 값 벡터를 섞습니다.", claims)
    assert caveated[1] == {"causal-mask"} and plain[1] == frozenset() and caveated != plain


def test_claims_that_make_one_point_give_one_verdict_in_every_document_they_quote() -> None:
    """Issue 62, item 3: the claims sharing an erratum's point carry one idea; they expect one verdict, and each
    document they quote gets a row of that point (a sentence they correct, not only an 'also says it')."""
    claims = list(claims_index().values())
    points: dict[str, list[Claim]] = {}
    for claim in claims:
        if claim.erratum is not None and claim.erratum.point and claim.erratum.for_readers:
            points.setdefault(claim.erratum.point, []).append(claim)
    assert points, "no claim shares a point"
    for point, sharing in points.items():
        verdicts = {str(c.expect) for c in sharing}
        assert len(verdicts) == 1, f"point {point!r}: {sorted((c.id, str(c.expect)) for c in sharing)}"
        quoted = {q.document for c in sharing for q in c.quotes}
        corrected = {
            q.document
            for c in sharing
            for sentence, wording in c.erratum.corrections(c.quotes[0].text)  # type: ignore[union-attr]
            if wording
            for q in c.quotes
            if q.text == sentence
        }
        assert quoted <= corrected, f"point {point!r}: no corrected sentence in {sorted(quoted - corrected)}"
