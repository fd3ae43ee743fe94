"""Where a repository keeps its claims, documents and outputs: ``[tool.theory-claims]`` in its pyproject.toml.

Every setting has a default relative to the repository's root; the table overrides it, a command-line option
overrides the table, and a ``THEORY_CLAIMS_*`` variable overrides both (CI, a one-off run). The root is the
folder ``THEORY_CLAIMS_ROOT`` names, else the nearest folder at or above the working directory whose
pyproject.toml has the table, else the working directory.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from checks.settings import extras

TABLE = "tool.theory-claims"
PROFILES = ("dev", "ci", "thorough")


class ConfigError(ValueError):
    """A setting that is missing, misspelt or of the wrong type: one line naming it and where to set it."""


@dataclass(frozen=True)
class Settings:
    """One repository's layout, every path absolute."""

    root: Path
    claims: Path
    """The claim files (every ``*.py`` not starting with ``_``)."""
    sources: Path
    """The documents claims quote, read in place: one UTF-8 ``.md``, ``.tex`` or ``.txt`` file each."""
    sentences: Path
    """The sentence classes: one TOML file per document, named after it."""
    out: Path
    """Results, the site, junit.xml and coverage: everything a run writes."""
    evidence: Path
    """Results files measured elsewhere (a GPU machine), merged into every report."""
    profile: str
    """The Hypothesis profile: dev (random, fast), ci (derandomized), thorough (10,000 examples)."""
    language: str
    """The documents' language for sentence splitting (an ISO code: English is split by nupunkt, others by pysbd;
    Korean is found by itself)."""
    configured: bool
    """Whether the root's pyproject.toml has the table."""
    topics: tuple[str, ...] = ()
    """The repository's own topics, each ``module:NAME`` (checks.topics): imported with the claims folder and the
    root on the path."""
    implementations: tuple[str, ...] = ()
    """Adapters every run registers, each ``module:NAME`` as for ``pytest --impl``."""

    def importable(self) -> None:
        """Put the claims folder and the root on ``sys.path`` (once each), where a claim's helper modules, topics
        and adapters are imported from."""
        for folder in (str(self.claims), str(self.root)):
            if folder not in sys.path:
                sys.path.append(folder)  # after the standard library and the installed packages: never shadows them

    @property
    def results(self) -> Path:
        return self.out / "results.json"

    def shown(self, path: Path) -> str:
        """``path`` relative to the root when it lies inside it (what pages and messages print)."""
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return str(path)


KEYS = {
    "claims": "claims",
    "sources": "sources",
    "sentences": "",
    "out": "reports/html",
    "evidence": "reports/evidence",
    "profile": "dev",
    "language": "en",
    "topics": "",
    "implementations": "",
}
"""Each key of the table with its default (paths relative to the root; sentences: SOURCES/sentences)."""
MEANINGS = {
    "claims": "the claim files (every *.py not starting with _)",
    "sources": "the documents claims quote",
    "sentences": "the sentence classes: one TOML file per document, named after it",
    "out": "what a run writes: results, the site, junit.xml and coverage",
    "evidence": "results files measured elsewhere (a GPU machine), merged into every report",
    "profile": "the Hypothesis profile: dev (random), ci (derandomized), thorough (10,000 examples)",
    "language": "the documents' language for sentence splitting (an ISO code; Korean is found by itself)",
    "topics": "the repository's own topics, module:NAME separated by spaces",
    "implementations": "adapters every run registers, module:NAME separated by spaces",
}
"""What each key of the table is (the comment ``init`` writes above it)."""
NAMES = ("profile", "language")
"""The settings that are names, not folders."""
SPECS = ("topics", "implementations")
"""The settings that list ``module:NAME`` specs, separated by spaces."""
VARIABLES = {key: f"THEORY_CLAIMS_{key.upper()}" for key in KEYS}


def load(root: Path | None = None, options: dict[str, str | None] | None = None) -> Settings:
    """The settings of the repository at ``root`` (found from the working directory when None), with
    command-line ``options`` (None: not given) and the ``THEORY_CLAIMS_*`` variables on top."""
    root = (root or find_root()).resolve()
    table, configured = _table(root / "pyproject.toml")
    values: dict[str, str] = dict(KEYS)
    where: dict[str, str] = dict.fromkeys(KEYS, "the default")
    for layer, label in ((table, f"[{TABLE}] of {root / 'pyproject.toml'}"), (options or {}, "the command line")):
        for key, value in layer.items():
            if value is not None:
                values[key], where[key] = value, label
    for key, variable in VARIABLES.items():
        if os.environ.get(variable):
            values[key], where[key] = os.environ[variable], variable
    if values["profile"] not in PROFILES:
        raise ConfigError(
            f"profile {values['profile']!r} (from {where['profile']}) is not one of {', '.join(PROFILES)}; "
            f"set profile in [{TABLE}] or {VARIABLES['profile']}"
        )
    paths = {key: root / values[key] for key in KEYS if key not in (*NAMES, *SPECS) and values[key]}
    paths.setdefault("sentences", paths["sources"] / "sentences")
    specs = {key: tuple(values[key].replace(",", " ").split()) for key in SPECS}
    return Settings(root=root, configured=configured, **{key: values[key] for key in NAMES}, **paths, **specs)


