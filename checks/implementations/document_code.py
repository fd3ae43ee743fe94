"""Document 000's own code, extracted verbatim and run in a separate process.

This is the one place where text from the documents is executed, and never in the
test process: each script is written to a file in its own temporary folder and run
by a sandbox worker, a separate ``python`` process started on first use and kept for
the test process's lifetime (so torch, numpy and matplotlib are imported once, not
once per script). The worker runs each script as ``__main__`` in a fresh namespace,
in the script's folder, with its stdout and stderr (file descriptors 1 and 2 too)
sent to files, a non-interactive matplotlib backend, and a per-script timeout; a
script that times out or kills the worker gets the worker replaced. Results come
back as .npy/.json files. ``run_script(code, fresh=True)`` runs a script in a fresh
interpreter instead (tests compare the two).
"""

from __future__ import annotations

import ast
import atexit
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO, Any

import numpy as np

DOCUMENT = "000_1100ff0056b332e7.txt"
TIMEOUT_SECONDS = 120
_BLOCKS = {
    # name: (text just before the block, text just after it)
    "numpy": ("python\n실행복사\n", "\n---"),
    "torch": ("PyTorch로 보는 Positional Encoding (참고용)\n\n", "\n---"),
}
_ENVIRONMENT = {"MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}


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
    from checks.sources import document_text  # here, so that the worker (this file as a script) needs no package

    before, after = _BLOCKS[name]
    text = document_text(DOCUMENT)
    start = text.index(before) + len(before)
    return text[start : text.index(after, start)].strip() + "\n"


def definitions(name: str) -> str:
    """Only the imports, functions and classes of a block (no top-level statements)."""
    tree = ast.parse(code_block(name))
    kept = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.ClassDef)]
    return "\n\n".join(ast.get_source_segment(code_block(name), n) or "" for n in kept) + "\n"


def run_script(code: str, timeout: float = TIMEOUT_SECONDS, fresh: bool = False) -> ScriptRun:
    """Run ``code`` as a script in an empty temporary folder, in the sandbox worker (or, ``fresh``, a new interpreter).

    The script may write ``out/<name>.npy`` arrays and ``out/values.json``.
    """
    with tempfile.TemporaryDirectory(prefix="document-code-") as folder:
        out = Path(folder) / "out"
        out.mkdir()
        script = Path(folder) / "script.py"
        script.write_text(code, encoding="utf-8")
        if fresh:
            env = {**os.environ, **_ENVIRONMENT}
            try:
                done = subprocess.run(
                    [sys.executable, str(script)], cwd=folder, env=env, capture_output=True, text=True, timeout=timeout
                )
            except subprocess.TimeoutExpired as expired:
                raise DocumentCodeError(f"the document's code ran past {timeout} s") from expired
            returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
        else:
            returncode = _SANDBOX.run(script, timeout)
            stdout, stderr = (_read(Path(folder) / name) for name in ("stdout.txt", "stderr.txt"))
        arrays = {p.stem: np.load(p) for p in out.glob("*.npy")}
        values_file = out / "values.json"
        values = json.loads(values_file.read_text()) if values_file.exists() else {}
        return ScriptRun(returncode, stdout, stderr, arrays, values)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


