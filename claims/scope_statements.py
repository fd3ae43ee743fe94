"""Factual and evaluative sentences of the three documents that no computation here can check (out of scope)."""

from checks import Claim, Quote

LESSON, POST, ESSAY = "000_1100ff0056b332e7.txt", "001_53050abb35828e70.txt", "002_86fa32f25d4c4c54.txt"
NEEDS_TRAINING = "needs training runs: a claim about what a trained model learns or how training behaves"
NEEDS_CITATION = "needs a citation check against the cited paper or model release, not a computation"


def out_of_scope(short: str, title: str, statement: str, reason: str, *quotes: Quote) -> Claim:
    """A claim about the world outside the formulas: recorded with the reason it cannot be computed here."""
    return Claim(
        id=f"scope.{short}",
        title=title,
        statement=statement,
        sources=list(quotes),
        out_of_scope=reason,
        expect="out-of-scope",
    )


LEARNED_VS_SINUSOIDAL = "Sinusoidal vs 학습 가능한 위치 임베딩"

rope_in_llama_chatgpt = out_of_scope(
    "rope-in-llama-chatgpt",
    "LLaMA and ChatGPT use RoPE",
    "Recent models such as LLaMA and ChatGPT use RoPE.",
    "needs a survey of model architectures: LLaMA's paper can be checked by citation, ChatGPT's architecture is "
    "not published",
    Quote(LESSON, LEARNED_VS_SINUSOIDAL, "LLaMA, ChatGPT 등 최신 모델에서 사용"),
)

rope_most_llms = out_of_scope(
    "rope-most-llms",
    "Most current LLMs use RoPE (Su et al. 2021)",
    "Most of today's LLMs use RoPE, introduced by Su et al. in 2021.",
    "needs a survey of current model architectures, and a citation check for the attribution to Su et al. 2021",
    Quote(ESSAY, "8. 그다음: RoPE", "요즘 LLM 대부분이 쓰는 RoPE(Rotary Position Embedding, Su 외 2021)"),
)

paper_motivation = out_of_scope(
    "paper-motivation",
    "The original paper chose sinusoids for the linear-shift property",
    "Vaswani et al. (2017) gave 'PE_pos+k can be represented as a linear function of PE_pos' as their reason "
    "for choosing the sinusoidal encoding (the property itself is checked by pe.shift-is-rotation).",
    NEEDS_CITATION,
    Quote(ESSAY, "5. k칸 이동 = 회전 행렬", "원논문이 이 방식을 고른 이유로 직접 든 성질입니다"),
)

long_sentences = out_of_scope(
    "parallel-long-sentences",
    "Parallel computation makes long sentences tractable",
    "Thanks to parallel computation, a Transformer can process long sentences.",
    "an evaluative claim about practical capability: needs benchmarks of memory and time at long lengths (the "
    "same section notes self-attention's O(n²) cost, which works against it)",
    Quote(POST, "7. 병렬화 장점", "긴 문장 처리 가능"),
)

gpu_utilization = out_of_scope(
    "parallel-gpu-utilization",
    "Parallel computation maximizes GPU utilization",
    "A Transformer's parallel computation makes the most of a GPU.",
    "needs hardware profiling of GPU utilization for real models, not a property of the formulas",
    Quote(POST, "7. 병렬화 장점", "GPU 활용 극대화"),
)

training_speed = out_of_scope(
    "parallel-training-speed",
    "Parallel computation speeds up training",
    "A Transformer's parallel computation makes training faster (than a sequential RNN).",
    "needs wall-clock training benchmarks of comparable models on the same hardware",
    Quote(POST, "7. 병렬화 장점", "학습 속도 증가"),
)

embedding_range = out_of_scope(
    "embedding-value-range",
    "Word-embedding values usually lie in [−1, 1]",
    "The entries of word-embedding vectors usually lie in (or near) the range −1 to 1.",
    "needs the embedding tables of trained models (a survey); it depends on the model and its initialization",
    Quote(LESSON, "시도 1: 정수 인덱스 사용", "단어 임베딩 벡터의 값은 보통 -1 ~ 1 범위"),
    Quote(LESSON, "1. 값이 항상 -1 ~ 1 사이", "단어 임베딩의 값 범위: 보통 [-1, 1] 근처"),
)

order_matters = out_of_scope(
    "order-matters-in-language",
    "Word order decides meaning in natural language",
    "In natural language, word order has a decisive effect on meaning: the same words in another order can mean "
    "something completely different.",
    "a linguistic claim about natural languages, not about the formulas (true of the documents' examples, which "
    "are illustrations, not measurements)",
    Quote(LESSON, "비유: 줄 번호 없는 칠판", "단어 집합은 동일하지만, 순서에 따라 의미가 완전히 달라집니다!"),
    Quote(LESSON, "위치 정보 없이는 어떤 문제가 생기나?", "하지만 자연어에서 순서는 의미에 결정적인 영향을 줍니다!"),
)

learns_relative_distance = out_of_scope(
    "model-learns-relative-distance",
    "The encoding lets the model learn relative distances",
    "Because of the sinusoidal encoding's properties, the model (its attention) can learn relative distances "
    "such as 'the word 3 positions back' (the properties themselves are checked by other claims).",
    NEEDS_TRAINING,
    Quote(
        LESSON, "실행해보기: Positional Encoding 생성과 시각화", "이것이 모델이 상대적 거리를 학습할 수 있게 해줍니다!"
    ),
    Quote(LESSON, "2. 상대적 위치 표현 가능", '"3칸 뒤의 단어"라는 상대적 관계를 Attention이 학습할 수 있음'),
    Quote(POST, "4. Relative Position 정보", "문장에서 단어 간 거리 정보를 모델이 학습할 수 있습니다."),
)

adjective_before_noun = out_of_scope(
    "adjective-before-noun",
    "Adjectives usually come right before their noun",
    "In language, an adjective usually comes immediately before its noun (relative distance 1).",
    "needs corpus statistics for a given language; it varies across languages (many place adjectives after the noun)",
    Quote(LESSON, "2. 상대적 위치 표현 가능", "형용사는 보통 명사 바로 앞에 옴 (상대 거리 = 1)"),
)

subject_verb_distance = out_of_scope(
    "subject-verb-distance",
    "Subject–verb distance varies but is related",
    "The distance between a subject and its verb varies, but the two are related.",
    "needs corpus statistics (dependency-parsed text); a linguistic claim",
    Quote(LESSON, "2. 상대적 위치 표현 가능", "주어와 동사 사이 거리는 다양하지만 관계가 있음"),
)

learned_pe_optimal = out_of_scope(
    "learned-pe-optimal",
    "Learned position embeddings find the optimal position representation",
    "During training, learned positional embeddings automatically learn the optimal position representation.",
    f"{NEEDS_TRAINING}; 'optimal' has no measurable criterion here",
    Quote(LESSON, LEARNED_VS_SINUSOIDAL, "학습 과정에서 최적의 위치 표현을 자동으로 배움"),
)

bert_gpt2_positions = out_of_scope(
    "bert-gpt2-max-positions",
    "BERT has 512 learned positions, GPT-2 1024",
    "BERT's learned position embeddings cover at most 512 positions and GPT-2's at most 1024.",
    f"{NEEDS_CITATION} (the models' published configurations)",
    Quote(LESSON, LEARNED_VS_SINUSOIDAL, "BERT: 최대 512 위치, GPT-2: 최대 1024 위치"),
)
