"""Errata an author edits from (issue 62): in the document's language, in the document's line order, counted alike
on the index, the document page and the files; and, apart, what a reader sees besides sentences."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from checks.documents.sources import document_text
from checks.engine.discovery import claim_files, load_claims
from checks.verdicts.errata import fields
from checks.written.reading import read_documents
from checks.written.surface import blemishes
from reports.build import build_site
from tests.report_fixtures import write_fixture_results

HANGUL = re.compile(r"[\uac00-\ud7a3]")
LESSON_000, LESSON_001, LESSON_002 = "000_1100ff0056b332e7.txt", "001_53050abb35828e70.txt", "002_86fa32f25d4c4c54.txt"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("authors")
    cpu, cuda = write_fixture_results(folder / "results")
    build_site([cpu, cuda], folder / "html", say=lambda _: None, documents=read_documents)
    return folder / "html"


@pytest.mark.needs("torch")
@pytest.mark.parametrize("path", claim_files(), ids=lambda p: p.name)
def test_a_readers_erratum_of_a_korean_document_says_its_problem_in_korean_with_the_runs_figures(path):
    for claim in load_claims(path):
        erratum = claim.erratum
        if erratum is None or not erratum.for_readers or not claim.quotes:
            continue
        if not HANGUL.search(document_text(claim.quotes[0].document)):
            continue
        assert HANGUL.search(erratum.reader_problem), f"{claim.id}: no Korean reader_problem"
        korean = {name.removesuffix("_korean") for name in fields(erratum.reader_problem)}  # a figure said in Korean
        assert korean == set(fields(erratum.problem)), (
            f"{claim.id}: the Korean problem cites other figures than the English one"
        )


@pytest.mark.needs("torch")
def test_the_errata_file_runs_in_line_order_and_counts_what_the_page_and_index_count(site):
    rows = json.loads((site / "errata" / "errata.json").read_text(encoding="utf-8"))["documents"][LESSON_000]
    starts = [min((p["position"] for p in r["places"] if p["position"] >= 0), default=1 << 62) for r in rows]
    assert starts == sorted(starts), "an author edits top to bottom"
    markdown = (site / "errata" / "000_1100ff0056b332e7.md").read_text(encoding="utf-8")
    assert markdown.startswith("# 정오표: 000_1100ff0056b332e7.txt")
    counted = re.search(r"고칠 문장 (\d+)개\(([^)]*)\), 제안 (\d+)건", markdown)
    assert counted, markdown[:400]
    changes, by_severity, suggestions = int(counted.group(1)), counted.group(2), int(counted.group(3))
    assert suggestions == len(rows) and changes == sum(
        1 for r in rows for p in r["places"] if p["wording"] or not any(q["wording"] for q in r["places"])
    )
    table = list(csv.DictReader(io.StringIO((site / "errata" / "000_1100ff0056b332e7.csv").read_text("utf-8")[1:])))
    assert len(table) == changes, "one CSV line per sentence to change"
    page = (site / "documents" / "000_1100ff0056b332e7.html").read_text(encoding="utf-8")
    assert f"고칠 문장 {changes}개({by_severity})" in page
    index = (site / "index.html").read_text(encoding="utf-8")
    severity_counts = [int(n) for n in re.findall(r"(\d+)", by_severity)]
    row = re.search(r'href="documents/000_1100ff0056b332e7.html#errata".*?</tr>', index, re.S)
    assert row and [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', row.group(0))] == severity_counts


@pytest.mark.needs("torch")
def test_a_formula_as_written_is_explained_in_the_documents_language(site):
    rows = json.loads((site / "errata" / "errata.json").read_text(encoding="utf-8"))["documents"][LESSON_000]
    (escaped,) = [r for r in rows if r["finding"] and any(p["line"] == 311 for p in r["places"])]
    assert escaped["problem"].startswith("311행의 식: 제대로 표시되지 않습니다. 문자열 이스케이프 때문에")
    assert escaped["problem"].count("제대로 표시되지 않습니다") == 1 and "탭으로 읽혔습니다" in escaped["problem"]


def test_what_a_reader_sees_besides_sentences_is_listed_apart():
    said = {b.korean.split(":")[0]: b for b in blemishes(LESSON_000, document_text(LESSON_000))}
    doubled = next(b for key, b in said.items() if "글머리 기호" in key)
    assert doubled.places[0] == (7, 11) and "목록 항목 36개" in doubled.korean
    assert any(b.text == "python / 실행복사" and b.places == ((123, 124),) for b in said.values())
    stacked = next(b for key, b in said.items() if "제목 바로 다음" in key)
    assert [a for a, _ in stacked.places] == [33, 69], "a title, a part's first heading and '1. …' are not"
    generic = (
        "Sinusoidal Positional Encoding\n\n핵심 아이디어\n\nsin과 cos를 씁니다.\n\n"
        "A 대 B\n\n두 가지 방식 비교\n\n두 방식을 나란히 놓고 비교합니다.\n"
    )
    assert not [b for b in blemishes("a.txt", "Intro.\n\n" + generic) if "heading" in b.english], "a part's label"
    labelled = next(b for b in said.values() if "식과 같은 줄에" in b.korean)
    assert labelled.places == ((216, 216),) and labelled.text == "(의미 정보) + (위치 정보)"
    found = {b.english.split(":")[0].split(" (")[0]: b for b in blemishes(LESSON_002, document_text(LESSON_002))}
    run_on = found["a note runs into the display formula before it, on the formula's line"]
    assert run_on.places[:3] == ((21, 21), (65, 65), (81, 81)), "a note run into the display formula on its line"
    readouts = next(b for b in found.values() if "readout" in b.english)
    assert (167, 167) in readouts.places and "n − m—" in document_text(LESSON_002).splitlines()[166]
    assert found["a table with its header and no row"].places == ((145, 145),)
    assert not [b for b in found.values() if "skip" in b.english], "002 numbers each demo after its part; 7 has none"
    by_part = "1. A\n\n데모 1 · a\n\n2. B\n\n데모 2 · b\n\n3. C\n\nText.\n\n4. D\n\n데모 4 · d\n"
    assert not [b for b in blemishes("a.txt", by_part) if "skip" in b.english]
    across = "1. A\n\n데모 1 · a\n\n2. B\n\n데모 2 · b\n\n3. C\n\n데모 4 · d\n"
    assert [b.first for b in blemishes("a.txt", across) if "skip" in b.english] == [11], "demo 3 is missing"
    sliders = next(b for b in found.values() if "slider" in b.english)
    assert [a for a, _ in sliders.places] == [29, 31, 43, 45, 57, 73, 75, 87, 89, 91, 99, 128, 163, 165], "57: 40°"
    (figure,) = [b for b in said.values() if "그림 제목" in b.korean]
    assert figure.places == ((115, 115),) and figure.text == "주파수별 변화"
    joined = next(b for b in said.values() if "두 줄이 한 줄에" in b.korean)
    assert [a for a, _ in joined.places] == [60, 212, 231]
    (metadata,) = [b for b in blemishes(LESSON_001, document_text(LESSON_001)) if "metadata" in b.english]
    assert (
        metadata.places == ((1, 11),)
        and "분류" in metadata.korean
        and "'AI Research Portfolio Post'" in metadata.korean
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Title\n\n## Empty\n\n## Full\n\nText.\n", [("a heading with nothing under it", 3)]),
        ("# Title\n\nText.\n\n---\n\n- item\n- - doubled\n", [("doubled bullets", 8)]),
        ("# Title\n\n## Parent\n\n### Child\n\nText.\n", []),
        ("# Title\n\nkey: value\nkind: post\nlevel: easy\n", []),  # metadata is judged in plain text only
        ("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", []),
    ],
)
def test_a_markdown_documents_surface(text, expected):
    found = [(b.english.split(":")[0], b.first) for b in blemishes("post.md", text)]
    assert found == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Title\n\nSection\n\nAnother section\n\nText under it.\n", ["a heading followed directly"]),
        ("Title\n\nIntro text.\n\n---\n\nPart\n\nChapter\n\nText.\n", []),  # a part's first heading
        ("Title\n\nText.\n\nSection\n\n1. First step\n\nText.\n", []),
        ("category: llm\ntype: concept\nlevel: easy\n\nText of the post.\n", ["a page's metadata"]),
        ("Text.\n\nscore—\n\nmore text.\n", ["1 readout(s)"]),
        ("Text.\n\na\tb\tc\n\nA caption.\n", ["a table with its header and no row"]),
        ("Text.\n\na\tb\tc\n1\t2\t3\n", []),
        ("Text.\n\n- item one\n- item two\n", []),
        ("Text.\n\n학습 시: 최대 512 토큰 추론 시: 513번째 위치\n", ["two 'label: value' lines"]),
        ("Text.\n\nNote: this is fine. Then: more.\n", []),
        ("Text.\n\nscore—\n\nd_model 64\n\nmore text.\n", ["1 readout(s)", "1 slider(s)"]),
        ("Text.\n\nd_model 64\n\nmore text.\n", []),  # no readout: a line that ends in a number is no slider
        ("Intro.\n\nFigure 1: a plot.\n\nText.\n\nFigure 3: a map.\n\nTable 1: x.\n", ["numbered figure skip"]),
        ("Intro.\n\n데모 5a · a\n\nText.\n\n데모 5b · b\n\nText.\n\n데모 6 · c\n\nText.\n", []),
    ],
)
def test_a_plain_texts_surface(text, expected):
    found = [b.english for b in blemishes("post.txt", text)]
    assert len(found) == len(expected) and all(f.startswith(e) for f, e in zip(found, expected, strict=True)), found


@pytest.mark.needs("torch")
def test_a_lesson_that_counts_positions_from_another_place_gets_a_row_citing_the_others(site):
    """Issue 62, item 4: 001 maps token1 to pos 1 where 000's notation and 002 count from 0."""
    from checks.written.conventions import disagreements

    texts = {name: document_text(name) for name in (LESSON_000, "001_53050abb35828e70.txt", LESSON_002)}
    (found,) = disagreements(texts)
    assert found.counting.document == "001_53050abb35828e70.txt" and found.counting.first == 1
    assert found.rewritten == "token1 -> pos 0\ntoken2 -> pos 1\ntoken3 -> pos 2"
    rows = json.loads((site / "errata" / "errata.json").read_text(encoding="utf-8"))["documents"]
    (row,) = [r for r in rows["001_53050abb35828e70.txt"] if r["finding"] == "position counting"]
    said = "이 문서는 위치를 1부터 셉니다(80행 'token1 -> pos 1'). 다른 레슨은 0부터 셉니다(000 85행"
    assert row["problem"].startswith(said)
    assert row["places"][0]["wording"] == found.rewritten
    assert not disagreements({LESSON_000: texts[LESSON_000], LESSON_002: texts[LESSON_002]}), "they agree"


