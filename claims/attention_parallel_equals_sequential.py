"""softmax(Q Kᵀ/√d_k) V computed for all tokens at once equals the loop over queries one at a time."""

import sympy as sp

from checks import Claim, example, given
from checks.attention import Sentence, attention_per_query, close_attention, single_threaded
from checks.strategies import as_batch, sentence_batches
from claims.catalog.works import LESSON_000, LESSON_001

claim = Claim(
    id="attention.parallel-equals-sequential",
    title="The one-matrix attention equals the per-query loop",
    statement=(
        "Row i of softmax(Q Kᵀ / √d_k) V is softmax(q_i Kᵀ / √d_k) V: it needs only query i and the keys and values, "
        "never another row's output, so the n rows can be computed at the same time and the matrix form equals the "
        "loop over queries."
    ),
    sources=[
        LESSON_001.quote("5. Transformer 병렬화", "이 연산은 모든 토큰에 대해 동시에 계산됩니다."),
        LESSON_001.quote("5. Transformer 병렬화", "RNN처럼 이전 토큰 계산을 기다릴 필요가 없습니다."),
        LESSON_001.quote("문제 설정", "Transformer의 Self-Attention은 입력 토큰을 동시에 처리합니다."),
        LESSON_001.quote("5. Transformer 병렬화", "Transformer의 큰 장점은 완전 병렬 계산입니다."),
        LESSON_001.quote("6. RNN vs Transformer", "x1 x2 x3 x4 (동시 계산)"),
        LESSON_000.quote("비유: 줄 번호 없는 칠판", "비유: Transformer는 칠판에 적힌 모든 단어를 한꺼번에 봅니다."),
    ],
    expect="proved",
)

SIZE, WIDTH = 3, 2
"""The symbolic check: 3 tokens, 2 columns in Q, K, V."""


@claim.proof
def _(p):
    q, k, v = (sp.Matrix(SIZE, WIDTH, lambda i, j, c=c: sp.Symbol(f"{c}{i}{j}", real=True)) for c in "qkv")
    scale = sp.sqrt(WIDTH)
    exponent = {}

    def exp_of(scores: sp.Matrix) -> sp.Matrix:
        """exp(s) as a fresh symbol per distinct score (exp acts on each score alone)."""
        return scores.applyfunc(lambda s: exponent.setdefault(sp.expand(s), sp.Symbol(f"e{len(exponent)}")))

    def softmax_rows(scores: sp.Matrix) -> sp.Matrix:
        weights = exp_of(scores)
        sums = [sum(weights.row(i)) for i in range(weights.rows)]
        return sp.Matrix(weights.rows, weights.cols, lambda i, j: weights[i, j] / sums[i])

    matrix_form = softmax_rows(q * k.T / scale) * v
    per_query = sp.Matrix.vstack(*(softmax_rows(q.row(i) * k.T / scale) * v for i in range(SIZE)))
    p.decide(matrix_form, per_query, label=f"n = {SIZE}: softmax(Q Kᵀ/√d) V = rows softmax(q_i Kᵀ/√d) V")
    scores = (q.row(0) * k.T / scale).applyfunc(sp.exp)
    first_row = scores * v / sum(scores)
    others = [q[r, c] for r in range(1, SIZE) for c in range(WIDTH)]
    p.free_of(first_row, *others, label="row 0, softmax(q_0 Kᵀ/√d) V, contains no other query")


@claim.check(uses="attention", batched=True)
@given(batch=sentence_batches(varied=True))
@example(batch=as_batch([Sentence(d=6, words=(0, 1, 2, 3), order=(0, 1, 2, 3), seed=0)]))
@example(batch=as_batch([Sentence(d=1, words=(0,), order=(0,), seed=17318)]))  # outputs within rounding
@single_threaded()
def matrix_form_equals_loop(t, batch):
    """Each implementation's one-matrix attention equals the reference per-query loop."""

    def agrees(sentence):
        weights = [t.xp.array(w) for w in sentence.weights]
        x = t.xp.array(sentence.tokens)
        matrix_form, loop = t.impl.attention(x, *weights), attention_per_query(t.xp, x, *weights)
        close_attention(t, matrix_form, loop, x, weights, label="matrix form vs per-query loop")

    t.each(batch, agrees)
