"""Without position information, reordered sentences give every word the same output: order-free readouts agree."""

import itertools

import numpy as np
import sympy as sp

from checks import FLOAT64, Claim, Erratum, example, given
from checks.attention import (
    Sentence,
    close_attention,
    close_pooled,
    embedded,
    layer_weights,
    permutation_matrix,
    rounding_scale,
    self_attention,
    single_threaded,
)
from checks.reference import NumpyBackend, tolerance
from checks.strategies import as_batch, sentence_batches
from claims.catalog.works import LESSON_000, LESSON_001

claim = Claim(
    id="attention.order-blind",
    title=("Self-attention over all word pairs cannot tell reordered sentences apart; with a decoder's mask it can"),
    statement=(
        "With no position information, each word receives the same self-attention output wherever it stands, so "
        "an order-free readout such as mean pooling gives the same result for '고양이가 쥐를 쫓았다', '쥐를 고양이가 "
        "쫓았다' and '쫓았다 고양이가 쥐를', and for 'I love you' and 'you love I'. This needs attention over all "
        "token pairs, as the documents describe: a causal mask alone makes the outputs depend on order."
    ),
    sources=[
        LESSON_000.quote(
            "위치 정보 없이는 어떤 문제가 생기나?",
            '"고양이가 쥐를 쫓았다" = "쥐를 고양이가 쫓았다" = "쫓았다 고양이가 쥐를"\n\n'
            "모두 같은 단어 집합이므로 같은 결과가 나옵니다.",
        ),
        LESSON_001.quote(
            "문제 설정",
            "I love you\nyou love I\n\nSelf-Attention만 사용하면 두 문장은 동일한 토큰 집합으로 처리됩니다.",
        ),
        LESSON_000.quote(
            "핵심 메시지", '"Transformer는 칠판에 적힌 글을 한눈에 보지만, 줄 번호가 없으면 순서를 모른다."'
        ),
        LESSON_000.quote(
            "비유: 줄 번호 없는 칠판", "하지만 줄 번호가 없으면 어떤 단어가 먼저 나왔는지 알 수 없습니다."
        ),
        LESSON_000.quote(
            "위치 정보 없이는 어떤 문제가 생기나?", '위치 정보가 없으면 Self-Attention은 "Bag of Words"와 같아집니다:'
        ),
        LESSON_001.quote("문제 설정", "토큰의 순서 정보가 사라집니다."),
        LESSON_000.quote("위치 정보 없이는 어떤 문제가 생기나?", "모두 같은 단어 집합이므로 같은 결과가 나옵니다."),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "True of self-attention in which every word attends to every other word, the attention the document "
            "describes; with a decoder's causal mask (each word sees only the words before it, as in GPT), order "
            "reaches the outputs with no position encoding: 'I love you' and 'you love I' differ by "
            "{mean_pooling_difference:.3f} after mean pooling, up to {per_word_difference:.3f} for one word."
        ),
        reader_problem=(
            "모든 단어가 다른 모든 단어를 보는 셀프 어텐션에서만 참입니다. GPT처럼 각 단어가 앞 단어만 보도록 "
            "가린 디코더(causal mask)는 위치 인코딩 없이도 출력에서 순서가 드러납니다(같은 단어를 순서만 바꾼 두 "
            "문장의 출력이 평균 풀링 후 {mean_pooling_difference:.3f}, 단어 하나에서는 최대 "
            "{per_word_difference:.3f} 다릅니다)."
        ),
        wording=(
            "모두 같은 단어 집합이므로 각 단어가 받는 결과는 같고, 순서만 바뀌어 나옵니다. (단, GPT처럼 앞 단어만 "
            "보도록 가린 디코더는 위치 정보 없이도 순서를 일부 알아챕니다.)"
        ),
        sentence="모두 같은 단어 집합이므로 같은 결과가 나옵니다.",
        point="causal-mask",
        also={
            '위치 정보가 없으면 Self-Attention은 "Bag of Words"와 같아집니다:': "",
            '"Transformer는 칠판에 적힌 글을 한눈에 보지만, 줄 번호가 없으면 순서를 모른다."': "",
            "하지만 줄 번호가 없으면 어떤 단어가 먼저 나왔는지 알 수 없습니다.": "",
            "토큰의 순서 정보가 사라집니다.": (
                "그래서 모든 토큰이 서로를 보는 이 방식에서는 토큰의 순서 정보가 사라집니다."
            ),
            "I love you\nyou love I\n\nSelf-Attention만 사용하면 두 문장은 동일한 토큰 집합으로 처리됩니다.": "",
        },
    ),
    expect="qualified",
)

