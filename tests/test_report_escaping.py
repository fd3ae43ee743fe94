"""Every text field of a results file renders as text on every page the report writes.

Each field holds its own payload ``<script>alert(N)</script> & "qN" 'a'``. A page passes when
no payload's markup survives (no script element, no event-handler attribute, no raw
``<script>alert(``) and the payload reads back, unescaped, from the page's text or attribute
values. tests/test_report_build.py covers a hostile title, statement, section and MathML;
this file covers every other field, a hostile claim id, and document text with < and &.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from checks.results.codec import to_json
from checks.results.files import write_json
from checks.results.records import SCHEMA_VERSION
from checks.written.reading import read_documents
from reports import search
from reports.build import build_site
from tests.records import environment

LESSON, ESSAY = "000_1100ff0056b332e7.txt", "002_86fa32f25d4c4c54.txt"
FIELDS: dict[int, str] = {}


def payload(n: int, field: str) -> str:
    FIELDS[n] = field
    return f"<script>alert({n})</script> & \"q{n}\" 'a'"


def hostile_record() -> dict[str, Any]:
    p = payload
    figure = {
        "name": "error",
        "kind": "lines",
        "title": p(23, "figure title"),
        "alt": p(24, "figure alt"),
        "x_label": p(25, "figure x label"),
        "y_label": p(26, "figure y label"),
        "series": {p(27, "figure series label"): {"x": [0, 1, 2, 3], "y": [0.1, 0.2, 0.4, 0.8]}},
        "matrix": [],
        "marks": {p(28, "figure mark label"): 2},
        "log_x": False,
        "log_y": False,
    }
    run = {
        "kind": "check",
        "name": p(16, "check name"),
        "implementation": "numpy",
        "reference": True,
        "device": "cpu",
        "dtype": "float64",
        "status": "failed",
        "examples": 3,
        "max_error": 0.5,
        "tolerance": 1e-9,
        "worst_input": {"x": p(18, "worst input")},
        "counterexample": {"x": p(19, "run counterexample")},
        "message": p(17, "run message"),
        "seconds": 0.01,
    }
    return {
        "id": "escape.every-field",
        "origin": "claims/escape_every_field.py",
        "title": p(1, "title"),
        "statement": p(2, "statement"),
        "sources": [
            {"document": ESSAY, "section": p(3, "section"), "text": p(4, "quote not in the document")},
            {"document": LESSON, "section": "코드", "text": "if d < d_model:"},
            {
                "document": ESSAY,
                "section": "5. k칸 이동 = 회전 행렬",
                "text": "\\cos(\\omega_i k) & \\sin(\\omega_i k)",
            },
        ],
        "depends": [p(5, "depends")],
        "expected": "refuted",
        "observed": "refuted",
        "out_of_scope": p(6, "out-of-scope reason"),
        "evidence": [
            {
                "kind": "proof",
                "status": "refuted",
                "seconds": 0.01,
                "steps": [{"label": p(7, "step label"), "text": p(8, "step text"), "mathml": ""}],
                "facts": [{"label": p(9, "fact label"), "holds": False}],
                "conditions": [p(10, "proof condition")],
                "decisions": [
                    {
                        "expected": "proved",
                        "status": "refuted",
                        "statement": p(11, "decision statement"),
                        "mathml": "",
                        "reason": p(12, "decision reason"),
                        "witness": {p(13, "witness key"): p(14, "witness value")},
                        "conditions": [p(15, "decision condition")],
                        "certificates": [],
                    }
                ],
                "witness": None,
            },
            run,
            {
                "kind": "probe",
                "name": p(20, "probe name"),
                "seconds": 0.01,
                "measurements": {p(21, "measurement key"): p(22, "measurement value")},
                "findings": [],
                "figures": [figure],
            },
        ],
        "findings": [
            {
                "kind": "counterexample",
                "text": p(29, "counterexample text"),
                "data": {p(30, "data key"): p(31, "data")},
            },
            {"kind": "condition", "text": p(32, "condition text"), "data": {}},
        ],
        "errors": [p(33, "error")],
        "seconds": 0.1,
        "date": "2026-01-01T00:00:00+00:00",
    }


def hostile_id_record() -> dict[str, Any]:
    record = hostile_record()
    return {**record, "id": f"escape.id-{payload(40, 'claim id')}", "title": "t", "findings": [], "errors": []}


ENVIRONMENT = environment(
    cpu=payload(34, "environment cpu"),
    gpus=[payload(35, "environment gpu")],
    commit=payload(36, "environment commit"),
    date="2026-01-01",
    hypothesis_profile="ci",
    hypothesis_seed=payload(37, "environment seed"),
)


def write_hostile(path, claims: list[dict[str, Any]]) -> None:
    """A results file holding these records as written (JSON, in the current schema)."""
    write_json(
        path,
        {
            "schema": SCHEMA_VERSION,
            "environment": to_json(ENVIRONMENT),
            "claims": claims,
            "reran": [],
            "implementations": [],
        },
    )


NOT_SHOWN = {
    "decision condition",  # the proof's own conditions (shown) already gather every decision's
}
"""Fields no page displays, so there is nothing to escape."""


class Page(HTMLParser):
    """Text, attribute values, tags and event-handler attributes of one page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: set[str] = set()
        self.handlers: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.handlers += [f"{tag} {name}" for name, _ in attrs if name.startswith("on")]
        self.text += [value or "" for _, value in attrs]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("escaping")
    results = folder / "results.json"
    write_hostile(results, [hostile_record(), hostile_id_record()])
    out = folder / "html"
    build_site([results], out, documents=read_documents)
    return {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.html"))}


def test_every_page_is_written(site):
    assert "index.html" in site
    assert len([name for name in site if name.startswith("claims/")]) == 2
    assert {f"documents/{d.removesuffix('.txt')}.html" for d in (LESSON, ESSAY)} <= set(site)


def test_no_markup_survives_on_any_page(site):
    """No hostile field becomes markup; the one script is the search page's own text, unchanged."""
    for name, html in site.items():
        page = Page(html)
        if name == search.PAGE:
            assert re.findall(r"<script>(.*?)</script>", html, flags=re.S) == [search.SCRIPT]
        else:
            assert "script" not in page.tags, name
        assert page.handlers == [], name
        assert "<script>alert(" not in html, f"{name} carries a raw payload"


def test_every_field_reads_back_as_text(site):
    shown = "\n".join(text for html in site.values() for text in Page(html).text)
    missing = {field for n, field in FIELDS.items() if not _reads_back(payload(n, field), shown)}
    assert missing == set(NOT_SHOWN), f"payloads not found as text: {sorted(missing)}"


@pytest.mark.parametrize(
    ("document", "text"), [(LESSON, "if d < d_model:"), (ESSAY, "\\cos(\\omega_i k) & \\sin(\\omega_i k)")]
)
def test_document_text_with_lt_and_amp_is_escaped_and_marked(site, document, text):
    html = site[f"documents/{document.removesuffix('.txt')}.html"]
    assert text in "".join(Page(html).text)
    assert text.replace("&", "&amp;").replace("<", "&lt;") in html


def _reads_back(text: str, shown: str) -> bool:
    """As plain text, or as the JSON string the report prints for data values."""
    return text in shown or json.dumps(text, ensure_ascii=False) in shown


def test_the_checks_catch_a_build_without_autoescaping(tmp_path, monkeypatch):
    """The page checks can fail: with autoescaping off, the payloads come through as markup."""
    monkeypatch.setattr("reports.build.select_autoescape", lambda **_: False)
    results = tmp_path / "results.json"
    write_hostile(results, [hostile_record()])
    build_site([results], tmp_path / "html", documents=read_documents)
    page = (tmp_path / "html" / "claims" / "escape.every-field.html").read_text(encoding="utf-8")
    assert "script" in Page(page).tags and "<script>alert(1)</script>" in page
