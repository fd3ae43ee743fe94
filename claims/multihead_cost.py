"""h heads of width d/h cost what one head of width d costs: the same parameters, the same multiply-adds; only the
softmax's exponentials grow, from n² to h·n²."""

import sympy as sp
import torch
from torch.utils.flop_counter import FlopCounterMode

from checks import Claim, Erratum
from claims.catalog.works import vaswani_2017

claim = Claim(
    id="multihead.cost-like-single-head",
    title="h heads of width d/h cost as many parameters and multiply-adds as one head of width d",
    statement=(
        "Multi-head attention with h heads of width d/h has 4d² weights (W_Q, W_K, W_V, W_O), as one head of width "
        "d with its output projection, and 4nd² + 2n²d multiply-adds on n tokens, as that one head: the heads split "
        "the same products. Only the softmax differs: h·n² exponentials against n², fewer than the multiply-adds "
        "wherever h < 4d²/n + 2d."
    ),
    sources=[
        vaswani_2017(
            "3.2.2 Multi-Head Attention",
            "Due to the reduced dimension of each head, the total computational cost is similar to that of "
            "single-head attention with full dimensionality.",
        )
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The weights and multiply-adds of h heads of width d/h equal one head's of width d; the softmax does not: "
            "h·n² exponentials against n² ({exponentials_h16:,} at h = 16 against {exponentials_h1:,} at n = 128)."
        ),
        reader_problem=(
            "너비 d/h인 head h개의 가중치와 곱셈-덧셈 수는 너비 d인 head 하나와 같지만, softmax는 다릅니다. 지수 "
            "계산이 n²번이 아니라 h·n²번입니다(n = 128에서 h = 16이면 {exponentials_h16:,}번, h = 1이면 "
            "{exponentials_h1:,}번)."
        ),
        wording=(
            "Due to the reduced dimension of each head, the total computational cost is similar to that of "
            "single-head attention with full dimensionality: the same weights and multiply-adds, and h times the "
            "softmax's exponentials."
        ),
    ),
    expect="qualified",
)

n, d, h = sp.symbols("n d h", positive=True, integer=True)


def weights(heads: sp.Expr) -> sp.Expr:
    """W_Q, W_K, W_V: d × (d/h) per head; W_O: d × d."""
    return heads * 3 * d * (d / heads) + d * d


def multiply_adds(heads: sp.Expr) -> sp.Expr:
    """The projections (3 n d (d/h) per head), the scores and the weighted sum (n² (d/h) each per head), W_O (n d²)."""
    return heads * (3 * n * d * (d / heads) + 2 * n**2 * (d / heads)) + n * d * d


@claim.proof
def _(p):
    p.assume("h divides d: each head has d/h columns")
    p.decide(weights(h), weights(1), label="weights: h heads of d/h = one head of d")
    p.decide(weights(h), 4 * d**2, label="weights = 4d²")
    p.decide(multiply_adds(h), multiply_adds(1), label="multiply-adds: h heads of d/h = one head of d")
    p.decide(multiply_adds(h), 4 * n * d**2 + 2 * n**2 * d, label="multiply-adds = 4nd² + 2n²d")


@claim.probe
def counted_by_torch(r):
    """torch.nn.MultiheadAttention's parameters and the FLOPs torch's counter finds, for h = 1 … 16 at d = 512 (the
    counter sees the four projections; the fused attention kernel's products it does not)."""
    tokens, width = 128, 512
    x = torch.randn(1, tokens, width)
    found = {}
    for heads in (1, 2, 8, 16):
        module = torch.nn.MultiheadAttention(width, heads, bias=False, batch_first=True)
        with FlopCounterMode(display=False) as counter, torch.no_grad():
            module(x, x, x, need_weights=False)
        found[f"h = {heads}"] = {
            "parameters": sum(p.numel() for p in module.parameters()),
            "FLOPs": counter.get_total_flops(),
        }
    r.measure(f"torch.nn.MultiheadAttention at n = {tokens}, d = {width}", found)
    single = found["h = 1"]
    if any(row != single for row in found.values()):
        r.counterexample("the counts differ between head counts", found=found)
    projections = 2 * int((4 * n * d**2).subs({n: tokens, d: width}))
    r.measure("2 × 4nd², the proof's projection multiply-adds as FLOPs", projections)
    if single["FLOPs"] != projections:
        r.counterexample(f"torch counts {single['FLOPs']} FLOPs, the projections {projections}", found=found)
    r.measure(
        "what the counter leaves out",
        "the 2n²d multiply-adds of the scores and the weighted sum: torch runs them in its fused attention kernel, "
        "which the FLOP counter does not see; the proof counts them, the same for every h",
    )
    r.condition(
        f"the matrix products cost the same, the softmax does not: h·n² exponentials against n² "
        f"({16 * tokens**2:,} at h = 16 against {tokens**2:,} at n = {tokens}), which torch's counter does not count; "
        "small beside the multiply-adds while h < 4d²/n + 2d",
        found=found,
        exponentials_h16=16 * tokens**2,
        exponentials_h1=tokens**2,
    )
