"""Shared set-up of the engine's tests. Nothing here imports an extra (torch, cvxpy) that is not installed."""

import importlib
import sys
from pathlib import Path

import pytest

from checks.settings.extras import EXTRAS, extra_of, installed, line, needed

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the catalog's helpers (claims.catalog), as claim files import them
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session", autouse=True)
def shared_between_workers(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> None:
    """Under pytest-xdist, the report tests' real records are evaluated once for all workers (in the folder above
    each worker's own temporary folder), not once per worker."""
    from tests import report_fixtures

    if worker_id != "master":
        report_fixtures.SHARED = tmp_path_factory.getbasetemp().parent


@pytest.fixture(autouse=True)
def lesson_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's tests quote the three lesson documents from claim files in folders of their own (a pytester
    folder has no sources/): the documents are this checkout's, unless a test sets another folder."""
    monkeypatch.setenv("THEORY_CLAIMS_SOURCES", str(ROOT / "sources"))


def pytest_configure() -> None:
    """Import once, before any in-process pytester run, the modules that cannot be imported twice in a process.

    pytester's in-process runs remove the modules imported during them. A third-party adapter probed there imports
    torch.distributed, and importing it a second time (torch.testing.assert_close does, lazily) fails with
    "Only a single TORCH_LIBRARY can be used to register the namespace c10d_functional"; a proof with an inequality
    imports cvxpy, whose solver extensions then fail with "cannot load module more than once per process"; and
    torch._dynamo (an optimizer step imports it lazily) registers the "_inductor_test" operator library.
    """
    if installed("torch"):
        torch = importlib.import_module("torch")
        if torch.distributed.is_available():
            importlib.import_module("torch.distributed.tensor")
        importlib.import_module("torch._dynamo")
    if installed("cvxpy"):
        importlib.import_module("cvxpy")


class ExtraModule(pytest.Module):
    """A test module; one that imports an extra that is not installed (the core install: ``tox -e core``) is skipped
    with the extra's line, as the engine skips the evidence that needs it."""

    def _getobj(self):
        try:
            return super()._getobj()
        except pytest.Collector.CollectError as error:
            missing = needed(error)
            if missing is None:
                raise
            raise pytest.skip.Exception(line(extra_of(missing) or "", missing), allow_module_level=True) from None


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module:
    return ExtraModule.from_parent(parent, path=module_path)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``needs("torch", …)`` is skipped with the extra's line where one of them is not installed."""
    for marker in item.iter_markers("needs"):
        for extra in marker.args:
            missing = next((module for module in EXTRAS[extra] if not installed(module)), None)
            if missing is not None:
                pytest.skip(line(extra, missing))
