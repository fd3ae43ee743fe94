"""Multi-head self-attention without positions is permutation-equivariant: reordering the tokens reorders the
output rows, head by head."""

import numpy as np
from hypothesis import strategies as st

from checks import Claim, given
from checks.topics.multihead import MULTIHEAD_ATTENTION, multihead_reference
from claims.catalog.works import vaswani_2017

claim = Claim(
    id="multihead.permutation-equivariance",
    title="Multi-head attention reorders its output rows as its input rows are reordered",
    statement=(
        "For any permutation P of the n tokens, MultiHead(PX) = P·MultiHead(X): each head's scores Q_i K_iᵀ are "
        "permuted on both sides, the row-wise softmax follows, and concatenating the heads and multiplying by W_O acts "
        "on each row alone; without a mask or a position nothing in it depends on the order."
    ),
    sources=[
        vaswani_2017(
            "3.2.2 Multi-Head Attention",
            "Multi-head attention allows the model to jointly attend to information from different representation "
            "subspaces at different positions.",
        )
    ],
    expect="holds",
)


@claim.check(uses="multihead_attention")
@given(inputs=MULTIHEAD_ATTENTION.strategy(), order=st.integers(0, 2**32 - 1))
def rows_follow_the_tokens(t, inputs, order):
    """MultiHead(PX) against P·MultiHead(X) for a drawn permutation P (seeded by ``order``), in each
    implementation."""
    x, *weights, heads = inputs
    permutation = np.random.default_rng(order).permutation(len(x))
    arrays = [t.xp.array(w) for w in weights]
    output = t.xp.to_float64(t.impl.multihead_attention(t.xp.array(x), *arrays, heads))
    reordered = t.impl.multihead_attention(t.xp.array(x[permutation]), *arrays, heads)
    t.close_multihead(reordered, output[np.array(permutation)], (x[permutation], *weights, heads), label="MHA(PX)")


@claim.check(uses="multihead_attention")
@given(inputs=MULTIHEAD_ATTENTION.strategy())
def heads_as_defined(t, inputs):
    """Each implementation computes the section's definition: h heads of d/h columns, each scaled by 1/√(d/h),
    concatenated and multiplied by W_O (the equivariance above is of this function)."""
    x, *weights, heads = inputs
    arrays = [t.xp.array(a) for a in (x, *weights)]
    rounded = [t.xp.to_float64(a) for a in arrays]
    found = t.impl.multihead_attention(*arrays, heads)
    t.close_multihead(found, multihead_reference(*rounded, heads), (*rounded, heads), label="MultiHead(X)")
