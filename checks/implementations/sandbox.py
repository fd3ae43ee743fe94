"""The sandbox the lesson's code runs in: a pristine fork server, in bubblewrap where the machine has it.

The worker is a separate ``python`` process started on first use. It imports numpy, torch and
matplotlib once and never runs a script itself: each script runs in a child forked from it, so
every script starts from the same pristine state and nothing one script changes reaches the next.

Around every child, whatever the machine:
- a clean environment (HOME and TMPDIR in its own empty folder), and that folder as working directory;
- resource limits: CPU seconds, address space, file size, processes, no core files;
- its own session: at the timeout, or when it ends, its whole process group is killed, and any
  descendant it left behind (the worker adopts orphans as their subreaper) too;
- as root, it runs as the unprivileged user ``nobody`` with its folder its own;
- a Python audit hook refusing new processes, network connections and writes outside its folder,
  each with one clear PermissionError.

Where bubblewrap (``bwrap``) runs, the worker itself runs inside it: no network, a read-only file
system except the sandbox's folder, a private /tmp, its own PID namespace, killed with its parent.
Without it (the fallback), a child as root also gets a network namespace of its own (none).
``isolation()`` says which applies; the environment record of a results file keeps it.

This file is also the worker's program (``python sandbox.py --serve``): standard library only at
module level, so that it runs without this package.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import resource
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any, TypeVar

CPU_SECONDS = 300
"""CPU time a script may use (its wall-clock timeout is set per request)."""
MEMORY_BYTES = 3 * 2**30
"""Address space a script may add to the worker's (numpy, torch and matplotlib already loaded)."""
FILE_BYTES = 256 * 2**20
"""Largest file a script may write."""
PROCESSES = 64
"""Processes the script's user may have (for a script run as nobody; its own count otherwise)."""
NOBODY = 65534
PRELOADED = ("numpy", "torch", "matplotlib", "matplotlib.pyplot")
CLONE_NEWNET = 0x40000000
PR_SET_CHILD_SUBREAPER = 36


T = TypeVar("T")


class WorkerLost(RuntimeError):
    """The worker ended (or stopped answering) before it answered a script: the worker's fault, not the script's."""


class SandboxError(RuntimeError):
    """The sandbox could not run a script (it ran past its timeout, or the worker failed)."""


@dataclass(frozen=True)
class Outcome:
    """How a script ended in the sandbox."""

    returncode: int
    leftovers: int = 0
    """Processes it left behind, killed after it ended."""


@cache
def bubblewrap() -> str | None:
    """The bwrap program when it can build a sandbox here (it needs namespaces the machine may forbid)."""
    program = shutil.which("bwrap")
    if program is None:
        return None
    probe = [program, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "--die-with-parent", "true"]
    try:
        return program if subprocess.run(probe, capture_output=True, timeout=30).returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def isolation() -> str:
    """What the sandbox does on this machine, as the environment record keeps it."""
    common = "fork server, rlimits (CPU, memory, file size, processes), clean environment, own session and folder"
    common += ", no new processes, network or writes outside its folder (audit hook)"
    root = os.geteuid() == 0
    if bubblewrap():
        user = ", as nobody" if root else ""
        return f"bubblewrap (no network, read-only file system, own PID namespace){user}; {common}"
    user = ", as nobody" if root and _readable_by_others(_python_paths()) else ", as root" if root else ""
    network = ", own network namespace" if root else ""
    return f"fallback without bubblewrap{user}{network}; {common}"


