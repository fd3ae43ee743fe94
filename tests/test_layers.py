"""Layers, as folders: what claim files import never loads the engine, the sandbox or third-party adapters.

Each module is imported in a fresh interpreter and ``sys.modules`` is read afterwards, so that nothing
imported earlier in this process hides a dependency.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HELPERS = sorted(p.stem for p in (ROOT / "checks" / "helpers").glob("*.py") if p.stem != "__init__")
SANDBOX_AND_ADAPTERS = {
    "checks.implementations.document_code",
    "checks.implementations.document",
    "checks.implementations.third_party",
    "checks.implementations.registry",
    "checks.implementations.builtin",
    "checks.implementations.mutants",
}


def loaded_after(statement: str) -> set[str]:
    """The modules of this project (and torch) that ``statement`` loads in a fresh interpreter."""
    script = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    return {m for m in json.loads(done.stdout) if m.startswith(("checks", "reports")) or m == "torch"}


@pytest.mark.parametrize("helper", HELPERS)
def test_a_helper_loads_no_engine_no_sandbox_and_no_third_party_adapter(helper):
    loaded = loaded_after(f"import checks.helpers.{helper}")
    assert not {m for m in loaded if m.startswith("checks.engine")}, "helpers never import the engine"
    assert not loaded & SANDBOX_AND_ADAPTERS, "a claim's helpers do not load the sandbox or the adapters"


def test_the_package_face_gives_claim_files_the_claim_model_without_the_runners():
    loaded = loaded_after("import checks\nchecks.Claim, checks.Quote, checks.FLOATS, checks.Verdict")
    engine = {m for m in loaded if m.startswith("checks.engine")}
    assert engine == {"checks.engine", "checks.engine.claim"}, "the claim model only: no harness, plugin, evaluation"
    assert not loaded & SANDBOX_AND_ADAPTERS and "torch" not in loaded


def test_the_report_builder_and_the_results_model_do_not_import_torch():
    loaded = loaded_after(
        "import reports.build, reports.model, checks.results, checks.evidence\nchecks.evidence.kinds()"
    )
    assert "torch" not in loaded and not {m for m in loaded if m.startswith("checks.engine")}


def test_helpers_name_no_engine_module_even_lazily():
    for path in (ROOT / "checks" / "helpers").glob("*.py"):
        names = {node.module for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)}
        assert not {n for n in names if n and n.startswith("checks.engine")}, path.name


def test_reports_read_records_by_attribute_never_by_key():
    """No ``x["key"]`` and no ``x.get("key")`` with a literal key in reports/*.py: records are typed.

    reports/browser.py is left out: it reads what its own script returns from a page in Chromium, not records.
    """
    offences = []
    for path in sorted(p for p in (ROOT / "reports").glob("*.py") if p.name != "browser.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keyed = isinstance(node, ast.Subscript) and _literal(node.slice)
            got = (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and node.args
                and _literal(node.args[0])
            )
            if keyed or got:
                offences.append(f"{path.name}:{node.lineno}")
    assert offences == []


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)
