"""Document 001 is right that "positional encoding is optional" is a misconception, for unmasked attention."""

from checks import Claim, Erratum
from checks.rope import misconception_verdict
from claims.catalog.works import LESSON_001

claim = Claim(
    id="misconception.pe-optional",
    title="Misconception: positional encoding is optional",
    statement=(
        "The belief that positional encoding is optional is false for self-attention over all token pairs, as "
        "document 001 says: without it, each word gets the same output in every word order; with it added, the "
        "outputs change with the order, so the encoding is what carries order. Conditions the documents leave "
        "unstated (a causal mask carries order without any encoding; PE's effect can drown in low-precision "
        "rounding) are repeated from the deciding claims. Verdict: the weakest of their verdicts."
    ),
    sources=[LESSON_001.quote("자주 하는 오해 5개", "positional encoding은 optional이라고 생각한다")],
    depends=["attention.order-blind", "attention.pe-restores-order"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "Misconceptions 1, 2 and 5 hold for self-attention in which every token attends to every other token; "
            "with a decoder's causal mask (each token sees only earlier tokens, as in GPT) order reaches the "
            "outputs with no position encoding ('I love you' and 'you love I' differ by "
            "{mean_pooling_difference:.3f} after mean pooling, up to {per_word_difference:.3f} for one word)."
        ),
        reader_problem=(
            "오해 1, 2, 5가 오해인 것은 모든 토큰이 다른 모든 토큰을 보는 셀프 어텐션의 경우뿐입니다. GPT처럼 각 "
            "토큰이 앞 토큰만 보도록 가린 디코더(causal mask)는 위치 인코딩 없이도 출력에서 순서가 "
            "드러납니다(같은 단어를 순서만 바꾼 두 문장의 출력이 평균 풀링 후 {mean_pooling_difference:.3f}, "
            "단어 하나에서는 최대 {per_word_difference:.3f} 다릅니다)."
        ),
        wording="모든 토큰이 서로를 보는 Self-Attention에서 positional encoding은 없어도 된다고 생각한다",
        point="causal-mask",
    ),
    expect="qualified",
)
claim.derive(misconception_verdict)