def find_root(start: Path | None = None) -> Path:
    """THEORY_CLAIMS_ROOT, else the nearest folder from ``start`` (the working directory) up whose
    pyproject.toml has ``[tool.theory-claims]``, else ``start``."""
    if os.environ.get("THEORY_CLAIMS_ROOT"):
        return Path(os.environ["THEORY_CLAIMS_ROOT"])
    start = (start or Path.cwd()).resolve()
    for folder in (start, *start.parents):
        if _table(folder / "pyproject.toml")[1]:
            return folder
    return start


def _table(path: Path) -> tuple[dict[str, str], bool]:
    """The table's settings, checked (unknown keys, wrong types), and whether the file has the table."""
    mtime_ns, size = _version(path)
    if size < 0:
        return {}, False
    table, configured = _parsed_table(path, mtime_ns, size)
    return dict(table), configured


@functools.lru_cache(maxsize=64)
def _parsed_table(path: Path, mtime_ns: int, size: int) -> tuple[dict[str, str], bool]:
    """``_table`` of the file as it is at this modification time and size (read once, not on every lookup)."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, False
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path} is not valid TOML ({error})") from None
    table = document.get("tool", {}).get("theory-claims")
    if table is None:
        return {}, False
    if not isinstance(table, dict):
        raise ConfigError(f"[{TABLE}] in {path} must be a table")
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(
            f"[{TABLE}] in {path}: unknown setting(s) {', '.join(unknown)}; the settings are {', '.join(KEYS)}"
        )
    wrong = [
        key for key, value in table.items() if not isinstance(value, str) or (key not in SPECS and not value.strip())
    ]
    if wrong:
        raise ConfigError(f"[{TABLE}] in {path}: {', '.join(wrong)} must be a non-empty string (a folder or a name)")
    return dict(table), True


Choice = tuple[Path, tuple[tuple[str, str | None], ...]]
"""Where settings were chosen: the root and the command line's options."""
_chosen: Choice | None = None


def current() -> Settings:
    """The settings of this process: those of the root and options ``use`` chose (else found from the working
    directory), with the ``THEORY_CLAIMS_*`` variables as they are now."""
    root, options = _chosen if _chosen is not None else (find_root(), ())
    snapshot = tuple(os.environ.get(name, "") for name in (*VARIABLES.values(), "THEORY_CLAIMS_ROOT"))
    return _load_cached(root, options, snapshot, _version(root / "pyproject.toml"))


def _version(path: Path) -> tuple[int, int]:
    """(modification time, size) of a file, (0, -1) when it is missing: settings read before ``init`` wrote the
    table are not the settings after it."""
    try:
        stat = path.stat()
    except OSError:
        return 0, -1
    return stat.st_mtime_ns, stat.st_size


@functools.lru_cache(maxsize=16)
def _load_cached(
    root: Path, options: tuple[tuple[str, str | None], ...], snapshot: tuple[str, ...], version: tuple[int, int]
) -> Settings:
    return load(root, dict(options))


def chosen() -> Choice | None:
    """What ``use`` chose (None: nothing yet)."""
    return _chosen


def use(root: Path | None, options: dict[str, str | None] | None = None) -> None:
    """Take the settings of the repository at ``root`` with these command-line ``options`` from now on (None:
    find the repository from the working directory again)."""
    global _chosen
    _chosen = None if root is None else (root.resolve(), tuple(sorted((options or {}).items())))


def restore(choice: Choice | None) -> None:
    """Go back to an earlier ``chosen()``."""
    global _chosen
    _chosen = choice


class NeedsExtra(ValueError):
    """An object whose module needs an extra that is not installed; the line names the module and the extra."""


def named_object(spec: str, label: str) -> Any:
    """The object ``module:NAME`` names (a topic, an adapter). Whatever importing the module raises (an import error,
    a SystemExit) is a ValueError of one line beginning with ``label``, never a traceback; NeedsExtra where the module
    needs an extra that is not installed."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{label}: expected module:NAME")
    try:
        module = importlib.import_module(module_name)
    except BaseException as error:
        if missing := extras.needed(error):
            raise NeedsExtra(f"{label}: {extras.line(extras.extra_of(missing) or '', missing)}") from None
        raise ValueError(f"{label}: importing {module_name} raised {said(error)}") from None
    found = getattr(module, attribute, None)
    if found is None:
        raise ValueError(f"{label}: module {module_name} has no {attribute!r}")
    return found


def said(error: BaseException) -> str:
    """An exception in one line (KeyboardInterrupt is raised again)."""
    if isinstance(error, KeyboardInterrupt):
        raise error
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:300]}" if text else type(error).__name__


def environment(settings: Settings) -> dict[str, str]:
    """The variables that give a child process (a pytest run a command starts) these settings."""
    return {"THEORY_CLAIMS_ROOT": str(settings.root)} | {
        VARIABLES[f.name]: _text(getattr(settings, f.name)) for f in fields(settings) if f.name in VARIABLES
    }


def _text(value: object) -> str:
    return " ".join(value) if isinstance(value, tuple) else str(value)


__all__ = [
    "ConfigError",
    "NeedsExtra",
    "Settings",
    "chosen",
    "current",
    "environment",
    "find_root",
    "load",
    "named_object",
    "restore",
    "said",
    "use",
]
