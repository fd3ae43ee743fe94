"""With additive PE, (x_m + PE(m))ᵀ W_Qᵀ W_K (x_n + PE(n)) changes when both positions shift: not distance-only."""

import numpy as np
import sympy as sp
from hypothesis import find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from hypothesis.extra.numpy import arrays

from checks import Claim, given
from checks.figures import lines
from checks.reference import EXACT
from checks.rope import additive_score_rows, additive_scores, rope_scores
from checks.strategies import attention_input_batches
from claims.catalog.demos import DEMO_KEY, DEMO_M, DEMO_N, DEMO_Q
from claims.catalog.works import LESSON_002

claim = Claim(
    id="rope.additive-pe-not-relative",
    title="Adding PE to the embeddings does not keep the score distance-only",
    statement=(
        "Document 002 says that with PE added to the embeddings, the score q·k mixes content and position and no "
        "longer sees only the distance. Verified (so proved means the document is right): the score "
        "(x_m + PE(m))ᵀ W_Qᵀ W_K (x_n + PE(n)) splits into content·content, content·position, position·content "
        "and position·position terms, and shifting both positions by s changes it: the identity "
        "score(m+s, n+s) = score(m, n) is false (refuted with a witness), even for W_Q = W_K = I, where only the "
        "content-position cross terms move."
    ),
    sources=[
        LESSON_002.quote(
            "8. 그다음: RoPE",
            "그러면 어텐션 점수 $q\\cdot k$를 계산할 때 단어 내용과 위치가 뒤섞여, “거리만 본다”는 성질이 그대로 "
            "남지 않습니다.",
        )
    ],
    expect="proved",
)

m, n, s = sp.symbols("m n s", integer=True)
w = sp.Symbol("omega", positive=True)


def pe(position: sp.Expr) -> sp.Matrix:
    """PE for d_model = 2: (sin ω·pos, cos ω·pos)."""
    return sp.Matrix([sp.sin(w * position), sp.cos(w * position)])


def bilinear(left: sp.Matrix, matrix: sp.Matrix, right: sp.Matrix) -> sp.Expr:
    return (left.T * matrix * right)[0]


@claim.proof
def _(p):
    x, y = sp.Matrix(sp.symbols("x0 x1", real=True)), sp.Matrix(sp.symbols("y0 y1", real=True))
    a = sp.Matrix(2, 2, sp.symbols("a00 a01 a10 a11", real=True))
    p.step("A = W_Qᵀ W_K, any 2×2 matrix; d_model = 2", a)

    def score(at_q: sp.Expr, at_k: sp.Expr) -> sp.Expr:
        return bilinear(x + pe(at_q), a, y + pe(at_k))

    p.decide(
        score(m, n),
        bilinear(x, a, y) + bilinear(x, a, pe(n)) + bilinear(pe(m), a, y) + bilinear(pe(m), a, pe(n)),
        label="score = content·content + content·position + position·content + position·position",
    )
    p.refute(score(m + s, n + s), score(m, n), "score(m+s, n+s) = score(m, n) with additive PE")
    identity = sp.eye(2)
    p.decide(
        bilinear(pe(m), identity, pe(n)),
        sp.cos(w * (n - m)),
        label="W_Q = W_K = I: the position·position term alone is cos(ω(n−m)), distance-only",
    )
    p.refute(
        bilinear(x, identity, pe(n + s)) + bilinear(pe(m + s), identity, y),
        bilinear(x, identity, pe(n)) + bilinear(pe(m), identity, y),
        "W_Q = W_K = I: the content·position cross terms are not shift-invariant",
    )
    p.refute(
        bilinear(pe(m + s), a, pe(n + s)),
        bilinear(pe(m), a, pe(n)),
        "general W_Q, W_K: even the position·position term is not shift-invariant",
    )


def bilinear_rows(left: np.ndarray, a: np.ndarray, right: np.ndarray) -> np.ndarray:
    """leftᵀ A right, row by row."""
    return np.einsum("bi,bij,bj->b", left, a, right)


def cross_terms(content: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, before: np.ndarray, after: np.ndarray):
    """score(m+s, n+s) − score(m, n) from the expansion, in float64, row by row.

    ``before`` and ``after`` are the PE rows at (m, n) and (m+s, n+s), shape (rows, 2, d). Every term holds a PE
    at an absolute position; x·W·y, the only shift-free term, cancels.
    """
    x, y = content[:, 0], content[:, 1]
    a = np.einsum("bji,bjk->bik", w_q, w_k)
    moved = bilinear_rows(x, a, after[:, 1] - before[:, 1]) + bilinear_rows(after[:, 0] - before[:, 0], a, y)
    return moved + bilinear_rows(after[:, 0], a, after[:, 1]) - bilinear_rows(before[:, 0], a, before[:, 1])


