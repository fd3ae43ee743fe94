"""Can attention take long sentences? The activation memory of a training step, attention against recurrent layers
with as many parameters, with PyTorch's fused kernel and with the scores formed as the formula writes them."""

import math

from checks import Claim, Erratum, SeedLog
from checks.attention import ATTENTION, RECURRENT, WIDTH, activation_mib, matched_hidden
from checks.figures import lines
from checks.training import encoder_design
from claims.catalog.works import LESSON_001

LONG = (1024, 4096)
CURVE = (64, 256, 1024, 4096)
REGIMES = {
    f"n = {n}, {attention} against {kind.upper()}": (n, attention, kind)
    for attention in ATTENTION
    for kind in RECURRENT
    for n in LONG
}

claim = Claim(
    id="attention.long-sequence-memory",
    title="On long sequences attention keeps less memory than an LSTM (fused kernel), more in every other case",
    statement=(
        "Parallel attention makes long sentences tractable: at n = 1024 and 4096, a training step of one "
        "self-attention encoder layer keeps no more activation memory for its backward pass than a recurrent layer "
        "with about as many parameters (LSTM, GRU or tanh RNN), both as PyTorch runs it (a fused kernel that does not "
        "keep the n × n scores) and as the formula writes it (the scores formed)."
    ),
    sources=[
        LESSON_001.quote("7. 병렬화 장점", "긴 문장 처리 가능"),
        LESSON_001.quote("7. 병렬화 장점", "Self-Attention 계산량은 O(n²)입니다."),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "Attention takes a long sentence in one pass, but its n × n scores make the computation grow with the "
            "square of the length, and the memory too wherever the scores are stored (attention.quadratic-cost; the "
            "finding gives the memory measured against recurrent layers of the same size)."
        ),
        reader_problem=(
            "Attention은 긴 문장을 한 번에 처리하지만, n × n 점수 때문에 계산량이 길이의 제곱으로 늘고, 점수를 "
            "저장하는 구현에서는 메모리도 그렇습니다. 그래서 문장이 길수록 부담이 빠르게 커지고, 모델마다 다룰 "
            "수 있는 최대 길이가 정해져 있습니다."
        ),
        wording=(
            "Self-Attention의 점수 계산은 O(n²·d)로 길이 n의 제곱에 비례합니다(RNN은 한 층에 O(n·d²)). n×n 점수 "
            "행렬을 그대로 저장하면 메모리도 O(n²)입니다."
        ),
        sentence="Self-Attention 계산량은 O(n²)입니다.",
        also={
            "긴 문장 처리 가능": (
                "긴 문장도 앞 토큰을 차례로 기다리지 않고 한 번에 계산 (단, 계산량이 n²에 비례해 늘어남: 아래 주의점)"
            )
        },
    ),
    expect="qualified",
)


@claim.experiment(
    encoder_design(
        hypothesis="attention keeps the smaller activation memory: log₂(m_recurrent / m_attention) > 0",
        task=f"one random sequence of n tokens (batch 1, d = {WIDTH}, float32)",
        models="; ".join(f"{name}: {text}" for name, text in ATTENTION.items())
        + "; recurrent, hidden size matching the parameter count: "
        + ", ".join(f"{kind.upper()} {matched_hidden(kind)}" for kind in RECURRENT),
        budget="one forward pass per seed and layer (the memory is exact: it does not depend on the seed or machine)",
        metric="log₂ of the MiB autograd keeps for the backward pass (each storage once, the weights not counted)",
        better="lower",
        treatment="attention",
        control="recurrent",
        threshold=0.0,
        seeds={"ci": 2, "dev": 2, "thorough": 3},
        regimes=REGIMES,
    )
)
def activation_memory(arm: str, regime: str, seed: int, log: SeedLog) -> float:
    length, attention, kind = REGIMES[regime]
    return math.log2(activation_mib(attention if arm == "attention" else kind, length, seed))


@claim.probe
def memory_curve(r):
    """The activation memory of every layer from n = 64 to 4096 (MiB), and the growth from 1024 to 4096 tokens:
    4× is linear in n, 16× quadratic."""
    curve = {name: [activation_mib(name, n) for n in CURVE] for name in [*ATTENTION, *RECURRENT]}
    r.measure(
        "MiB kept for the backward pass, by n", {name: dict(zip(CURVE, v, strict=True)) for name, v in curve.items()}
    )
    r.measure(
        "growth from n = 1024 to 4096 (4× linear, 16× quadratic)", {name: v[-1] / v[-2] for name, v in curve.items()}
    )
    r.figure(
        lines(
            "activation-memory",
            "Activation memory of one training step",
            "MiB autograd keeps for the backward pass against n, for attention (fused kernel and scores formed) and "
            "the recurrent layers of matched parameter count.",
            {name: (CURVE, values) for name, values in curve.items()},
            x_label="sequence length n",
            y_label="MiB",
        )
    )
