"""Errata (issue 29): every refuted or qualified claim of the catalog tells the document's author what is wrong,
how serious it is and how the sentence could read; the report lists them per document, most serious first."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from checks import Claim, Document, Erratum
from checks.engine.discovery import claim_files, claims_index, load_claims
from checks.verdicts.errata import AGREES_WITH, SEVERITIES
from checks.written.reading import read_documents
from reports.build import build_site
from tests.report_fixtures import ESCAPE_ID, write_fixture_results

LESSON = Document("002_86fa32f25d4c4c54.txt")
HANGUL = range(0xAC00, 0xD7A4)


LOW_PRECISION = re.compile(r"float16|bfloat16|float32|float64|CPU|GPU|torch|numpy", re.IGNORECASE)


@pytest.mark.needs("torch")
@pytest.mark.parametrize("path", claim_files(), ids=lambda p: p.name)
def test_every_refuted_or_qualified_claim_declares_an_erratum_and_a_readers_one_reads_as_the_document(path):
    """One case per claim file (a glob at collection; the file is loaded by its own test, not at collection).
    A reader's erratum is worded in the document's language (the lessons are Korean) and keeps dtypes, devices
    and libraries out of the lesson's prose: those are for implementers."""
    for claim in load_claims(path):
        if str(claim.expect) not in ("refuted", "qualified"):
            continue
        assert claim.erratum is not None, f"{claim.id} ({path.name}): add erratum=Erratum(...)"
        assert claim.erratum.severity in SEVERITIES
        if claim.quotes and claim.erratum.wording:
            assert any(ord(c) in HANGUL for c in claim.erratum.wording), claim.erratum.wording
        if claim.erratum.for_readers:
            assert not LOW_PRECISION.search(claim.erratum.wording), f"{claim.id}: {claim.erratum.wording}"


def test_an_erratum_is_on_the_scale_one_line_each_and_names_only_a_sentence_the_claim_quotes():
    quote = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    with pytest.raises(
        ValueError, match="severity 'fatal' is not one of error, condition, notation, precision, implementation"
    ):
        Erratum("fatal", "p", "w")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="problem must be one non-empty line"):
        Erratum("error", "two\nlines", "w")
    for named, erratum in [
        ("another sentence", Erratum("error", "p", "w", sentence="another sentence")),
        ("unquoted", Erratum("error", "p", "w", also={"unquoted": "고친 문장."})),
    ]:
        with pytest.raises(ValueError, match=f"names a sentence it does not quote: '{named}'"):
            Claim(id="a.b", title="t", statement="s", sources=[quote], expect="refuted", erratum=erratum)


@pytest.mark.needs("torch")
def test_the_site_lists_errata_in_line_order_with_markdown_csv_and_json(tmp_path):
    cpu, cuda = write_fixture_results(tmp_path / "results")
    build_site([cpu, cuda], tmp_path / "html", documents=read_documents)
    every = json.loads((tmp_path / "html" / "errata" / "errata.json").read_text(encoding="utf-8"))
    assert list(every["severities"]) == list(SEVERITIES)
    rows = every["documents"]["002_86fa32f25d4c4c54.txt"]
    (escaped,) = [r for r in rows if r["claims"] == [ESCAPE_ID]]
    assert escaped["severity"] == "error"
    lines = [r["places"][0]["line"] for r in rows]
    assert lines == sorted(lines), "the author's order: line by line, severity a mark on each row"
    raw = (tmp_path / "html" / "errata" / "002_86fa32f25d4c4c54.csv").read_text(encoding="utf-8")
    assert raw.startswith("\ufeff"), "a byte-order mark, so that spreadsheets read Korean"
    table = list(csv.DictReader(io.StringIO(raw.removeprefix("\ufeff"))))
    assert [r["claims"] for r in table] == [" ".join(r["claims"]) for r in rows for _ in r["places"]]
    assert "고친 문장 <script>alert(9)</script>도 글자로 나옵니다." in [r["wording"] for r in table]
    page = (tmp_path / "html" / "documents" / "002_86fa32f25d4c4c54.html").read_text(encoding="utf-8")
    assert page.index('id="errata"') < page.index('id="coverage"'), "the errata lead the page"
    assert "&lt;script&gt;alert(9)&lt;/script&gt;" in page and "<script>" not in page
    claim_page = (tmp_path / "html" / "claims" / f"{ESCAPE_ID}.html").read_text(encoding="utf-8")
    assert 'class="severity s-error"' in claim_page and "Could read:" in claim_page
    # formulas as written (checks.written): listed on the document's page, their problems errata with no verdict
    page_000 = (tmp_path / "html" / "documents" / "000_1100ff0056b332e7.html").read_text(encoding="utf-8")
    assert 'id="as-written"' in page_000 and "agrees with its definition (line 79)" in page_000
    written = [r for r in every["documents"]["000_1100ff0056b332e7.txt"] if r["finding"]]
    assert {r["finding"] for r in written} == {
        "does not render",
        "disagrees with its definition",
        "example's grammar fixes the roles",  # the fixture has no claim that corrects the example: its row stands
        "bare function",  # sin and cos without a backslash on lines 307 and 309, where line 79 writes \\sin
        "example column never changes",  # bit3, cited as the slow bit, is 0 on every row of the table of 0 to 7
        "dimension level",  # '낮은/높은 차원' for the dimensions of small and large index
    }
    false = ("disagrees with its definition", "false as written", "example's grammar fixes the roles")
    # a formula that says something false, an example that shows the opposite: errors; the rest is notation
    assert all(r["severity"] == ("error" if r["finding"] in false else "notation") for r in written), written
    assert all(r["verdict"] == "" for r in written)
    csv_000 = (tmp_path / "html" / "errata" / "000_1100ff0056b332e7.csv").read_text(encoding="utf-8")
    assert "as written: does not render" in csv_000
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert (
        'href="errata/002_86fa32f25d4c4c54.md"' in index
        and 'href="documents/002_86fa32f25d4c4c54.html#errata"' in index
    )