SENTENCES = (
    ("고양이가 쥐를 쫓았다", "쥐를 고양이가 쫓았다", "쫓았다 고양이가 쥐를"),
    ("I love you", "you love I"),
    ("dog bites man", "man bites dog"),
)
"""Each group: one sentence and its reorderings, as the documents write them."""


@claim.proof
def _(p):
    """Mean pooling forgets order: 1ᵀ P = 1ᵀ for every permutation matrix P."""
    for size in (2, 3, 4):
        y = sp.Matrix(size, 1, lambda i, _: sp.Symbol(f"y{i}", real=True))
        ones = sp.ones(1, size)
        orders = list(itertools.permutations(range(size)))
        pooled = [ones * permutation_matrix(order) * y / size for order in orders]
        p.decide(
            sp.Matrix.vstack(*pooled),
            sp.Matrix.vstack(*[ones * y / size] * len(orders)),
            label=f"n = {size}, all {len(orders)} orders: mean(P Y) = mean(Y)",
        )
    p.unchecked(
        "with Attn(P X) = P Attn(X) (claim attention.permutation-equivariance): mean(Attn(P X)) = mean(Attn(X))",
        sp.Eq(sp.Symbol("mean(Attn(PX))"), sp.Symbol("mean(Attn(X))")),
    )


@claim.check(batched=True)
@given(batch=sentence_batches(varied=True))
@example(batch=as_batch([Sentence(d=2, words=(0,), order=(0,), seed=19953)]))
@single_threaded()
def reorderings_look_alike(t, batch):
    """The documents' sentences (embeddings and weights from the drawn seed and width), then a random sentence."""
    t.each(batch, lambda sentence: _look_alike(t, sentence))


def _look_alike(t, sentence: Sentence) -> None:
    weights = [t.xp.array(w) for w in layer_weights(sentence.d, np.random.default_rng(sentence.seed))]
    for group in SENTENCES:
        x, *others = (t.xp.array(e) for e in embedded(group, sentence.d, sentence.seed))
        first, words = self_attention(t.xp, x, *weights), group[0].split()
        for other, other_x in zip(group[1:], others, strict=True):
            output = self_attention(t.xp, other_x, *weights)
            expected = first[[words.index(w) for w in other.split()]]
            close_attention(t, output, expected, other_x, weights, label=f"each word: {group[0]!r} vs {other!r}")
            close_pooled(t, output, first, x, weights, label=f"mean pooling: {group[0]!r} vs {other!r}")
    weights = [t.xp.array(w) for w in sentence.weights]
    x = t.xp.array(sentence.tokens)
    output = self_attention(t.xp, x, *weights)
    reordered = self_attention(t.xp, t.xp.array(sentence.reordered_tokens), *weights)
    close_pooled(t, reordered, output, x, weights, label="mean pooling of Attn(PX) vs Attn(X), random sentence")


@claim.probe
def causal_mask(r):
    """'I love you' vs 'you love I' in float64, all-pairs attention and causal (decoder) attention."""
    xp, d = NumpyBackend(FLOAT64), 6
    first, second = embedded(("I love you", "you love I"), d, 0)
    weights = layer_weights(d, np.random.default_rng(0))
    allowed = tolerance(FLOAT64).at(rounding_scale(FLOAT64, first, *weights))
    gaps = {}
    for causal in (False, True):
        a, b = (self_attention(xp, x, *weights, causal=causal) for x in (first, second))
        per_word = float(np.max(np.abs(a - b[[2, 1, 0]])))
        pooled = float(np.max(np.abs(a.mean(axis=0) - b.mean(axis=0))))
        gaps["causal" if causal else "all pairs"] = {"each word": per_word, "mean pooling": pooled}
    r.measure("'I love you' vs 'you love I', d=6, float64: max output difference", gaps)
    r.measure("float64 rounding tolerance for these outputs", allowed)
    if gaps["causal"]["mean pooling"] > allowed:
        r.condition(
            "attention must run over all token pairs: with a causal mask (each token sees only earlier ones, as in "
            "a decoder) and still no position encoding, 'I love you' and 'you love I' differ after mean pooling by "
            f"{gaps['causal']['mean pooling']:.3f} and per word by up to {gaps['causal']['each word']:.3f} "
            f"(d=6, float64; tolerance {allowed:.1e})",
            mean_pooling_difference=gaps["causal"]["mean pooling"],
            per_word_difference=gaps["causal"]["each word"],
        )
