"""Is a training step of attention faster than one of a recurrent layer with as many parameters? Timed per length and
recurrent kind (a designed experiment; on one CPU thread, as every experiment here runs)."""

import functools
import math

from checks import Claim, Erratum, SeedLog
from checks.attention import ATTENTION, RECURRENT, WIDTH, matched_hidden, step_seconds
from checks.training import encoder_design
from checks.works import LESSON_001

LENGTHS = (64, 256, 1024, 4096)
REPEATS = 1
REGIMES = {f"n = {n}, against {kind.upper()}": (n, kind) for kind in RECURRENT for n in LENGTHS}

claim = Claim(
    id="attention.training-speed",
    title="Attention trains faster than a recurrent layer only against some recurrent kernels and lengths",
    statement=(
        "A training step (forward, loss, backward) of one self-attention encoder layer over a sequence of n tokens "
        "takes less time than one of a recurrent layer with about as many parameters (LSTM, GRU or tanh RNN), at every "
        f"n from {LENGTHS[0]} to {LENGTHS[-1]}, on the devices measured: one CPU thread here (no GPU was lent; the "
        "speed-up that parallel hardware gives attention's fixed-depth graph, attention.parallel-speedup, is not "
        "measured)."
    ),
    sources=[LESSON_001.quote("7. 병렬화 장점", "학습 속도 증가")],
    erratum=Erratum(
        severity="condition",
        problem=(
            "Timed on one CPU thread, an attention training step is faster than a GRU's at every length from 64 to "
            "4096 and than a plain RNN's up to 1024, but 3.6× slower than an LSTM's at 1024 tokens and 7.7× at "
            "4096; the gain from parallel hardware such as a GPU was not measured."
        ),
        wording="학습 속도 증가 (단, CPU 한 스레드에서는 긴 문장일 때 같은 크기의 LSTM보다 느릴 수 있습니다)",
    ),
    expect="qualified",
)


@claim.experiment(
    encoder_design(
        hypothesis="attention's training step is the faster one: log₂(t_recurrent / t_attention) > 0",
        task=f"one random sequence of n tokens (batch 1, d = {WIDTH}, float32); loss = mean square of the output",
        models=f"attention: {ATTENTION['attention']}; recurrent, hidden size matching its parameter count: "
        + ", ".join(f"{kind.upper()} {matched_hidden(kind)}" for kind in RECURRENT),
        budget="one warm-up step, then one timed step per seed and layer; one CPU thread; attention is timed once "
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
    return math.log2(step_seconds(layer, length, seed, repeats=REPEATS))
