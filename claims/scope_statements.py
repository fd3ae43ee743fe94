"""Factual and evaluative sentences of the three documents that no computation here can check (out of scope)."""

from checks import Citation, Claim, Quote
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002, vaswani_2017


def out_of_scope(short: str, title: str, statement: str, reason: str, *quotes: Quote | Citation) -> Claim:
    """A claim about the world outside the formulas: recorded with the reason it cannot be computed here."""
    return Claim(
        id=f"scope.{short}",
        title=title,
        statement=statement,
        sources=list(quotes),
        out_of_scope=reason,
        expect="out-of-scope",
    )


paper_motivation = out_of_scope(
    "paper-motivation",
    "The original paper chose sinusoids for the linear-shift property",
    "Vaswani et al. (2017) gave 'PE_pos+k can be represented as a linear function of PE_pos' as their reason "
    "for choosing the sinusoidal encoding (the property itself is checked by pe.shift-is-rotation).",
    "what a paper gives as its reason is read, not computed: the paper's sentence is cited here (its text is not in "
    "sources/, so it is shown as cited, not verified)",
    LESSON_002.quote("5. k칸 이동 = 회전 행렬", "원논문이 이 방식을 고른 이유로 직접 든 성질입니다"),
    vaswani_2017(
        "3.5 Positional Encoding",
        "We chose this function because we hypothesized it would allow the model to easily learn to attend by "
        "relative positions, since for any fixed offset k, PE_{pos+k} can be represented as a linear function of "
        "PE_{pos}.",
    ),
)

gpu_utilization = out_of_scope(
    "parallel-gpu-utilization",
    "Parallel computation maximizes GPU utilization",
    "A Transformer's parallel computation makes the most of a GPU.",
    "needs a CUDA device and its utilisation counters, and no GPU is lent to these runs; what it rests on, a fixed "
    "number of kernels each over all n tokens whatever n, is checked by attention.parallel-speedup, and the measured "
    "training speed on the devices present by attention.training-speed",
    LESSON_001.quote("7. 병렬화 장점", "GPU 활용 극대화"),
)

embedding_range = out_of_scope(
    "embedding-value-range",
    "Word-embedding values usually lie in [−1, 1]",
    "The entries of word-embedding vectors usually lie in (or near) the range −1 to 1.",
    "needs the embedding tables of trained models (a survey); it depends on the model and its initialization",
    LESSON_000.quote("시도 1: 정수 인덱스 사용", "단어 임베딩 벡터의 값은 보통 -1 ~ 1 범위"),
    LESSON_000.quote("1. 값이 항상 -1 ~ 1 사이", "단어 임베딩의 값 범위: 보통 [-1, 1] 근처"),
)

order_matters = out_of_scope(
    "order-matters-in-language",
    "Word order decides meaning in natural language",
    "In natural language, word order has a decisive effect on meaning: the same words in another order can mean "
    "something completely different.",
    "a linguistic claim about natural languages, not about the formulas (the document's Korean examples of it are "
    "checked by language.korean-word-order)",
    LESSON_000.quote("비유: 줄 번호 없는 칠판", "단어 집합은 동일하지만, 순서에 따라 의미가 완전히 달라집니다!"),
    LESSON_000.quote("위치 정보 없이는 어떤 문제가 생기나?", "하지만 자연어에서 순서는 의미에 결정적인 영향을 줍니다!"),
)

adjective_before_noun = out_of_scope(
    "adjective-before-noun",
    "Adjectives usually come right before their noun",
    "In language, an adjective usually comes immediately before its noun (relative distance 1).",
    "needs corpus statistics for a given language; it varies across languages (many place adjectives after the noun)",
    LESSON_000.quote("2. 상대적 위치 표현 가능", "형용사는 보통 명사 바로 앞에 옴 (상대 거리 = 1)"),
)

subject_verb_distance = out_of_scope(
    "subject-verb-distance",
    "Subject–verb distance varies but is related",
    "The distance between a subject and its verb varies, but the two are related.",
    "needs corpus statistics (dependency-parsed text); a linguistic claim",
    LESSON_000.quote("2. 상대적 위치 표현 가능", "주어와 동사 사이 거리는 다양하지만 관계가 있음"),
)
