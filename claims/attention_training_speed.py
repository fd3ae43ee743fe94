"""Is a training step of attention faster than one of a recurrent layer with as many parameters? Timed per length and
recurrent kind on a GPU (a designed experiment). The sentence is about parallel hardware: a run without a GPU leaves it
out of scope rather than deciding it by a timing on one CPU thread."""

import functools
import math

import torch

from checks import Claim, SeedLog
from checks.attention import ATTENTION, RECURRENT, WIDTH, matched_hidden, step_seconds
from checks.training import encoder_design
from claims.catalog.works import LESSON_001

LENGTHS = (64, 256, 1024, 4096)
REPEATS = 1
REGIMES = {f"n = {n}, against {kind.upper()}": (n, kind) for kind in RECURRENT for n in LENGTHS}
DEVICE = "cuda" if torch.cuda.is_available() else ""
"""Where the steps are timed: the GPU when there is one; none otherwise (the claim is then out of scope)."""

claim = Claim(
    id="attention.training-speed",
    title="Attention trains faster than a recurrent layer only against some recurrent kernels and lengths",
    statement=(
        "A training step (forward, loss, backward) of one self-attention encoder layer over a sequence of n tokens "
        "takes less time than one of a recurrent layer with about as many parameters (LSTM, GRU or tanh RNN), at every "
        f"n from {LENGTHS[0]} to {LENGTHS[-1]}, on a GPU: the parallel hardware the section's advantage is about "
        "(attention's fixed-depth graph is attention.parallel-speedup)."
    ),
    sources=[LESSON_001.quote("7. 병렬화 장점", "학습 속도 증가")],
    out_of_scope=""
    if DEVICE
    else (
        "the sentence is about the speed parallel hardware gives attention; this run has no GPU, and a timing on one "
        "CPU thread would decide another question"
    ),
    # On a GPU: not yet run anywhere (issue 47); the expectation is the sentence's.
    expect="holds" if DEVICE else "out-of-scope",
)


@claim.experiment(
    encoder_design(
        hypothesis="attention's training step is the faster one: log₂(t_recurrent / t_attention) > 0",
        task=f"one random sequence of n tokens (batch 1, d = {WIDTH}, float32); loss = mean square of the output",
        models=f"attention: {ATTENTION['attention']}; recurrent, hidden size matching its parameter count: "
        + ", ".join(f"{kind.upper()} {matched_hidden(kind)}" for kind in RECURRENT),
        budget="one warm-up step, then one timed step per seed and layer on the GPU; attention is timed once "
        "per length and seed and paired with each recurrent kind",
        metric="log₂ of the seconds of one training step (each seed is a repetition)",
        better="lower",
        treatment="attention",
        control="recurrent",
        threshold=0.0,
        seeds={"ci": 3, "dev": 3, "thorough": 5},
        regimes=REGIMES,
        timed=True,
    )
)
def training_step_time(arm: str, regime: str, seed: int, log: SeedLog) -> float:
    length, kind = REGIMES[regime]
    return log2_seconds("attention" if arm == "attention" else kind, length, seed)


@functools.cache
def log2_seconds(layer: str, length: int, seed: int) -> float:
    """log₂ seconds of a layer's training step at this length and seed, measured once (attention's serves the three
    recurrent kinds)."""
    return math.log2(step_seconds(layer, length, seed, device=DEVICE, repeats=REPEATS))
