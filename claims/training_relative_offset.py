"""Attention with the sinusoidal encoding learns 'the token 3 positions back', but only at the absolute positions it
was trained on (a seeded experiment)."""

from checks import Claim, Erratum
from checks.training import OFFSET, TRAINED, Budget, offset_design, offset_trial
from claims.catalog.works import LESSON_000, LESSON_001

BUDGET = Budget(steps=300)

claim = Claim(
    id="training.relative-offset",
    title="Attention learns a relative offset with the sinusoidal encoding, at the positions it was trained on",
    statement=(
        f"Trained at n = {TRAINED} to output, at every position j, the token at j − {OFFSET}, a one-layer encoder with "
        "the sinusoidal encoding is at least 0.25 more accurate than without a position encoding, both at the "
        f"positions it was trained on and at absolute positions it never saw ({TRAINED} … {2 * TRAINED - 1}), where "
        "the same relative step applies."
    ),
    sources=[
        LESSON_000.quote(
            "실행해보기: Positional Encoding 생성과 시각화", "이것이 모델이 상대적 거리를 학습할 수 있게 해줍니다!"
        ),
        LESSON_000.quote("2. 상대적 위치 표현 가능", '"3칸 뒤의 단어"라는 상대적 관계를 Attention이 학습할 수 있음'),
        LESSON_001.quote("4. Relative Position 정보", "문장에서 단어 간 거리 정보를 모델이 학습할 수 있습니다."),
    ],
    erratum=Erratum(
        severity="note",
        problem=(
            "Decided only in a one-layer model trained at length 12: it learns the offset at the positions it was "
            "trained on and not at unseen positions (the finding gives the accuracies). A toy setting cannot say "
            "whether attention in a real model generalises the offset, so this is no erratum for readers."
        ),
    ),
    expect="qualified",
)

claim.experiment(
    offset_design(
        hypothesis=f"with sinusoidal positions, accuracy on 'the token {OFFSET} back' ≥ no encoding + 0.25, at seen "
        "and at unseen absolute positions",
        treatment="sinusoidal",
        control="none",
        threshold=0.25,
        budget=BUDGET,
    )
)(offset_trial(BUDGET))
