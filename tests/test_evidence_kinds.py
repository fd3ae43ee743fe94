"""Kinds of evidence plug in: a new kind is its class, its record and its template, and nothing else.

The kind here is written in this file (as a module under checks/evidence would be); the claim model,
the evaluation, the codec, the schema generator and the report pick it up without a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import jinja2
import pytest

from checks import Claim, Quote
from checks.engine.evaluate import evaluate
from checks.evidence import Evidence, kinds, register, unregister
from checks.results import ClaimRecord, EvidenceRecord, Finding, write_results
from checks.results.codec import from_json, to_json
from checks.results.schema import generate, results_schema
from checks.verdicts import Verdict, Weight
from checks.written.reading import read_documents
from reports import build
from tests.records import environment

QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")


@dataclass
class TallyRecord(EvidenceRecord):
    """How many of the counted items passed."""

    kind = "tally"
    name: str
    passed: int
    total: int


TallyRecord.forget()  # in the evidence family only while a test here registers the kind


class Tally(Evidence):
    """``claim.declare(Tally, items)`` over ``def _(item) -> bool``: holds when every item passes."""

    kind, order = "tally", 45
    title = "Tallies"
    template = "evidence/tally.html.j2"
    record_type = TallyRecord

    def __init__(self, name, items, test) -> None:
        self.name, self.items, self.test = name, items, test

    @classmethod
    def declare(cls, claim, items):
        def register(test):
            claim.add(cls(test.__name__, list(items), test))
            return test

        return register

    def run(self, context):
        return [TallyRecord(self.name, sum(bool(self.test(item)) for item in self.items), len(self.items))]

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        tallies = [r for r in records if isinstance(r, TallyRecord)]
        return Weight(refutes=any(t.passed < t.total for t in tallies), support="holds")

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return [
            Finding("counterexample", f"{r.total - r.passed} of {r.total} fail")
            for r in records
            if isinstance(r, TallyRecord) and r.passed < r.total
        ]


@pytest.fixture(autouse=True)
def tally_registered():
    """As if Tally's module were in checks/evidence: registered for each test, gone after it."""
    TallyRecord._family[TallyRecord.kind] = TallyRecord
    register(Tally)
    yield
    unregister(Tally)
    assert Tally not in kinds() and "tally" not in EvidenceRecord.members()


def test_a_new_kind_is_declared_run_weighed_and_recorded():
    claim = Claim(id="tally.evens", title="t", statement="s", sources=[QUOTE], expect="refuted")

    @claim.declare(Tally, range(6))
    def even(item):
        return item % 2 == 0

    record = evaluate(claim)
    assert record.observed == Verdict.REFUTED and record.findings[0].text == "3 of 6 fail"
    assert to_json(from_json(ClaimRecord, to_json(record))) == to_json(record), "the codec knows the kind"
    assert "TallyRecord" in generate(ClaimRecord, "claims")["$defs"], "the generated schema knows it"


def test_a_new_kind_is_shown_by_its_own_template(tmp_path, monkeypatch):
    claim = Claim(id="tally.all", title="t", statement="s", sources=[QUOTE], expect="holds")
    claim.declare(Tally, [1, 2])(lambda item: True)
    results = tmp_path / "results.json"
    write_results(results, [evaluate(claim)], environment())
    (tmp_path / "templates" / "evidence").mkdir(parents=True)
    (tmp_path / "templates" / "evidence" / "tally.html.j2").write_text(
        "{% for item in shown %}<p class=tally>{{ item.record.passed }} of {{ item.record.total }}</p>{% endfor %}"
    )
    packaged = jinja2.PackageLoader("reports")
    monkeypatch.setattr(
        build,
        "PackageLoader",
        lambda _: jinja2.ChoiceLoader([jinja2.FileSystemLoader(tmp_path / "templates"), packaged]),
    )
    monkeypatch.setattr("checks.results.files._results_schema", results_schema)
    build.build_site([results], tmp_path / "html", documents=read_documents)
    page = (tmp_path / "html" / "claims" / "tally.all.html").read_text()
    assert '<h2 id="evidence-tally">Tallies</h2>' in page and "<p class=tally>2 of 2</p>" in page
