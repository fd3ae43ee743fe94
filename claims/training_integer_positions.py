"""Raw integer positions added to the embeddings: does training become unstable? (a seeded experiment)."""

import math

from checks import Claim, Erratum, SeedLog
from checks.training import Budget, TinyEncoder, encoder_design, token_at, train, which_first
from claims.catalog.works import LESSON_000

LENGTH = 12
BUDGET = Budget(steps=150)
TASKS = {"token at index 3": (token_at(3, 8, LENGTH), 8, 8), "order only": (which_first(10, LENGTH), 10, 2)}

claim = Claim(
    id="training.integer-positions-unstable",
    title="Raw integer positions make training unstable on one of two tasks tried",
    statement=(
        "Adding the raw index pos = 0 … 11 to every embedding dimension makes training unstable: its largest "
        "gradient norm during training is at least twice that of the same model with the sinusoidal encoding, on two "
        "tasks that need position."
    ),
    sources=[LESSON_000.quote("시도 1: 정수 인덱스 사용", "학습이 매우 불안정해짐")],
    erratum=Erratum(
        severity="note",
        problem=(
            "Decided only at positions 0–11, far below the 10,000 the section names (the finding gives what the "
            "experiment saw there). A toy setting cannot speak for the sentence, so this is no erratum for readers."
        ),
    ),
    expect="qualified",
)


@claim.experiment(
    encoder_design(
        hypothesis="integer positions give gradient-norm spikes at least 2× the sinusoidal encoding's",
        task=f"two tasks over {LENGTH} random tokens: the token at index 3 (8 classes), and whether token 0 comes "
        "before token 1 (order only)",
        metric="log10 of the largest gradient norm over training (divergence: a NaN or a 10× loss blow-up, recorded)",
        treatment="integer",
        control="sinusoidal",
        threshold=math.log10(2),
        budget=BUDGET,
        regimes=TASKS,
    )
)
def gradient_spikes(arm: str, regime: str, seed: int, log: SeedLog) -> float:
    task, vocab, classes = TASKS[regime]
    train(TinyEncoder(arm, vocab, classes), task, BUDGET, seed, log)
    return math.log10(max(log.grad_norms))
