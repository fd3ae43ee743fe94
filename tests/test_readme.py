"""The README's claim example is a claim file that runs as written and gives the verdict it expects."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def readme_claim() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- claim-example -->\n```python\n(.*?)```", text, re.S)
    assert found, "README.md has no ```python block after <!-- claim-example -->"
    return found.group(1)


def test_the_readme_claim_is_short_and_imports_only_the_public_face():
    import checks

    code = readme_claim()
    assert len(code.splitlines()) <= 45
    modules = re.findall(r"^from (checks[\w.]*) import", code, re.M)
    assert modules and set(modules) <= set(checks.PUBLIC)


@pytest.mark.needs("torch")
def test_the_readme_claim_runs_and_is_proved(pytester, monkeypatch):
    monkeypatch.setenv("THEORY_CLAIMS_PROFILE", "dev")
    monkeypatch.setenv("THEORY_CLAIMS_THIRD_PARTY", "0")
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    pytester.mkdir("claims").joinpath("pe_shift_is_rotation.py").write_text(readme_claim(), encoding="utf-8")
    outcome = pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1)