def test_a_comparison_heading_whose_section_never_names_one_side():
    """000 line 261, 'Sinusoidal vs 학습 가능한 위치 임베딩': its section describes learned embeddings and RoPE, never
    the sinusoidal side; a section that names both sides is no finding (001's '6. RNN vs Transformer')."""
    (one_sided,) = [b for b in blemishes(LESSON_000, document_text(LESSON_000)) if "compares" in b.english]
    assert one_sided.places == ((261, 276),) and "'Sinusoidal'과 '학습 가능한 위치 임베딩'을" in one_sided.korean
    both = "Intro.\n\nRNN vs Transformer\n\nAn RNN reads one token at a time; a Transformer reads all at once.\n"
    assert not [b for b in blemishes("a.txt", both) if "compares" in b.english]


def test_documents_no_one_here_wrote_show_no_surface_blemish_and_001s_spaced_letters_are_found():
    """The outside corpus (tests/formula_corpus) is clean on its surface: none is listed; 001's label and
    metadata (lines 1–11) and line 96 are."""
    from pathlib import Path

    folder = Path(__file__).resolve().parent / "formula_corpus"
    found = {p.name: blemishes(p.name, p.read_text(encoding="utf-8")) for p in folder.iterdir()}
    assert not any(found.values()), {name: [b.english for b in seen] for name, seen in found.items() if seen}
    lesson = "001_53050abb35828e70.txt"
    assert [b.places for b in blemishes(lesson, document_text(lesson))] == [((1, 11),), ((96, 96),)]


def test_a_document_is_korean_by_its_share_of_hangul_not_by_one_word():
    """The second researcher review: one Korean word in an English post turned its errata Korean."""
    from checks.documents.segmentation import document_language

    post = "Each token holds up a sign (팻말) that says what it offers. " * 20
    assert document_language(post, "en") == "en"
    assert {document_language(document_text(name), "en") for name in (LESSON_000, LESSON_002)} == {"ko"}
