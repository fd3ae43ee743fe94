"""'완전 병렬' holds for a sequence the model is given, not for one it generates: each new token waits for the last."""

import numpy as np

from checks import Claim, Erratum
from checks.attention import layer_weights, self_attention
from checks.reference import EXACT, NumpyBackend
from claims.catalog.works import LESSON_001

PARALLEL = "Transformer의 큰 장점은 완전 병렬 계산입니다."

claim = Claim(
    id="attention.generation-sequential",
    title="Attention is parallel over a given sequence; generating one takes a step per token",
    statement=(
        "Over a sequence it is given (training, reading a prompt), a causal decoder computes every position in one "
        "pass. A sequence it generates is not given: token t + 1 is an input only once step t has produced it, so n "
        "tokens take n passes one after another, and a pass over guessed tokens predicts other tokens than "
        "generation does."
    ),
    sources=[LESSON_001.quote("5. Transformer 병렬화", PARALLEL)],
    depends=["attention.parallel-equals-sequential"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "Fully parallel over a sequence the model is given (training, reading the input); generating text takes "
            "one pass per token: a causal decoder's {steps} generated tokens need {steps} passes in turn, and one "
            "pass over guessed tokens predicts {mismatches} of them differently."
        ),
        reader_problem=(
            "학습할 때나 주어진 입력을 읽을 때만 완전 병렬입니다. 문장을 생성할 때는 앞 토큰이 나와야 다음 토큰을 "
            "계산할 수 있어 토큰마다 한 번씩 차례로 계산합니다(작은 디코더로 {steps}개 토큰을 생성하면 {steps}번을 "
            "차례로 계산해야 하고, 나올 토큰을 미리 짐작해 한 번에 계산하면 {mismatches}개가 다르게 나옵니다)."
        ),
        wording=(
            "Transformer의 큰 장점은 학습하거나 주어진 문장을 읽을 때 모든 토큰을 한꺼번에 계산하는 완전 병렬 "
            "계산입니다(문장을 생성할 때는 토큰을 하나씩 차례로 만듭니다)."
        ),
    ),
    expect="qualified",
)

VOCABULARY, WIDTH, STEPS, SEED = 12, 16, 8, 3
"""A small causal decoder: 12 tokens, width 16, 8 tokens generated after a one-token prompt (float64)."""


def next_tokens(tokens: list[int], table: np.ndarray, weights: tuple[np.ndarray, ...]) -> np.ndarray:
    """One pass of the decoder over ``tokens``: the most likely next token at every position (causal mask, sinusoidal
    positions, a residual connection, a readout of its own: ``weights`` is W_Q, W_K, W_V, W_out)."""
    x = table[tokens] + EXACT.sinusoidal(np.arange(len(tokens)), WIDTH)
    hidden = x + self_attention(NumpyBackend("float64"), x, *weights[:3], causal=True)
    return np.argmax(hidden @ weights[3], axis=-1)


@claim.probe
def generating_and_reading(r):
    """Greedy generation, one pass per token, against one pass over the result and one over guessed tokens."""
    rng = np.random.default_rng(SEED)
    table = rng.normal(0.0, 1.0, (VOCABULARY, WIDTH))
    weights = (*layer_weights(WIDTH, rng), rng.normal(0.0, 1.0, (WIDTH, VOCABULARY)))
    tokens, passes = [0], 0
    for _ in range(STEPS):
        tokens.append(int(next_tokens(tokens, table, weights)[-1]))
        passes += 1
    generated = tokens[1:]
    read_once = next_tokens(tokens[:-1], table, weights)
    guessed = next_tokens([0] * STEPS, table, weights)
    mismatches = int(np.sum(guessed != np.array(generated)))
    r.measure("generated tokens, one pass each", {"tokens": generated, "passes": passes})
    r.measure("one pass over the generated sequence predicts it (reading is parallel)", read_once.tolist())
    r.measure("one pass over guessed tokens (the prompt repeated) predicts", guessed.tolist())
    if list(read_once) != generated:
        r.counterexample("one pass over the generated sequence does not reproduce generation", read=read_once.tolist())
    if mismatches:
        r.condition(
            f"parallel only over a given sequence: generating {STEPS} tokens took {passes} passes in turn, and one "
            f"pass over guessed tokens predicts {mismatches} of {STEPS} differently",
            steps=STEPS,
            mismatches=mismatches,
        )
