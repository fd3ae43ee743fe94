"""A document's notation and its examples, read by the suite (issue 62, items 4 and 6): symbol lists against their
formulas, one letter with two meanings, subscripts run into the next symbol, and word-order examples whose grammar
fixes the roles. Each is found in the lessons where it is, and not in documents this project did not write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import checks.written as written
from checks.documents.sources import document_text
from checks.written.examples import examples, rewritten
from checks.written.notation import findings, symbols

LESSON_000, LESSON_001, LESSON_002 = "000_1100ff0056b332e7.txt", "001_53050abb35828e70.txt", "002_86fa32f25d4c4c54.txt"
OUTSIDE = [Path(__file__).resolve().parent / name for name in ("formula_corpus", "notation_corpus")]
OUTSIDE_DOCUMENTS = [
    p for folder in OUTSIDE if folder.exists() for p in sorted(folder.iterdir()) if p.suffix in (".md", ".tex", ".txt")
]


def notation_of(name: str, text: str | None = None) -> list:
    text = document_text(name) if text is None else text
    return findings(text, written.review_text(name, text, written.code_lines(name)))


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        (r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}(QK^\top / \sqrt{d_k}) V", {"Q", "K", "V", "d_k"}),
        (
            r"\text{PE}(\text{pos}, 2i) = \sin\left(\frac{\text{pos}}{10000^{2i/d_{\text{model}}}}\right)",
            {"pos", "i", "d_model"},
        ),
        (r"\theta = \omega_i \cdot pos", {"θ", "ω_i", "pos"}),
        ("PE(pos, 2i) = sin(pos / 10000^(2i/d_model))", {"pos", "i", "d_model"}),
    ],
)
def test_the_symbols_of_a_formula(formula, expected):
    assert symbols(formula) == expected


def test_a_symbol_list_that_leaves_out_a_symbol_of_its_formula_and_describes_another():
    (found,) = [f for f in notation_of(LESSON_001) if f.kind == "symbol list"]
    assert found.places[0].line == 116
    assert "d_k는 설명하지 않고" in found.korean and "n은 145행 'O(n²)'에서 쓰입니다" in found.korean
    assert found.places[0].wording.splitlines() == [
        "Q,K,V : query, key, value 행렬",
        "n : 시퀀스 길이(토큰 개수), 아래 O(n²)의 n",
        "d_k : query·key 벡터의 차원 (점수를 √d_k로 나눔)",
    ]


def test_a_list_that_describes_its_formula_is_not_a_finding():
    assert "symbol list" not in [f.kind for f in notation_of(LESSON_000)], "its symbol list describes its formula"
    text = "$$y = W x + b$$\n\n- $W$: the weights\n- $x$: the input\n- $b$: the bias\n"
    assert notation_of("layer.md", text) == []


def test_a_list_that_describes_a_symbol_no_line_uses_drops_it():
    text = "$$y = W x + b$$\n\n- $W$: the weights\n- $x$: the input\n- $b$: the bias\n- $z$: the output\n"
    (found,) = notation_of("layer.md", text)
    assert "z" in found.english and "never uses" in found.english
    assert "$z$" not in found.places[0].wording


def test_one_letter_a_number_in_one_formula_and_a_vector_in_another():
    found = [f for f in notation_of(LESSON_002) if f.kind == "two meanings"]
    (k,) = found
    assert [p.line for p in k.places] == [155, 157] and k.formula_line == 157
    assert "81, 93, 109행" in k.korean and "\\mathbf{k}" in k.places[1].wording and "\\mathbf{q}" in k.places[0].wording
    assert "θ가 65행에서는 ω_i · pos" in k.korean and "R(m\\omega_i)" in k.places[1].wording, "θ: an angle, then a rate"
    text = "$$\\cos(\\omega k)$$\n\nand the score $q^\\top k$.\n"
    assert [f.kind for f in notation_of("rope.md", text)] == ["two meanings"]
    assert notation_of("rope.md", "$$\\cos(\\omega k)$$\n\nand the score $q^\\top v$.\n") == []


def test_an_angle_then_a_rate_alone_is_rewritten_too():
    """θ defined with pos, then multiplied by a position, in a document where no letter is also a vector."""
    text = "$$\\theta = \\omega \\cdot pos$$\n\nThen $R(m\\theta)$ turns by m steps.\n"
    (found,) = [f for f in notation_of("a.md", text) if f.kind != "undefined operator"]
    assert found.kind == "two meanings" and found.places[0].wording == "$R(m\\omega)$"


def test_a_subscript_run_into_the_next_symbol_in_plain_text():
    (run_on,) = [f for f in notation_of(LESSON_002) if f.kind == "run-on subscript"]
    assert (
        run_on.places[0].line == 71 and "ω_i·k" in run_on.places[0].wording and "ω_ik" not in run_on.places[0].wording
    )
    assert notation_of("a.md", "$\\omega_i$ and $k$; W_QK is the product of $W_Q$ and $K$.\n") != []
    assert notation_of("a.md", "$\\omega_i$ and $k$; d_model is the width.\n") == []


def test_a_name_whose_subscript_omits_an_index_its_value_depends_on():
    (omitted,) = [f for f in notation_of(LESSON_002) if f.kind == "omitted index"]
    assert omitted.places[0].line == 81 and "_{M_k^{(i)}" in omitted.places[0].wording and "ω_i가" in omitted.korean
    said = omitted.places[1]
    assert said.text == "M_k는 k에만 달려 있습니다." and said.wording.startswith("모든 i의 M_k^(i)를 대각선에 모은")
    named = "$$\\underbrace{\\begin{pmatrix}a_k\\end{pmatrix}}_{A_k}$$\n"
    assert [f for f in notation_of("a.md", named) if f.kind == "omitted index"] == []


def test_a_function_name_without_its_backslash_where_the_document_writes_it_with_one():
    (bare,) = [f for f in notation_of(LESSON_000) if f.kind == "bare function"]
    assert [p.line for p in bare.places] == [307, 309] and "\\sin(pos" in bare.places[0].wording
    assert notation_of("paper.tex", "$PE = sin(pos)$ and $PE' = cos(pos)$\n") == [], "consistent: the paper's choice"


def test_a_direction_word_against_the_documents_own_for_the_same_shift():
    (direction,) = [f for f in notation_of(LESSON_002) if f.kind == "direction"]
    assert direction.places[0].line == 81 and "“3칸 뒤 단어”" in direction.places[0].wording
    assert "'3칸 앞'은" in direction.korean and "5, 75, 95행" in direction.korean
    both = "k칸 앞으로 가면 pos - k입니다.\n\nk칸 뒤로 가면 pos + k입니다.\n"
    assert [f for f in notation_of("a.txt", both) if f.kind == "direction"] == [], "as many each way: no finding"


def test_an_example_whose_grammar_fixes_the_roles_does_not_show_word_order():
    (english,) = examples(document_text(LESSON_001))
    assert (english.first, english.last, english.language) == (21, 22, "en") and "'I'" in english.korean
    assert rewritten(english, document_text(LESSON_001).splitlines()) == "dog bites man\nman bites dog"
    korean = examples(document_text(LESSON_000))
    assert [(e.first, e.language) for e in korean] == [(29, "ko"), (39, "ko")] and "사람: 주어" in korean[0].korean
    assert examples(document_text(LESSON_002)) == [], "'dog bites man' / 'man bites dog': only the order says who"
    assert (
        examples('"him saw she" and "she saw him"') != []
        and examples('"the cat saw a dog" / "a dog saw the cat"') == []
    )


def test_an_operator_applied_but_never_defined():
    """R(mθ) in lesson 002's RoPE formula: no formula and no sentence says what R is; the sentence beside it calls
    it a rotation, so the wording adds the rotation's definition."""
    (undefined,) = [f for f in notation_of(LESSON_002) if f.kind == "undefined operator"]
    assert undefined.formula_line == 157 and "R(·)은" in undefined.korean
    wording = undefined.places[0].wording
    assert wording.startswith("여기서 $R(\\alpha)=\\begin{pmatrix}\\cos\\alpha & \\sin\\alpha\\\\ -\\sin"), "as M_k is"
    assert "(5절의 $M_k^{(i)}$와 같은 꼴)" in wording and "$\\mathbf{q}$, $\\mathbf{k}$는 2차원 쌍 하나" in wording
    used = "$$R(m\\theta)q \\cdot R(n\\theta)k = q^\\top R((n-m)\\theta) k$$ The rotation keeps the distance.\n"
    (alone,) = notation_of("rope.md", used)
    assert alone.places[0].wording.startswith("Here R(·) is the matrix that rotates a 2-vector by the angle")
    assert "-\\sin\\alpha\\\\ \\sin" in alone.places[0].wording, "the usual rotation where the document writes none"
    named = used + "\nwhere $R(\\alpha)$ is the matrix that rotates by $\\alpha$.\n"
    defined = "$$R(\\alpha) = \\begin{pmatrix}\\cos\\alpha & -\\sin\\alpha\\end{pmatrix}$$\n" + used
    unnamed = (
        "$$\\begin{pmatrix}\\cos a & \\sin a\\\\ -\\sin a & \\cos a\\end{pmatrix}$$\n\n"
        "$$R(m\\theta)\\,q \\cdot R(n\\theta)\\,k = q^\\top R((n-m)\\theta) k$$ 회전 행렬끼리는 각도가 합쳐집니다.\n"
    )
    (own,) = [f for f in notation_of("a.txt", unnamed) if f.kind == "undefined operator"]
    assert "(앞의 회전 행렬과 같은 꼴)" in own.places[0].wording, "an unnamed rotation, in no numbered part"
    landau = "Attention costs $O(n^2 d)$ time.\n"
    assert [notation_of("rope.md", t) for t in (named, defined, landau)] == [[], [], []]


