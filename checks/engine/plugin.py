"""pytest plugin: claims are tests, and every run writes the results file.

A claim's test passes when its observed verdict equals the expected one.
``pytest -k <claim id>`` selects one claim.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from checks.engine.claim import Claim
from checks.engine.discovery import declared_ids, load_claims
from checks.engine.environment import environment
from checks.engine.evaluate import broken_file
from checks.engine.outcomes import Outcomes
from checks.implementations.registry import load, register
from checks.results.codec import from_json, to_json
from checks.results.files import DEFAULT_RESULTS, ROOT, save_run
from checks.results.records import ClaimRecord, Run

RECORD = "claim_record"
SHARED = "theory_claims_outcomes"
"""The key under which an xdist controller tells its workers the folder they share outcomes through."""
OUTCOMES = pytest.StashKey[Outcomes]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("theory-claims")
    group.addoption("--results", default=str(DEFAULT_RESULTS), help="where to write the results file (JSON)")
    group.addoption(
        "--impl",
        action="append",
        default=[],
        metavar="package.module:object",
        help="add an implementation adapter (repeatable); see README 'Implementations'",
    )


def pytest_configure(config: pytest.Config) -> None:
    for spec in config.getoption("--impl"):
        try:
            register(load(spec))
        except ValueError as error:
            raise pytest.UsageError(str(error)) from None
    config.stash[OUTCOMES] = Outcomes(_shared_folder(config))
    config.pluginmanager.register(ResultsCollector(config), "theory-claims-results")


def _shared_folder(config: pytest.Config) -> Path | None:
    """The folder xdist workers share outcomes through: made by the controller, handed to each worker."""
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        return Path(worker[SHARED]) if SHARED in worker else None
    if getattr(config.option, "dist", "no") == "no":
        return None
    folder = Path(tempfile.mkdtemp(prefix="theory-claims-outcomes-"))
    config.pluginmanager.register(_SharedOutcomes(folder), "theory-claims-shared-outcomes")
    return folder


class _SharedOutcomes:
    """The xdist controller's side: tell each worker the folder, remove it at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[SHARED] = str(self.folder)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".py" and file_path.parent.name == "claims" and not file_path.name.startswith("_"):
        return ClaimFile.from_parent(parent, path=file_path)
    return None


class ClaimFile(pytest.File):
    """A claim file: one test per claim it declares."""

    def collect(self):
        try:
            claims = load_claims(self.path)
        except Exception as error:
            yield BrokenFileItem.from_parent(self, name=self.path.name, error=f"{type(error).__name__}: {error}")
            return
        for claim in claims:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class ClaimMismatch(AssertionError):
    """The observed verdict is not the one the claim file expects."""


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Claim, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.duplicate_of: str | None = None

    def runtest(self) -> None:
        if self.duplicate_of:
            record = broken_file(self.path, f"claim id {self.claim.id!r} is also declared in {self.duplicate_of}")
        else:
            record = self.config.stash[OUTCOMES].record(self.claim)
        self.user_properties.append((RECORD, json.dumps(to_json(record), ensure_ascii=False)))
        if record.observed != record.expected:
            raise ClaimMismatch(_mismatch(record))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim {self.claim.id}"


class BrokenFileItem(pytest.Item):
    """Stands for a claim file that failed to load."""

    def __init__(self, *, error: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        record = broken_file(self.path, self.error)
        self.user_properties.append((RECORD, json.dumps(to_json(record), ensure_ascii=False)))
        raise ClaimMismatch(f"{self.path}: {self.error}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim file {self.path.name}"


def _mismatch(record: ClaimRecord) -> str:
    if record.id.startswith("file:"):
        return record.errors[0]
    lines = [f"{record.id}: observed {record.observed}, expected {record.expected}"]
    lines += [f"  error: {e}" for e in record.errors]
    lines += [f"  finding ({f.kind}): {f.text}" for f in record.findings]
    lines += [
        f"  {r.implementation or r.kind}/{r.device}/{r.dtype} {r.name}: {r.status} {r.message}"
        for r in record.of(Run)
        if r.status == "error"
    ]
    return "\n".join(lines)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A second declaration of a claim id is broken; the first one still runs."""
    first: dict[str, str] = {}
    for item in items:
        if isinstance(item, ClaimItem):
            if item.claim.id in first:
                item.duplicate_of = first[item.claim.id]
            else:
                first[item.claim.id] = str(item.path)


class ResultsCollector:
    """Gathers claim records from every report (xdist workers included) and writes them."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: list[ClaimRecord] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.records += [from_json(ClaimRecord, json.loads(v)) for k, v in report.user_properties if k == RECORD]

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write the results, unless interrupted: an interrupted run leaves the previous file intact.

        A run of only some of the claims (``-k``, one file, a stop after failures) is merged into the
        results file already there, never written over it (checks.results.files.save_run).
        """
        if hasattr(self.config, "workerinput") or not self.records or exitstatus == pytest.ExitCode.INTERRUPTED:
            return
        seed = self.config.getoption("hypothesis_seed", None)
        derandomized = settings().derandomize
        seed_text = "derandomized" if derandomized else str(seed or "random")
        env = environment(settings.get_current_profile_name(), seed_text)
        target, complete = Path(self.config.getoption("--results")), _complete(self.records)
        self.written = save_run(target, self.records, env, complete), complete

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        written = getattr(self, "written", None)
        if written is not None:
            path, complete = written
            what = "results" if complete else f"results of {len(self.records)} claim(s), merged"
            terminalreporter.write_line(f"theory-claims: {what} in {path}")


def _complete(records: list[ClaimRecord]) -> bool:
    """Whether the run ran every claim of every claim folder it ran claims from."""
    folders = {(ROOT / record.origin).resolve().parent for record in records if record.origin}
    declared = {claim_id for folder in folders for claim_id in declared_ids(folder)}
    return declared <= {record.id for record in records}
