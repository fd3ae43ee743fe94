"""Self-attention's FLOPs are 6 n d² + 4 n² d: quadratic in the sequence length n for a fixed width d."""

import sympy as sp
from hypothesis import strategies as st

from checks import FLOAT32, Claim, given
from checks.attention import (
    attention_flops,
    attention_products,
    counted_attention,
    counted_flops,
    d,
    matmul_flops,
    n,
    self_attention,
    single_threaded,
)
from checks.figures import lines
from claims.catalog.works import LESSON_001

claim = Claim(
    id="attention.quadratic-cost",
    title="Self-attention costs O(n²) in the sequence length",
    statement=(
        "One self-attention layer (Q, K, V projections, Q Kᵀ, A V) performs 6 n d² + 4 n² d floating-point "
        "operations in its matrix products, exactly as torch.utils.flop_counter counts them; for fixed d this is "
        "Θ(n²) (FLOPs / n² → 4d), and the n² part overtakes the projections from n = 3d/2 on. The softmax adds n² "
        "exponentials, also quadratic (the counter counts matrix products only)."
    ),
    sources=[LESSON_001.quote("7. 병렬화 장점", "Self-Attention 계산량은 O(n²)입니다.")],
    expect="proved",
)


@claim.proof
def _(p):
    products = attention_products()
    for name, shape in products.items():
        p.step(f"{name}: ({shape[0]} × {shape[1]}) @ ({shape[1]} × {shape[2]})", matmul_flops(*shape))
    total = sp.Add(*(matmul_flops(*shape) for shape in products.values()), evaluate=False)
    p.decide(total, 6 * n * d**2 + 4 * n**2 * d, label="sum over the products")
    leading = sp.Poly(attention_flops(), n)
    p.decide(sp.Integer(leading.degree()), 2, label="degree in n: 2")
    p.decide(leading.LC(), 4 * d, label="leading coefficient 4d > 0, so FLOPs / n² → 4d: Θ(n²) for fixed d")
    p.decide(4 * n**2 * d - 6 * n * d**2, 2 * n * d * (2 * n - 3 * d), label="4 n² d − 6 n d² = 2 n d (2n − 3d)")
    p.step("so the n² part exceeds the projections exactly when n > 3d/2", sp.StrictGreaterThan(n, 3 * d / 2))


@claim.check(dtypes=(FLOAT32,), backends=("torch",))
@given(length=st.integers(1, 256), width=st.integers(1, 96))
@single_threaded()
def counter_matches_formula(t, length, width):
    """FlopCounterMode over the reference layer counts exactly 6 n d² + 4 n² d."""
    x, w_q, w_k, w_v = (t.xp.zeros(*shape) for shape in ((length, width),) + ((width, width),) * 3)
    counted = counted_flops(self_attention, t.xp, x, w_q, w_k, w_v)
    expected = int(attention_flops(length, width))
    assert counted == expected, f"counted {counted} FLOPs, formula {expected} (n={length}, d={width})"


@claim.probe
def growth_at_fixed_width(r):
    """d = 64, n = 16 … 4096, counted on the meta device (shapes only, nothing computed)."""
    width, lengths = 64, [2**k for k in range(4, 13)]
    counts = [counted_attention(length, width, "meta") for length in lengths]
    exact = all(c == int(attention_flops(length, width)) for c, length in zip(counts, lengths, strict=True))
    r.measure("d = 64: counted FLOPs by n", dict(zip(lengths, counts, strict=True)))
    r.measure("every count equals 6 n d² + 4 n² d", exact)
    r.measure("FLOPs(2n) / FLOPs(n)", {lengths[i]: counts[i + 1] / counts[i] for i in range(len(lengths) - 1)})
    r.measure("share of the 4 n² d term", {length: 4 * length / (6 * width + 4 * length) for length in lengths})
    r.figure(
        lines(
            "flops-by-length",
            "Self-attention FLOPs at d = 64",
            "Counted FLOPs of one attention layer against n, with its two parts: the projections 6 n d² (linear in n) "
            "and Q Kᵀ plus A V, 4 n² d (quadratic); the quadratic part takes over at n = 3d/2 = 96.",
            {
                "counted": (lengths, counts),
                "4 n² d": (lengths, [4 * length**2 * width for length in lengths]),
                "6 n d²": (lengths, [6 * length * width**2 for length in lengths]),
            },
            x_label="sequence length n",
            y_label="FLOPs",
            marks={"n = 3d/2": 1.5 * width},
        )
    )
