"""Document 001's notation calls i the embedding's dimension index; its formulas use i as the pair index."""

import re

import sympy as sp

from checks import Claim, Erratum
from checks.written import expression, parse, review_document, uses
from claims.catalog.works import LESSON_001

SECTION = "2. Sinusoidal Positional Encoding"
D = 512
"""A d at which the two readings of i are compared (document 000's example)."""
claim = Claim(
    id="notation.pe-index-role",
    title="'i : embedding 차원 index' needs its range: the formulas index dimensions by 2i and 2i+1",
    statement=(
        "Document 001 defines i as the embedding's dimension index and gives no range; its formulas give PE the "
        "dimensions 2i (sin) and 2i+1 (cos). Read as a dimension index (i = 0 … d − 1), i names dimensions up to "
        "2d − 1 and exponents 2i/d up to 2; only i = 0 … d/2 − 1, the index of a sin/cos pair, names each of the "
        "d dimensions once."
    ),
    sources=[
        LESSON_001.quote("기호 의미", "pos : 토큰 위치"),
        LESSON_001.quote("기호 의미", "i : embedding 차원 index"),
        LESSON_001.quote("기호 의미", "d : embedding dimension"),
    ],
    erratum=Erratum(
        severity="notation",
        sentence="i : embedding 차원 index",
        problem=(
            "i is the index of a sin/cos pair, not of a dimension: the formulas put sin in dimension 2i and cos in "
            "dimension 2i+1, so i runs over 0 … d/2 − 1. Read as a dimension index, i reaches dimension "
            "{largest_dimension} at d = {d} and the exponent 2i/d reaches {largest_exponent:.3f}."
        ),
        reader_problem=(
            "i는 차원의 번호가 아니라 sin/cos 쌍의 번호입니다. 공식은 sin을 2i번 차원에, cos를 2i+1번 차원에 "
            "두므로 i는 0부터 d/2 − 1까지입니다. i를 차원 번호로 읽으면 d = {d}에서 {largest_dimension}번 "
            "차원까지 가고, 지수 2i/d는 {largest_exponent:.3f}까지 커집니다."
        ),
        wording="i : 차원 쌍의 index (0 ≤ i < d/2, 2i번 차원은 sin, 2i+1번 차원은 cos)",
        point="pair-index",
    ),
    expect="qualified",
)


@claim.probe
def formulas_as_written(r):
    """The dimensions 001's formulas name with i over 0 … d − 1 (the notation's word) and over 0 … d/2 − 1."""
    found = [u for u in uses(review_document(LESSON_001.name), "PE", 1) if u.argument.free_symbols == {sp.Symbol("i")}]
    r.measure(
        "formulas that give PE a dimension in i (line, argument, read from a checked correction)",
        [(u.line, str(u.argument), u.corrected) for u in found],
    )
    if not found:
        r.counterexample("no formula of document 001 gives PE a dimension in i: nothing to check the notation against")
        return
    i = sp.Symbol("i")
    as_pairs = sorted({int(u.argument.subs(i, v)) for u in found for v in range(D // 2)})
    as_dimensions = sorted({int(u.argument.subs(i, v)) for u in found for v in range(D)})
    r.measure(
        f"dimensions named at d = {D}, i = 0 … {D // 2 - 1}", f"{len(as_pairs)}, from {as_pairs[0]} to {as_pairs[-1]}"
    )
    r.measure(f"dimensions named at d = {D}, i = 0 … {D - 1}", f"{len(as_dimensions)}, up to {as_dimensions[-1]}")
    if as_pairs == list(range(D)) and as_dimensions[-1] >= D:
        r.condition(
            f"i must run over 0 … d/2 − 1 (the pair index): over the d dimensions it names dimension "
            f"{as_dimensions[-1]} at d = {D}",
            largest_dimension=as_dimensions[-1],
            d=D,
            largest_exponent=float(2 * (D - 1) / D),
        )
    elif as_pairs != list(range(D)):
        r.counterexample(f"with i = 0 … d/2 − 1 the formulas do not name each dimension once at d = {D}")


@claim.corrected
def range_names_every_dimension_once(sentence, wording):
    """The range the wording gives i (``0 ≤ i < d/2``), read by the grammar, makes 2i and 2i+1 name d dimensions."""
    found = re.search(r"[0-9][^,)]*i[^,)]*", wording)
    assert found, "the wording gives i no range"
    ((sides, signs),) = parse(found.group(0), latex=False).relations
    low, high = (expression(sides[0]), expression(sides[-1]).subs(sp.Symbol("d"), D))
    last = int(high) - (1 if signs[-1] == "<" else 0)
    patterns = [u.argument for u in uses(review_document(LESSON_001.name), "PE", 1)]
    named = sorted(int(p.subs(sp.Symbol("i"), v)) for p in patterns for v in range(int(low), last + 1))
    assert named == list(range(D)), f"with i = {low} … {last} the formulas name {len(named)} dimensions at d = {D}"
