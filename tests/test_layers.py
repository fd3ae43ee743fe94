"""Layers, as folders: what claim files import never loads the engine, the sandbox or third-party adapters.

Each module is imported in a fresh interpreter and ``sys.modules`` is read afterwards, so that nothing
imported earlier in this process hides a dependency.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HELPERS = sorted(p.stem for p in (ROOT / "checks" / "helpers").glob("*.py") if p.stem != "__init__")
SANDBOX_AND_ADAPTERS = {
    "catalog.lesson_code",
    "catalog.lesson_adapters",
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


@pytest.mark.needs("torch")
@pytest.mark.parametrize("helper", HELPERS)
def test_a_helper_loads_no_engine_no_sandbox_and_no_third_party_adapter(helper):
    loaded = loaded_after(f"import checks.helpers.{helper}")
    assert not {m for m in loaded if m.startswith("checks.engine")}, "helpers never import the engine"
    assert not loaded & SANDBOX_AND_ADAPTERS, "a claim's helpers do not load the sandbox or the adapters"


def test_the_package_face_gives_claim_files_the_claim_model_without_the_runners():
    loaded = loaded_after("import checks\nchecks.Claim, checks.Quote, checks.FLOATS, checks.Verdict")
    assert not {m for m in loaded if m.startswith("checks.engine")}, "the claim model only: no plugin, evaluation"
    runners = {"checks.evidence.check.harness", "checks.evidence.sweep.runner"}
    assert not loaded & runners and not loaded & SANDBOX_AND_ADAPTERS and "torch" not in loaded


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


def test_claim_files_import_only_the_public_face():
    """A claim file may import ``checks`` and the modules of ``checks.PUBLIC``; everything else is internal."""
    import checks

    offences = []
    for path in sorted((ROOT / "claims").rglob("*.py")):
        for module in imported_modules(path, names=False):
            if module.split(".")[0] == "checks" and module not in checks.PUBLIC:
                offences.append(f"{path.relative_to(ROOT)}: {module}")
    assert offences == []


def test_the_top_of_checks_holds_only_the_face_and_subpackages():
    """What a claim may import shows in the tree: every module at the top of ``checks`` is a face module."""
    import checks

    top = {f"checks.{path.stem}" for path in (ROOT / "checks").glob("*.py")} - {"checks.__init__", "checks.__main__"}
    assert top - set(checks.PUBLIC) == set(), "an internal module belongs in a subpackage"


def test_no_internal_module_shares_a_face_modules_name():
    """A face module is the one place its name means something: ``checks.precision`` is not also a helper's name
    (issue 64: face modules re-exported helpers of the same name)."""
    import checks

    face = {name.rpartition(".")[2] for name in checks.PUBLIC}
    inside = {
        str(path.relative_to(ROOT / "checks"))
        for path in (ROOT / "checks").rglob("*.py")
        if path.parent != ROOT / "checks"
        and f"checks.{path.parent.name}" not in checks.PUBLIC  # a face package's own modules (checks/topics/…)
        and path.stem in face
    }
    assert inside == set(), "name the module for what it holds"


@pytest.mark.needs("torch")
def test_every_public_module_loads_and_exports_what_it_names():
    import checks

    for name in checks.PUBLIC:
        module = __import__(name, fromlist=["_"])
        missing = [n for n in getattr(module, "__all__", []) if not hasattr(module, n)]
        assert not missing, (name, missing)


LAYERS: tuple[tuple[str, ...], ...] = (
    # the ground: settings (config, profiles, extras), the verdict vocabulary and errata, the prover
    ("checks.settings", "checks.verdicts", "checks.symbolic"),
    # the documents, numbers, statistics, formulas
    ("checks.documents", "checks.numerics", "checks.statistics", "checks.formulas"),
    # the documents' formulas, notation and examples read
    ("checks.written",),
    # what a run records
    ("checks.results",),
    # implementations and their adapters, figures
    ("checks.implementations", "checks.figures"),
    # the kinds of evidence and their runners
    ("checks.evidence",),
    # the claim model, and the helpers the face re-exports
    ("checks.claim", "checks.helpers"),
    # the face claim files import, and the topics
    (
        "checks",
        "checks.adapters",
        "checks.attention",
        "checks.models",
        "checks.precision",
        "checks.reference",
        "checks.rope",
        "checks.strategies",
        "checks.topics",
        "checks.training",
    ),
    # the site, built from results files
    ("reports",),
    # discovery, evaluation, the plugin and the commands (theory-claims report among them)
    ("checks.engine",),
    ("checks.__main__",),
)
"""The layers, from the ground up: a module imports only from the layers below its own (even lazily, even under
TYPE_CHECKING). A unit is a package (``checks.engine``) or a module at the top of ``checks`` (``checks.figures``)."""


def unit_of(module: str) -> str | None:
    """The unit of LAYERS a module belongs to (None: not this project's)."""
    parts = module.split(".")
    if parts[0] == "reports":
        return "reports"
    if parts[0] != "checks":
        return None
    return "checks" if len(parts) == 1 else f"checks.{parts[1]}"


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def test_every_unit_has_its_layer():
    layered = {unit for layer in LAYERS for unit in layer}
    found = {unit_of(_module_name(path)) for top in ("checks", "reports") for path in (ROOT / top).rglob("*.py")}
    assert found - layered == set(), "place each new package or top-level module in LAYERS"
    assert layered - found == set(), "LAYERS names a unit that no longer exists"


def test_a_module_imports_only_from_the_layers_below_its_own():
    floor = {unit: number for number, layer in enumerate(LAYERS) for unit in layer}
    offences = []
    for top in ("checks", "reports"):
        for path in sorted((ROOT / top).rglob("*.py")):
            own = unit_of(_module_name(path))
            for module in imported_modules(path, names=False):
                other = unit_of(module)
                if other and other != own and floor[other] >= floor[own]:
                    offences.append(f"{path.relative_to(ROOT)}: {module} ({other} is not below {own})")
    assert offences == []


def test_no_import_circle_among_the_projects_modules():
    """Every import the code names (at module level, in a function or under TYPE_CHECKING) is an edge."""
    graph = import_graph()
    circles = [cycle for cycle in strongly_connected(graph) if len(cycle) > 1]
    assert circles == []


def imported_modules(path: Path, names: bool = True) -> set[str]:
    """Every module an ``import`` or ``from … import`` of the file names, anywhere in it; with ``names``, also
    ``module.name`` for each name taken (it may be a submodule: ``from checks.engine import cli``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if names:
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports (a package's face is the package's ``__init__``)."""
    files = [p for folder in ("checks", "reports") for p in (ROOT / folder).rglob("*.py")]
    modules = {module_name(path): path for path in files}
    return {name: {m for m in imported_modules(path) if m in modules and m != name} for name, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle_and_reads_the_real_graph():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"], ["d"]]
    graph = import_graph()
    assert "checks.evidence.check.record" in graph["checks.evidence.check.harness"]
    assert "checks.engine.memory_limit" in graph["checks.engine.plugin"], "from checks.engine import memory_limit"


def _layout_rows() -> dict[str, str]:
    """README.md's layout table: path → what."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Layout") :].split("\n\n")[1]
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    return {cells[0].strip("| `"): cells[1] for cells in rows}


def test_the_readmes_layout_names_what_the_tree_holds():
    """Each path of README.md's layout exists, each subpackage of checks/ has its row, and the row of checks/ names
    exactly the face modules of checks.PUBLIC."""
    import checks

    rows = _layout_rows()
    assert [path for path in rows if not (ROOT / path).exists()] == []
    packages = {f"checks/{p.parent.name}/" for p in (ROOT / "checks").glob("*/__init__.py")}
    assert packages - set(rows) == set(), "give each subpackage of checks/ its row"
    named = set(re.findall(r"`(\w+)`", rows["checks/"].split("(", 1)[1]))
    assert named == {module.removeprefix("checks.") for module in checks.PUBLIC if module.count(".") == 1}


def test_each_class_name_has_one_meaning():
    """No two classes of checks/ and reports/ share a name: a reader meets one meaning per name."""
    defined: dict[str, list[str]] = {}
    for top in ("checks", "reports"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    defined.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in defined.items() if len(paths) > 1} == {}


@pytest.mark.needs("torch")
def test_every_name_the_face_exports_is_used():
    """A name a face module lists in ``__all__`` is used somewhere besides the face module, the module that defines
    it and the generated docs/api.md: by a claim, a test, a documentation page or another module."""
    import checks

    files = [*ROOT.glob("*/**/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"]
    texts = {
        path: path.read_text(encoding="utf-8") for path in files if path.name != "api.md" and ".tox" not in path.parts
    }
    unused = []
    for name in checks.PUBLIC:
        module = __import__(name, fromlist=["_"])
        face = Path(module.__file__).resolve()
        for exported in getattr(module, "__all__", []):
            defines = re.compile(rf"^(?:class |def )?{re.escape(exported)}\b", re.M)
            used = re.compile(rf"\b{re.escape(exported)}\b")
            if not any(used.search(text) for path, text in texts.items() if path != face and not defines.search(text)):
                unused.append(f"{name}.{exported}")
    assert unused == []
