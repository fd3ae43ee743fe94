"""Document 001 is right that "token order is reflected in attention automatically" is a misconception, unmasked."""

from checks import Claim, Erratum
from checks.rope import misconception_verdict
from checks.works import LESSON_001

claim = Claim(
    id="misconception.order-automatic",
    title="Misconception: token order is reflected in attention automatically",
    statement=(
        "The belief that attention reflects token order automatically is false for attention over all token pairs, "
        "as document 001 says: such attention is permutation-equivariant, so each word's output is the same in "
        "every order and order reaches the outputs only through an added positional encoding. Unstated condition: "
        "a causal mask does make the outputs depend on order. Verdict: the weakest of the deciding claims' verdicts, "
        "with their conditions repeated."
    ),
    sources=[LESSON_001.quote("자주 하는 오해 5개", "token 순서는 attention에서 자동 반영된다고 생각한다")],
    depends=["attention.permutation-equivariance", "attention.order-blind"],
    erratum=Erratum(
        severity="condition",
        problem=(
            "A misconception only when every word attends to every other word: with a decoder's mask, where each "
            "word sees only earlier words, order reaches the outputs with no position encoding ('I love you' and "
            "'you love I' differ by 0.316 averaged over the words)."
        ),
        wording="token 순서는 (마스크 없는) attention에서도 자동 반영된다고 생각한다",
    ),
    expect="qualified",
)
claim.derive(misconception_verdict)