def test_a_claim_that_cites_only_a_published_work_is_counted_apart_from_the_documents(tmp_path):
    from checks.documents.sources import Citation
    from checks.results import write_results
    from tests.records import claim_record, environment

    cited = Citation("RoFormer", "Su et al.", 2021, "Abstract", "decaying inter-token dependency", arxiv="2104.09864")
    quote = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    records = [
        claim_record("paper.decay", "qualified", "qualified", citations=[cited]),
        claim_record("lesson.mk", "proved", "proved", sources=[quote]),
    ]
    results = tmp_path / "r.json"
    write_results(results, records, environment())
    build_site([results], tmp_path / "html", documents=read_documents)
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert '<span class="count">1</span>claims on the documents' in index
    assert '<li class="v-qualified"><span class="count">0</span>qualified</li>' in index
    assert "Counted apart: 1 claim(s) that check only a published work" in index and "paper.decay" in index
    # one count of each verdict everywhere: the filter says the cards' number, and the cited-only claim apart
    assert '<label for="fv-qualified">qualified (0 + 1 on a cited work)</label>' in index
    assert '<label for="fv-proved">proved (1)</label>' in index


@pytest.mark.needs("torch")
def test_the_index_shows_a_derived_claim_with_the_claims_it_derives_from_and_each_erratums_severity(tmp_path):
    cpu, cuda = write_fixture_results(tmp_path / "results")
    build_site([cpu, cuda], tmp_path / "html", documents=read_documents)
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    row = index.split(f'id="row-{ESCAPE_ID}"')[1].split("</tr>")[0]
    assert 'derived from <a href="claims/pe.constant-norm.html"><code>pe.constant-norm</code></a>' in row
    assert 'class="severity s-error"' in row
    page = (tmp_path / "html" / "claims" / "pe.constant-norm.html").read_text(encoding="utf-8")
    assert "symbolic: proved, assuming d_model is even" in page and "proved, assuming:</strong>" in page


@pytest.mark.needs("torch")
def test_device_columns_that_ran_nowhere_collapse_into_one_note(tmp_path):
    cpu, cuda = write_fixture_results(tmp_path / "results")
    build_site([cpu], tmp_path / "cpu", documents=read_documents)
    index = (tmp_path / "cpu" / "index.html").read_text(encoding="utf-8")
    assert "cuda: no run ran on it in these results" in index and 'title="cuda float32"' not in index
    build_site([cpu, cuda], tmp_path / "both", documents=read_documents)
    both = (tmp_path / "both" / "index.html").read_text(encoding="utf-8")
    assert 'title="cuda float32"' in both and "no run ran on it" not in both