def magnitude(content: np.ndarray, w_q: np.ndarray, w_k: np.ndarray) -> np.ndarray:
    """Σ_j (|W_Q|(|x| + 1))_j (|W_K|(|y| + 1))_j per row: the sum of |terms| of the score, as |PE| ≤ 1 entrywise."""
    x, y = np.abs(content[:, 0]) + 1, np.abs(content[:, 1]) + 1
    return np.sum(np.einsum("bij,bj->bi", np.abs(w_q), x) * np.einsum("bij,bj->bi", np.abs(w_k), y), axis=-1)


@claim.check(batched=True)
@given(inputs=attention_input_batches())
def shift_change_is_the_cross_terms(t, inputs):
    """The change under a common shift equals the cross terms, evaluated at the PE the dtype produced."""
    content, w_q, w_k = (t.xp.to_float64(t.xp.array(np.asarray(v))) for v in inputs[:3])
    m, n, s = inputs[3].T
    d = content.shape[-1]
    before, after = (
        np.stack([t.xp.to_float64(t.impl.sinusoidal(at, d)) for at in ends], axis=1)
        for ends in ((m, n), (m + s, n + s))
    )
    scores = [additive_score_rows(t.impl, content, w_q, w_k, m + step, n + step) for step in (0, s)]
    # the angles' rounding is in both sides (the dtype's PE); what remains is the arithmetic:
    # x + PE and length-d products, |error| ≤ γ_d Σ|terms| with γ_d ≈ d·u ≤ d·rtol
    scale = d * magnitude(content, w_q, w_k)
    t.close(scores[1] - scores[0], cross_terms(content, w_q, w_k, before, after), scale=scale, label="score change")


SMALL_INPUTS = st.tuples(
    arrays(np.float64, (6, 2), elements=st.integers(-1, 1)),
    st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(-8, 8)),
)
"""d = 2 with entries −1, 0, 1 (rows x, y, W_Q, W_K) and small positions: a readable search space."""


@claim.probe
def shift_changes_the_score(r):
    """Hypothesis searches for a common shift that changes the additive-PE score (float64), and shrinks it."""

    def scores(example: tuple) -> list[float]:
        rows, (m, n, s) = example
        return additive_scores(EXACT, rows[:2], rows[2:4], rows[4:], [(m, n), (m + s, n + s)])

    search = settings(max_examples=200, derandomize=True, database=None, deadline=None)
    try:
        found = find(SMALL_INPUTS, lambda example: abs(np.subtract(*scores(example))) > 1e-9, settings=search)
    except NoSuchExample:
        r.counterexample("no common shift changed the additive-PE score in 200 examples: it looked distance-only")
        return
    rows, (m, n, s) = found
    before, after = scores(found)
    r.measure(
        "smallest example Hypothesis found",
        {"x": rows[0], "y": rows[1], "W_Q": rows[2:4], "W_K": rows[4:]}
        | {"m": m, "n": n, "s": s, "score(m, n)": before, "score(m+s, n+s)": after},
    )


@claim.probe
def demo_vectors_under_shifts(r):
    """Demo 8's q, k as contents with W_Q = W_K = I: additive PE against RoPE, both positions shifted by s."""
    shifts = list(range(-10, 31))
    pairs = [(DEMO_M + step, DEMO_N + step) for step in shifts]
    additive = additive_scores(EXACT, np.stack([DEMO_Q, DEMO_KEY]), np.eye(2), np.eye(2), pairs)
    rotary = rope_scores(EXACT, DEMO_Q, DEMO_KEY, pairs)
    r.measure("additive PE: score range over s = −10 … 30", [min(additive), max(additive)])
    r.measure("RoPE: score range over s = −10 … 30", [min(rotary), max(rotary)])
    r.figure(
        lines(
            "additive-pe-under-shifts",
            "Score when both positions shift by s: additive PE against RoPE (m = 2, n = 5, d = 2)",
            f"Additive PE's score swings between {min(additive):.3f} and {max(additive):.3f} as both positions move; "
            f"the RoPE score stays at {rotary[0]:.3f}.",
            {
                "additive PE: (x + PE(m+s))·(y + PE(n+s))": (shifts, additive),
                "RoPE: (R((m+s)θ)q)·(R((n+s)θ)k)": (shifts, rotary),
            },
            x_label="common shift s",
            y_label="score",
        )
    )
