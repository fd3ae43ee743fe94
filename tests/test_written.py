"""Formulas as the documents write them (issue 43): parsed by a grammar, decided, their problems said with a
correction that passes the same review."""

from __future__ import annotations

import pytest

from checks import Claim, Document, Erratum
from checks.engine.discovery import find_claim
from checks.engine.evaluate import evaluate
from checks.written import FormulaError, expression, parse, review_document, review_text, uses

LESSON_000, LESSON_001, LESSON_002 = "000_1100ff0056b332e7.txt", "001_53050abb35828e70.txt", "002_86fa32f25d4c4c54.txt"


def at(document: str, line: int):
    return [f for f in review_document(document) if f.line == line]


def test_a_command_whose_backslash_a_string_escape_ate_does_not_render_and_its_correction_restores_it():
    (formula,) = at(LESSON_000, 311)
    assert [p.kind for p in formula.problems] == ["does not render", "does not render"]
    assert "`ext{` is `\\text{`, its `\\t` read as a tab" in formula.problems[0].detail
    assert "최종, 입력" in formula.problems[1].detail
    assert formula.corrected_span == "$\\text{최종 입력} = \\text{Word Embedding} + \\text{Positional Encoding}$"


def test_an_instance_that_disagrees_with_the_documents_definition_and_notation_names_them_and_the_witness():
    (formula,) = at(LESSON_000, 231)
    assert formula.span == "PE(513, i) = sin(513 / 10000^(2i/d_model))"
    definition, notation = formula.problems
    assert definition.kind == "disagrees with its definition"
    assert "line 79" in definition.detail and "sin(513/10000^(i/d_model))" in definition.detail
    assert "d_model = 512, i = 2: -0.997511 against -0.138183" in definition.detail, "an even dimension, d_model 512"
    assert notation.kind == "disagrees with the notation"
    assert "positions count from 0 (line 85), so the 513th position is pos = 512" in notation.detail
    assert formula.correction == "PE(512, 2i) = sin(512 / 10000^(2i/d_model))"


def test_restatements_agree_with_their_definition_and_identities_are_decided():
    statuses = {f.line: f.status for f in review_document(LESSON_000)}
    assert statuses[307] == statuses[309].replace("81", "79") == "agrees with its definition (line 79)"
    two = {(f.line, f.text): f.status for f in review_document(LESSON_002)}
    holds = "holds (SymPy simplifies left − right to 0)"
    assert two[(79, "\\sin(a+b) = \\sin a\\cos b + \\cos a\\sin b")] == holds
    assert two[(138, "2\\pi/\\omega_i = 2\\pi\\cdot 10000^{2i/d_{model}}")] == holds, "ω_i's definition substituted"
    assert [s for (line, _), s in two.items() if line == 81] == [holds], "the rotation matrix identity as written"
    assert not [f for f in review_document(LESSON_002) if f.problems]


def test_a_false_identity_is_refuted_at_a_named_point():
    (formula,) = review_text("x.txt", "덧셈 정리: $\\sin(a+b) = \\sin a\\cos b - \\cos a\\sin b$\n")
    assert formula.status == "false as written"
    assert "≠" in formula.problems[0].detail and "a = 13/10" in formula.problems[0].detail
    assert formula.correction == "", "no repair is known for a wrong sign: the correction is withheld"


def test_a_brace_that_holds_only_a_parenthesis_does_not_parse_and_the_repair_is_checked():
    (formula,) = at(LESSON_001, 58)
    assert formula.problems[0].kind == "does not parse" and "column" in formula.problems[0].detail
    assert formula.corrected_span == "$\\mathrm{PE}(pos, 2i) = \\sin(pos / 10000^{2i/d})$", "given back as LaTeX"
    assert not review_text("x.txt", formula.corrected_span + "\n")[0].problems


