"""Issue 45: every proof page opened with sin² + cos² = 1 and Groebner reduction, whatever the proof used. Each
decision now records how it was reached, and a proof's page explains those methods and no other."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from checks import Document, Proof
from checks.evidence.proof import record_of
from checks.results import write_results
from checks.written.reading import read_documents
from reports.build import build_site
from tests.records import claim_record, environment

x, t = sp.symbols("x t", real=True)
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)


def _methods(build: Callable[[Proof], object]) -> list[str]:
    p = Proof()
    build(p)
    return [name for name, _ in record_of(p, 0.0).methods()]


@pytest.mark.needs("sos")
def test_each_decision_records_the_method_it_used():
    assert _methods(lambda p: p.decide(x * (x + 1), x**2 + x)) == ["multiplying out"]
    assert _methods(lambda p: p.decide(sp.sin(t) ** 2 + sp.cos(t) ** 2, 1)) == ["Groebner reduction"]
    assert _methods(lambda p: p.decide(sp.Sum(sp.sin(t) ** 2 + sp.cos(t) ** 2, (i, 1, n)), n)) == [
        "termwise",
        "Groebner reduction",
    ]
    assert _methods(lambda p: p.decide(x**2 + 1, 0, relation=">")) == ["sum of squares"]
    assert _methods(lambda p: p.decide(x + 1, x)) == ["multiplying out", "witness"]
    assert _methods(lambda p: p.decide(sp.Matrix([[x, 0]]), sp.Matrix([[x, 0]]))) == ["entrywise", "multiplying out"]

    def moments(p: Proof) -> None:
        q = p.random_vector("q", mean=0, variance=1)
        p.decide(p.variance(sp.Sum(q[i], (i, 1, n))), n)

    assert _methods(moments) == ["moments", "multiplying out"]


def test_a_proof_page_explains_the_methods_its_proof_used_and_no_other(tmp_path):
    quote = Document("002_86fa32f25d4c4c54.txt").quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    p = Proof()
    q = p.random_vector("q", mean=0, variance=1)
    p.decide(p.variance(sp.Sum(q[i], (i, 1, n))), n)
    record = claim_record("a.variance", "proved", "proved", sources=[quote], evidence=[record_of(p, 0.1)])
    results = tmp_path / "r.json"
    write_results(results, [record], environment())
    build_site([results], tmp_path / "html", documents=read_documents)
    page = (tmp_path / "html" / "claims" / "a.variance.html").read_text(encoding="utf-8")
    assert "How this proof was decided:" in page and "<strong>moments</strong>" in page
    assert "Groebner" not in page and "sin² + cos² = 1" not in page and "sum of squares" not in page
