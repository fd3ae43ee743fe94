"""Document 000's own code, extracted verbatim and run in the sandbox (checks.implementations.sandbox).

This is the one place where text from the documents is executed, and never in the test process:
each script is written to a file in its own empty folder and run by the sandbox's worker, in a
fresh fork of a pristine process, confined (no network, no new processes, no writes outside its
folder, resource limits). Results come back as .npy/.json files in ``out/``. A script that fails,
is refused something, or runs past its timeout makes the document functions below raise
DocumentCodeError with the reason, so that a claim built on them is broken, never passed.
``run_script(code, fresh=True)`` runs a script in a fresh interpreter outside the sandbox instead
(tests compare the two on the document's own script).
"""

from __future__ import annotations

import ast
import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import numpy as np

from checks.adapters import Sandbox, SandboxError, document_text

DOCUMENT = "000_1100ff0056b332e7.txt"
TIMEOUT_SECONDS = 120
_BLOCKS = {
    # name: (text just before the block, text just after it)
    "numpy": ("python\n실행복사\n", "\n---"),
    "torch": ("PyTorch로 보는 Positional Encoding (참고용)\n\n", "\n---"),
}


class DocumentCodeError(RuntimeError):
    """The document's code failed to run (the message carries its stderr)."""


@dataclass(frozen=True)
class ScriptRun:
    """What a script printed and left behind."""

    returncode: int
    stdout: str
    stderr: str
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    values: dict[str, object] = field(default_factory=dict)


def code_block(name: str) -> str:
    """The verbatim code block ``numpy`` (the lesson script) or ``torch`` (the class)."""
    before, after = _BLOCKS[name]
    text = document_text(DOCUMENT)
    start = text.index(before) + len(before)
    return text[start : text.index(after, start)].strip() + "\n"


@cache
def definitions(name: str) -> str:
    """Only the imports, functions and classes of a block (no top-level statements)."""
    tree = _parse(code_block(name))
    kept = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.ClassDef)]
    return "\n\n".join(ast.get_source_segment(code_block(name), n) or "" for n in kept) + "\n"


def _parse(source: str) -> ast.Module:
    """ast.parse, tried once more after CPython 3.11's spurious "AST constructor recursion depth mismatch"
    (python/cpython#106905, fixed in 3.12), seen once here in a run of the faulty-adapter claims."""
    try:
        return ast.parse(source)
    except SystemError as error:
        if "recursion depth mismatch" not in str(error):
            raise
        return ast.parse(source)


def run_script(code: str, timeout: float = TIMEOUT_SECONDS, fresh: bool = False) -> ScriptRun:
    """Run ``code`` as a script in an empty folder, in the sandbox (or, ``fresh``, a new interpreter).

    The script may write ``out/<name>.npy`` arrays and ``out/values.json``. DocumentCodeError when it
    runs past ``timeout``.
    """
    if not fresh:
        try:
            outcome, run = _SANDBOX.execute({"script.py": code}, timeout, _outputs, folders=("out",))
        except SandboxError as error:
            raise DocumentCodeError(str(error)) from None
        return replace(run, returncode=outcome.returncode)
    folder = Path(tempfile.mkdtemp(prefix="document-code-"))
    try:
        (folder / "out").mkdir()
        script = folder / "script.py"
        script.write_text(code, encoding="utf-8")
        returncode = _fresh(script, timeout)
        return replace(_outputs(folder), returncode=returncode)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _outputs(folder: Path) -> ScriptRun:
    """What a script left in its folder (its return code not among them: 0 here)."""
    stdout, stderr = (_read(folder / name) for name in ("stdout.txt", "stderr.txt"))
    arrays = {p.stem: np.load(p) for p in (folder / "out").glob("*.npy")}
    values_file = folder / "out" / "values.json"
    values = json.loads(values_file.read_text()) if values_file.exists() else {}
    return ScriptRun(0, stdout, stderr, arrays, values)


