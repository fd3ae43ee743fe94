"""Document 001 is right that "a Transformer always costs fewer operations than an RNN" is a misconception."""

from checks import Claim
from checks.rope import misconception_verdict
from claims.catalog.works import LESSON_001

claim = Claim(
    id="misconception.always-cheaper",
    title="Misconception: a Transformer always costs less computation than an RNN",
    statement=(
        "The belief that a Transformer always needs fewer operations than an RNN is false, as document 001 says: "
        "self-attention costs O(n²·d) against an RNN's O(n·d²), so past a crossover sequence length n attention "
        "costs more, not less. Verdict: the weakest of the deciding claims' verdicts "
        "(the belief is false only as far as they show); proved or holds means it is indeed a misconception."
    ),
    sources=[LESSON_001.quote("자주 하는 오해 5개", "Transformer는 항상 RNN보다 계산량이 적다고 생각한다")],
    depends=["attention.not-always-cheaper"],
    expect="proved",
)
claim.derive(misconception_verdict)
