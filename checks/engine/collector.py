"""What a run writes: every implementation's contract checked before the claims, the claim records gathered from
every report (xdist workers included) into the results file, and whether the run covered the whole catalog.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import checks.settings.config as layout
from checks.engine.discovery import claim_files
from checks.engine.environment import environment
from checks.engine.items import RECORD, BrokenFileItem, ClaimItem
from checks.engine.readings import documents_read
from checks.implementations.base import is_reference
from checks.implementations.contract import checked_implementations
from checks.implementations.registry import not_loaded
from checks.implementations.topic_records import capabilities
from checks.results.codec import from_json
from checks.results.files import save_run
from checks.results.records import ClaimRecord, ImplementationRecord, Run

SHARED = "theory_claims_outcomes"
"""The key under which an xdist controller tells its workers the folder they share outcomes through."""
COVERAGE = "theory_claims_coverage"
"""The key under which each xdist worker tells the controller what it collected."""


def shared_folder(config: pytest.Config, coverage: Coverage) -> Path | None:
    """The folder xdist workers share outcomes through: made by the controller, handed to each worker."""
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        return Path(worker[SHARED]) if SHARED in worker else None
    if getattr(config.option, "dist", "no") == "no":
        return None
    folder = Path(tempfile.mkdtemp(prefix="theory-claims-outcomes-"))
    config.pluginmanager.register(_SharedOutcomes(folder, coverage), "theory-claims-shared-outcomes")
    return folder


class _SharedOutcomes:
    """The xdist controller's side: tell each worker the folder, hear what each collected, remove the folder."""

    def __init__(self, folder: Path, coverage: Coverage) -> None:
        self.folder, self.coverage = folder, coverage

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[SHARED] = str(self.folder)

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        seen = getattr(node, "workeroutput", {}).get(COVERAGE)
        if seen is not None:
            self.coverage.workers.append(seen)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class ResultsCollector:
    """Checks every implementation's contract before the claims, gathers claim records from every report
    (xdist workers included) and writes them all."""

    def __init__(self, config: pytest.Config, coverage: Coverage) -> None:
        self.config, self.coverage = config, coverage
        self.records: list[ClaimRecord] = []
        self.implementations: list[ImplementationRecord] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Contract checks first, in the process that writes the results: here, before this process runs claims.

        An xdist controller runs no claim itself (its adapters have not been called when it checks them at the end).
        Only a run with a claim that examines implementations checks them; ``--collect-only`` checks nothing.
        """
        if hasattr(self.config, "workerinput") or self.config.option.collectonly:
            return
        used = {topic for i in session.items if isinstance(i, ClaimItem) for topic in i.claim.topics}
        if used:
            self.implementations = checked_implementations(lambda adapter: bool(capabilities(adapter) & used), used)

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
        named = {run.implementation for r in self.records for run in r.of(Run) if not run.reference}
        if not self.implementations and named:
            used = {topic for record in self.records for topic in record.topics}
            self.implementations = checked_implementations(
                lambda adapter: adapter.name in named or is_reference(adapter), used or None
            )
        seed = self.config.getoption("hypothesis_seed", None)
        derandomized = settings().derandomize
        seed_text = "derandomized" if derandomized else str(seed or "random")
        env = environment(settings.get_current_profile_name(), seed_text, shard_of(self.config))
        target, complete = Path(self.config.getoption("--results")), self.coverage.complete(len(self.records))
        read = documents_read()
        self.written = save_run(target, self.records, env, complete, self.implementations, read), complete

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for why in not_loaded():
            terminalreporter.write_line(f"theory-claims: left out {why}")
        for record in self.implementations:
            if record.contract:
                first = record.contract[0]
                terminalreporter.write_line(
                    f"theory-claims: implementation {record.name} breaks its contract ({len(record.contract)} "
                    f"finding(s), listed in the report); first: {first.capability} ({first.check}): {first.text}"
                )
        claims = layout.current().claims
        if not self.coverage.items and not (claims.is_dir() and claim_files(claims)):
            terminalreporter.write_line(
                f"theory-claims: no claim files in {claims}; set claims = '…' in [{layout.TABLE}] of "
                "pyproject.toml, --claims-dir, or THEORY_CLAIMS_CLAIMS"
            )
        written = getattr(self, "written", None)
        if written is not None:
            path, complete = written
            what = "results" if complete else f"results of {len(self.records)} claim(s), merged"
            terminalreporter.write_line(f"theory-claims: {what} in {path}")


class Coverage:
    """Whether a run ran the whole catalog: every claim file of its claim folders, every claim, none deselected.

    Each pytest-xdist worker collects everything and says what it saw; the controller counts the records.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.files: set[Path] = set()
        self.items = self.deselected = 0
        self.workers: list[dict[str, int]] = []

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        claims = [item for item in session.items if isinstance(item, ClaimItem | BrokenFileItem)]
        self.items, self.files = len(claims), self.files | {item.path for item in claims}

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        deselected = [item for item in items if isinstance(item, ClaimItem | BrokenFileItem)]
        self.deselected += len(deselected)
        self.files |= {item.path for item in deselected}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:
            workeroutput[COVERAGE] = {"items": self.items, "whole": int(self.whole_collection())}

    def whole_collection(self) -> bool:
        """Every claim file of the folders collected from, and no claim deselected."""
        folders = {path.parent for path in self.files}
        return not self.deselected and all(set(claim_files(folder)) <= self.files for folder in folders)

    def complete(self, records: int) -> bool:
        if self.workers:
            return all(seen["whole"] for seen in self.workers) and records >= max(s["items"] for s in self.workers)
        return self.whole_collection() and records >= self.items


def shard_of(config: pytest.Config) -> str:
    """ "G/N" when pytest-split runs group G of N splits (``--splits N --group G``), else ""."""
    splits, group = config.getoption("splits", None), config.getoption("group", None)
    return f"{group}/{splits}" if splits and group else ""
