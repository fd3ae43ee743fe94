"""No text is ever evaluated as code or parsed as a formula in checks/, reports/ or claims/.

Found with the ast module (not a text search): calls to eval, exec, compile, sympify,
parse_expr and sympy's S with a string, under any import alias, and ``python -c TEXT``
subprocesses; runpy, which runs a file as code, only where claim files are imported
(checks/engine/discovery.py) and in the sandbox's worker. The one place where document text runs
is checks/implementations/document_code.py: it writes the extracted code to a script file, which
the sandbox's worker (checks/implementations/sandbox.py, a separate ``python`` process) runs with
runpy in a confined child; its runpy call must be reachable only from the worker's
``if __name__ == "__main__"`` entry.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("checks", "reports", "claims")
BUILTINS = {"eval", "exec", "compile", "__import__"}
"""Forbidden as plain names or on builtins (model.eval(), re.compile() are other functions)."""
PARSERS = {"sympify", "parse_expr", "parse_latex"}
"""Forbidden under any name or module."""
RUNNERS = {"run_path", "run_module", "exec_module"}
"""Run a file as code: allowed where claim files are imported and in the sandbox worker only."""
SYMPY_S = {"S"}
"""sympy.S(...) is sympify; sympy.S.Half and friends (attributes) are fine."""


def sources() -> list[Path]:
    files = [p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))]
    return [p for p in files if "html" not in p.relative_to(ROOT).parts]


def offences(source: str, allow_runners: bool = False) -> list[str]:
    """Each forbidden call in ``source`` as 'line N: what'."""
    tree = ast.parse(source)
    aliases = {
        alias.asname or alias.name: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _forbidden(node.func, aliases):
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
        elif _called_name(node.func, aliases) in RUNNERS and not allow_runners:
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...) runs a file as code")
        elif _called_name(node.func, aliases) in SYMPY_S and any(_is_text(a) for a in node.args):
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(text) is sympify")
        elif any(isinstance(a, ast.List | ast.Tuple) and _has_dash_c(a) for a in node.args):
            found.append(f"line {node.lineno}: a subprocess runs `python -c TEXT`")
    return found


def _called_name(func: ast.expr, aliases: dict[str, str]) -> str:
    """The function's name: an imported alias resolved, or the attribute's name."""
    if isinstance(func, ast.Name):
        return aliases.get(func.id, func.id)
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _forbidden(func: ast.expr, aliases: dict[str, str]) -> bool:
    name = _called_name(func, aliases)
    if name in PARSERS:
        return True
    on_builtins = isinstance(func, ast.Attribute) and ast.unparse(func.value) == "builtins"
    return name in BUILTINS and (isinstance(func, ast.Name) or on_builtins)


def _is_text(node: ast.expr) -> bool:
    return not (isinstance(node, ast.Constant) and isinstance(node.value, int | float))


def _has_dash_c(sequence: ast.List | ast.Tuple) -> bool:
    return any(isinstance(e, ast.Constant) and e.value == "-c" for e in sequence.elts)


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_text_is_evaluated(path: Path):
    where = path.relative_to(ROOT).as_posix()
    # claim files; the sandbox's worker
    allowed = where in ("checks/engine/discovery.py", "checks/implementations/sandbox.py")
    assert offences(path.read_text(encoding="utf-8"), allowed) == [], f"{where} evaluates text"


def test_the_catalog_and_the_sandbox_are_scanned():
    names = {p.relative_to(ROOT).as_posix() for p in sources()}
    scanned = {"claims/catalog/lesson_code.py", "checks/implementations/sandbox.py", "reports/build.py"}
    assert scanned | {"checks/symbolic/decide.py"} <= names
    assert sum(n.startswith("claims/") for n in names) >= 20


def test_the_sandbox_runs_document_code_in_a_separate_process():
    """Every process started for document code is ``python SCRIPT`` (the worker perhaps inside bubblewrap);
    runpy runs only in the worker process."""
    code = (ROOT / "claims" / "catalog" / "lesson_code.py").read_text(encoding="utf-8")
    sandbox = ast.parse((ROOT / "checks" / "implementations" / "sandbox.py").read_text(encoding="utf-8"))
    for call in _process_starts(ast.parse(code)):
        command = call.args[0]
        assert isinstance(command, ast.List) and ast.unparse(command.elts[0]) == "sys.executable", ast.unparse(call)
        assert not _has_dash_c(command)
    [command] = [
        n.value
        for n in ast.walk(sandbox)
        if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "worker" and isinstance(n.value, ast.List)
    ]
    assert ast.unparse(command.elts[0]) == "sys.executable" and not _has_dash_c(command) and "runpy" not in code
    runners, entry = _functions_calling(sandbox, RUNNERS), _worker_only(sandbox)
    assert runners and runners <= entry, f"runpy reachable outside the worker entry: {sorted(runners - entry)}"


def _process_starts(tree: ast.Module) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("subprocess.run", "subprocess.Popen")
    ]


def _functions_calling(tree: ast.Module, names: set[str]) -> set[str]:
    return {
        function.name
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and _called_name(node.func, {}) in names
    }


def _worker_only(tree: ast.Module) -> set[str]:
    """Module functions used only under ``if __name__ == "__main__"``, or only by functions that are."""
    names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    users: dict[str, set[str]] = {name: set() for name in names}
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef):
            label = statement.name
        elif isinstance(statement, ast.If) and "__main__" in ast.unparse(statement.test):
            label = "<entry>"
        else:
            label = "<module>"
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and node.id in users and node.id != label:
                users[node.id].add(label)
    only: set[str] = set()
    while True:
        grown = {name for name, used in users.items() if used and used <= only | {"<entry>"}}
        if grown <= only:
            return only
        only |= grown


@pytest.mark.parametrize(
    "code",
    [
        "eval(text)",
        "exec(text)",
        "compile(text, 'f', 'exec')",
        "import builtins\nbuiltins.eval(text)",
        "import sympy as sp\nsp.sympify(text)",
        "from sympy import sympify as make\nmake(text)",
        "from sympy.parsing.sympy_parser import parse_expr\nparse_expr(text)",
        "import sympy\nsympy.parsing.sympy_parser.parse_expr(text)",
        "import sympy as sp\nsp.S('x + 1')",
        "import subprocess, sys\nsubprocess.run([sys.executable, '-c', code])",
        "__import__(name)",
        "import runpy\nrunpy.run_path(script)",
    ],
)
def test_the_scanner_catches(code):
    assert offences(textwrap.dedent(code)), code


@pytest.mark.parametrize(
    "code",
    [
        "model.eval()",
        "import re\nre.compile(pattern)",
        "torch.compile(function)",
        "import sympy as sp\nsp.S.Half + sp.S(1)",
        "import sympy as sp\nsp.Symbol('x', real=True)",
        "import subprocess, sys\nsubprocess.run([sys.executable, str(script)], timeout=10)",
        "import ast\nast.parse(source)",
    ],
)
def test_the_scanner_allows(code):
    assert offences(textwrap.dedent(code)) == []


def test_worker_only_follows_the_calls_from_the_main_entry():
    worker = "import runpy\n\ndef run(s):\n    runpy.run_path(s)\n\ndef serve():\n    run('x')\n"
    entry = "\nif __name__ == '__main__':\n    serve()\n"
    assert _worker_only(ast.parse(worker + entry)) == {"run", "serve"}
    assert _worker_only(ast.parse(worker + "\ndef helper():\n    run('y')\n" + entry)) == {"serve"}
    assert _worker_only(ast.parse(worker + entry + "\nrun('z')\n")) == {"serve"}