def test_a_sum_said_as_appending():
    """Lesson 001 line 84: '추가됩니다' (appended) two lines above 'embedding + position'. Sentences that weigh
    the two ('instead of adding or concatenating', stevengong.co's RoPE note) or deny appending are not findings,
    nor is a document that concatenates."""
    (appended,) = [f for f in notation_of(LESSON_001) if f.kind == "appended, not added"]
    assert (
        appended.places[0].line == 84 and appended.places[0].wording == "각 위치에 고유한 encoding 벡터가 더해집니다."
    )
    assert "86행의 식(embedding + position)" in appended.korean
    said = "The position vector is appended to the embedding.\n\nx = embedding + position\n"
    assert notation_of("a.md", said)[0].places[0].wording == "The position vector is added to the embedding."
    weighed = "Instead of adding or concatenating, RoPE rotates the vectors.\n\nx = embedding + position\n"
    concatenating = said + "\ny = torch.cat([embedding, position], dim=-1)\n"
    assert [notation_of("a.md", t) for t in (weighed, concatenating)] == [[], []]


def test_a_table_column_cited_for_its_change_that_never_changes():
    """Lesson 000's binary counting stops at 7, so bit3, cited as the slow bit, is 0 on every row: the wording
    continues the table to row 8. Counting to 15, as Kazemnejad's post on positional encoding does, is no
    finding."""
    (column,) = [f for f in notation_of(LESSON_000) if f.kind == "example column never changes"]
    assert column.places[0].line == 107 and "112행은 변하는 예로 bit3을 들지만" in column.korean
    assert column.places[0].wording.splitlines()[1].split() == [
        "8",
        "1",
        "0",
        "0",
        "0",
        "←",
        "bit3:",
        "8번마다",
        "변함",
    ]
    header = "pos  bit2  bit1  bit0\n"
    rows = "".join(f"{n:>3}  {n >> 2 & 1:>4}  {n >> 1 & 1:>4}  {n & 1:>4}\n" for n in range(8))
    cited = "\nHigh dimensions change slowly, like bit2.\n"
    assert notation_of("a.md", header + rows + cited) == [], "bit2 changes at 4"
    short = header + "".join(rows.splitlines(keepends=True)[:4]) + cited
    (found,) = notation_of("a.md", short)
    assert found.places[0].wording.splitlines()[-1].split() == ["4", "1", "0", "0"]


