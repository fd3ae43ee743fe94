"""Order is lost because attention's computation holds no position, not because the tokens are processed at once."""

import numpy as np

from checks import Claim, Erratum
from checks.attention import attention_per_query, embedded, layer_weights, rnn_layer
from checks.reference import NumpyBackend
from claims.catalog.works import LESSON_001

CAUSE = "하지만 이 방식에는 한 가지 문제가 있습니다."

claim = Claim(
    id="attention.order-loss-cause",
    title="Self-attention loses order whether its tokens are processed at once or one at a time",
    statement=(
        "The document says the problem of processing tokens at the same time is that order is lost. Order is lost "
        "because no position enters the computation and every query attends to the whole set: the same layer "
        "computed one query at a time gives each word the same output in either order, while a recurrent layer, "
        "also one token at a time, does not."
    ),
    sources=[LESSON_001.quote("문제 설정", CAUSE)],
    depends=["attention.permutation-equivariance", "attention.parallel-equals-sequential"],
    erratum=Erratum(
        severity="error",
        problem=(
            "The cause is not processing at once: computed one query at a time, self-attention still gives each word "
            "the same output in '{sentence}' and '{reordered}' (largest difference {per_query_difference:.1e}); an "
            "RNN, one token at a time, differs by {rnn_difference:.2f}. Order is lost because no position enters "
            "the computation."
        ),
        reader_problem=(
            "원인이 '동시에 처리'에 있지 않습니다. 같은 Self-Attention을 쿼리 하나씩 차례로 계산해도 두 문장"
            "('{sentence}', '{reordered}')에서 각 단어의 출력이 같습니다(최대 차이 {per_query_difference:.1e}). "
            "반면 한 토큰씩 처리하는 RNN은 {rnn_difference:.2f}만큼 달라집니다. "
            "순서가 사라지는 까닭은 Self-Attention의 계산식에 위치가 들어가지 않기 때문입니다."
        ),
        wording=(
            "그런데 Self-Attention의 계산식에는 토큰의 위치가 들어가지 않습니다"
            "(쿼리를 하나씩 차례로 계산해도 마찬가지입니다)."
        ),
    ),
    expect="refuted",
)

SENTENCE, REORDERED, WIDTH, SEED = "dog bites man", "man bites dog", 8, 0
"""An example whose words carry no case (the document's own, "I love you", fixes roles by case), a width and a
seed for the embeddings and weights (float64)."""


@claim.probe
def one_token_at_a_time(r):
    """The per-query loop and an RNN on the document's two orders: each word's output, compared across orders."""
    xp = NumpyBackend("float64")
    x, y = embedded([SENTENCE, REORDERED], WIDTH, SEED)
    order = [SENTENCE.split().index(word) for word in REORDERED.split()]
    w_q, w_k, w_v = layer_weights(WIDTH, np.random.default_rng(SEED))
    per_query = float(
        np.max(np.abs(attention_per_query(xp, y, w_q, w_k, w_v) - attention_per_query(xp, x, w_q, w_k, w_v)[order]))
    )
    w_x, w_h = layer_weights(WIDTH, np.random.default_rng(SEED + 1), count=2)
    rnn = float(np.max(np.abs(rnn_layer(xp, y, w_x, w_h) - rnn_layer(xp, x, w_x, w_h)[order])))
    r.measure("per-query attention: max |word's output in one order − in the other|", per_query)
    r.measure("RNN, one token at a time: the same difference", rnn)
    if per_query < 1e-12 and rnn > 1e-3:
        r.counterexample(
            f"computed one query at a time, self-attention gives each word the same output in both orders "
            f"({per_query:.1e}); an RNN, also one token at a time, differs by {rnn:.2f}: simultaneity is not the cause",
            sentence=SENTENCE,
            reordered=REORDERED,
            per_query_difference=per_query,
            rnn_difference=rnn,
        )