def _fresh(script: Path, timeout: float) -> int:
    """The script in a new interpreter of its own (not confined: for comparing with the sandbox)."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    with open(script.parent / "stdout.txt", "w") as out, open(script.parent / "stderr.txt", "w") as err:
        try:
            return subprocess.run(
                [sys.executable, str(script)], cwd=script.parent, env=env, stdout=out, stderr=err, timeout=timeout
            ).returncode
        except subprocess.TimeoutExpired as expired:
            raise DocumentCodeError(f"the document's code ran past {timeout} s") from expired


def failure(run: ScriptRun) -> str:
    """Why a script failed: the last line it wrote to stderr, or how it ended."""
    lines = run.stderr.strip().splitlines()
    if lines:
        return lines[-1]
    if run.returncode < 0:
        return f"the document's code was killed by {signal.Signals(-run.returncode).name}"
    return f"the document's code exited with status {run.returncode} and no message"


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


_SANDBOX = Sandbox()
atexit.register(_SANDBOX.close)


@cache
def lesson_script() -> ScriptRun:
    """Document 000's numpy/matplotlib script, run exactly as written."""
    return run_script(code_block("numpy"))


@cache
def numpy_encoding(max_len: int, d_model: int) -> np.ndarray:
    """``positional_encoding(max_len, d_model)`` as defined in document 000 (kept for the process)."""
    return numpy_table(max_len, d_model)


def numpy_table(max_len: int, d_model: int) -> np.ndarray:
    """``positional_encoding(max_len, d_model)`` run afresh in the sandbox (the adapters keep their own tables)."""
    driver = f"PE = positional_encoding({int(max_len)}, {int(d_model)})\nnp.save('out/pe.npy', PE)\n"
    run = run_script(definitions("numpy") + driver)
    if run.returncode:
        raise DocumentCodeError(failure(run))
    return run.arrays["pe"]


_TORCH_DRIVER = """
import json
results = {{}}
for d_model, max_len, seq_len in {cases!r}:
    key = f"{{d_model}}_{{max_len}}_{{seq_len}}"
    try:
        module = PositionalEncoding(d_model, max_len=max_len)
        np.save(f"out/pe_{{key}}.npy", module.pe.numpy())
        x = torch.zeros(1, seq_len, d_model)
        np.save(f"out/forward_{{key}}.npy", module(x).detach().numpy())
        results[key] = {{
            "parameters": sum(p.numel() for p in module.parameters()),
            "buffers": sorted(module.state_dict().keys()),
            "error": None,
        }}
    except Exception as error:
        results[key] = {{"error": f"{{type(error).__name__}}: {{error}}"}}
with open("out/values.json", "w") as stream:
    json.dump(results, stream)
"""


@dataclass(frozen=True)
class TorchCase:
    """One construction and forward pass of the document's PositionalEncoding class."""

    pe: np.ndarray | None
    forward: np.ndarray | None
    parameters: int | None
    buffers: list[str]
    error: str | None


@cache
def torch_module_cases(cases: tuple[tuple[int, int, int], ...]) -> dict[tuple[int, int, int], TorchCase]:
    """``run_torch_cases``, kept for the process."""
    return run_torch_cases(cases)


def run_torch_cases(cases: tuple[tuple[int, int, int], ...]) -> dict[tuple[int, int, int], TorchCase]:
    """Build ``PositionalEncoding(d_model, max_len)`` and run it on zeros of length seq_len, per case.

    All cases share one script run.
    """
    clean = tuple((int(d), int(m), int(s)) for d, m, s in cases)
    run = run_script("import numpy as np\n" + definitions("torch") + _TORCH_DRIVER.format(cases=list(clean)))
    if run.returncode:
        raise DocumentCodeError(failure(run))
    outcome = {}
    for case in clean:
        key = "_".join(map(str, case))
        values = run.values[key]
        outcome[case] = TorchCase(
            run.arrays.get(f"pe_{key}"),
            run.arrays.get(f"forward_{key}"),
            values.get("parameters"),
            values.get("buffers", []),
            values["error"],
        )
    return outcome
