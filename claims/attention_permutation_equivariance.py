"""Without position information self-attention is permutation-equivariant: Attn(PX) = P · Attn(X)."""

import itertools

import sympy as sp

from checks import Claim, decide, example, given
from checks.attention import Sentence, close_attention, permutation_identities, reordering_differences, single_threaded
from checks.strategies import as_batch, sentence_batches
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

claim = Claim(
    id="attention.permutation-equivariance",
    title="Reordering the tokens only reorders the attention outputs",
    statement=(
        "For self-attention softmax(Q Kᵀ / √d_k) V over all token pairs with Q = X W_Q, K = X W_K, V = X W_V "
        "and no position information, every permutation matrix P gives Attn(P X) = P · Attn(X): each token "
        "receives the same output wherever it stands."
    ),
    sources=[
        LESSON_000.quote(
            "위치 정보 없이는 어떤 문제가 생기나?", '위치 정보가 없으면 Self-Attention은 "Bag of Words"와 같아집니다:'
        ),
        LESSON_001.quote("문제 설정", "토큰의 순서 정보가 사라집니다."),
        LESSON_002.quote(
            "1. 어텐션은 순서를 모른다",
            "그래서 입력 순서를 섞으면 출력도 똑같이 섞여 나올 뿐, 각 단어가 받는 결과는 변하지 않습니다.",
        ),
        LESSON_002.quote(
            "데모 1 · 순서를 섞어 보기", "6차원 임베딩과 무작위 W_Q·W_K·W_V로 실제 셀프 어텐션을 계산합니다."
        ),
        LESSON_002.quote("1. 어텐션은 순서를 모른다", "이 계산 어디에도 “몇 번째 단어인가”는 들어가지 않습니다."),
        LESSON_002.quote(
            "1. 어텐션은 순서를 모른다", "오른쪽 숫자는 “원래 순서에서 같은 단어가 받았던 출력”과의 최대 차이입니다."
        ),
        LESSON_002.quote("1. 어텐션은 순서를 모른다", "데모 1 · 순서를 섞어 보기"),
        LESSON_002.quote(
            "1. 어텐션은 순서를 모른다", "셀프 어텐션은 모든 단어 쌍의 내적을 구하고, 그 가중치로 값 벡터를 섞습니다."
        ),
        LESSON_002.quote(
            "1. 어텐션은 순서를 모른다", "dog bites man과 man bites dog가 단어마다 같은 표현을 받는다는 뜻입니다."
        ),
        LESSON_002.quote("위치 인코딩 — sin과 cos를 함께 쓰는 이유", "어텐션은 단어 순서를 모릅니다."),
    ],
    expect="proved",
)


@claim.proof
def general_argument(p):
    """The argument for any n: the permutation passes through every step."""
    size, width = sp.symbols("n d", positive=True, integer=True)
    P, X = sp.MatrixSymbol("P", size, size), sp.MatrixSymbol("X", size, width)
    W_Q = sp.MatrixSymbol("W_Q", width, width)
    Q, K, V = (sp.MatrixSymbol(name, size, width) for name in "QKV")
    S, A = (sp.MatrixSymbol(name, size, size) for name in "SA")
    p.step("projections: (P X) W = P (X W) for W_Q, W_K, W_V", sp.Eq((P * X) * W_Q, P * Q, evaluate=False))
    p.step(
        "scores: (P Q)(P K)ᵀ/√d = P (Q Kᵀ/√d) Pᵀ, i.e. s'_ij = s_π(i)π(j)",
        sp.Eq((P * Q) * (P * K).T / sp.sqrt(width), P * S * P.T, evaluate=False),
    )
    p.step(
        "row softmax: exp acts entrywise and row i of P S Pᵀ holds row π(i) of S reordered, so A' = P A Pᵀ",
        sp.Eq(sp.Function("softmax")(P * S * P.T), P * A * P.T, evaluate=False),
    )
    p.step("output: A' V' = P A Pᵀ P V = P A V, since Pᵀ P = I", sp.Eq(P * A * P.T * P * V, P * A * V, evaluate=False))


