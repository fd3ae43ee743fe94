"""Records reused from an earlier run (checks.engine.reuse, issue 61 item 7): only while nothing a claim depends on
changed, never a broken one, never without --reuse; the pages say which and when each was made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks.settings import config

CLAIM = """
import sympy as sp

from checks import Claim, Document
{extra}

claim = Claim(
    id="post.{name}",
    title="t",
    statement="s",
    sources=[Document("post.md").quote("Results", "{sentence}")],
    expect="proved",
)


@claim.proof
def _(p):
    a = sp.Symbol("a", real=True)
    p.decide(sp.sin(a) ** 2 + sp.cos(a) ** 2, {one})
"""
POST = "# Post\n\n## Results\n\nThe first identity holds.\n\nThe second identity holds.\n"


@pytest.fixture
def repository(pytester, monkeypatch) -> pytest.Pytester:
    for name in [*config.VARIABLES.values(), "THEORY_CLAIMS_ROOT"]:
        monkeypatch.delenv(name, raising=False)
    pytester.makepyprojecttoml('[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nprofile = "dev"\n')
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.mkdir("docs").joinpath("post.md").write_text(POST, encoding="utf-8")
    claims = pytester.mkdir("claims")
    for name, sentence in (("first", "The first identity holds."), ("second", "The second identity holds.")):
        source = CLAIM.format(name=name, sentence=sentence, extra="", one="1")
        claims.joinpath(f"{name}.py").write_text(source, encoding="utf-8")
    (pytester.path / "helpers.py").write_text("ONE = 1\n", encoding="utf-8")
    return pytester


def _run(repository: pytest.Pytester, *options: str) -> dict[str, dict]:
    outcome = repository.runpytest_inprocess("claims", "-p", "no:cacheprovider", *options)
    assert outcome.ret in (0, 1), outcome.stdout.str()
    results = json.loads((repository.path / "reports" / "html" / "results.json").read_text(encoding="utf-8"))
    return {claim["id"]: claim for claim in results["claims"]}


def _reused(records: dict[str, dict]) -> set[str]:
    return {claim_id for claim_id, record in records.items() if record["reused"]}


def test_an_unchanged_claim_keeps_its_record_and_its_date(repository):
    first = _run(repository, "--reuse")
    assert not _reused(first) and all(record["key"] for record in first.values())
    again = _run(repository, "--reuse")
    assert _reused(again) == {"post.first", "post.second"}
    assert again["post.first"]["date"] == first["post.first"]["date"], "the date says when it was made"
    assert not _reused(_run(repository)), "without --reuse (plain pytest, CI) every claim is evaluated"


@pytest.mark.parametrize(
    ("change", "evaluated"),
    [
        ("claim", {"post.first"}),
        ("document", {"post.first", "post.second"}),
        ("helper", {"post.first", "post.second"}),
        ("setting", {"post.first", "post.second"}),
    ],
)
def test_a_change_to_what_a_claim_depends_on_evaluates_it_again(repository, change, evaluated):
    _run(repository, "--reuse")
    if change == "claim":
        path = repository.path / "claims" / "first.py"
        path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    elif change == "document":
        (repository.path / "docs" / "post.md").write_text(POST + "\nA new paragraph.\n", encoding="utf-8")
    elif change == "helper":
        (repository.path / "helpers.py").write_text("ONE = 1.0\n", encoding="utf-8")
    else:
        table = '[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nprofile = "ci"\n'
        (repository.path / "pyproject.toml").write_text(table, encoding="utf-8")
    records = _run(repository, "--reuse")
    assert set(records) - _reused(records) == evaluated


def test_a_broken_record_is_never_reused(repository):
    path = repository.path / "claims" / "second.py"
    path.write_text(CLAIM.format(name="second", sentence="The second identity holds.", extra="", one="ONE"))
    first = _run(repository, "--reuse")
    assert first["post.second"]["observed"] == "broken"
    assert "post.second" not in _reused(_run(repository, "--reuse"))


def test_the_pages_name_the_reused_records(repository):
    from reports.build import build_site

    _run(repository, "--reuse")
    _run(repository, "--reuse")
    earlier = config.chosen()
    try:
        config.use(repository.path)
        site = repository.path / "site"
        build_site([repository.path / "reports" / "html" / "results.json"], site, say=lambda _: None)
    finally:
        config.restore(earlier)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Reused: 2 of 2 claim(s)" in index
    page = (site / "claims" / "post.first.html").read_text(encoding="utf-8")
    assert "(reused: this run kept the record made then" in page


def test_the_site_a_run_writes_in_the_checkout_is_no_input_of_the_tool():
    """reports/html (git-ignored) holds the last run's results.json: were it part of the tool's digest, every run
    would change every key and nothing would be reused (the faulty-adapter tests' reuse of the gate's records)."""
    from checks.engine import reuse

    package = Path(reuse.__file__).resolve().parents[2]
    written = package / "reports" / "html" / "reuse-probe.json"
    written.parent.mkdir(parents=True, exist_ok=True)
    reuse.tool_digest.cache_clear()
    before = reuse.tool_digest()
    try:
        written.write_text('{"a": 1}', encoding="utf-8")
        reuse.tool_digest.cache_clear()
        assert reuse.tool_digest() == before
    finally:
        written.unlink(missing_ok=True)
        reuse.tool_digest.cache_clear()