class Sandbox:
    """The worker process of this test process: one script at a time, each in a fresh fork."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.folder: Path | None = None
        """Where scripts' folders go (the only place a sandboxed script can write)."""
        self.started = 0
        """Workers started so far (a test reads it to see that scripts share one)."""

    def script_folder(self) -> Path:
        """A new empty folder for one script, inside the sandbox's writable folder."""
        with self._lock:
            self._worker()
            assert self.folder is not None
            return Path(tempfile.mkdtemp(prefix="script-", dir=self.folder))

    def run(self, folder: Path, timeout: float) -> Outcome:
        """Run ``folder/script.py``; its output goes to stdout.txt and stderr.txt there."""
        with self._lock:
            try:
                return self._request(folder, timeout)
            except WorkerLost as lost:
                raise SandboxError(str(lost)) from None

    def execute(
        self, files: dict[str, str], timeout: float, read: Callable[[Path], T], folders: tuple[str, ...] = ()
    ) -> tuple[Outcome, T]:
        """Write ``files`` (``script.py`` among them) and ``folders`` into a new script folder of the running worker,
        run the script there and ``read`` the folder, under one lock: no other call can replace the worker and
        remove the folder meanwhile. A worker lost before it answers (killed, out of memory) is replaced and the
        script runs once more in the new one; a second loss is a SandboxError naming both causes."""
        with self._lock:
            causes = []
            for _ in range(2):
                self._worker()
                assert self.folder is not None
                folder = Path(tempfile.mkdtemp(prefix="script-", dir=self.folder))
                try:
                    for name in folders:
                        (folder / name).mkdir(parents=True, exist_ok=True)
                    for name, text in files.items():
                        (folder / name).write_text(text, encoding="utf-8")
                    try:
                        outcome = self._request(folder, timeout)
                    except WorkerLost as lost:
                        causes.append(str(lost))
                        self._stop()
                        continue
                    return outcome, read(folder)
                finally:
                    shutil.rmtree(folder, ignore_errors=True)
            raise SandboxError(f"the sandbox worker was lost twice: {causes[0]}; then, in a new worker: {causes[1]}")

    def _request(self, folder: Path, timeout: float) -> Outcome:
        """Ask the running worker (the lock held) to run ``folder/script.py``; WorkerLost if it ends first."""
        process = self._worker()
        assert process.stdin is not None and process.stdout is not None
        request = {"folder": str(folder), "timeout": timeout}
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except BrokenPipeError:
            self._stop()
            raise WorkerLost("the sandbox worker stopped before the script ran") from None
        reply = _line_within(process.stdout, timeout + 30)
        if not reply:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)  # its output closed: it is ending, give it the moment to be reaped
            ended = process.poll()
            self._stop()
            how = f"ended with status {ended}" if ended is not None else "did not answer"
            raise WorkerLost(f"the sandbox worker {how} (its own errors are on stderr)")
        answer = json.loads(reply)
        if answer.get("timed_out"):
            raise SandboxError(f"the document's code ran past {timeout:g} s (its processes were killed)")
        return Outcome(int(answer["returncode"]), int(answer.get("leftovers", 0)))

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process and self._process.poll() is None else None

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _worker(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._process.poll() is not None:
            self._stop()
            self.folder = Path(tempfile.mkdtemp(prefix="theory-claims-sandbox-"))
            self.folder.chmod(0o711)  # a script running as nobody reaches its own folder, and lists no other
            self._process = subprocess.Popen(
                _command(self.folder),
                cwd=self.folder,
                env=_environment(self.folder),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,
            )
            self.started += 1
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                if stream:
                    stream.close()
            self._process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def _command(folder: Path) -> list[str]:
    """The worker, inside bubblewrap where it runs."""
    worker = [sys.executable, "-I", str(Path(__file__).resolve()), "--serve"]
    program = bubblewrap()
    if program is None:
        return worker
    needed = [*_python_paths(), Path(__file__).resolve().parent]
    isolated = [program, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for path in needed:  # the private /tmp hides what lives there (a tox environment, a clone): bind it back
        if Path("/tmp") in path.parents:
            isolated += ["--ro-bind", str(path), str(path)]
    isolated += _reachable(needed)
    isolated += ["--bind", str(folder), str(folder), "--unshare-net", "--unshare-pid", "--unshare-ipc"]
    return [*isolated, "--die-with-parent", "--new-session", "--chdir", str(folder), *worker]


def _python_paths() -> list[Path]:
    """Where the interpreter and its packages live (what a script run as nobody must read)."""
    import site

    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    return sorted(Path(p).resolve() for p in places | set(site.getsitepackages()))


def _reachable(paths: list[Path]) -> list[str]:
    """bwrap arguments that let others reach ``paths`` through closed folders (such as /root): each closed
    folder becomes an empty tmpfs, and only the paths are bound back into it, read-only."""
    behind: dict[Path, list[Path]] = {}
    for path in paths:
        closed = next((a for a in reversed(path.parents) if not a.stat().st_mode & stat.S_IXOTH), None)
        if closed is not None:
            behind.setdefault(closed, []).append(path)
    arguments: list[str] = []
    for closed, inside in behind.items():
        arguments += ["--tmpfs", str(closed)]
        for path in inside:
            arguments += ["--ro-bind", str(path), str(path)]
    return arguments


def _readable_by_others(paths: list[Path]) -> bool:
    """Whether a script run as nobody can read these paths (every folder on the way open to others)."""
    return all(all(a.stat().st_mode & stat.S_IXOTH for a in (p, *p.parents)) for p in paths)


def _environment(folder: Path) -> dict[str, str]:
    """What a script's process sees of the environment: nothing of the parent's."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": "C.UTF-8",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": str(folder / ".matplotlib"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


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


# The worker: this file run as a script (``sandbox.py --serve``), in bubblewrap or not.


@dataclass(frozen=True)
class _Worker:
    """What the worker knows when it forks a child."""

    libc: Any
    replies: int
    """The descriptor replies go out on (closed in a child)."""
    as_nobody: bool
    """Run scripts as nobody: the worker is root and the interpreter is readable by others."""


def _serve() -> None:
    """Load the libraries once, then for each request line fork a child to run its script; reply one JSON line."""
    import ctypes

    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    for name in PRELOADED:
        importlib.import_module(name)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # orphans of a script become ours to kill
    worker = _Worker(libc, replies.fileno(), os.geteuid() == 0 and _readable_by_others(_python_paths()))
    for line in sys.stdin:
        request = json.loads(line)
        replies.write(json.dumps(_supervise(Path(request["folder"]), float(request["timeout"]), worker)) + "\n")


def _supervise(folder: Path, timeout: float, worker: _Worker) -> dict[str, object]:
    """Fork the script's child, wait for it within ``timeout``, then kill its group and whatever it left."""
    child = os.fork()
    if child == 0:
        _child(folder, worker)
    deadline, status = time.monotonic() + timeout, None
    while status is None and time.monotonic() < deadline:
        done, code = os.waitpid(child, os.WNOHANG)
        status = code if done else None
        if status is None:
            time.sleep(0.005)
    timed_out = status is None
    _kill_group(child)
    if timed_out:
        status = os.waitpid(child, 0)[1]
    leftovers = _kill_leftovers()
    return {"returncode": os.waitstatus_to_exitcode(status), "timed_out": timed_out, "leftovers": leftovers}


def _kill_group(group: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def _kill_leftovers() -> int:
    """Kill and reap every other child (the orphans a script left, adopted as their subreaper)."""
    mine, killed = str(os.getpid()), 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            except (OSError, IndexError):
                continue
            if parent == mine:
                _kill_group(int(entry.name))
                try:
                    os.kill(int(entry.name), signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    return killed


def _child(folder: Path, worker: _Worker) -> None:
    """In the forked child: isolate, then run the script as __main__; never returns."""
    code = 1
    try:
        os.setsid()
        os.close(worker.replies)  # the worker's channel is not the script's to write
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for descriptor, name in ((1, "stdout.txt"), (2, "stderr.txt")):
            os.dup2(os.open(folder / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), descriptor)
        _confine(folder, worker)
        code = _run(folder / "script.py")
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _confine(folder: Path, worker: _Worker) -> None:
    """Limits, a network of its own (as root), the nobody user (where it can run Python), a clean environment."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file past its limit: an OSError, not a silent death
    address_space = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limits = {
        resource.RLIMIT_CPU: CPU_SECONDS,
        resource.RLIMIT_AS: address_space + MEMORY_BYTES,
        resource.RLIMIT_FSIZE: FILE_BYTES,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_NPROC: PROCESSES if os.geteuid() == 0 else _processes_of_this_user() + PROCESSES,
    }
    for limit, value in limits.items():
        resource.setrlimit(limit, (value, value))
    if os.geteuid() == 0:
        worker.libc.unshare(CLONE_NEWNET)  # in bubblewrap: a second empty one
    if worker.as_nobody:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, NOBODY, NOBODY)
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    os.environ.clear()
    os.environ.update(_environment(folder))
    tempfile.tempdir = str(folder)  # the worker resolved its own temporary folder already: the script's is its own
    os.chdir(folder)


def _processes_of_this_user() -> int:
    uid, count = os.getuid(), 0
    for entry in Path("/proc").iterdir():
        try:
            count += entry.name.isdigit() and entry.stat().st_uid == uid
        except OSError:
            continue
    return count


def _run(script: Path) -> int:
    """Run the script as __main__ under the audit hook; its exit status."""
    import runpy
    import traceback
    import warnings

    sys.argv[:] = [str(script)]
    sys.path.insert(0, str(script.parent))
    sys.addaudithook(_guard(script.parent))
    returncode = 0
    try:
        with warnings.catch_warnings():
            warnings.resetwarnings()
            warnings.simplefilter("default")
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as stop:
        returncode = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if stop.code is not None and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        returncode = 1
    return returncode


PROCESS_EVENTS = ("os.system", "subprocess.Popen", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty")
NETWORK_EVENTS = ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg", "socket.getaddrinfo")


def _guard(folder: Path):
    """An audit hook: no new process, no network, no file written outside ``folder``."""
    inside = str(folder.resolve()) + os.sep

    def hook(event: str, args: tuple) -> None:
        if event in PROCESS_EVENTS:
            raise PermissionError(f"the lesson's code may not start processes in the sandbox ({event})")
        if event in NETWORK_EVENTS:
            raise PermissionError(f"the lesson's code has no network in the sandbox ({event})")
        changes = event in ("os.remove", "os.rename", "os.mkdir", "os.rmdir", "shutil.rmtree") and args
        if (changes or (event == "open" and _writes(args))) and not _within(args[0], inside):
            raise PermissionError(f"the lesson's code may not write outside its folder: {args[0]}")

    return hook


def _within(path: object, inside: str) -> bool:
    return isinstance(path, str | bytes | os.PathLike) and os.path.realpath(os.fsdecode(path)).startswith(inside)


def _writes(args: tuple) -> bool:
    """Whether an "open" audit event opens for writing (mode text, or os.open flags)."""
    path, mode, flags = (*args, None, None, None)[:3]
    if not isinstance(path, str | bytes | os.PathLike):
        return False
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC))


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    _serve()