@claim.proof
def every_length(p):
    """For every n: swapping the tokens at positions m and m + 1 swaps rows m and m + 1 of the output and leaves
    the others; every permutation is a product of such swaps."""
    p.assume(
        "every permutation of n tokens is a product of swaps of neighbours (bubble sort), and attention that "
        "commutes with P₁ and with P₂ commutes with P₁P₂: Attn(P₁P₂X) = P₁ Attn(P₂X) = P₁P₂ Attn(X)"
    )
    n, m, j, a = sp.symbols("n m j a", integer=True, nonnegative=True)
    weight, value = sp.IndexedBase("e"), sp.IndexedBase("v")  # e[a, t] = exp(q_a·k_t/√d_k); v[t]: a column of V
    swapped = {m: m + 1, m + 1: m}

    def row(query: sp.Expr, token_at) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
        """Row ``query`` of softmax(Q Kᵀ/√d_k) V: (numerator, denominator) with positions m, m + 1 written out,
        and the two sums over the other positions (which hold the same tokens in both orders)."""
        rest = (
            sp.Sum(weight[query, j] * value[j], (j, 0, m - 1)),
            sp.Sum(weight[query, j] * value[j], (j, m + 2, n - 1)),
        )
        ones = (sp.Sum(weight[query, j], (j, 0, m - 1)), sp.Sum(weight[query, j], (j, m + 2, n - 1)))
        near = [token_at(m), token_at(m + 1)]
        top = rest[0] + sum(weight[query, t] * value[t] for t in near) + rest[1]
        bottom = ones[0] + sum(weight[query, t] for t in near) + ones[1]
        return top, bottom, rest, ones

    for position, label in ((m, "row m"), (m + 1, "row m + 1"), (a, "any other row a")):
        token = swapped.get(position, position)
        after = row(token, lambda at: swapped[at])  # the swapped order: its row at ``position`` asks with ``token``
        before = row(token, lambda at: at)
        p.fact(
            f"{label}: the positions other than m, m + 1 hold the same tokens, so the two partial sums agree",
            after[2:] == before[2:],
        )
        names = dict(zip((*before[2], *before[3]), sp.symbols("N_1 N_2 D_1 D_2"), strict=True))
        p.step(f"{label}: the partial sums, named", sp.Tuple(*(sp.Eq(name, part) for part, name in names.items())))
        p.decide(
            after[0].xreplace(names) / after[1].xreplace(names),
            before[0].xreplace(names) / before[1].xreplace(names),
            label=f"{label} of Attn(swapped X) = row {sp.sstr(token)} of Attn(X), for every n > m + 1",
        )


@claim.proof
def every_permutation(p):
    """Each step decided exactly for n = 2, 3, 4 and every permutation (a check of every_length's reduction); the
    reversal is shown."""
    for size in (2, 3, 4):
        orders = list(itertools.permutations(range(size)))
        outcomes: dict[str, list[str]] = {}
        for order in orders:
            for label, (left, right) in permutation_identities(size, order).items():
                outcomes.setdefault(label, []).append(decide(left, right).status)
        for label, statuses in outcomes.items():
            proved = statuses.count("proved")
            p.fact(
                f"n = {size}: {label}, decided for every order: proved for {proved} of {len(orders)}",
                proved == len(orders),
            )
        reversal = tuple(reversed(range(size)))
        left, right = permutation_identities(size, reversal)["Attn(P X) = P Attn(X)"]
        p.decide(left, right, label=f"n = {size}, reversal {reversal}: Attn(P X) = P Attn(X)")


DEMO_WORDS = ("dog", "bites", "man")
DEMO = Sentence(d=6, words=(0, 1, 2), order=(2, 1, 0), seed=0)
"""Demo 1's setting: 6-dimensional embeddings, random W_Q, W_K, W_V, "dog bites man" → "man bites dog"."""


@claim.check(uses="attention", batched=True)
@given(batch=sentence_batches(varied=True))
@example(batch=as_batch([DEMO]))
@single_threaded()
def reordering_permutes_outputs(t, batch):
    def permutes(sentence):
        weights = [t.xp.array(w) for w in sentence.weights]
        x = t.xp.array(sentence.tokens)
        output = t.impl.attention(x, *weights)
        reordered = t.impl.attention(t.xp.array(sentence.reordered_tokens), *weights)
        close_attention(t, reordered, output[list(sentence.order)], x, weights, label="Attn(PX) vs P·Attn(X)")

    t.each(batch, permutes)


@claim.probe
def demo_numbers(r):
    """Demo 1's right-hand numbers in float64, and the same reorderings with a causal mask."""
    r.measure(
        "demo 1, float64: max difference from each word's output in the original order",
        reordering_differences(DEMO_WORDS, 6, 0),
    )
    r.measure(
        "with a causal mask (decoder-style; not the all-pairs attention these documents describe)",
        reordering_differences(DEMO_WORDS, 6, 0, causal=True),
    )
