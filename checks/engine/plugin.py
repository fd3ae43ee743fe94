"""pytest plugin (entry point ``theory-claims``): claims are tests, and every run writes the results file.

The claim files are those of the repository's claims folder (``[tool.theory-claims]`` in its pyproject.toml,
the options below, or ``THEORY_CLAIMS_*`` variables; checks.settings.config). A claim's test passes when its observed
verdict equals the expected one. ``pytest -k <claim id>`` selects one claim.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

import checks.settings.config as layout
from checks.claim import Claim
from checks.engine import memory_limit
from checks.engine.collector import Coverage, ResultsCollector, shared_folder
from checks.engine.items import OUTCOMES, ClaimFile, ClaimItem, NotATestModule
from checks.engine.limits import time_limit
from checks.engine.outcomes import Outcomes
from checks.engine.reuse import Earlier, repository_digest
from checks.engine.threads import share_cores
from checks.implementations.registry import implementations, load, register
from checks.implementations.topic_records import topics
from checks.settings.profiles import register_profiles

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
    config.stash[OUTCOMES] = Outcomes(shared_folder(config, coverage), earlier)
    config.pluginmanager.register(coverage, "theory-claims-coverage")
    config.pluginmanager.register(ResultsCollector(config, coverage), "theory-claims-results")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The settings of the session around this one come back (a pytest run inside a test, pytester's)."""
    layout.restore(config.stash.get(EARLIER_SETTINGS, None))


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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """A claim's test lasts its claim's own evaluation (its record's seconds, without the claims it depends on),
    however long the call took: whichever test evaluated a claim first, pytest-split's ``--store-durations``,
    ``--durations`` and the junit times bill each claim for its own work."""
    report = yield
    if report.when == "call" and isinstance(item, ClaimItem) and item.billed is not None:
        report.duration = item.billed
    return report


def examines_implementations(claim: Claim) -> bool:
    """Whether any of its evidence declares that it runs against the registered implementations."""
    return any(evidence.examines_implementations() for evidence in claim.evidence)


def repeats_exactly(claim: Claim) -> bool:
    """Whether all its evidence gives the same numbers under any seed (untimed experiments, say)."""
    return bool(claim.evidence) and all(evidence.repeats_exactly() for evidence in claim.evidence)


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
