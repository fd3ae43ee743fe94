"""python -m checks compare: what changed between two results files (a refactoring must print "identical")."""

from __future__ import annotations

from pathlib import Path

from checks.engine.cli import main
from checks.evidence.experiment import Design, ExperimentRecord
from checks.results import Finding, write_results
from tests.records import claim_record, environment


def _write(path: Path, *claims) -> Path:
    write_results(path, claims, environment())
    return path


def test_the_same_verdicts_and_findings_are_identical(tmp_path, capsys):
    found = [Finding("condition", "holds only for even d_model")]
    before = _write(tmp_path / "a.json", claim_record("pe.a", "qualified", "qualified", findings=found))
    after = _write(tmp_path / "b.json", claim_record("pe.a", "qualified", "qualified", findings=found))
    assert main(["compare", str(before), str(after)]) == 0
    assert capsys.readouterr().out.strip() == "identical: 1 claims, every verdict and finding the same"


def test_a_changed_verdict_a_changed_finding_and_claims_added_or_removed_are_each_named(tmp_path, capsys):
    before = _write(
        tmp_path / "a.json",
        claim_record("pe.a", "holds"),
        claim_record("pe.b", "qualified", findings=[Finding("condition", "even d_model")]),
        claim_record("pe.gone"),
    )
    after = _write(
        tmp_path / "b.json",
        claim_record("pe.a", "refuted"),
        claim_record("pe.b", "qualified", findings=[Finding("condition", "d_model divisible by 4")]),
        claim_record("pe.new"),
    )
    assert main(["compare", str(before), str(after)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 claims in both; 2 changed, 1 added, 1 removed"
    assert "added: pe.new" in out and "removed: pe.gone" in out
    assert out[out.index("changed: pe.a") + 1] == "  verdict holds -> refuted"
    at = out.index("changed: pe.b")
    assert out[at + 1 : at + 3] == ["  - condition: even d_model", "  + condition: d_model divisible by 4"]


def test_a_timed_experiments_numbers_are_timings_not_a_change(tmp_path, capsys):
    design = Design("h", "task", "models", "budget", "log ratio", "higher", "attention", "lstm", 0.0, {}, timed=True)
    timed = ExperimentRecord("speed", design, "ci")
    records = [
        claim_record("attention.speed", "qualified", findings=[Finding("condition", f"effect {v}")], evidence=[timed])
        for v in (1.2, 1.3)
    ]
    before, after = _write(tmp_path / "a.json", records[0]), _write(tmp_path / "b.json", records[1])
    assert main(["compare", str(before), str(after)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("identical") and "timings only: attention.speed (verdict unchanged)" in out
    flipped = claim_record("attention.speed", "holds", evidence=[timed])
    assert main(["compare", str(before), str(_write(tmp_path / "c.json", flipped))]) == 1


def test_a_bad_results_file_is_one_line_and_status_2(tmp_path, capsys):
    good = _write(tmp_path / "a.json", claim_record("pe.a"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["compare", str(good), str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def _one_verdict_and_one_finding_apart(tmp_path: Path) -> tuple[Path, Path]:
    before = _write(
        tmp_path / "a.json",
        claim_record("pe.a", "holds"),
        claim_record("pe.b", "qualified", findings=[Finding("condition", "even d_model")]),
    )
    after = _write(
        tmp_path / "b.json",
        claim_record("pe.a", "refuted", findings=[Finding("counterexample", "PE(3) | 1 <b> off")]),
        claim_record("pe.b", "qualified", findings=[Finding("condition", "even d_model")]),
    )
    return before, after


def test_diff_markdown_names_the_changed_verdict_and_finding_for_a_pull_request(tmp_path, capsys):
    before, after = _one_verdict_and_one_finding_apart(tmp_path)
    assert main(["diff", str(before), str(after), "--markdown"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("**1 verdict(s) changed, 1 finding(s) or number(s) added, 0 removed** (2 claims in both")
    assert "| `pe.a` | holds → refuted | unchanged | 1 | 0 |" in out and "pe.b" not in out
    assert "- added: counterexample: PE(3) \\| 1 &lt;b> off" in out, "no raw HTML, no broken table"
    assert main(["diff", str(before), str(before), "--markdown"]) == 0
    assert capsys.readouterr().out == "**No change**: 2 claims, every verdict and finding the same.\n"


def test_the_report_against_a_baseline_has_a_changes_page_and_its_markdown(tmp_path):
    from checks.engine.report import main as report

    before, after = _one_verdict_and_one_finding_apart(tmp_path)
    assert report(["--from", str(after), "--out", str(tmp_path / "site"), "--baseline", str(before)]) in (0, 1)
    page = (tmp_path / "site" / "changes.html").read_text(encoding="utf-8")
    assert 'href="claims/pe.a.html"' in page and "holds</span> → <span" in page
    assert "counterexample: PE(3) | 1 &lt;b&gt; off" in page, "autoescaped"
    assert (tmp_path / "site" / "changes.md").read_text(encoding="utf-8").startswith("**1 verdict(s) changed")
    assert 'href="changes.html"' in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
