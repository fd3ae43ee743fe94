"""The documents' formula is the paper's equation; the paper's published code lays it out and spaces it otherwise."""

import numpy as np

from checks import Citation, Claim, Erratum
from checks.formulas import d_model, i
from checks.reference import EXACT
from checks.rope import CONCATENATED, to_document_layout
from claims.catalog.works import LESSON_001, LESSON_002, vaswani_2017

TENSOR2TENSOR = "https://github.com/tensorflow/tensor2tensor/blob/master/tensor2tensor/layers/common_attention.py"

claim = Claim(
    id="pe.paper-formula",
    title="The sin/cos formula is the paper's equation, not its published implementation",
    statement=(
        "PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model)) is equation "
        "(§3.5) of Vaswani et al. (2017). The implementation the paper published (tensor2tensor's "
        "get_timing_signal_1d) computes a different table: all sines then all cosines, with frequencies "
        "10000^(−i/(d_model/2 − 1)), so only the first pair's frequency agrees with the equation."
    ),
    sources=[
        LESSON_002.quote(
            "2. 사인·코사인 위치 인코딩",
            "「Attention Is All You Need」(Vaswani 외, 2017)는 위치 pos의 벡터를 이렇게 정합니다.",
        ),
        LESSON_001.quote(
            "2. Sinusoidal Positional Encoding", "Transformer 논문에서는 사인/코사인 함수를 사용했습니다."
        ),
        vaswani_2017(
            "3.5 Positional Encoding", "In this work, we use sine and cosine functions of different frequencies:"
        ),
        Citation(
            title="tensor2tensor: common_attention.get_timing_signal_1d (the paper's published code)",
            authors="Google Brain (Vaswani et al.)",
            year=2017,
            section="get_timing_signal_1d docstring",
            text="All of these sinusoids are concatenated in the channels dimension.",
            url=TENSOR2TENSOR,
        ),
    ],
    erratum=Erratum(
        severity="note",
        problem=(
            "True of the paper's equation; the code published with the paper (tensor2tensor) puts all sines before "
            "all cosines and spaces the frequencies differently, so its table is not the equation's (the finding "
            "gives the largest difference)."
        ),
    ),
    expect="qualified",
)

D_MODEL, POSITIONS = 512, np.arange(2048)


def timing_signal(positions: np.ndarray, channels: int) -> np.ndarray:
    """tensor2tensor's get_timing_signal_1d (min_timescale 1, max_timescale 10⁴), written out in float64."""
    timescales = channels // 2
    increment = np.log(1.0e4) / (timescales - 1)
    inverse = np.exp(np.arange(timescales) * -increment)
    scaled = positions[:, None] * inverse[None, :]
    return np.concatenate([np.sin(scaled), np.cos(scaled)], axis=1)


@claim.proof
def _(p):
    p.refute(2 * i / d_model, i / (d_model / 2 - 1), label="the exponents of pair i agree for every i (expected false)")
    p.decide((2 * i / d_model).subs(i, 0), (i / (d_model / 2 - 1)).subs(i, 0), label="at i = 0 both frequencies are 1")


@claim.probe
def against_tensor2tensor(r):
    """The two tables at d_model = 512, positions 0 … 2047: as laid out, and after undoing the layout."""
    ours, theirs = EXACT.sinusoidal(POSITIONS, D_MODEL), timing_signal(POSITIONS.astype(np.float64), D_MODEL)
    interleaved = theirs[:, to_document_layout(D_MODEL, CONCATENATED)]
    slowest = {"equation": 10000.0 ** (-(D_MODEL - 2) / D_MODEL), "tensor2tensor": 1.0e-4}
    gap = float(np.max(np.abs(ours - interleaved)))
    r.measure("max |difference| as laid out", float(np.max(np.abs(ours - theirs))))
    r.measure("max |difference| after interleaving tensor2tensor's halves", gap)
    r.measure("slowest frequency (pair d/2 − 1)", slowest)
    r.condition(
        "true of the paper's equation (§3.5), not of the implementation it published: tensor2tensor puts all sines "
        "before all cosines and spaces the frequencies as 10000^(−i/(d/2 − 1)); at d_model = 512 over positions "
        f"0 … 2047 its table differs from the equation's by up to {gap:.3g} even after interleaving, and its "
        f"slowest frequency is 1e-4 instead of {slowest['equation']:.4g}",
        d_model=D_MODEL,
        slowest=slowest,
    )
