"""The API reference page keeps the public face complete: every module of ``checks.PUBLIC`` declares ``__all__``,
every name in it exists and has a docstring, and docs/api.md is what ``checks.engine.api`` generates."""

from __future__ import annotations

import sys
import types
from importlib import import_module
from pathlib import Path

import pytest

import checks
from checks.engine.api import api_page, docstring, module_section, signature
from checks.engine.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.needs("torch")
@pytest.mark.parametrize("name", checks.PUBLIC)
def test_every_public_module_declares_its_names_and_each_has_a_docstring(name):
    module = import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert missing == [], f"{name}.__all__ names what it does not define"
    undocumented = [n for n in module.__all__ if not docstring(module, n)]
    assert undocumented == [], f"{name}: no docstring (for a constant: a string literal right after it)"


@pytest.mark.needs("torch")
def test_the_api_page_is_what_the_generator_writes():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == api_page(), "docs/api.md is out of date: run `python -m checks.engine.developer api`"


@pytest.mark.needs("torch")
def test_the_developer_command_writes_the_page_and_the_users_command_has_none(tmp_path, capsys):
    """Issue 61: `theory-claims api` wrote docs/api.md into a user's sources folder, where it became a document,
    and `schema` rewrote a file inside site-packages: both are developer commands of this checkout now."""
    from checks.engine.developer import checkout
    from checks.engine.developer import main as developer

    assert developer(["api", "--root", str(tmp_path)]) == 0
    assert (tmp_path / "docs" / "api.md").read_text(encoding="utf-8") == api_page()
    assert checkout() == ROOT, "run from this checkout, the page's default place is its docs/"
    for command in ("api", "schema"):
        with pytest.raises(SystemExit) as refused:
            main([command])
        assert refused.value.code == 2 and f"invalid choice: '{command}'" in capsys.readouterr().err


@pytest.mark.needs("torch")
def test_docstrings_are_read_through_re_exports_and_after_constants():
    import checks.attention
    import checks.strategies

    assert docstring(checks.attention, "crossover").startswith("The crossover n")
    assert "sequence length n" in docstring(checks.attention, "d"), "a constant's string literal, through the import"
    assert docstring(checks, "PUBLIC") == "The modules a claim file may import from this project."
    assert signature(checks.attention.crossover) == "(gate_blocks: int, width: sp.Expr = d) -> sp.Expr | None"
    assert signature(checks.attention.d) is None, "a value, not a function: no signature"
    assert "SearchStrategy[int]" in signature(checks.strategies.positions)


def test_a_module_without_all_gets_a_line_saying_so(monkeypatch):
    module = types.ModuleType("checks_api_probe", "A module a test makes.")
    module.value = 1
    monkeypatch.setitem(sys.modules, "checks_api_probe", module)
    section = module_section("checks_api_probe")
    assert "## `checks_api_probe`" in section and "A module a test makes." in section
    assert "*No `__all__`: this module does not declare its public names.*" in section
