"""Trained at one length, tested at 2× and 4×: RoPE's 'very good' length generalization and the sinusoidal
encoding's degradation far beyond the training range (seeded experiments)."""

from checks import Claim, Erratum
from checks.rope import qualified_where
from checks.training import AT_TRAINED, MODEL, TRAINED, Budget, encoder_design, length_trial
from claims.catalog.works import LESSON_000

BUDGET = Budget(steps=150)
LONGER = "at the longer length"
TASK = f"which_first (is token 0 before token 1?) trained at n = {TRAINED}, tested on fresh sequences of each length"

rope = Claim(
    id="training.rope-length-generalization",
    title="RoPE does not generalize to longer inputs here: a model trained at length 12 loses accuracy at 4×",
    statement=(
        f"A one-layer encoder with RoPE trained on an order task at n = {TRAINED} loses at most 0.05 of its held-out "
        "accuracy when tested at twice and at four times that length."
    ),
    sources=[LESSON_000.quote("Sinusoidal vs 학습 가능한 위치 임베딩", "길이 일반화 성능이 매우 좋음")],
    erratum=Erratum(
        severity="error",
        problem=(
            "Not borne out: RoPE alone does not keep its accuracy past the training length; long-context models "
            "extend it only with changes such as position interpolation (Chen et al. 2023), and a one-layer RoPE "
            "model trained at length 12 here loses accuracy at 4× the length (the finding gives the drop and its "
            "interval)."
        ),
        reader_problem=(
            "실험으로 뒷받침되지 않습니다. RoPE만으로는 학습 길이를 넘어서 정확도가 유지되지 않습니다. 긴 문맥 "
            "모델은 position interpolation(Chen et al. 2023) 같은 변경을 더해서야 길이를 늘립니다. 여기서 길이 "
            "12로 학습한 1층 RoPE 모델도 4배 길이에서 정확도가 떨어집니다(떨어진 폭과 구간은 발견 사항에 "
            "있습니다)."
        ),
        wording="학습 때보다 긴 입력에서는 성능이 떨어지기 쉬움 (긴 문맥에 쓰려면 위치 보간 같은 보정이 필요함)",
    ),
    expect="refuted",
)
rope.experiment(
    encoder_design(
        hypothesis="RoPE's accuracy at 2L and 4L is at most 0.05 below its accuracy at the training length L",
        task=TASK,
        models=f"{MODEL}; RoPE rotates each head's queries and keys (interleaved pairs, base 10000)",
        treatment=LONGER,
        control=AT_TRAINED,
        threshold=-0.05,
        budget=BUDGET,
        regimes=[f"2L (n = {2 * TRAINED})", f"4L (n = {4 * TRAINED})"],
    )
)(length_trial("rope", BUDGET))

sinusoidal = Claim(
    id="training.sinusoidal-extrapolation-degrades",
    title="The sinusoidal encoding's performance degrades far beyond the training range",
    statement=(
        f"A one-layer encoder with the sinusoidal encoding trained on an order task at n = {TRAINED} is at least 0.05 "
        "less accurate when tested at four times that length, although the encoding is defined at every position."
    ),
    sources=[LESSON_000.quote("3. 길이 일반화 가능", "다만 성능은 학습 범위를 크게 벗어나면 저하될 수 있음")],
    expect="holds",
)
sinusoidal.experiment(
    encoder_design(
        hypothesis="sinusoidal accuracy at the training length exceeds its accuracy at 4L by at least 0.05",
        task=TASK,
        treatment=AT_TRAINED,
        control=LONGER,
        threshold=0.05,
        budget=BUDGET,
        regimes=[f"4L (n = {4 * TRAINED})"],
    )
)(length_trial("sinusoidal", BUDGET))


heading = Claim(
    id="training.sinusoidal-length-generalization",
    title="'Length generalization': the encoding extends to any position, the model's accuracy does not",
    statement=(
        "The heading '3. 길이 일반화 가능' promises that a model generalizes to longer inputs. What extends is the "
        "formula (PE is defined at every position); a model trained with it at n = 12 is less accurate at four times "
        "that length (training.sinusoidal-extrapolation-degrades)."
    ),
    sources=[LESSON_000.quote("3. 길이 일반화 가능", "3. 길이 일반화 가능")],
    depends=["training.sinusoidal-extrapolation-degrades"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The heading reads as 'the model works on longer inputs'; the formula can be computed at any position, "
            "but a model trained with it at length 12 loses accuracy at 4× that length (from "
            "training.sinusoidal-extrapolation-degrades), as the section's own last line says."
        ),
        reader_problem=(
            "이 제목은 모델이 더 긴 문장에서도 잘 동작한다는 뜻으로 읽힙니다. 공식은 어떤 위치에서도 계산되지만, "
            "여기서 길이 12로 학습한 모델은 4배 길이에서 정확도가 떨어집니다(발견 사항). 이 절의 마지막 줄도 "
            "성능이 저하될 수 있다고 말합니다. 늘어나는 것은 계산할 수 있는 위치이지 성능이 아닙니다."
        ),
        wording="3. 학습 길이를 넘는 위치도 계산 가능",
    ),
    expect="qualified",
)


heading.derive(
    qualified_where(
        "training.sinusoidal-extrapolation-degrades",
        "the formula extends to every position; a model trained with it loses accuracy at 4× the length",
    )
)
