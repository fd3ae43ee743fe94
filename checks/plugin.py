"""pytest plugin: claims are tests, and every run writes the results file.

A claim's test passes when its observed verdict equals the expected one.
``pytest -k <claim id>`` selects one claim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from checks.claim import Claim
from checks.discovery import load_claims
from checks.evaluate import evaluate_once, forget_outcomes
from checks.implementations import load, register
from checks.results import DEFAULT_PATH, broken_record, claim_record, environment, write_results

RECORD = "claim_record"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("theory-claims")
    group.addoption("--results", default=str(DEFAULT_PATH), help="where to write the results file (JSON)")
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
    config.pluginmanager.register(ResultsCollector(config), "theory-claims-results")


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
            record = broken_record(
                str(self.path), f"claim id {self.claim.id!r} is also declared in {self.duplicate_of}"
            )
            self.user_properties.append((RECORD, json.dumps(record)))
            raise ClaimMismatch(record["errors"][0])
        outcome = evaluate_once(self.claim)
        record = claim_record(outcome)
        self.user_properties.append((RECORD, json.dumps(record)))
        if not outcome.passed:
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
        self.user_properties.append((RECORD, json.dumps(broken_record(str(self.path), self.error))))
        raise ClaimMismatch(f"{self.path}: {self.error}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim file {self.path.name}"


def _mismatch(record: dict[str, Any]) -> str:
    lines = [f"{record['id']}: observed {record['observed']}, expected {record['expected']}"]
    lines += [f"  error: {e}" for e in record["errors"]]
    lines += [f"  finding ({f['kind']}): {f['text']}" for f in record["findings"]]
    lines += [
        f"  {r['implementation']}/{r['device']}/{r['dtype']} {r['check']}: {r['status']} {r['message']}"
        for r in record["numeric"]
        if r["status"] in ("failed", "error")
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
        self.records: list[dict[str, Any]] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.records += [json.loads(v) for k, v in report.user_properties if k == RECORD]

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        forget_outcomes()

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write the results, unless interrupted: an interrupted run leaves the previous file intact."""
        if hasattr(self.config, "workerinput") or not self.records or exitstatus == pytest.ExitCode.INTERRUPTED:
            return
        seed = self.config.getoption("hypothesis_seed", None)
        derandomized = settings().derandomize
        env = environment(
            settings.get_current_profile_name(), "derandomized" if derandomized else str(seed or "random")
        )
        write_results(Path(self.config.getoption("--results")), self.records, env)
