"""'Attention can learn "3 words back"' from the shift identity: the identity is PE's; in the score of X = E + P,
content and position mix, as document 002 states."""

from checks import Claim, Erratum
from checks.rope import qualified_where
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

LEARNABLE = '"3칸 뒤의 단어"라는 상대적 관계를 Attention이 학습할 수 있음'
DISTANCE_001 = "문장에서 단어 간 거리 정보를 모델이 학습할 수 있습니다."
MIXED = (
    "그러면 어텐션 점수 $q\\cdot k$를 계산할 때 단어 내용과 위치가 뒤섞여, “거리만 본다”는 성질이 그대로 남지 않습니다."
)

claim = Claim(
    id="pe.relative-in-scores",
    title="The shift identity is PE's own: the score of X = E + P does not depend on the distance alone",
    statement=(
        "Document 000 infers from PE(pos + k) = M_k PE(pos) that attention can learn a relation such as '3 words "
        "back'. The identity holds for PE alone; once PE is added to the embeddings, the score (x_m + PE(m))ᵀ A "
        "(x_n + PE(n)) has content·position terms that change when both positions shift "
        "(rope.additive-pe-not-relative, proved), as document 002 says; even the PE·PE term pᵀ_m W_Qᵀ W_K p_n is "
        "distance-only only where W_Qᵀ W_K commutes with the rotations (W_Q = W_K = I: cos ω(n − m))."
    ),
    sources=[
        LESSON_000.quote("2. 상대적 위치 표현 가능", LEARNABLE),
        LESSON_001.quote("4. Relative Position 정보", DISTANCE_001),
        LESSON_002.quote("8. 그다음: RoPE", MIXED),
    ],
    depends=["rope.additive-pe-not-relative"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "The shift identity is PE's own: after X = E + P and the projections W_Q, W_K the score mixes content "
            "and position and does not depend on the distance alone (rope.additive-pe-not-relative), as document 002 "
            "states."
        ),
        reader_problem=(
            "PE(pos + k) = M_k PE(pos)는 PE만의 성질입니다. 임베딩에 더한 뒤 W_Q, W_K를 거친 점수 q·k에는 내용과 "
            "위치가 섞여, 점수가 거리만으로 정해지지 않습니다(002의 8절이 말하는 점입니다). Attention이 이 관계를 배울 "
            "재료는 있지만, 점수가 곧 거리를 보는 것은 아닙니다."
        ),
        wording=(
            '"3칸 뒤의 단어"라는 상대적 관계를 Attention이 학습할 재료가 됨 (다만 임베딩에 더해진 뒤에는 단어 내용과 '
            "위치가 섞여, 어텐션 점수가 거리만으로 정해지지는 않음)"
        ),
        sentence=LEARNABLE,
        stated_by=MIXED,
        also={
            DISTANCE_001: (
                "문장에서 단어 간 거리 정보를 모델이 학습할 재료가 됩니다(다만 임베딩에 더한 뒤의 점수는 거리만으로 "
                "정해지지 않습니다)."
            )
        },
    ),
    expect="qualified",
)


claim.derive(
    qualified_where(
        "rope.additive-pe-not-relative",
        "the score of X = E + P mixes content and position: not distance-only, though PE's shift is",
    )
)
