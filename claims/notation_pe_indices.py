"""Document 000's notation: i runs over 0 … d_model/2 − 1, so 2i and 2i+1 name every dimension once."""

import re

import sympy as sp

from checks import Claim, Erratum
from checks.formulas import d_model, i
from checks.written import expression, parse, review_document, uses
from claims.catalog.works import LESSON_000

SECTION = "수학적 공식"
RANGE = "$d_{\\text{model}}/2 - 1$"
"""The last value of i as the notation line writes it."""
CODE_SECTION = "실행해보기: Positional Encoding 생성과 시각화"
HEATMAP_AXIS = 'ax1.set_xlabel("Dimension (i)")'
"""The heat map's column axis runs over every dimension 0 … d_model − 1 (2i and 2i + 1), and the code calls it i."""
EXAMPLE = 512
"""'임베딩 차원 (예: 512)'."""
claim = Claim(
    id="notation.pe-indices",
    title="The notation's range for i makes 2i and 2i+1 name every dimension exactly once",
    statement=(
        "With pos = 0, 1, 2, … and i = 0, 1, …, d_model/2 − 1 as the notation lines define them, the formulas' "
        "dimension arguments 2i (sin) and 2i+1 (cos) name each of the d_model dimensions 0 … d_model − 1 exactly "
        "once, for every even d_model (512 in the document's example); every formula of the document that gives "
        "PE its dimension uses i so."
    ),
    sources=[
        LESSON_000.quote(SECTION, "• •$\\text{pos}$: 단어의 위치 (0, 1, 2, 3, ...)"),
        LESSON_000.quote(SECTION, "• •$i$: 차원 인덱스 (0, 1, 2, ..., $d_{\\text{model}}/2 - 1$)"),
        LESSON_000.quote(SECTION, "• •$d_{\\text{model}}$: 임베딩 차원 (예: 512)"),
        LESSON_000.quote(CODE_SECTION, HEATMAP_AXIS),
    ],
    erratum=Erratum(
        severity="notation",
        sentence="• •$i$: 차원 인덱스 (0, 1, 2, ..., $d_{\\text{model}}/2 - 1$)",
        problem=(
            "i is the index of a sin/cos pair (the formulas put sin in dimension 2i and cos in 2i+1, and the range "
            "stops at d_model/2 − 1), but the line calls it the dimension index, and the document's code uses i for "
            "the even dimension itself ({code_exponent}, i = {code_values}): a reader meets two meanings of i."
        ),
        reader_problem=(
            "i는 sin/cos 쌍의 번호입니다(공식은 sin을 2i번, cos를 2i+1번 차원에 두고, 범위도 d_model/2 − 1에서 "
            "끝납니다). 그런데 이 줄은 i를 차원 인덱스라고 부르고, 문서의 코드는 i를 짝수 차원 번호 자체로 "
            "씁니다({code_exponent}, i = {code_values}). 독자는 i의 두 가지 뜻을 만나게 됩니다."
        ),
        wording=(
            "• $i$: sin·cos 쌍의 인덱스 (0, 1, 2, ..., $d_{{\\text{{model}}}}/2 - 1$). 2i번 차원은 sin, 2i+1번 차원은 "
            "cos입니다. 아래 코드의 변수 i는 짝수 차원 번호(공식의 2i)입니다."
        ),
        point="pair-index",
        also={HEATMAP_AXIS: 'ax1.set_xlabel("Dimension (even: sin, odd: cos)")'},
    ),
    expect="qualified",
)
CODE_LOOP = re.compile(r"for (\w+) in range\(0, d_model, (\d+)\):")
CODE_EXPONENT = re.compile(r"10000 \*\* \((\w+) / d_model\)")


def last_index() -> sp.Expr:
    """The notation line's last i, read from the document's LaTeX by the grammar (checks.written)."""
    ((sides, _),) = parse(RANGE.strip("$")).relations
    return expression(sides[0]).subs(sp.Symbol("d_model"), d_model)


@claim.proof
def _(p):
    p.assume("d_model is even (the notation's last i, d_model/2 − 1, is a whole number)")
    last = last_index()
    p.decide(2 * i.subs(i, 0), 0, label="the first dimension named: 2i at i = 0 is 0")
    p.decide(2 * last + 1, d_model - 1, label="the last dimension named: 2i+1 at the last i is d_model − 1")
    p.decide(2 * (last + 1), d_model, label="2 dimensions per value of i, d_model/2 values: d_model names in all")
    p.decide(sp.Mod(2 * i + 1 - 2 * i, 2), 1, label="2i is even and 2i+1 odd: no dimension is named twice")


@claim.probe
def formulas_as_written(r):
    """Every PE(·, dimension) the document writes, with i over the notation's range at d_model = 512."""
    found = uses(review_document(LESSON_000.name), "PE", 1)
    last = int(last_index().subs(d_model, EXAMPLE))
    named: dict[str, list[int]] = {}
    for use in found:
        if use.argument.free_symbols != {sp.Symbol("i")}:
            continue
        named[f"line {use.line}: {use.formula}"] = sorted(
            {int(use.argument.subs(sp.Symbol("i"), v)) for v in range(last + 1)}
        )
    r.measure("formulas that give PE a dimension in i (line: formula)", sorted(named))
    covered = sorted({d for dims in named.values() for d in dims})
    r.measure(f"dimensions named at d_model = {EXAMPLE}, i = 0 … {last}", f"{len(covered)} of {EXAMPLE}")
    beyond = {key: max(dims) for key, dims in named.items() if max(dims) >= EXAMPLE}
    if covered != list(range(EXAMPLE)) or beyond:
        r.counterexample(
            f"with i = 0 … {last}, the formulas name dimensions beyond d_model − 1 or leave some out",
            beyond=beyond,
            covered=len(covered),
        )


@claim.probe
def code_index(r):
    """What i means in the document's numpy code: its loop variable's step and its exponent."""
    text = LESSON_000.text()
    loop, exponent = CODE_LOOP.search(text), CODE_EXPONENT.search(text)
    if loop is None or exponent is None:
        r.counterexample("the document's code has no loop over d_model with an exponent i / d_model to compare")
        return
    r.measure("code: loop variable, step; exponent", (loop.group(1), int(loop.group(2)), exponent.group(0)))
    if loop.group(1) == exponent.group(1) == "i" and int(loop.group(2)) == 2:
        r.condition(
            "the code's i runs 0, 2, 4, … (the even dimension) with exponent i / d_model, where the formulas' i runs "
            "0, 1, 2, … with exponent 2i / d_model: the same frequencies, two meanings of i",
            code_exponent=exponent.group(0),
            code_values="0, 2, 4, …",
        )