def test_latex_outside_dollars_and_an_unmatched_dollar_are_rendering_problems():
    (attention,) = at(LESSON_001, 110)
    assert attention.problems[0].detail == "LaTeX outside $…$ is shown as typed: \\sqrt"
    (unmatched,) = [f for f in review_text("x.txt", "값은 $x + 1 입니다\n") if f.problems]
    assert unmatched.problems[0].detail.startswith("an unmatched $")


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "().__class__.__bases__", "\\input{/etc/passwd}"])
def test_the_grammar_reads_text_and_never_runs_it(text):
    with pytest.raises(FormulaError):
        parse(text)


def test_a_runaway_span_is_refused_by_its_length_not_parsed():
    with pytest.raises(FormulaError, match="longer than a formula is read"):
        parse("x + " * 1000 + "1")


def test_meaning_is_built_from_the_tree():
    ((sides, signs),) = parse("\\frac{pos}{10000^{2i/d_{\\text{model}}}}").relations
    assert str(expression(sides[0])) == "pos/10000**(2*i/d_model)" and signs == ()


def test_notation_is_checked_against_the_formulas_that_use_its_symbols():
    found = uses(review_document(LESSON_001), "PE", 1)
    assert [(u.line, str(u.argument), u.corrected) for u in found] == [(58, "2*i", True), (60, "2*i + 1", True)]


def _claim_correcting(wording: str) -> Claim:
    claim = Claim(
        id="written.corrected",
        title="t",
        statement="s",
        sources=[
            Document(LESSON_002).quote("위치 인코딩 — sin과 cos를 함께 쓰는 이유", "어텐션은 단어 순서를 모릅니다.")
        ],
        expect="qualified",
        erratum=Erratum("condition", "a condition", wording),
    )

    @claim.probe
    def _(r):
        r.condition("only when every word sees every other")

    return claim


def test_a_correction_is_checked_on_the_corrected_document_and_withheld_when_it_fails():
    kept = evaluate(_claim_correcting("모든 단어가 서로를 보는 셀프 어텐션은 단어 순서를 모릅니다."))
    assert kept.erratum is not None and not kept.errors
    broken_formula = evaluate(_claim_correcting("어텐션은 $ext{{단어 순서}}$를 모릅니다."))
    assert broken_formula.erratum is None and broken_formula.observed.value == "broken"
    assert any("erratum withheld: its wording" in e and "does not render" in e for e in broken_formula.errors)

    rechecked = _claim_correcting("모든 단어가 서로를 보는 셀프 어텐션은 단어 순서를 모릅니다.")

    @rechecked.corrected
    def names_the_condition(sentence, wording):
        assert "마스크" in wording, "the wording does not name the mask"

    withheld = evaluate(rechecked)
    assert withheld.erratum is None
    assert any("fails names_the_condition: the wording does not name the mask" in e for e in withheld.errors)

    crashing = _claim_correcting("모든 단어가 서로를 보는 셀프 어텐션은 단어 순서를 모릅니다.")

    @crashing.corrected
    def reads_a_number(sentence, wording):
        return int(wording)

    crashed = evaluate(crashing)
    assert crashed.observed.value == "broken" and crashed.erratum is None
    assert any("reads_a_number raised ValueError on its wording" in e for e in crashed.errors)


def test_the_catalogs_corrections_pass_their_own_checks_and_a_wrong_one_does_not():
    vectors = find_claim("pe.example-vectors")
    (check,) = vectors.rechecks
    heading = "3. Positional Encoding 더하기:"
    check(
        heading,
        "3. Positional Encoding 더하기 (d_model = 4로 계산한 값. d_model = 64라면 위치1은 [0.84, 0.54, 0.68, ...]):",
    )
    with pytest.raises(AssertionError, match="at d_model = 64 rounds to"):
        check(
            heading,
            "3. Positional Encoding 더하기 (d_model = 4로 계산한 값. d_model = 64라면 위치1은 [0.84, 0.54, 0.01]):",
        )
    (notation,) = find_claim("notation.pe-index-role").rechecks
    notation("i : embedding 차원 index", "i : 차원 쌍의 index (0 ≤ i < d/2, 2i번째 차원은 sin, 2i+1번째 차원은 cos)")
    with pytest.raises(AssertionError, match="name 1024 dimensions"):
        notation("i : embedding 차원 index", "i : 차원 index (0 ≤ i < d)")
    (word_order,) = find_claim("language.korean-word-order").rechecks
    word_order("A", 'A: "dog bites man" (개가 사람을 물었다) B: "man bites dog" (사람이 개를 물었다)')
    with pytest.raises(AssertionError, match="still keeps the roles"):
        word_order("A", 'A: "사람이 개를 물었다" B: "개를 사람이 물었다"')