@pytest.mark.needs("torch")
def test_a_proofs_assumptions_stand_beside_its_status():
    """pe.constant-norm's proof sums over d_model/2 pairs: it says so wherever it reads "proved"."""
    from checks.engine.outcomes import Outcomes

    record = Outcomes().record(claims_index()["pe.constant-norm"])
    (proof,) = [r for r in record.evidence if r.kind == "proof"]
    assert proof.status == "proved" and proof.assumptions == [
        "d_model is even: every sin has its cos (the sum runs over d_model/2 pairs)"
    ]


def test_latex_in_a_sentence_is_shown_as_mathml_and_anything_else_stays_text():
    from reports.mathml import with_tex

    shown = str(with_tex("길이는 $\\sqrt{d_{model}/2}$ <b>입니다</b>; 5$ alone."))
    assert '<math display="inline"' in shown and "<msqrt>" in shown and "$" not in shown.split("</math>")[0]
    assert "&lt;b&gt;입니다&lt;/b&gt;" in shown and shown.endswith("5$ alone.")
    hostile = str(with_tex("$x$ and $\\href{javascript:alert(1)}{y}$"))
    assert "javascript" not in hostile.split("</math>")[0] and "<script" not in hostile


@pytest.mark.needs("torch")
def test_the_glossary_explains_every_verdict_and_severity_and_every_page_links_to_it(tmp_path):
    from checks.verdicts import Verdict
    from reports.glossary import TERMS

    assert {str(v) for v in Verdict} <= set(TERMS) and {f"severity: {s}" for s in SEVERITIES} <= set(TERMS)
    cpu, _ = write_fixture_results(tmp_path / "results")
    build_site([cpu], tmp_path / "html", documents=read_documents)
    page = (tmp_path / "html" / "glossary.html").read_text(encoding="utf-8")
    assert '<dt id="Groebner_reduction">Groebner reduction</dt>' in page
    for path in ("index.html", f"claims/{ESCAPE_ID}.html", "documents/002_86fa32f25d4c4c54.html"):
        assert "glossary.html" in (tmp_path / "html" / path).read_text(encoding="utf-8"), path


