"""Learned position embeddings against the sinusoidal table, inside and outside the training range: the evidence
that 'optimal' is bounded by the positions trained on (a seeded experiment)."""

from checks import Claim, Erratum
from checks.training import OFFSET, PER_POSITION_MODEL, TRAINED, Budget, offset_design, offset_trial
from claims.catalog.works import LESSON_000

BUDGET = Budget(steps=300)

claim = Claim(
    id="training.learned-positions-optimal",
    title="Learned position embeddings are as good as the sinusoidal table only inside the training range",
    statement=(
        "'Optimal' has no measurable criterion, so it is read as: a learned position table (nn.Embedding(64, 32), "
        "trained with the model) is at most 0.02 less accurate than the fixed sinusoidal table on the same task, "
        f"here 'the token {OFFSET} back' trained at n = {TRAINED}, both at the positions trained on and at positions "
        f"{TRAINED} … {2 * TRAINED - 1}, whose rows never received a gradient."
    ),
    sources=[
        LESSON_000.quote("Sinusoidal vs 학습 가능한 위치 임베딩", "학습 과정에서 최적의 위치 표현을 자동으로 배움")
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "Learned only at the positions the training data reaches: a row of the table that no training sequence "
            "reaches never receives a gradient and keeps its random initial value (the finding compares a learned "
            "table with the sinusoidal one at seen and unseen positions in a small model)."
        ),
        reader_problem=(
            "학습 데이터가 닿는 위치에서만 학습됩니다. 어떤 학습 시퀀스도 닿지 않는 표의 행은 기울기를 받지 못해 "
            "처음의 무작위 값 그대로 남습니다(발견 사항은 작은 모델에서 학습된 표와 사인 함수 표를 본 위치와 "
            "보지 못한 위치에서 비교합니다)."
        ),
        wording=(
            "학습 과정에서 위치 표현을 데이터로부터 배움 (단, 표 크기를 넘는 위치는 표현할 수 없고, 학습 중 거의 "
            "나오지 않은 위치의 벡터는 제대로 학습되지 않음)"
        ),
    ),
    expect="qualified",
)

claim.experiment(
    offset_design(
        hypothesis="learned positions are no worse than sinusoidal ones: accuracy ≥ sinusoidal − 0.02, in every regime",
        models=f"{PER_POSITION_MODEL}; learned: nn.Embedding(64, 32) added like the table, trained with the model",
        treatment="learned",
        control="sinusoidal",
        threshold=-0.02,
        budget=BUDGET,
    )
)(offset_trial(BUDGET))
