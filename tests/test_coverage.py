"""Every sentence of every document has exactly one class, and the catalog checks what is checkable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.documents.coverage import (
    ClassificationError,
    Entry,
    Quoting,
    classification_path,
    classify,
    entry_line,
    read_entries,
)
from checks.documents.sources import documents
from checks.engine import cli
from checks.engine.environment import environment
from checks.engine.report import main as reports_main
from checks.engine.sentences import catalog_coverage
from checks.results.codec import to_json
from checks.written.reading import read_documents
from reports.build import build_site
from tests.report_fixtures import ESCAPE_ID, ESCAPE_QUOTE, escaping_record, write_document

ROOT = Path(__file__).resolve().parent.parent

TEXT = "제목\n첫 문장은 참입니다. 둘째 문장은 범위 밖입니다.\nprint(x)\n제목\n"
QUOTES = [
    Quoting("a.one", "proved", True, "첫 문장은 참입니다."),
    Quoting("b.out", "out-of-scope", False, "둘째 문장은 범위 밖입니다."),
]


def one_claim_results(folder):
    """A results file with one made-up claim quoting one sentence of document 002 (nothing to evaluate)."""
    return write_document(folder / "one.json", [escaping_record()], to_json(environment("ci", "derandomized")))


@pytest.fixture(scope="module")
def catalog():
    return catalog_coverage()


@pytest.mark.needs("torch")
def test_every_sentence_of_every_document_has_exactly_one_class(catalog):
    assert sorted(catalog) == documents()
    problems = [line for classified in catalog.values() for line in classified.problems()]
    assert not problems, "\n".join(problems)
    for classified in catalog.values():
        assert all(s.sentence_class != "unclassified" for s in classified.sentences)


@pytest.mark.needs("torch")
def test_at_least_95_percent_of_checkable_sentences_are_checked(catalog):
    checked = sum(c.checked for c in catalog.values())
    checkable = sum(c.checkable for c in catalog.values())
    assert checkable and checked / checkable >= 0.95, f"{checked} of {checkable}"
    for name, classified in catalog.items():
        assert classified.percent >= 95, f"{name}: {classified.summary()}"


def test_a_sentence_gets_its_class_from_the_quotes_over_it_then_from_its_entry():
    entries = [Entry("제목", category="heading"), Entry("print(x)", category="code")]
    classified = classify("doc.txt", TEXT, QUOTES, entries)
    assert [(s.text, s.sentence_class) for s in classified.sentences] == [
        ("제목", "not-a-claim"),
        ("첫 문장은 참입니다.", "checked"),
        ("둘째 문장은 범위 밖입니다.", "out-of-scope"),
        ("print(x)", "not-a-claim"),
        ("제목", "not-a-claim"),
    ]
    assert classified.sentences[1].claims == {"a.one": "proved"}
    assert (classified.checkable, classified.percent, classified.problems()) == (1, 100.0, [])


def test_a_sentence_without_a_class_is_named_and_counts_against_coverage():
    classified = classify("doc.txt", TEXT, QUOTES, [Entry("제목", category="heading")])
    assert classified.unclassified == 1
    assert classified.percent == 50.0
    (problem,) = classified.problems()
    assert "doc.txt: sentence 4 has no class" in problem and "'print(x)'" in problem
    assert "sentences/doc.toml" in problem


def test_an_entry_naming_a_sentence_that_no_longer_exists_or_is_now_quoted_is_stale():
    edited = TEXT.replace("print(x)", "print(y)")
    entries = [Entry("제목", category="heading"), Entry("print(x)", category="code")]
    assert any(
        "names no unquoted sentence" in p and "'print(x)'" in p
        for p in classify("d.txt", edited, [], entries).problems()
    )
    quoted = [*QUOTES, Quoting("c.code", "holds", True, "print(x)")]
    problems = classify("d.txt", TEXT, quoted, entries).problems()
    assert problems == [
        "sources/sentences/d.toml: names no unquoted sentence of d.txt (edited, removed, or now quoted by a claim): "
        "'print(x)'"
    ]


def test_an_unchecked_sentence_is_checkable_and_carries_its_note():
    entries = [Entry("제목", category="heading"), Entry("print(x)", unchecked="prints x; no claim runs it yet")]
    classified = classify("doc.txt", TEXT, QUOTES, entries)
    assert classified.count("unchecked") == 1 and classified.checkable == 2 and classified.percent == 50.0
    assert classified.sentences[3].note == "prints x; no claim runs it yet"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("sentence = [\n  { text = 'a', category = 'heading' },\n  { text = 'a', category = 'code' },\n]", "repeats"),
        ("sentence = [ { text = 'a', category = 'poem' } ]", "unknown category 'poem'"),
        ("sentence = [ { text = 'a', category = 'code', unchecked = 'why' } ]", "either category"),
        ("sentence = [ { text = 'a' } ]", "either category"),
        ("sentence = [ { text = '', category = 'code' } ]", "non-empty text"),
        ("sentence = [ 'a' ]", "non-empty text"),
        ("sentences = []", "holds only"),
        ("sentence = [ { text = 'a', category = 'code' }", "not a readable TOML file"),
        ("sentence = [ { text = 'a', category = 'code' } ]\n[sentence.x]", "not a readable TOML file"),
    ],
)
def test_a_malformed_classification_file_gets_one_line_naming_it(tmp_path, content, message):
    path = tmp_path / "doc.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ClassificationError, match=message) as raised:
        read_entries(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_entry_lines_read_back_as_the_same_entries(tmp_path):
    texts = ["plain", "it's", 'say "x"', "a\\b", "tab\there", "both ' and \" and \\"]
    path = tmp_path / "doc.toml"
    lines = [entry_line(text, category="example") for text in texts] + [entry_line("n", unchecked="why 'so'")]
    path.write_text("sentence = [\n" + "\n".join(lines) + "\n]\n", encoding="utf-8")
    assert [e.text for e in read_entries(path)] == [*texts, "n"]
    assert read_entries(path)[-1].unchecked == "why 'so'"


def test_a_new_document_without_a_classification_file_has_every_unquoted_sentence_unclassified(tmp_path):
    (tmp_path / "999_new.txt").write_text("제목\n새 문장입니다.\n", encoding="utf-8")
    assert not classification_path("999_new.txt", tmp_path).exists()
    classified = catalog_coverage(folder=tmp_path)["999_new.txt"]
    assert classified.unclassified == 2


def test_checks_sentences_prints_the_entries_to_add_and_fails_until_they_are_written(tmp_path, monkeypatch, capsys):
    (tmp_path / "999_new.txt").write_text("제목\n새 문장입니다.\n", encoding="utf-8")
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(tmp_path))

    def sentences() -> tuple[int, str, str]:
        status = cli.main(["sentences", "--document", "999"])
        out, err = capsys.readouterr()
        return status, out, err

    status, out, _ = sentences()
    assert status == 1 and "{ text = '새 문장입니다.', category = '?' }," in out
    path = classification_path("999_new.txt", tmp_path)
    path.parent.mkdir()
    path.write_text("sentence = [ { text = '제목', category = 'heading' } ]\n", encoding="utf-8")
    status, out, _ = sentences()
    assert status == 1 and "{ text = '제목'" not in out
    path.write_text("sentence = [ { text = '제목', category = 'poem' } ]\n", encoding="utf-8")
    status, _, err = sentences()
    assert status == 2 and err.count("\n") == 1 and "unknown category 'poem'" in err
    path.write_text(
        "sentence = [\n  { text = '제목', category = 'heading' },\n"
        "  { text = '새 문장입니다.', unchecked = 'a new claim is on its way' },\n]\n",
        encoding="utf-8",
    )
    status, out, _ = sentences()
    assert status == 0, out
    assert "unchecked 1" in out and "checked 0.0 %" in out


def test_the_classification_files_are_reviewable_one_line_per_sentence():
    for name in documents():
        path = classification_path(name)
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("  { text = ")]
        assert len(lines) == len(read_entries(path)), f"{path}: one entry per line"


def test_coverage_json_lists_every_sentence_with_its_class_and_claims(tmp_path):
    out = tmp_path / "site"
    build_site([one_claim_results(tmp_path)], out, say=lambda line: None, documents=read_documents)
    data = json.loads((out / "coverage.json").read_text(encoding="utf-8"))
    assert sorted(data["documents"]) == documents()
    second = data["documents"]["002_86fa32f25d4c4c54.txt"]
    assert second["total"] == len(second["sentences"]) == 145
    classes = {s["class"] for s in second["sentences"]}
    assert classes <= {"checked", "out-of-scope", "unchecked", "not-a-claim", "unclassified"}
    quoted = next(s for s in second["sentences"] if s["text"] == ESCAPE_QUOTE)
    assert quoted["class"] == "checked" and quoted["claims"] == {ESCAPE_ID: "refuted"}
    heading = next(s for s in second["sentences"] if s["text"] == "1. 어텐션은 순서를 모른다")
    assert (heading["class"], heading["category"]) == ("not-a-claim", "heading")
    assert second["unclassified"] == len(second["problems"]) > 0, "the results hold one claim only"
    page = (out / "documents" / "002_86fa32f25d4c4c54.html").read_text(encoding="utf-8")
    assert 'title="not a claim: heading' in page and "Classification problems" in page


def test_a_malformed_classification_file_stops_the_report_with_one_line(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "sources"
    (folder / "sentences").mkdir(parents=True)
    for name in documents():
        (folder / name).write_text((ROOT / "sources" / name).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "sentences" / "001_53050abb35828e70.toml").write_text("sentence = [", encoding="utf-8")
    first = one_claim_results(tmp_path)
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(folder))
    status = reports_main(["--from", str(first), "--out", str(tmp_path / "site")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "001_53050abb35828e70.toml: not a readable TOML file" in err
    assert not (tmp_path / "site" / "index.html").exists()
