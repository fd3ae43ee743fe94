"""Document 002's eight demos are reproduced as figures on the claims they illustrate, with the demos' settings."""

from __future__ import annotations

import pytest

from checks.documents.sources import Quote
from checks.engine.discovery import find_claim
from checks.evidence.probe import Probe, Recorder
from reports import figures

pytestmark = pytest.mark.needs("torch")

DOCUMENT = "002_86fa32f25d4c4c54.txt"
DEMOS = {
    # demo: (its heading in the document, claim, figure, what its title, alt or labels must say)
    "1": ("데모 1 · 순서를 섞어 보기", "attention.pe-restores-order", "demo-1", ("d = 6", "dog bites man", "PE off")),
    "2": ("데모 2 · 위치 인코딩 히트맵", "pe.formula", "pe-heatmap", ("60 positions", "d_model 64")),
    "3": ("데모 3 · 같은 sin 값, 다른 위치", "pe.sin-ambiguous", "demo-3", ("ω = 0.30", "pos = 3", "7.47")),
    "4": ("데모 4 · d_model = 16의 시계 8개", "pe.shift-angle-pos-free", "demo-4-clocks", ("8 clocks", "d_model = 16")),
    "5a": ("데모 5a · 행렬을 직접 곱해 보기", "pe.shift-is-rotation", "demo-5a", ("M_3·PE(5)", "PE(8)", "d_model 16")),
    "5b": ("데모 5b · sin만으로 k칸 뒤를 예측할 수 있나", "pe.sin-only-not-linear", "sin-only-scatter", ("k = 3",)),
    "6": ("데모 6 · 벡터 길이와 내적 곡선", "pe.sin-only-breaks", "dot-curves", ("three reference positions",)),
    "8": ("데모 8 · RoPE: 둘 다 옮기면 점수는 그대로", "rope.relative-score", "demo-8-vectors", ("m = 2, n = 5", "+5")),
}
EXTRA_FIGURES = {
    "6": (("pe.sin-only-breaks", "norms"), ("pe.cos-difference", "see-saw")),
    "8": (("rope.relative-score", "rope-score-under-shifts"),),
}
"""Demos drawn in more than one figure: demo 6's length panel and its two-hand box (ω 0.5, k 1); demo 8's score."""
NUMBERS = {
    "5b": ("pe.sin-only-not-linear", ("sin only: max error of the best line", "(sin, cos) + M_k: max error")),
    "8": ("rope.relative-score", ("score at m=2, n=5", "score after both +5")),
    "5a": ("pe.shift-is-rotation", ("pair 1: PE(5), M_3·PE(5), PE(8)",)),
    "1": ("attention.pe-restores-order", ("per word, max difference from the original order",)),
}
"""The numbers a demo displays, measured by the probe that draws it."""


def probe_records(claim_id: str) -> list:
    """Every probe of the claim, run here: what it measured and drew."""
    records = []
    for evidence in find_claim(claim_id).evidence:
        if isinstance(evidence, Probe):
            recorder = Recorder(evidence.name)
            evidence.measure(recorder)
            records.append(recorder.record)
    return records


@pytest.fixture(scope="module")
def drawn() -> dict[str, list]:
    claims = {claim for _, claim, _, _ in DEMOS.values()} | {c for extra in EXTRA_FIGURES.values() for c, _ in extra}
    return {claim_id: probe_records(claim_id) for claim_id in sorted(claims)}


@pytest.mark.parametrize("demo", sorted(DEMOS))
def test_each_demo_is_a_figure_on_the_claim_that_quotes_its_heading(demo, drawn):
    heading, claim_id, name, settings = DEMOS[demo]
    claim = find_claim(claim_id)
    quoted = [(q.document, q.text) for q in claim.sources if isinstance(q, Quote)]
    assert (DOCUMENT, heading) in quoted, f"{claim_id} does not quote demo {demo}'s heading"
    wanted = [(claim_id, name), *EXTRA_FIGURES.get(demo, ())]
    for owner, figure_name in wanted:
        found = [f for record in drawn[owner] for f in record.figures if f.name == figure_name]
        assert len(found) == 1, f"{owner} draws no figure {figure_name!r}"
        figure = found[0]
        assert str(figures.render(figure)).startswith("<svg")
        if (owner, figure_name) == (claim_id, name):
            text = " ".join((figure.title, figure.alt, figure.x_label, figure.y_label, *figure.series))
            missing = [s for s in settings if s not in text]
            assert not missing, f"demo {demo}'s figure does not state {missing}: {text!r}"


@pytest.mark.parametrize("demo", sorted(NUMBERS))
def test_the_numbers_a_demo_displays_are_measured(demo, drawn):
    claim_id, keys = NUMBERS[demo]
    measured = [key for record in drawn[claim_id] for key in record.measurements]
    for key in keys:
        assert any(key in m for m in measured), f"{claim_id} measures no {key!r}; it has {measured}"