PAPER_PROSE = (
    "We compute the dot products of the query with all keys, divide each by √d_k, and apply a softmax.\n\n"
    "MultiHead(Q, K, V) = Concat(head_1, ..., head_h)W^O where head_i = Attention(QW_i^Q, KW_i^K, VW_i^V)\n\n"
    "In this work we employ h = 8 parallel attention layers. For each we use d_k = d_v = d_model/h = 64.\n"
    "q · k = Σ_{i=1}^{d_k} q_i k_i has mean 0 and variance d_k. It costs $5 and $10. Even with k = n, however.\n"
)


@pytest.mark.parametrize("document", ["paper.md", "paper.txt"])
def test_plain_text_math_in_prose_that_the_grammar_cannot_read_is_no_problem_of_the_document(document):
    formulas = review_text(document, PAPER_PROSE)
    assert not [f for f in formulas if f.problems], [(f.span, f.problems) for f in formulas if f.problems]
    statuses = {f.span: f.status for f in formulas}
    assert statuses["h = 8"] == "defines h", "prose words around an equation are not part of it"
    assert "not an identity" in statuses["d_k = d_v = d_model/h = 64"], "an equation in the paper's values"
    assert any(s.startswith("not read by the grammar") for s in statuses.values())


def test_markdown_math_is_found_by_its_delimiters_outside_code():
    text = (
        "Scores are $q^\\top k$ and\n\n$$\n\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V\n$$\n\n"
        "and \\(x^2\\) inline; `$x = ` is code.\n\n```python\ny = x  # $not math$\n```\n"
    )
    formulas = review_text("post.md", text)
    assert [(f.line, f.span.split("\n")[0]) for f in formulas] == [(1, "$q^\\top k$"), (3, "$$"), (7, "\\(x^2\\)")]
    assert not [f for f in formulas if f.problems]


def test_latex_environments_and_comments():
    text = (
        "% a comment with $broken{ math$\n"
        "\\begin{equation}\n\\mathrm{LN}(x) = \\gamma \\odot \\frac{x - \\mu}{\\sigma} + \\beta\n\\end{equation}\n"
        "where $\\mu = \\frac{1}{H}\\sum_{i=1}^{H} a_i$ and \\[ \\sigma = \\sqrt{\\frac{1}{H}} \\]\n"
    )
    formulas = review_text("paper.tex", text)
    assert [f.line for f in formulas] == [2, 5, 5]
    assert not [f for f in formulas if f.problems]


@pytest.mark.parametrize(
    ("latex", "said"),
    [
        ("\\frac{a}{b", "1 opening brace { never closed"),
        ("a}", "a closing brace } with no opening one"),
        ("\\left( x", "\\left against 0 \\right"),
        ("\\begin{pmatrix} a \\end{bmatrix}", "\\end{bmatrix} does not close"),
    ],
)
def test_delimited_math_that_no_renderer_can_set_is_a_problem(latex, said):
    (formula,) = review_text("post.md", f"The value ${latex}$ here.\n")
    assert formula.problems[0].kind == "does not render" and said in formula.problems[0].detail


def test_a_formula_copied_from_a_rendered_page_is_reported_even_though_the_grammar_cannot_read_it():
    (formula,) = at(LESSON_001, 58)
    assert "copied from a rendered formula, its letters spaced out (p o s, s i n)" in formula.problems[0].detail
