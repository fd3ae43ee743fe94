"""Document 001 is right that "PE is a learned parameter" is a misconception, for fixed (sinusoidal) encodings only."""

from checks import Claim, Erratum, Verdict
from checks.rope import misconception_verdict
from checks.training import learned_table_step
from claims.catalog.works import LESSON_000, LESSON_001

claim = Claim(
    id="misconception.pe-learned",
    title="Misconception: positional encoding is a learned parameter",
    statement=(
        "The belief that positional encoding is a learned parameter is false for the sinusoidal encoding document "
        "001 describes, as it says: PE is a fixed function of pos and i with no trainable parameter "
        "(pe.not-learned). But the list states it of positional encoding in general, and learned position "
        "embeddings (document 000: BERT 512, GPT-2 1024 positions) are trainable parameters, so it holds only "
        "under that unstated condition. Verdict: the weakest of the deciding claims' verdicts, "
        "qualified by that condition."
    ),
    sources=[
        LESSON_001.quote("자주 하는 오해 5개", "positional encoding은 학습되는 파라미터라고 생각한다"),
        LESSON_000.quote(
            "Sinusoidal vs 학습 가능한 위치 임베딩", "학습 가능한 위치 임베딩 (Learned Positional Embedding):"
        ),
        LESSON_001.quote("2. Sinusoidal Positional Encoding", "positional encoding은 학습 파라미터가 아닙니다."),
    ],
    depends=["pe.not-learned"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "A misconception only for fixed encodings such as the sinusoidal one: learned position embeddings, "
            "which document 000 itself describes (BERT, GPT-2), are trained parameters ({trainable_parameters:,} in "
            "a BERT-base-sized table, and one training step moves them)."
        ),
        reader_problem=(
            "사인 함수 방식처럼 고정된 인코딩에서만 오해입니다. 문서 000도 소개하는 학습형 위치 임베딩(BERT, "
            "GPT-2)은 학습되는 파라미터입니다(BERT-base 크기의 표에 {trainable_parameters:,}개가 있고, 한 번의 "
            "학습 단계로 값이 바뀝니다)."
        ),
        wording=(
            "sin/cos positional encoding을 학습되는 파라미터라고 생각한다 (BERT·GPT-2의 학습 가능한 위치 임베딩은 "
            "실제로 학습되는 파라미터다)"
        ),
        sentence="positional encoding은 학습되는 파라미터라고 생각한다",
        also={
            "positional encoding은 학습 파라미터가 아닙니다.": (
                "sin/cos positional encoding은 학습 파라미터가 아니라 식으로 계산되는 고정값입니다 (BERT·GPT-2처럼 "
                "위치 임베딩을 학습하는 방식도 있습니다)."
            )
        },
    ),
    expect="qualified",
)

POSITIONS, WIDTH = 512, 768
"""A BERT-base-sized learned position table, as document 000 describes it."""


@claim.derive
def _(r, dependencies):
    verdict = misconception_verdict(r, dependencies)
    trainable, moved = learned_table_step(POSITIONS, WIDTH)
    r.measure("learned position table (512 × 768): trainable parameters", trainable)
    r.measure("largest change after one SGD step", moved)
    if trainable and moved > 0:
        r.condition(
            "only for fixed encodings such as the sinusoidal one: a learned position embedding (document 000's "
            f"'학습 가능한 위치 임베딩', here {POSITIONS} × {WIDTH} as in BERT-base) has {trainable:,} trainable "
            f"parameters, and one SGD step moves them (by up to {moved:.3g})",
            trainable_parameters=trainable,
            change_after_one_step=moved,
        )
        return Verdict.QUALIFIED if verdict in (Verdict.PROVED, Verdict.HOLDS) else verdict
    return verdict
