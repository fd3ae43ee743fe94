"""Interleaved and half-split RoPE are one rotation up to a permutation of dimensions."""

import numpy as np
import sympy as sp

from checks import Claim, given
from checks.adapters import is_reference, layout_of, missing, pair_order, pairing_name, probing, rotated_dimensions
from checks.formulas import omega, rotation
from checks.rope import HALF_SPLIT, INTERLEAVED, rope_layout, rope_rows, to_interleaved
from checks.strategies import vector_batches
from claims.catalog.works import LESSON_002

claim = Claim(
    id="rope.pairing-permutation",
    title="RoPE pairings differ only by a permutation of dimensions",
    statement=(
        "Rotating pairs (2i, 2i+1) (interleaved: Meta, torchtune) or pairs (i, i + d/2) (half-split: Hugging Face "
        "Llama) is the same rotation up to the permutation p = [0, d/2, 1, d/2 + 1, …]: "
        "half_split(x) = interleaved(x[p])[p⁻¹]. Each implementation's permutation is found by probing it, and "
        "both pairings keep the relative-score property of document 002 §8."
    ),
    sources=[
        LESSON_002.quote("8. 그다음: RoPE", "쿼리와 키 벡터의 각 2차원 쌍을 위치에 비례하는 각도만큼 직접 돌립니다.")
    ],
    depends=["rope.relative-score"],
    expect="proved",
)

D = 8


@claim.proof
def _(p):
    m = sp.Symbol("m", real=True)
    half = D // 2
    blocks = sp.diag(*(rotation(m * omega(j, D)) for j in range(half)))
    order = to_interleaved(D, HALF_SPLIT)
    permutation = sp.Matrix(D, D, lambda row, col: 1 if order[row] == col else 0)
    cos = sp.Matrix([sp.cos(m * omega(j % half, D)) for j in range(D)])
    sin = sp.Matrix([sp.sin(m * omega(j % half, D)) for j in range(D)])
    rotate_half = sp.Matrix(D, D, lambda row, col: -1 if col == row + half else 1 if row == col + half else 0)
    half_split = sp.diag(*cos) + sp.diag(*sin) * rotate_half
    p.step("permutation P (x_interleaved = P x)", permutation)
    p.decide(
        permutation.T * blocks * permutation,
        half_split,
        label=f"Pᵀ R_interleaved(m) P = x·cos + rotate_half(x)·sin, d = {D}",
    )


@claim.probe(uses="rope")
def permutations_found(r):
    """Probe every installed RoPE implementation for its pairs; compare with its declared pairing.

    A rotation of the first part of each head only (partial rotation) is a variant: its pairs are compared
    over the dimensions that rotate.
    """
    found = {}
    for adapter in r.implementations("rope"):
        if missing(adapter):
            found[adapter.name] = missing(adapter)
            continue
        with r.guarded(adapter, "rope"):
            bound = probing(adapter)
            rotated, order = rotated_dimensions(bound, D), pair_order(bound, D)
            declared = getattr(adapter, "pairing", INTERLEAVED)
            found[adapter.name] = {"declared": declared, "found": order, "rotated": rotated}
            if not np.array_equal(order[:rotated], to_interleaved(rotated, declared)):
                report = r.counterexample if is_reference(adapter) else r.implementation
                report(
                    f"{adapter.name} declares {declared} pairs but rotates {pairing_name(order, rotated)} pairs "
                    f"{order[:rotated].tolist()} (d = {D})",
                    implementation=adapter.name,
                    found=order,
                )
    r.measure(
        f"permutation to (2i, 2i+1) order, found by probing (d = {D}; rotated: how many dimensions rotate)", found
    )


def half_split_formula(t, x: np.ndarray, m: np.ndarray) -> np.ndarray:
    """x·cos + rotate_half(x)·sin built directly in the run's backend and dtype (no pairs, no permutation), each
    row x at its position m."""
    angles = t.ref.angles(m, x.shape[-1])
    cos, sin = (t.xp.to_float64(f(angles)) for f in (t.xp.cos, t.xp.sin))
    half = x.shape[-1] // 2
    rotated_half = np.concatenate([-x[:, half:], x[:, :half]], axis=-1)
    return x * np.tile(cos, 2) + rotated_half * np.tile(sin, 2)


@claim.check(uses="rope", batched=True)
@given(xm=vector_batches(16))
def agrees_after_permutation(t, xm):
    """An implementation equals the interleaved reference placed in its layout: its declared pairs, over the
    dimensions it rotates (for the reference: the half-split formula against the permuted reference)."""
    x, m = np.asarray(xm[0]), np.asarray(xm[1])
    if t.run.reference:
        layout, mine = rope_layout(x.shape[-1], HALF_SPLIT), half_split_formula(t, x, m)
    else:
        layout, mine = layout_of(t.impl, x.shape[-1]), rope_rows(t.impl, x, m)
    expected = layout.apply(x, lambda part: rope_rows(t.ref, part, m))
    t.close(
        mine, expected, scale=np.linalg.norm(x, axis=-1) * (1 + m), label="rotation vs permuted interleaved reference"
    )
