"""pytest plugin (entry point ``theory-claims``): claims are tests, and every run writes the results file.

The claim files are those of the repository's claims folder (``[tool.theory-claims]`` in its pyproject.toml,
the options below, or ``THEORY_CLAIMS_*`` variables; checks.settings.config). A claim's test passes when its observed
verdict equals the expected one. ``pytest -k <claim id>`` selects one claim.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import checks.settings.config as layout
from checks.claim import Claim
from checks.engine import memory_limit
from checks.engine.discovery import claim_files, load_claims
from checks.engine.environment import environment
from checks.engine.evaluate import broken_file
from checks.engine.limits import time_limit
from checks.engine.memory import release_freed_memory
from checks.engine.outcomes import Outcomes
from checks.engine.reuse import Earlier, repository_digest
from checks.engine.threads import share_cores
from checks.evidence import kinds
from checks.implementations.base import is_reference
from checks.implementations.contract import checked_implementations
from checks.implementations.registry import implementations, load, register
from checks.implementations.topics import capabilities, topics
from checks.results.codec import from_json, to_json
from checks.results.files import save_run
from checks.results.records import ClaimRecord, ImplementationRecord, Run
from checks.settings import extras
from checks.settings.extras import MissingExtra
from checks.settings.profiles import register_profiles

RECORD = "claim_record"
SHARED = "theory_claims_outcomes"
COVERAGE = "theory_claims_coverage"
"""The key under which an xdist controller tells its workers the folder they share outcomes through."""
OUTCOMES = pytest.StashKey[Outcomes]()
EARLIER_SETTINGS = pytest.StashKey[layout.Choice | None]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("theory-claims")
    for key, option in OPTIONS.items():
        group.addoption(
            option, default=None, metavar=key.upper(), help=f"{SETTING_HELP[key]} (overrides {key} in [{layout.TABLE}])"
        )
    group.addoption("--results", default=None, help="where to write the results file (default OUT/results.json)")
    group.addoption(
        "--impl",
        action="append",
        default=[],
        metavar="package.module:object",
        help="add an implementation adapter, module:object (repeatable)",
    )
    group.addoption(
        "--skip-repeating-claims",
        action="store_true",
        help="deselect the claims whose evidence is all seeded, untimed experiments (the same on every run)",
    )
    group.addoption(
        "--implementation-claims",
        action="store_true",
        help="run only the claims that examine implementations (a check with uses=, a probe of the adapters)",
    )
    group.addoption(
        "--reuse",
        action="store_true",
        help="take a claim's record from the results file already there when nothing it depends on changed "
        "(its file, the repository's other Python files, the documents it quotes, the settings, the tool); "
        "`theory-claims report` passes it unless --fresh",
    )
    group.addoption(
        "--memory-limit",
        type=float,
        default=None,
        metavar="MIB",
        help="fail the run when a process that ran claims (each xdist worker) peaked above MIB of resident memory",
    )


OPTIONS = {
    "claims": "--claims-dir",
    "sources": "--sources-dir",
    "sentences": "--sentences-dir",
    "out": "--out-dir",
    "profile": "--claims-profile",
    "language": "--claims-language",
}
SETTING_HELP = {
    "claims": "the folder of claim files",
    "sources": "the folder of the documents claims quote",
    "sentences": "the folder of the documents' sentence classes",
    "out": "where results, the site and junit go",
    "profile": "the Hypothesis profile: dev, ci or thorough",
    "language": "the documents' language for sentence splitting (en, de, ...; Korean is found by itself)",
}


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The repository's settings first (before Hypothesis's plugin loads a profile), then the run's plugins."""
    config.stash[EARLIER_SETTINGS] = layout.chosen()
    layout.use(layout.find_root(config.rootpath), {key: config.getoption(option) for key, option in OPTIONS.items()})
    try:
        settings = layout.current()
        time_limit()
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None
    register_profiles(settings.profile)
    if config.getoption("--results") is None:
        config.option.results = str(settings.results)
    try:
        topics()  # the repository's topics, then its implementations: a wrong spec is one line naming it
        implementations()
        for spec in config.getoption("--impl"):
            register(load(spec))
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None
    memory_limit.configure(config)
    share_cores(getattr(config, "workerinput", None))
    coverage = Coverage(config)
    repository_digest.cache_clear()  # read once per run (pytester runs several in one process)
    earlier = Earlier(Path(config.getoption("--results"))) if config.getoption("--reuse") else None
    config.stash[OUTCOMES] = Outcomes(_shared_folder(config, coverage), earlier)
    config.pluginmanager.register(coverage, "theory-claims-coverage")
    config.pluginmanager.register(ResultsCollector(config, coverage), "theory-claims-results")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The settings of the session around this one come back (a pytest run inside a test, pytester's)."""
    layout.restore(config.stash.get(EARLIER_SETTINGS, None))


def _shared_folder(config: pytest.Config, coverage: Coverage) -> Path | None:
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


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if _is_claim_file(file_path):
        return ClaimFile.from_parent(parent, path=file_path)
    return None


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A claim file named on the command line is not also a test module (its import errors are its claims')."""
    if _is_claim_file(module_path):
        return NotATestModule.from_parent(parent, path=module_path)
    return None


def _is_claim_file(path: Path) -> bool:
    """A ``.py`` file of the configured claims folder whose name does not start with _."""
    claims = layout.current().claims
    return path.suffix == ".py" and not path.name.startswith("_") and path.parent.resolve() == claims.resolve()


class NotATestModule(pytest.File):
    """What pytest's Python collector gets for a claim file: nothing (ClaimFile collects it)."""

    def collect(self):
        return []


class ClaimFile(pytest.File):
    """A claim file: one test per claim it declares."""

    def collect(self):
        try:
            claims = load_claims(self.path)
        except Exception as error:
            if module := extras.needed(error):
                yield NeedsExtraItem.from_parent(self, name=self.path.name, reason=str(MissingExtra(module)))
                return
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
        self.billed: float | None = None
        """The claim's own evaluation time, in seconds: what its test's call reports as its duration."""

    def runtest(self) -> None:
        if self.duplicate_of:
            record = broken_file(self.path, f"claim id {self.claim.id!r} is also declared in {self.duplicate_of}")
        else:
            try:
                record = self.config.stash[OUTCOMES].record(self.claim)
            except MissingExtra as needs:
                raise pytest.skip.Exception(f"claim {self.claim.id}: {needs}", _use_item_location=True) from None
            self.billed = record.seconds
        self.user_properties.append((RECORD, json.dumps(to_json(record), ensure_ascii=False)))
        if record.observed != record.expected:
            raise ClaimMismatch(_mismatch(record))

    def teardown(self) -> None:
        release_freed_memory()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim {self.claim.id}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """A claim's test lasts its claim's own evaluation (its record's seconds, without the claims it depends on),
    however long the call took: whichever test evaluated a claim first, pytest-split's ``--store-durations``,
    ``--durations`` and the junit times bill each claim for its own work."""
    report = yield
    if report.when == "call" and isinstance(item, ClaimItem) and item.billed is not None:
        report.duration = item.billed
    return report


class NeedsExtraItem(pytest.Item):
    """Stands for a claim file that imports a module of an extra this install lacks: skipped with that line."""

    def __init__(self, *, reason: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reason = reason

    def runtest(self) -> None:
        raise pytest.skip.Exception(self.reason, _use_item_location=True)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim file {self.path.name}"


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
    lines += [f"  finding ({f.kind}): {f.text}{_data(f.data)}" for f in record.findings]
    for kind in kinds():
        lines += [f"  {line}" for line in kind.explain([r for r in record.evidence if isinstance(r, kind.record_type)])]
    lines += [
        f"  {r.implementation or r.kind}/{r.device}/{r.dtype} {r.name}: {r.status} {r.message}"
        for r in record.of(Run)
        if r.status == "error"
    ]
    return "\n".join(lines)


def examines_implementations(claim: Claim) -> bool:
    """Whether any of its evidence declares that it runs against the registered implementations."""
    return any(evidence.examines_implementations() for evidence in claim.evidence)


def repeats_exactly(claim: Claim) -> bool:
    """Whether all its evidence gives the same numbers under any seed (untimed experiments, say)."""
    return bool(claim.evidence) and all(evidence.repeats_exactly() for evidence in claim.evidence)


def _data(data: dict[str, Any] | None) -> str:
    if not data:
        return ""
    text = ", ".join(f"{key} = {value}" for key, value in data.items())
    return f" ({text[:400]})"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A second declaration of a claim id is broken; the first one still runs. With --implementation-claims, the
    claims that examine no implementation are deselected; with --skip-repeating-claims, those that repeat exactly."""
    if config.getoption("--implementation-claims"):
        kept = [i for i in items if not isinstance(i, ClaimItem) or examines_implementations(i.claim)]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
    if config.getoption("--skip-repeating-claims"):
        kept = [i for i in items if not isinstance(i, ClaimItem) or not repeats_exactly(i.claim)]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
    first: dict[str, str] = {}
    for item in items:
        if isinstance(item, ClaimItem):
            if item.claim.id in first:
                item.duplicate_of = first[item.claim.id]
            else:
                first[item.claim.id] = str(item.path)


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
        self.written = save_run(target, self.records, env, complete, self.implementations), complete

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
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