def _claim_with_probe(value: float, problem: str) -> Claim:
    claim = Claim(
        id="errata.from-the-run",
        title="t",
        statement="s",
        sources=[LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")],
        expect="qualified",
        erratum=Erratum("condition", problem, "고친 문장은 {share:.0%}입니다.", point=""),
    )

    @claim.probe
    def _(r):
        r.condition(f"only for {value}", share=value, parts={"64": 6})

    return claim


def test_an_erratums_figures_come_from_the_run_and_a_figure_it_did_not_record_withholds_it():
    """Issue 43: an erratum kept its numbers while the evidence changed; now its fields are the run's values."""
    from checks.engine.evaluate import evaluate

    first = evaluate(_claim_with_probe(0.25, "holds for {share:.0%} ({parts[64]} parts)"))
    second = evaluate(_claim_with_probe(0.5, "holds for {share:.0%} ({parts[64]} parts)"))
    assert first.erratum is not None and first.erratum.problem == "holds for 25% (6 parts)"
    assert second.erratum is not None and second.erratum.wording == "고친 문장은 50%입니다."
    missing = evaluate(_claim_with_probe(0.5, "holds for {unmeasured}"))
    assert missing.erratum is None and missing.observed.value == "broken"
    assert any("erratum withheld" in e and "unmeasured" in e for e in missing.errors)
    with pytest.raises(ValueError, match="use \\[key\\]"):
        _claim_with_probe(0.5, "{share.__class__}")


def test_the_change_page_never_calls_a_moved_timed_finding_the_same():
    from checks.results.compare import ClaimChange, Comparison

    moved = Comparison(3, [], [], [ClaimChange("a.timed", lost=["8 of 12"], gained=["6 of 12"], timed=True)])
    assert moved.identical and "every verdict and finding the same" not in moved.headline
    assert "a.timed" in moved.headline and "- added: 6 of 12" in moved.markdown()


def test_the_sentences_of_one_erratum_make_one_row_each_with_its_line(tmp_path):
    """A claim's erratum that corrects several sentences (``also``) is one suggestion naming each, with lines."""
    from checks.documents.sources import document_text
    from checks.results import write_results
    from tests.records import claim_record, environment

    main = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    other = LESSON.quote("위치 인코딩 — sin과 cos를 함께 쓰는 이유", "어텐션은 단어 순서를 모릅니다.")
    erratum = Erratum("condition", "one point", "고친 문장.", sentence=main.text, also={other.text: "또 고친 문장."})
    record = claim_record("errata.two-places", "qualified", "qualified", sources=[main, other], erratum=erratum)
    write_results(tmp_path / "r.json", [record], environment())
    build_site([tmp_path / "r.json"], tmp_path / "html", documents=read_documents)
    rows = json.loads((tmp_path / "html" / "errata" / "errata.json").read_text(encoding="utf-8"))["documents"]
    (row,) = [r for r in rows["002_86fa32f25d4c4c54.txt"] if r["claims"] == ["errata.two-places"]]
    assert [p["wording"] for p in row["places"]] == ["또 고친 문장.", "고친 문장."], "in the document's order"
    text = document_text(LESSON.name)
    lines = [text[: text.index(p["sentence"])].count("\n") + 1 for p in row["places"]]
    assert [p["line"] for p in row["places"]] == lines
    markdown = (tmp_path / "html" / "errata" / "002_86fa32f25d4c4c54.md").read_text(encoding="utf-8")
    assert f"{lines[0]}행, 「" in markdown, "a Korean document's errata file speaks Korean"


CONTRADICTING = [
    (severity, verdict)
    for severity in SEVERITIES
    for verdict in ("proved", "holds", "qualified", "refuted")
    if verdict not in AGREES_WITH[severity]
]


@pytest.mark.parametrize(("severity", "verdict"), CONTRADICTING)
def test_an_erratum_whose_severity_contradicts_the_expected_verdict_is_refused(severity, verdict):
    """Issue 45: "false as stated" beside qualified, "true only under a condition" beside refuted, "true in exact
    arithmetic" beside refuted are refused when the claim is declared, saying which severities fit."""
    quote = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    erratum = Erratum(severity, "what is wrong", wording="M_k는 k에만 달려 있습니다.")
    with pytest.raises(ValueError, match=f"a {severity} erratum says .* which an expected verdict {verdict}"):
        Claim(id="a.b", title="t", statement="s", sources=[quote], expect=verdict, erratum=erratum)


def test_every_severity_says_only_what_its_verdicts_allow():
    """The descriptions the pages print beside a verdict: a note asserts nothing of the sentence's truth."""
    for severity, text in SEVERITIES.items():
        allowed = set(AGREES_WITH[severity])
        if "false as stated" in text:
            assert allowed == {"refuted"}, severity
        if "true only under a condition" in text:
            assert allowed == {"qualified"}, severity
        if "true in exact arithmetic" in text or "true of what the text presents" in text:
            assert "refuted" not in allowed, severity
    assert not re.search(r"\b(true|false)\b", SEVERITIES["note"])


def test_a_note_beside_qualified_reads_as_a_remark_and_an_erratum_the_run_contradicts_is_withheld(tmp_path):
    """Issue 45: a note erratum showed "note: true where the document uses it" beside a qualified verdict. A claim
    declared refuted with an error erratum that now holds shows no badge and says why its erratum is withheld."""
    from checks.results import write_results
    from tests.records import claim_record, environment

    quote = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    note = Erratum("note", "Decided only at positions below 12.")
    error = Erratum("error", "It depends on m too.", wording="M_k는 k에만 달려 있습니다(고친 문장).")
    records = [
        claim_record("a.note", "qualified", "qualified", sources=[quote], erratum=note),
        claim_record("a.error", "holds", "refuted", sources=[quote], erratum=error),
    ]
    results = tmp_path / "r.json"
    write_results(results, records, environment())
    build_site([results], tmp_path / "html", documents=read_documents)
    noted = (tmp_path / "html" / "claims" / "a.note.html").read_text(encoding="utf-8")
    assert f"note</span> {SEVERITIES['note']}" in noted and "true where" not in noted
    withheld = (tmp_path / "html" / "claims" / "a.error.html").read_text(encoding="utf-8")
    assert "Erratum withheld" in withheld and "Could read" not in withheld
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    row = index.split('id="row-a.error"')[1].split("</tr>")[0]
    assert 'class="severity' not in row
    errata = (tmp_path / "html" / "errata" / "002_86fa32f25d4c4c54.md").read_text(encoding="utf-8")
    assert "a.error" not in errata and "(고친 문장)" not in errata


@pytest.mark.needs("torch")
def test_every_readers_row_links_to_its_evidence_and_says_no_change_only_beside_a_wording(tmp_path):
    """Issue 61, item 2: a formula no claim quotes links to its line on the document's page; a place without a
    wording says 'no change here' only where another place of its row has one."""
    from reports.errata import CorrectedSentence, ErratumRow
    from reports.errata import markdown as errata_markdown

    cpu, cuda = write_fixture_results(tmp_path / "results")
    build_site([cpu, cuda], tmp_path / "html", documents=read_documents)
    every = json.loads((tmp_path / "html" / "errata" / "errata.json").read_text(encoding="utf-8"))
    for name, rows in every["documents"].items():
        for row in rows:
            assert row["claim_pages"] or row["page"], f"{name}: a row with no page: {row['problem']}"
    markdown = (tmp_path / "html" / "errata" / "000_1100ff0056b332e7.md").read_text(encoding="utf-8")
    assert "근거: \n" not in markdown and "근거: documents/000_1100ff0056b332e7.html#formula-311" in markdown
    page = (tmp_path / "html" / "documents" / "000_1100ff0056b332e7.html").read_text(encoding="utf-8")
    assert 'id="formula-311"' in page and 'href="../documents/000_1100ff0056b332e7.html#formula-311"' in page

    def row(*wordings: str) -> ErratumRow:
        places = tuple(CorrectedSentence("s", f"sentence {n}", w, n, n + 1) for n, w in enumerate(wordings))
        return ErratumRow("d.txt", "error", "refuted", "p", places, ("c",), ("claims/c.html",))

    from reports.errata import also_said
    from reports.errata_words import ENGLISH

    shared = row("새 문장.", "")
    assert shared.changed == shared.places[:1] and shared.repeated == shared.places[1:]
    assert also_said(shared, ENGLISH) == "Also says it: line 2.", "named beside the wording that makes the point"
    alone = row("")
    assert alone.changed == alone.places and not alone.repeated, "no wording anywhere: the place still needs fixing"
    markdown = errata_markdown("d.txt", [alone])
    assert ENGLISH.no_wording in markdown and "no change here" not in markdown


def test_a_control_is_refuted_as_expected_without_colouring_or_correcting_the_sentence(tmp_path):
    """Issue 61, item 3: a reading the document does not make (footnote 4's d_k² against the paper's d_k) is a
    control: it expects refuted, has no erratum, is counted apart and leaves its sentence uncoloured."""
    from checks.results import write_results
    from tests.records import claim_record, environment

    said = LESSON.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    with pytest.raises(ValueError, match=r"a control .* expects refuted"):
        Claim(id="c.wrong", title="t", statement="s", sources=[said], expect="proved", control="a variant")
    reading = "M_k depends on pos too: a reading the lesson does not make, whose shift matrix would change with pos."
    control = claim_record("control.pos-dependent", "refuted", "refuted", sources=[said], control=reading)
    write_results(tmp_path / "r.json", [control], environment())
    build_site([tmp_path / "r.json"], tmp_path / "html", documents=read_documents)
    rows = json.loads((tmp_path / "html" / "errata" / "errata.json").read_text(encoding="utf-8"))["documents"]
    assert not [r for rs in rows.values() for r in rs if "control.pos-dependent" in r["claims"]]
    page = (tmp_path / "html" / "documents" / "002_86fa32f25d4c4c54.html").read_text(encoding="utf-8")
    (quoted,) = re.findall(r'<mark class="([^"]*)"[^>]*>M_k는 k에만 달려 있습니다\.', page)
    assert quoted == "control", "a control never colours the sentence red"
    assert "control.pos-dependent · control, refuted" in page
    claim_page = (tmp_path / "html" / "claims" / "control.pos-dependent.html").read_text(encoding="utf-8")
    assert "A control." in claim_page and "refuted, as a control must be" in claim_page
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "1 control(s)" in index


def test_a_findings_severity_is_its_own_never_borrowed_from_the_claims_erratum():
    """Issue 65 item 6: a precision erratum said every implementation finding of its claim was "precision", a fault
    of a library's slopes included."""
    from checks.engine.evaluate import severity_of
    from checks.results.records import Finding
    from checks.verdicts.errata import Erratum

    precision = Erratum(severity="precision", problem="fails in float16 beyond position 2048", wording="…")
    fault = Finding("implementation", "lib-alibi: slopes 2^(-8i/h) for h not a power of 2 depart from the paper's")
    boundary = Finding("condition", "float16 loses the angle beyond position 2048")
    assert severity_of(fault, precision) == "implementation"
    assert severity_of(boundary, precision) == "precision"
    assert severity_of(boundary, None) == "" and severity_of(fault, None) == "implementation"