def test_an_ordinal_position_used_as_a_formulas_pos_in_a_document_that_counts_from_zero():
    """000 counts positions from 0 (line 85); its '513번째 위치의 PE(513, i)' (line 231) gives the 513th position, pos
    512, to the formula as 513. A bare ordinal ('2번째 위치', line 64) is ordinary Korean; from 1, it is pos 2."""
    (ordinal,) = [f for f in notation_of(LESSON_000) if f.kind == "ordinal position"]
    assert ordinal.places[0].line == 231 and "513번째 위치의 PE(512, i)" in ordinal.places[0].wording
    from_one = "- pos: 단어의 위치 (1, 2, 3, ...)\n\n2번째 위치의 PE(2, i)는 0.25입니다.\n"
    from_zero = from_one.replace("(1, 2, 3", "(0, 1, 2")
    assert [f.kind for f in notation_of("a.txt", from_one)] == []
    assert [f.kind for f in notation_of("a.txt", from_zero.replace("PE(2, i)", "값"))] == []
    (found,) = notation_of("a.txt", from_zero)
    assert found.places[0].wording == "2번째 위치의 PE(1, i)는 0.25입니다."


def test_going_back_k_steps_where_k_steps_back_is_the_later_position():
    """002 line 5: '“k칸 뒤로 가기”' where the lesson's 'k칸 뒤' is pos + k; where '앞' is the lesson's word for
    pos + k, '앞으로 가기' is not ambiguous and nothing is said."""
    (backward,) = [f for f in notation_of(LESSON_002) if f.kind == "backward move"]
    assert backward.places[0].line == 5 and "“k칸 뒤 위치로 가기”" in backward.places[0].wording
    later = "PE(pos + k)는 k칸 뒤입니다. 3칸 뒤 단어도 같습니다. k칸 뒤로 가면 각도가 늘어납니다.\n"
    assert [f.kind for f in notation_of("a.txt", later)] == ["backward move"]
    assert notation_of("a.txt", later.replace("뒤", "앞")) == []


