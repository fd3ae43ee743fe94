"""Positions normalized per sentence (pos / (n − 1)) are hard to learn from when lengths vary (a seeded experiment)."""

from checks import Claim, SeedLog
from checks.training import Budget, TinyEncoder, encoder_design, token_at_any_length, train
from claims.catalog.works import LESSON_000

VOCAB, INDEX, LENGTHS = 8, 3, range(6, 17)
BUDGET = Budget(steps=150)

claim = Claim(
    id="training.normalized-positions-inconsistent",
    title="Length-normalized positions give no consistent position pattern to learn",
    statement=(
        "When sentence lengths vary, pos / (n − 1) gives the same index different values, so a model told to output "
        "the token at index 3 learns it worse with normalized positions than with the sinusoidal encoding: at least "
        "0.2 lower held-out accuracy."
    ),
    sources=[LESSON_000.quote("시도 2: 정규화 (0~1로 맞추기)", "모델이 일관된 위치 패턴을 학습하기 어려움")],
    expect="holds",
)


@claim.experiment(
    encoder_design(
        hypothesis="sinusoidal beats normalized positions by ≥ 0.2 accuracy on an absolute index over lengths 6–16",
        task=f"token at index {INDEX} of {VOCAB}-token sequences, each batch of one length drawn from 6 … 16",
        metric="held-out accuracy (4 fresh batches of 256, each of its own length)",
        treatment="sinusoidal",
        control="normalized",
        threshold=0.2,
        budget=BUDGET,
    )
)
def index_across_lengths(arm: str, regime: str, seed: int, log: SeedLog) -> float:
    return train(TinyEncoder(arm, VOCAB, classes=VOCAB), token_at_any_length(INDEX, VOCAB, LENGTHS), BUDGET, seed, log)