class Sandbox:
    """The worker process of this test process: one script at a time, each with its own timeout."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._home: Path | None = None
        self.started = 0
        """Workers started so far (a test reads it to see that scripts share one)."""

    def run(self, script: Path, timeout: float) -> int:
        """Run ``script`` in the worker; its output goes to stdout.txt and stderr.txt beside it. The return code."""
        with self._lock:
            process = self._worker()
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(json.dumps({"script": str(script)}).encode() + b"\n")
                process.stdin.flush()
            except BrokenPipeError:
                return self._lost(process)
            reply = _line_within(process.stdout, timeout)
            if reply is None:
                self._stop()
                raise DocumentCodeError(f"the document's code ran past {timeout} s")
            if not reply:
                return self._lost(process)
            return int(json.loads(reply)["returncode"])

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process and self._process.poll() is None else None

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _worker(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            self._home = Path(tempfile.mkdtemp(prefix="document-sandbox-"))
            program = self._home / "sandbox_worker.py"
            shutil.copyfile(__file__, program)
            self._process = subprocess.Popen(
                [sys.executable, str(program), "--serve"],
                cwd=self._home,
                env={**os.environ, **_ENVIRONMENT},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
            self.started += 1
        return self._process

    def _lost(self, process: subprocess.Popen[bytes]) -> int:
        """The script ended the worker (os._exit, a crash): its exit status is the script's."""
        code = process.wait()
        self._stop()
        return code if code else 1

    def _stop(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                if stream:
                    stream.close()
            self._process = None
        if self._home is not None:
            shutil.rmtree(self._home, ignore_errors=True)
            self._home = None


def _line_within(stream: IO[bytes], timeout: float) -> bytes | None:
    """One line from ``stream`` (b"" at end of file), or None when none arrives within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    received = b""
    descriptor = stream.fileno()
    while not received.endswith(b"\n"):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
            return None
        chunk = os.read(descriptor, 65536)
        if not chunk:
            return b""
        received += chunk
    return received


_SANDBOX = Sandbox()
atexit.register(_SANDBOX.close)


@cache
def lesson_script() -> ScriptRun:
    """Document 000's numpy/matplotlib script, run exactly as written."""
    return run_script(code_block("numpy"))


@cache
def numpy_encoding(max_len: int, d_model: int) -> np.ndarray:
    """``positional_encoding(max_len, d_model)`` as defined in document 000."""
    driver = f"PE = positional_encoding({int(max_len)}, {int(d_model)})\nnp.save('out/pe.npy', PE)\n"
    run = run_script(definitions("numpy") + driver)
    if run.returncode:
        raise DocumentCodeError(run.stderr.strip().splitlines()[-1] if run.stderr else "no output")
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
    """Build ``PositionalEncoding(d_model, max_len)`` and run it on zeros of length seq_len, per case.

    All cases share one script run.
    """
    clean = tuple((int(d), int(m), int(s)) for d, m, s in cases)
    run = run_script("import numpy as np\n" + definitions("torch") + _TORCH_DRIVER.format(cases=list(clean)))
    if run.returncode:
        raise DocumentCodeError(run.stderr.strip().splitlines()[-1] if run.stderr else "no output")
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


# The worker: this file run as a script (``sandbox_worker.py --serve``) in the child process.


def _serve() -> None:
    """Read one request per line on stdin, run its script, reply with one JSON line on the original stdout."""
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    sys.path.pop(0)  # the worker's own folder: scripts see their own folder instead
    baseline = _Baseline()
    for line in sys.stdin:
        script = Path(json.loads(line)["script"])
        returncode = _run_here(script)
        baseline.restore()
        replies.write(json.dumps({"returncode": returncode}) + "\n")


class _Baseline:
    """Process state a script may change and the next one must not see (interpreter-wide settings)."""

    def __init__(self) -> None:
        self.cwd = os.getcwd()
        self.argv = list(sys.argv)
        self.path = list(sys.path)
        self.printoptions = np.get_printoptions()

    def restore(self) -> None:
        os.chdir(self.cwd)
        sys.argv[:] = self.argv
        sys.path[:] = self.path
        np.set_printoptions(**self.printoptions)
        if "matplotlib.pyplot" in sys.modules:
            sys.modules["matplotlib.pyplot"].close("all")
            sys.modules["matplotlib"].rcdefaults()
        if "torch" in sys.modules:
            torch: Any = sys.modules["torch"]
            torch.set_default_dtype(torch.float32)
            torch.set_grad_enabled(True)


def _run_here(script: Path) -> int:
    """Run ``script`` as __main__ in its folder, its output (Python's and the C library's) in files beside it."""
    import runpy
    import traceback
    import warnings

    folder = script.parent
    saved = os.dup(1), os.dup(2)
    with (
        open(folder / "stdout.txt", "w", encoding="utf-8") as out,
        open(folder / "stderr.txt", "w", encoding="utf-8") as err,
    ):
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        os.chdir(folder)
        sys.argv[:] = [str(script)]
        sys.path.insert(0, str(folder))
        returncode = 0
        try:
            with warnings.catch_warnings():
                warnings.resetwarnings()
                warnings.simplefilter("default")
                runpy.run_path(str(script), run_name="__main__")
        except SystemExit as stop:
            returncode = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if stop.code is not None and not isinstance(stop.code, int):
                print(stop.code, file=err)
        except BaseException:
            traceback.print_exc(file=err)
            returncode = 1
        finally:
            out.flush()
            err.flush()
            sys.stdout, sys.stderr = streams
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for descriptor in saved:
                os.close(descriptor)
    return returncode


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    _serve()
