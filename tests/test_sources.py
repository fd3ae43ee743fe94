"""Sources: any document dropped into sources/ gets its page and coverage, cited works get an index."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from checks.documents.sources import Citation, Quote, documents
from checks.engine.cli import main
from checks.engine.environment import environment
from checks.results.codec import to_json
from checks.written.reading import read_documents
from reports.build import build_site
from reports.figures import _label_rows
from tests.report_fixtures import real_records, write_document

SOURCES = Path(__file__).resolve().parent.parent / "sources"
FOURTH = "003_fourth_document.txt"
HEADING = "1. 네 번째 문서"
SENTENCE = "이 문장은 네 번째 문서에만 있습니다."
ROFORMER = Citation(
    title="RoFormer: Enhanced Transformer with Rotary Position Embedding",
    authors="Jianlin Su et al.",
    year=2021,
    section="Abstract",
    text="decaying inter-token dependency with increasing relative distances",
    arxiv="2104.09864v2",
)


@pytest.fixture
def four_documents(tmp_path, monkeypatch) -> Path:
    """sources/ with a fourth document beside the three, through THEORY_CLAIMS_SOURCES (nothing else changes)."""
    folder = tmp_path / "sources"
    folder.mkdir()
    for path in SOURCES.glob("*.txt"):
        shutil.copy(path, folder / path.name)
    (folder / FOURTH).write_text(f"네 번째 문서\n\n{HEADING}\n{SENTENCE} 두 번째 문장도 확인할 수 있습니다.\n")
    shutil.copytree(SOURCES / "sentences", folder / "sentences")
    (folder / "sentences" / "003_fourth_document.toml").write_text(
        "sentence = [\n"
        + "".join(f"  {{ text = '{text}', category = 'heading' }},\n" for text in ("네 번째 문서", HEADING))
        + "]\n"
    )
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(folder))
    return folder


def _record(claim_id: str, **changes) -> dict:
    record = {**real_records()[0], "id": claim_id, "origin": f"claims/{claim_id}.py"}
    record.update(changes)
    return record


@pytest.mark.needs("torch")
def test_a_fourth_document_gets_checks_new_its_page_its_coverage_and_a_row_in_the_sources_index(
    four_documents, tmp_path, capsys
):
    assert FOURTH in documents()
    claims = tmp_path / "claims"
    claims.mkdir()
    arguments = ["new", "fourth.sentence", "--document", "003", "--section", HEADING, "--quote", SENTENCE]
    assert main([*arguments, "--claims-dir", str(claims)]) == 0, capsys.readouterr().err
    assert HEADING in (claims / "fourth_sentence.py").read_text()
    quoted = _record("fourth.sentence", sources=[to_json(Quote(FOURTH, HEADING, SENTENCE))])
    results = write_document(tmp_path / "r.json", [quoted], to_json(environment("ci", "derandomized")))
    out = tmp_path / "html"
    build_site([results], out, say=lambda _: None, documents=read_documents)
    page = (out / "documents" / "003_fourth_document.html").read_text()
    assert SENTENCE in page and "fourth.sentence" in page
    index = (out / "index.html").read_text()
    # its two headings are classified; of its two other sentences one is quoted, one has no class yet
    assert "003_fourth_document.txt" in index and "50%" in index
    assert "sentence 4 has no class" in page
    assert "003_fourth_document.txt" in (out / "sources.html").read_text()


@pytest.mark.needs("torch")
def test_a_cited_work_reads_cited_not_verified_and_is_listed_with_its_claims(tmp_path):
    cited = _record("cite.roformer", sources=[], citations=[to_json(ROFORMER)])
    quoted = _record("quote.only")
    results = write_document(tmp_path / "r.json", [cited, quoted], to_json(environment("ci", "derandomized")))
    out = tmp_path / "html"
    build_site([results], out, say=lambda _: None, documents=read_documents)
    page = (out / "claims" / "cite.roformer.html").read_text()
    assert "cited, not verified" in page and "https://arxiv.org/abs/2104.09864v2" in page
    index = (out / "sources.html").read_text()
    assert "RoFormer: Enhanced Transformer" in index and "cite.roformer" in index
    assert "quote.only" in index.split("Cited works")[0]  # the quoting claim is listed under its document only


def test_a_citation_with_a_local_text_is_verified_verbatim_and_one_without_a_link_is_refused(four_documents):
    local = Citation("A fourth work", "Someone", 2026, HEADING, SENTENCE, url="https://example.org", document=FOURTH)
    local.verify()
    assert local.as_quote() == Quote(FOURTH, HEADING, SENTENCE)
    with pytest.raises(ValueError, match="quote not found verbatim"):
        Citation("A fourth work", "Someone", 2026, HEADING, "not there", url="https://x.org", document=FOURTH).verify()
    with pytest.raises(ValueError, match="needs an arxiv id, a DOI or a URL"):
        Citation("Unfindable", "Someone", 2026, "§1", "a sentence")
    ROFORMER.verify()  # no local text: nothing to verify, shown as cited


@pytest.mark.parametrize("url", ["javascript:alert(1)", "http://example.org/paper", "https://", "file:///etc/passwd"])
def test_a_citation_links_only_to_an_https_address(url):
    """The report turns the URL into a link a reviewer follows: nothing but a web address gets there."""
    with pytest.raises(ValueError, match="must be an https address"):
        Citation("A work", "Someone", 2026, "§1", "a sentence", url=url)


def test_close_figure_marks_get_their_own_label_rows():
    assert _label_rows([(100.0, "GRU crossover"), (104.0, "LSTM crossover"), (400.0, "far")]) == [0, 1, 0]
