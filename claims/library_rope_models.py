"""Which models use RoPE, decided on the installed transformers library: LLaMA's modeling code, and a count of the
library's causal-LM architectures that rotate queries and keys (a proxy for "most LLMs")."""

import torch

from checks import FLOAT64, Claim, Erratum
from checks.models import (
    causal_lm_architectures,
    gpt2,
    library_version,
    llama,
    position_table_rows,
    rotary_modules,
    shift_change,
)
from checks.reference import angle_scale, tolerance
from claims.catalog.works import LESSON_000, LESSON_002, su_2021, touvron_2023

ROFORMER = su_2021(
    "Abstract",
    "Then, we propose a novel method named Rotary Position Embedding(RoPE) to effectively leverage the positional "
    "information.",
)
LLAMA = touvron_2023(
    "2.2 Architecture",
    "Rotary Embeddings [GPTNeo]. We remove the absolute positional embeddings, and instead, add rotary positional "
    "embeddings (RoPE), introduced by Su et al. (2021), at each layer of the network.",
)

in_llama = Claim(
    id="library.rope-in-llama",
    title="LLaMA uses RoPE; ChatGPT's architecture is not published",
    statement=(
        "LLaMA as the installed transformers library implements it has no position table and rotates queries and "
        "keys (a rotary module): its hidden states do not change when every position is shifted by the same amount, "
        "while GPT-2's (a learned table) do. ChatGPT's architecture is not published, so its half of the sentence "
        "cannot be checked."
    ),
    sources=[LESSON_000.quote("Sinusoidal vs 학습 가능한 위치 임베딩", "LLaMA, ChatGPT 등 최신 모델에서 사용"), LLAMA],
    erratum=Erratum(
        severity="condition",
        problem=(
            "True for LLaMA (in the transformers library it has no position table and rotates queries and keys); "
            "ChatGPT's architecture is not published, so a reader is told as fact what no one outside can check."
        ),
        reader_problem=(
            "LLaMA에 대해서는 맞습니다(transformers 라이브러리의 LLaMA에는 위치 표가 없고 query와 key를 "
            "회전합니다). 하지만 ChatGPT의 구조는 공개되지 않았으므로, 외부에서 확인할 수 없는 내용을 사실처럼 "
            "전하게 됩니다."
        ),
        wording="LLaMA 등 공개된 최신 LLM에서 널리 사용",
        point="closed-architectures",
    ),
    expect="qualified",
)

SHIFTS, LENGTH = (1, 7, 100, 1000), 12


@in_llama.probe
def shifted_positions(r):
    """Tiny LlamaModel and GPT2Model in float64, seed 0, 12 random tokens: the largest change of any hidden state
    when positions 0 … 11 become s … 11 + s, against float64's tolerance scaled by the angles' size."""
    r.measure("transformers", library_version())
    torch.manual_seed(0)
    models = {"LLaMA": llama().double(), "GPT-2": gpt2().double()}
    tokens = torch.randint(0, 32, (1, LENGTH))
    for name, model in models.items():
        r.measure(f"{name}: learned position tables (rows)", position_table_rows(model))
        r.measure(f"{name}: rotary modules", rotary_modules(model))
    changes = {shift: {name: shift_change(model, tokens, shift) for name, model in models.items()} for shift in SHIFTS}
    limits = {shift: tolerance(FLOAT64).at(angle_scale(LENGTH + shift)) for shift in SHIFTS}
    r.measure("largest change of a hidden state by shift s (LLaMA, GPT-2)", changes)
    r.measure("float64 tolerance by shift s", limits)
    moved = {s: c["LLaMA"] for s, c in changes.items() if c["LLaMA"] > limits[s]}
    if moved or position_table_rows(models["LLaMA"]):
        r.counterexample("LLaMA's hidden states depend on absolute positions", changes=moved)
    if all(c["GPT-2"] <= limits[s] for s, c in changes.items()):
        r.counterexample("the control does not respond: GPT-2's hidden states ignore the shift too", changes=changes)
    r.condition(
        "holds for LLaMA (checked in transformers' implementation); ChatGPT's architecture is not published, so "
        "'ChatGPT uses RoPE' cannot be checked"
    )


most_llms = Claim(
    id="library.rope-most-llms",
    title="Most LLM architectures in transformers apply RoPE (a proxy for 'most LLMs')",
    statement=(
        "More than half of the causal language-model architectures that the installed transformers library ships "
        "call a rotary-embedding function or module in their modeling code. The library's catalogue stands in for "
        "'today's LLMs': it counts architectures, old and new, not models in use, and the report says so. RoPE was "
        "introduced by Su et al. (2021), RoFormer."
    ),
    sources=[
        LESSON_002.quote("8. 그다음: RoPE", "요즘 LLM 대부분이 쓰는 RoPE(Rotary Position Embedding, Su 외 2021)"),
        ROFORMER,
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "True of the architectures whose code is public ({rotary_share} of the transformers library's causal-LM "
            "architectures rotate queries and keys); closed models' architectures are not published, so 'most LLMs' "
            "cannot be checked for them (the same point as library.rope-in-llama's ChatGPT)."
        ),
        reader_problem=(
            "구조가 공개된 모델에 대해서는 맞습니다(transformers 라이브러리의 causal LM 구조 중 {rotary_share}가 "
            "query와 key를 회전합니다). 하지만 비공개 모델의 구조는 알 수 없으므로 'LLM 대부분'이라고 단정할 "
            "수는 없습니다."
        ),
        wording="구조가 공개된 요즘 LLM 대부분이 쓰는 RoPE(Rotary Position Embedding, Su 외 2021)",
        point="closed-architectures",
    ),
    expect="qualified",
)

MAJORITY = 0.5


@most_llms.probe
def architecture_count(r):
    """Every model type in transformers' causal-LM mapping: its modeling module read with ast (not imported);
    rotary = some call in its code names *rotary*. Decision rule, fixed here: the share > 0.5 holds, else refuted."""
    found, missing = causal_lm_architectures()
    rotary = [a.model_type for a in found if a.rotary]
    share = len(rotary) / len(found)
    r.measure("transformers", library_version())
    r.measure("causal-LM architectures read (rotary / all)", f"{len(rotary)} / {len(found)} = {share:.2f}")
    r.measure("without a rotary call", [a.model_type for a in found if not a.rotary])
    r.measure("with a rotary call", rotary)
    r.measure("not counted: no modeling file in the library (remote code or alias)", missing)
    if share <= MAJORITY:
        r.counterexample(f"only {len(rotary)} of {len(found)} causal-LM architectures apply rotary embeddings")
    r.condition(
        "holds for the architectures whose code is public (the library's catalogue); closed models' architectures "
        "are not published, so they cannot be counted",
        rotary_share=f"{len(rotary)}/{len(found)}",
    )
