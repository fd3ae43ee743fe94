"""The report builder without a browser: CLI errors, merging, escaping, MathML, figures, coverage."""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from checks.documents.coverage import Entry, units
from checks.engine.report import main
from checks.results import SCHEMA_VERSION as SCHEMA
from checks.results import Figure, read_results, write_results
from checks.results.codec import from_json, to_json
from checks.written.reading import DocumentReading, read_documents
from reports import documents, figures, mathml, search
from reports.build import CSP, build_site
from tests.records import environment
from tests.report_fixtures import (
    ESCAPE_ID,
    escaping_record,
    many_claims,
    probe_figures,
    proof_steps,
    real_records,
    write_document,
    write_fixture_results,
)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_fixture_results(tmp_path_factory.mktemp("results"))


@pytest.fixture(scope="module")
def site(results: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site(list(results), out, documents=read_documents)
    return out


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such results file"),
        ("{not json", "corrupt results file"),
        ('{"schema": "other/9", "claims": [], "environment": {}}', "schema 'other/9' is not"),
        (json.dumps({"schema": SCHEMA}), "lacks 'claims' or 'environment'"),
    ],
    ids=["missing", "corrupt", "other-schema", "incomplete"],
)
def test_a_bad_results_file_exits_2_with_the_reason(tmp_path, capsys, content, message):
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content)
    assert main(["--from", str(path), "--out", str(tmp_path / "html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and str(path) in err
    assert not (tmp_path / "html" / "index.html").exists()


@pytest.mark.parametrize(
    "field",
    [{"evidence": 5}, {"evidence": [{"kind": "proof", "steps": 3}]}, {"sources": [7]}],
    ids=["evidence", "steps", "sources"],
)
def test_a_malformed_claim_record_exits_2_naming_it(tmp_path, capsys, field):
    record = {**escaping_record(), **field}
    path = write_document(tmp_path / "results.json", [record], to_json(environment()))
    assert main(["--from", str(path), "--out", str(tmp_path / "html")]) == 2
    assert f"claim '{ESCAPE_ID}' is malformed" in capsys.readouterr().err


@pytest.mark.needs("torch")
def test_building_from_files_writes_index_claims_and_documents(site):
    names = {p.relative_to(site).as_posix() for p in pages(site)}
    assert "index.html" in names
    assert {f"claims/{i}.html" for i in ("pe.constant-norm", "rope.relative-score", ESCAPE_ID)} <= names
    assert {
        f"documents/{d}.html" for d in ("000_1100ff0056b332e7", "001_53050abb35828e70", "002_86fa32f25d4c4c54")
    } <= names
    assert "claims/file_claims_not_loading.py.html" in names


@pytest.mark.needs("torch")
def test_machines_merge_into_device_columns_with_not_run(site, results):
    index = (site / "index.html").read_text()
    row = _row(index, "pe.constant-norm")
    cells = re.findall(r'<td class="b b-([a-z-]+)[^"]*"[^>]*>([^<]*)</td>', row)
    assert [text for _, text in cells] == ["pass"] * 8, "cpu from cpu.json, cuda from cuda.json"
    escaping = re.findall(r'<td class="b b-([a-z-]+)', _row(index, ESCAPE_ID))
    assert escaping == ["pass", "fail", "none", "none", "none", "not-run", "none", "none"]
    assert "NVIDIA H200 (fixture)" in index and read_results(results[0]).environment.cpu in index


@pytest.mark.needs("torch")
def test_every_page_has_the_csp_the_color_schemes_and_no_script(site):
    """Nothing leaves the site but a cited work's page, an https link marked rel="external noreferrer"; the one
    script is the search page's, allowed there alone, by the hash of its text."""
    for page in pages(site):
        html = page.read_text()
        tags = _tags(html)
        metas = [dict(attrs) for tag, attrs in tags if tag == "meta"]
        searching = page.name == search.PAGE
        policy = search.csp(CSP) if searching else CSP
        assert {"http-equiv": "Content-Security-Policy", "content": policy} in metas, page
        assert "default-src 'none'" in CSP and "img-src data:" in CSP and "script-src" not in CSP
        assert {"name": "color-scheme", "content": "light dark"} in metas
        assert "prefers-color-scheme: dark" in html
        scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
        assert [tag for tag, _ in tags].count("script") == len(scripts) == (1 if searching else 0), page
        if searching:
            digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
            assert policy.endswith(f"script-src 'sha256-{digest}'")
        attributes = [(tag, name, value or "") for tag, attrs in tags for name, value in attrs]
        assert not [a for a in attributes if a[1].startswith("on")], f"{page} has an event handler"
        cited = [dict(attrs) for tag, attrs in tags if tag == "a" and "external" in (dict(attrs).get("rel") or "")]
        assert all((a.get("href") or "").startswith("https://") for a in cited), f"{page}: {cited}"
        assert all("noreferrer" in (a.get("rel") or "") for a in cited), f"{page}: {cited}"
        links = [value for tag, attrs in tags for name, value in attrs if name in ("href", "src")]
        outside = {a["href"] for a in cited}
        assert not [v for v in links if re.match(r"([a-z]+:|//)", v or "") and v not in outside], f"{page} links off"


@pytest.mark.needs("torch")
def test_tables_have_captions_and_scoped_headers(site):
    for page in pages(site):
        tags = _tags(page.read_text())
        names = [tag for tag, _ in tags]
        assert names.count("table") == names.count("caption"), f"{page}: a table without caption"
        unscoped = [attrs for tag, attrs in tags if tag == "th" and "scope" not in dict(attrs)]
        assert unscoped == [], page
        assert all("aria-label" in dict(attrs) for tag, attrs in tags if tag == "svg"), page


@pytest.mark.needs("torch")
def test_hostile_text_renders_as_text(site):
    html = (site / "claims" / f"{ESCAPE_ID}.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;x&#34;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "MathML not shown: script or event-handler attribute" in html
    index = (site / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index


@pytest.mark.needs("torch")
def test_claim_page_shows_quote_statement_proof_evidence_and_command(site):
    html = (site / "claims" / "pe.constant-norm.html").read_text()
    assert '<blockquote lang="ko">' in html and "위치와 상관없이" in html
    assert "../documents/002_86fa32f25d4c4c54.html#q-pe.constant-norm-1" in html
    assert html.count('<math display="block" xmlns="http://www.w3.org/1998/Math/MathML">') >= 2
    assert "d_model must be even" in html
    assert "pytest claims/pe_constant_norm.py -k pe.constant-norm --hypothesis-profile ci" in html
    assert "tox" not in html.split('id="reproduce"')[1].split("</section>")[0], "a command that runs anywhere"
    assert "--hypothesis-seed 12345" in html, "the cuda fixture ran with a seed"
    assert re.search(r"<th scope=\"col\"[^>]*>max error</th>", html)


@pytest.mark.needs("torch")
def test_a_proof_reads_in_plain_words_with_the_machine_text_folded(site):
    """No 'angle atom', 'Groebner basis' or 'ε + Σ w·ℓ²' in the prose; SymPy text, certificates and the machine's
    working sit under <details>; the terms that stay link to the glossary."""
    html = (site / "claims" / "pe.constant-norm.html").read_text()
    proof = html.split('id="evidence-proof"')[1].split("</section>")[0]
    for jargon in ("angle atom", "Groebner basis", "Σ w·ℓ²", "lhs − rhs as a polynomial", "remainder modulo"):
        assert jargon not in proof, jargon
    assert 'href="../glossary.html#Groebner_reduction"' in proof and 'href="../glossary.html#certificate"' in proof
    assert "a new variable pair for an angle" in proof
    for folded in ("How the machine checked it", "The statement as the machine reads it", "re-checked by multiplying"):
        summary = proof.split(folded)[0].rsplit("<", 1)[0]
        assert summary.endswith('<details class="working">'), folded
    assert re.search(r"<details class=\"working\"><summary>The statement[^<]*</summary><pre>", proof)


@pytest.mark.needs("torch")
def test_document_page_marks_each_quote_and_defines_coverage(site):
    html = (site / "documents" / "002_86fa32f25d4c4c54.html").read_text()
    assert '<div class="doc" lang="ko">' in html
    for claim_id in ("pe.constant-norm", "rope.relative-score", ESCAPE_ID):
        assert f'id="q-{claim_id}-1"' in html
        assert f'href="../claims/{claim_id}.html"' in html
    assert re.search(r'<mark class="v-qualified"[^>]*>[^<]*위치와 상관없이', html)
    errata_rows = [
        number  # a row some claim makes is led to from its quote; a row of the notation has no quote to lead from
        for number, row in re.findall(r'<tr id="erratum-([^"]+)">(.*?)</tr>', html, re.DOTALL)
        if "../claims/" in row
    ]
    for number in errata_rows:
        assert f'<a class="qb why" href="#erratum-{number}" lang="en">what is wrong</a>' in html, number
    assert errata_rows, "the fixture's qualified claims have errata rows to lead to"
    assert "Every sentence has one class" in html


def test_highlight_places_quotes_and_classes_every_sentence():
    text = "첫 문장은 참입니다. 둘째 문장도 참입니다. 제목\n셋째는 범위 밖입니다."
    quotes = [
        documents.PlacedQuote("a.one", "a", "proved", "q-a", "첫 문장은 참입니다.", True),
        documents.PlacedQuote("b.out", "b", "out-of-scope", "q-b", "셋째는 범위 밖입니다.", False),
        documents.PlacedQuote("c.gone", "c", "holds", "q-c", "없는 문장", True),
    ]
    entries = [Entry("제목", category="heading")]
    reading = DocumentReading("doc.txt", text, entries=entries, units=units(text, "doc.txt"))
    result = documents.highlight(reading, quotes)
    assert "".join(s.text for s in result.segments) == text
    assert [q.claim_id for q in result.missing] == ["c.gone"]
    classes = [s.sentence_class for s in result.coverage.sentences]
    assert classes == ["checked", "unclassified", "not-a-claim", "out-of-scope"]
    assert result.coverage.checkable == 2, "the sentence without a class counts against coverage"
    marked = [s for s in result.segments if s.quotes]
    assert [s.anchors for s in marked] == [["s-1", "q-a"], ["s-4", "q-b"]], "each sentence anchored, by its number"
    assert [s.state for s in result.segments if s.text == "제목"] == ["not-a-claim"]


@pytest.mark.parametrize(
    "fragment",
    [
        "<mi>x</mi><script>alert(1)</script>",
        '<mi onclick="alert(1)">x</mi>',
        '<mi href="javascript:alert(1)">x</mi>',
        "<mi>x</mi></math><img src=x>",
        "<mrow><mi>x</mi>",
        "<!-- comment --><mi>x</mi>",
        '<mi style="color:red">x</mi>',
    ],
)
def test_unsafe_mathml_is_refused(fragment):
    with pytest.raises(mathml.UnsafeMathML):
        mathml.sanitize(fragment)
    assert mathml.block(fragment)[0] is None


@pytest.mark.needs("torch")
def test_sympy_mathml_passes_and_is_rebuilt():
    record = real_records()[0]
    for step in proof_steps(record):
        math, problem = mathml.block(step["mathml"])
        assert math is not None, problem
        assert str(math).startswith('<math display="block" xmlns="http://www.w3.org/1998/Math/MathML">')
    assert mathml.sanitize("<mrow><mo>-</mo><mi>x</mi></mrow>") == "<mrow><mo>\u2212</mo><mi>x</mi></mrow>"


@pytest.mark.parametrize("figure", probe_figures(escaping_record()), ids=lambda f: f["kind"])
def test_figures_are_inline_svg_with_alt_text(figure):
    svg = str(figures.render(from_json(Figure, figure)))
    assert svg.startswith("<svg ") and not svg.startswith("<?xml")
    assert f'aria-label="{figure["alt"]}"' in svg and f"<title>{figure['alt']}</title>" in svg
    assert svg.count("<svg") == 1 and svg.endswith("</svg>")


def test_log_scale_is_chosen_and_labelled():
    figure = from_json(Figure, probe_figures(escaping_record())[0])
    assert "max error (log scale)" in str(figures.render(figure))


@pytest.mark.parametrize(
    "figure",
    [Figure("f", "pie", "t", "a"), Figure("f", "lines", "t", "a"), Figure("f", "heatmap", "t", "a")],  # type: ignore[arg-type]
    ids=["kind", "no-series", "no-matrix"],
)
def test_undrawable_figures_raise(figure):
    with pytest.raises(figures.FigureError):
        figures.render(figure)


@pytest.mark.needs("torch")
def test_45_claims_build_a_page_each(results, tmp_path):
    """The real suite's size (about 45 claims), with a figure of each kind on every claim; its time is a benchmark
    (tests/benchmarks/test_budgets.py, ``tox -e bench``)."""
    path = write_document(tmp_path / "many.json", *many_claims(results[0], 45))
    build_site([path, path], tmp_path / "html", documents=read_documents)
    assert len(list((tmp_path / "html" / "claims").glob("*.html"))) == 45


@pytest.mark.needs("torch")
def test_a_rebuild_removes_pages_of_claims_that_are_gone(results, tmp_path):
    build_site(list(results), tmp_path, documents=read_documents)
    document = read_results(results[1])
    only = tmp_path / "only.json"
    write_results(only, document.claims[:1], document.environment)
    build_site([only], tmp_path, documents=read_documents)
    assert [p.name for p in (tmp_path / "claims").glob("*.html")] == [f"{document.claims[0].id}.html"]


@pytest.mark.needs("torch")
def test_python_m_reports_runs_the_claims_and_writes_junit(tmp_path, capsys):
    code = main(["--out", str(tmp_path), "--", "-k", "rope.relative-score"])
    assert code == 0, capsys.readouterr()
    assert (tmp_path / "junit.xml").read_text().count("<testcase") == 1
    index = (tmp_path / "index.html").read_text()
    assert "rope.relative-score" in index and 'href="junit.xml"' in index and 'href="results.json"' in index


def _tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    found: list[tuple[str, list[tuple[str, str | None]]]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

    Collect().feed(html)
    return found


def _row(index: str, claim_id: str) -> str:
    match = re.search(rf'<tr class="claim[^"]*" id="row-{re.escape(claim_id)}">(.*?)</tr>', index, re.DOTALL)
    assert match, f"no row for {claim_id}"
    return match.group(1)


@pytest.mark.needs("torch")
def test_implementation_matrix_has_a_column_per_implementation_and_references_first(site):
    page = (site / "implementations.html").read_text(encoding="utf-8")
    for name in ("reference-numpy", "reference-torch", "half-split-rope", "meta-complex-rope"):
        assert f"<code>{name}</code>" in page
    assert page.index("reference-torch") < page.index("half-split-rope")
    assert "rope.relative-score" in page
    assert "Mutation score" not in page, "no mutation run in the folder: no section offering one"


@pytest.mark.needs("torch")
def test_mutation_score_is_shown_when_the_folder_has_it(results, tmp_path):
    from reports.build import build_site

    mutants = {
        "killed": 1,
        "total": 2,
        "mutants": [
            {
                "mutant": "pe-base-1000",
                "bug": "base 1000",
                "ran": True,
                "killed": True,
                "killed_by": [
                    {"claim": "pe.formula", "check": "c", "device": "cpu", "dtype": "float64", "message": ""}
                ],
            },
            {"mutant": "pe-<b>", "bug": "<script>", "ran": True, "killed": False, "killed_by": []},
        ],
    }
    (tmp_path / "mutants.json").write_text(json.dumps(mutants))
    build_site([results[0]], tmp_path, documents=read_documents)
    page = (tmp_path / "implementations.html").read_text(encoding="utf-8")
    assert "<strong>1 / 2</strong>" in page and "pe.formula / c" in page and "survived" in page
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_failure_of_the_documents_own_code_shows_beside_a_proved_verdict(tmp_path):
    """pe.bounded is proved, yet the lesson's PyTorch class crashes at odd d_model: the verdict cell says so."""
    from checks.evidence.check import CheckRun
    from tests.records import claim_record

    crashed = CheckRun(
        "entries_within_one", "cpu", "float32", "failed", message="crash", implementation="document-torch"
    )
    crashed.reference = False
    fine = CheckRun("entries_within_one", "cpu", "float32", "passed", implementation="reference-torch")
    record = claim_record("a.proved", observed="proved", expected="proved", evidence=[crashed, fine])
    plain = claim_record("b.proved", observed="proved", expected="proved", evidence=[fine])
    write_results(tmp_path / "results.json", [record, plain], environment())
    build_site([tmp_path / "results.json"], tmp_path / "html", say=lambda _: None, documents=read_documents)
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "document code fails: document-torch" in _row(index, "a.proved")
    assert "document code fails" not in _row(index, "b.proved")
    page = (tmp_path / "html" / "claims" / "a.proved.html").read_text(encoding="utf-8")
    assert "but the document's own code fails it: document-torch" in page


def test_a_derived_claim_is_listed_right_after_the_claim_it_derives_from(tmp_path):
    from reports.model import load
    from tests.records import claim_record

    records = [
        claim_record("a.parent"),
        claim_record("b.other"),
        claim_record("misconception.x", depends=["a.parent", "b.other"]),
        claim_record("misconception.y", depends=["not.in.these.results"]),
        claim_record("z.loop", depends=["z.loop2"]),
        claim_record("z.loop2", depends=["z.loop"]),
    ]
    write_results(tmp_path / "results.json", records, environment())
    site = load([tmp_path / "results.json"])
    order = [c.id for c in site.in_reading_order]
    assert order == ["a.parent", "misconception.x", "b.other", "misconception.y", "z.loop", "z.loop2"]
    build_site([tmp_path / "results.json"], tmp_path / "html", say=lambda _: None, documents=read_documents)
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr class="claim( derived)?[^"]*" id="row-([^"]+)"', index)
    assert [name for _, name in rows] == order and rows[1] == (" derived", "misconception.x")


def test_a_sentence_quoted_by_several_claims_takes_the_most_severe_in_scope_verdict():
    """'…n−m만 남습니다' is quoted by a proved and two qualified claims: it is coloured qualified."""
    quotes = [
        documents.PlacedQuote("a.proved", "a", "proved", "q-a", "n−m만 남습니다", True),
        documents.PlacedQuote("b.qualified", "b", "qualified", "q-b", "n−m만 남습니다", True),
        documents.PlacedQuote("c.scope", "c", "out-of-scope", "q-c", "n−m만 남습니다", False),
    ]
    assert documents.Segment("n−m만 남습니다", quotes=quotes).verdict == "qualified"
    assert documents.Segment("x", quotes=quotes[2:]).verdict == "out-of-scope"
    assert documents.Segment("x").verdict == ""


def test_the_fingerprints_per_dtype_show_as_a_table_and_an_envelope_per_capability_and_dtype(tmp_path):
    """Issue 30: each implementation's fingerprint in each dtype, with the envelope drawn (an inf point left out)."""
    from checks.results import DtypeFingerprint, ImplementationRecord
    from tests.records import claim_record

    def fingerprint(dtype: str, duplicates: list[int], past: int | None, non_finite: int | None) -> DtypeFingerprint:
        envelope = [[1.0, 0.001], [256.0, 0.5], [65536.0, math.inf if non_finite else 1.2]]
        return DtypeFingerprint(
            "sinusoidal", dtype, 64, "bfloat16", 10013.8, duplicates, past, 0.016, non_finite, 1.5, envelope
        )

    record = ImplementationRecord(
        "<b>table</b>",
        False,
        "torch",
        ["sinusoidal"],
        "",
        "everything",
        3,
        [],
        {},
        [],
        0.1,
        [fingerprint("bfloat16", [256, 257], 22, None), fingerprint("float16", [2048, 2049], 5, 65520)],
    )
    results = tmp_path / "results.json"
    write_results(results, [claim_record("a.claim")], environment(), implementations=[record])
    build_site([results], tmp_path / "site", documents=read_documents)
    page = (tmp_path / "site" / "implementations.html").read_text(encoding="utf-8")
    for dtype in ("bfloat16", "float16"):
        section = page[page.index(f'id="precision-sinusoidal-{dtype}"') :]
        assert section.index("<svg") < section.index("</table>")
    assert "positions 256 and 257" in page and "from position 22 (0.016)" in page and ">65520<" in page
    assert "<b>table</b>" not in page and "&lt;b&gt;table&lt;/b&gt;" in page


def test_a_matrix_cell_marks_each_dtype():
    """Issue 65 item 7: the matrix merged dtypes into one cell, so a bfloat16 loss at long lengths read as a wrong
    formula. The cell keeps its worst status and marks each dtype."""
    from checks.evidence.check.record import CheckRun
    from reports.model import _cell

    said = [("float64", "passed"), ("float32", "passed"), ("bfloat16", "failed"), ("float16", "skipped")]
    runs = [CheckRun("c", "cpu", dtype, status=status, implementation="lib") for dtype, status in said]
    cell = _cell(runs)
    assert cell.status == "fail" and "cpu bfloat16" in cell.detail
    assert cell.marks == (("float64", "pass"), ("float32", "pass"), ("bfloat16", "fail"), ("float16", "skipped"))
    both = _cell([*runs, CheckRun("c", "cuda", "float32", status="passed", implementation="lib")])
    assert both.marks[0] == ("cpu float64", "pass") and both.marks[-1] == ("cuda float32", "pass")


def test_a_claims_row_counts_and_measures_only_the_runs_its_verdict_rests_on(tmp_path):
    """Issue 65 (the researcher's trial): a claim that holds showed a faulty implementation's worst error
    ("4.27e+05× …") and counted that implementation's examples; those are its matrix cell's, not the verdict's."""
    from checks.evidence.check import CheckRun
    from reports.model import load
    from tests.records import claim_record

    reference = CheckRun("c", "cpu", "float64", status="passed", max_error=1e-9, tolerance=1e-6, examples=40)
    faulty = CheckRun(
        "c",
        "cpu",
        "float64",
        status="failed",
        max_error=0.5,
        tolerance=1e-6,
        examples=7,
        implementation="faulty",
        reference=False,
    )
    write_results(tmp_path / "results.json", [claim_record("a.claim", evidence=[reference, faulty])], environment())
    (claim,) = load([tmp_path / "results.json"]).claims
    assert claim.counts == [("examples", 40)]
    assert claim.worst is not None and claim.worst[1] is not faulty and claim.worst[1].max_error == 1e-9
