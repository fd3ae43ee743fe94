"""Issue 30: a package that is installed but cannot be loaded is the environment's problem, named as such, never
an implementation's contract finding (a torchaudio whose shared library failed read as hf-llama breaking its
contract)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from checks.engine.discovery import find_claim
from checks.engine.outcomes import Outcomes
from checks.evidence.check import CheckRun
from checks.implementations.contract import check_implementation
from checks.implementations.loading import loading_failure
from checks.implementations.registry import register, unregister
from tests.faulty_adapters import rotate

BROKEN_LIBRARY = "raise OSError('libbroken_ops.so: cannot open shared object file: No such file or directory')\n"
MISSING_NAME = "from math import no_such_function\n"


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two installed-looking packages that fail on import, in a site-packages folder on sys.path."""
    site = tmp_path / "lib" / "site-packages"
    for name, body in (("brokenlib", BROKEN_LIBRARY), ("halflib", MISSING_NAME)):
        (site / name).mkdir(parents=True)
        (site / name / "__init__.py").write_text(body)
    monkeypatch.syspath_prepend(str(site))
    yield site
    for name in ("brokenlib", "halflib"):
        sys.modules.pop(name, None)


class LoadsOnFirstCall:
    """A RoPE adapter that imports its library when first called, as the third-party adapters do."""

    pairing = "interleaved"

    def __init__(self, name: str, package: str) -> None:
        self.name, self.package = name, package

    def rope(self, x, positions):
        __import__(self.package)
        return rotate(x, positions)


@pytest.mark.parametrize(("package", "kind"), [("brokenlib", "OSError"), ("halflib", "ImportError")])
def test_a_package_that_cannot_load_is_an_environment_problem_naming_it(packages, package, kind):
    record = check_implementation(LoadsOnFirstCall(f"loads-{package}", package))
    assert record.contract == [], "not the adapter's contract finding"
    assert record.missing.startswith(f"loads-{package}: the package {package} is installed but cannot be loaded")
    assert f"({kind}: " in record.missing and record.missing.endswith("an environment problem, not the adapter's")


def test_its_cells_are_skipped_with_that_reason_and_the_references_decide_as_before(packages):
    adapter = LoadsOnFirstCall("loads-brokenlib", "brokenlib")
    claim = find_claim("rope.norm-preserving")
    before = Outcomes().record(claim)
    register(adapter)
    try:
        after = Outcomes().record(claim)
    finally:
        unregister(adapter)
    mine = [run for run in after.of(CheckRun) if run.implementation == adapter.name]
    here = [run for run in mine if run.device == "cpu"]
    assert here and all(run.status == "skipped" for run in mine)
    assert all("brokenlib is installed but cannot be loaded" in run.message for run in here)
    assert after.observed == before.observed and not [f for f in after.findings if adapter.name in f.text]


def test_an_ordinary_error_stays_the_adapters():
    assert loading_failure(RuntimeError("The size of tensor a (32) must match")) is None
    assert loading_failure(OSError("disk full")) is None, "an OSError outside an import is the adapter's"