def test_low_and_high_dimensions_said_by_their_place():
    """000 lines 111–112 call the dimensions of small index '낮은 차원' (read as low-dimensional); not where the
    words name a space ('낮은 차원 공간')."""
    (levels,) = [f for f in notation_of(LESSON_000) if f.kind == "dimension level"]
    assert [p.wording for p in levels.places] == [
        "• •번호가 작은 차원: 빠르게 변하는 sin/cos (bit0처럼)",
        "• •번호가 큰 차원: 느리게 변하는 sin/cos (bit3처럼)",
    ]
    assert notation_of("a.txt", "t-SNE는 데이터를 낮은 차원 공간으로 옮겨 sin 곡선처럼 보여 줍니다.\n") == []


@pytest.mark.parametrize("path", OUTSIDE_DOCUMENTS, ids=lambda p: p.name)
def test_in_documents_no_one_here_wrote_every_finding_is_one_a_careful_reader_labelled(path):
    """Precision on the outside corpora (tests/notation_corpus/labels.json, labelled by a helper who had not seen
    this code): a symbol-list finding stands on a labelled list that leaves out or adds a symbol, a two-meanings
    finding on a labelled letter, a word-order finding on a labelled example whose grammar fixes the roles."""
    labels = _labels(path)
    text = path.read_text(encoding="utf-8")
    for found in notation_of(path.name, text):
        line = found.places[0].line
        if found.kind == "symbol list":
            assert any(
                entry["lines"][0] <= line <= entry["lines"][1] and (entry["missing"] or entry["extra"])
                for entry in labels.get("lists", [])
            ), found.english
        else:
            assert any(found.english.startswith(entry["symbol"]) for entry in labels.get("two_meanings", [])), found
    labelled = [e["lines"][0] for e in labels.get("order_examples", []) if e.get("grammar_fixes_roles")]
    assert [e.first for e in examples(text)] == labelled


def _labels(path: Path) -> dict:
    labels = path.parent / "labels.json"
    return json.loads(labels.read_text(encoding="utf-8")).get(path.name, {}) if labels.exists() else {}
