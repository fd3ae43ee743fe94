"""The sandbox under attack: what a lesson script must not do is blocked or contained, with one clear message.

Every attack runs in each mode this machine has: bubblewrap (when bwrap runs here) and the fallback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from checks.implementations import sandbox
from claims.catalog.lesson_code import DocumentCodeError, ScriptRun, run_script

MODES = ["bubblewrap", "fallback"]


@pytest.fixture(params=MODES, scope="module")
def mode(request: pytest.FixtureRequest):
    """A sandbox of its own in each mode, used in place of the shared one."""
    if request.param == "bubblewrap" and sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap cannot run here (python -m checks.engine.packages --install)")
    patch = pytest.MonkeyPatch()
    if request.param == "fallback":
        patch.setattr(sandbox, "bubblewrap", lambda: None)
    own = sandbox.Sandbox()
    patch.setattr("catalog.lesson_code._SANDBOX", own)
    yield request.param
    own.close()
    patch.undo()


def attack(code: str, timeout: float = 60) -> ScriptRun:
    return run_script(textwrap.dedent(code), timeout=timeout)


def refused(run: ScriptRun) -> str:
    assert run.returncode != 0, run.stdout
    return run.stderr.strip().splitlines()[-1]


def test_no_network(mode):
    run = attack(
        """
        import socket
        socket.create_connection(("1.1.1.1", 80), timeout=5)
        """
    )
    assert refused(run).startswith("PermissionError: the lesson's code has no network in the sandbox")


def test_no_raw_socket_either(mode):
    """Past the Python layer (a socket made through the C library), the network is still not there."""
    run = attack(
        """
        import ctypes, socket
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
        address = bytes([2, 0, 0, 80, 1, 1, 1, 1]) + bytes(8)
        print("connect", libc.connect(fd, address, 16), ctypes.get_errno())
        """
    )
    result, errno = run.stdout.split()[1:]
    assert result == "-1" and int(errno) in (101, 1, 13, 113), "ENETUNREACH, EPERM, EACCES or EHOSTUNREACH"


def test_no_writes_outside_its_folder(mode, tmp_path):
    target = tmp_path / "written.txt"
    run = attack(f"open({str(target)!r}, 'w').write('x')")
    assert refused(run) == f"PermissionError: the lesson's code may not write outside its folder: {target}"
    assert not target.exists()
    inside = attack("open('mine.txt', 'w').write('x'); print(open('mine.txt').read())")
    assert inside.returncode == 0 and inside.stdout == "x\n"


def test_the_parents_environment_is_not_visible(mode, monkeypatch):
    monkeypatch.setenv("THEORY_CLAIMS_SECRET", "s3cret")
    run = attack("import os; print(sorted(os.environ)); print(os.environ.get('THEORY_CLAIMS_SECRET'))")
    names, secret = run.stdout.splitlines()
    assert secret == "None" and "THEORY_CLAIMS_SECRET" not in names and "HOME" in names


def test_no_new_processes_so_no_fork_bomb_and_no_child_left_behind(mode):
    bomb = attack(
        """
        import os
        while True:
            os.fork()
        """
    )
    assert refused(bomb) == "PermissionError: the lesson's code may not start processes in the sandbox (os.fork)"
    left = attack("import subprocess; subprocess.Popen(['sleep', '40'])")
    assert refused(left).startswith("PermissionError: the lesson's code may not start processes in the sandbox")
    shell = attack("import os; os.system('id > /tmp/owned')")
    assert refused(shell) == "PermissionError: the lesson's code may not start processes in the sandbox (os.system)"


def test_a_child_made_past_the_hook_is_killed_when_the_script_ends(mode):
    """Through the C library's fork a script escapes the audit hook; its child dies with the script anyway."""
    marker = attack(
        """
        import ctypes, os, time
        libc = ctypes.CDLL(None)
        if libc.fork() == 0:
            time.sleep(30)
            os._exit(0)
        print("parent done")
        """
    )
    assert marker.returncode == 0 and marker.stdout == "parent done\n"
    assert _sleepers() == [], "the orphan was killed by the worker"


def test_memory_is_limited(mode):
    run = attack("b = bytearray(8 * 2**30)")
    assert refused(run) == "MemoryError"


def test_files_are_limited_in_size(mode):
    run = attack("open('big', 'wb').write(bytes(300 * 2**20))")
    assert refused(run).startswith("OSError: [Errno 27] File too large")


def test_a_script_past_its_timeout_is_stopped_with_its_processes(mode):
    started = time.perf_counter()
    with pytest.raises(DocumentCodeError, match="ran past 2 s"):
        attack(
            """
            import ctypes, time
            if ctypes.CDLL(None).fork() == 0:
                time.sleep(60)
            time.sleep(60)
            """,
            timeout=2,
        )
    # a guard, not a budget: the 2 s timeout stops both 60 s sleepers; the test takes about 4 s here, 30 s is 7x that
    assert time.perf_counter() - started < 30 and _sleepers() == []
    assert attack("print('alive')").stdout == "alive\n"


def test_changes_to_numpy_do_not_reach_the_next_script(mode):
    spoiled = attack("import numpy as np; np.sin = np.cos = lambda x: 0 * x; print(np.sin(1.0))")
    assert spoiled.stdout == "0.0\n"
    clean = attack("import numpy as np; print(np.sin(np.pi / 2), np.cos(0.0))")
    assert clean.stdout == "1.0 1.0\n"


def test_the_environment_record_says_which_sandbox_ran(mode):
    said = sandbox.isolation()
    assert said.startswith("bubblewrap" if mode == "bubblewrap" else "fallback without bubblewrap")
    assert "rlimits" in said and "audit hook" in said


def test_the_lesson_code_a_claim_runs_is_broken_with_the_reason_when_it_misbehaves(tmp_path):
    """An os.system added to the document's numpy block (as an attacker could): the claim is broken, saying why."""
    root = Path(__file__).resolve().parent.parent
    script = textwrap.dedent(
        """
        from claims.catalog import lesson_code as document_code
        from claims.catalog.lesson_code import DocumentCodeError

        honest = document_code.definitions
        document_code.definitions = lambda name: honest(name) + "\\nimport os\\nos.system('id > /tmp/owned')\\n"
        try:
            document_code.numpy_encoding(4, 4)
        except DocumentCodeError as error:
            print("broken:", error)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == (
        "broken: PermissionError: the lesson's code may not start processes in the sandbox (os.system)"
    ), done.stderr


def _sleepers() -> list[int]:
    """Processes still sleeping from an attack (their command line holds the attack's script)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if command.split(b"\0")[:2] == [b"sleep", b"40"]:  # exactly the attack's `sleep 40`, not any sleep
                found.append(int(entry.name))
    return found


def test_what_lives_in_tmp_is_bound_back_into_the_private_tmp(monkeypatch, tmp_path):
    """A tox environment or a clone under /tmp stays visible to the worker inside bubblewrap."""
    environment = tmp_path / "clone" / ".tox" / "tests"
    environment.mkdir(parents=True)
    if Path("/tmp") not in environment.parents:
        pytest.skip("pytest's temporary folder is not under /tmp on this machine")
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: "/usr/bin/bwrap")
    monkeypatch.setattr(sandbox, "_python_paths", lambda: [environment])
    command = sandbox._command(Path("/tmp/theory-claims-sandbox-x"))
    tmpfs = command.index("/tmp", command.index("--tmpfs"))
    bind = command.index(str(environment))
    assert command[bind - 1] == "--ro-bind" and bind > tmpfs


def test_a_scripts_temporary_files_go_to_its_own_folder(mode):
    run = attack("import tempfile, os; print(tempfile.gettempdir() == os.getcwd(), tempfile.mkstemp()[1] != '')")
    assert run.stdout == "True True\n"


def test_a_worker_lost_between_scripts_or_during_one_is_replaced_and_the_script_runs_again(mode):
    """Issue 63: under load a worker was replaced after a script's folder was made inside its folder: the script ran
    nowhere, and its claim read a KeyError. A folder now belongs to the call that runs it; a lost worker is replaced
    and the script runs once more in the new one."""
    first = attack("import numpy as np\nnp.save('out/pe.npy', np.arange(3.0))\n")
    assert first.returncode == 0 and list(first.arrays["pe"]) == [0.0, 1.0, 2.0]
    own = run_script.__globals__["_SANDBOX"]  # the sandbox run_script uses (the fixture's own)
    started = own.started
    os.killpg(own.pid, 9)  # the worker dies between two scripts, as under memory pressure
    time.sleep(0.5)
    again = attack("import numpy as np\nnp.save('out/pe.npy', np.arange(2.0))\n")
    assert again.returncode == 0 and list(again.arrays["pe"]) == [0.0, 1.0]
    assert own.started == started + 1
    lost_twice = r"the sandbox worker was lost twice: the sandbox worker (ended|did not)"
    with pytest.raises(DocumentCodeError, match=lost_twice):
        attack("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")  # kills its worker, and the next


def test_a_worker_lost_twice_is_one_line_naming_both_causes(monkeypatch):
    own = sandbox.Sandbox()
    monkeypatch.setattr(own, "_request", lambda folder, timeout: (_ for _ in ()).throw(sandbox.WorkerLost("gone")))
    try:
        with pytest.raises(sandbox.SandboxError, match="lost twice: gone; then, in a new worker: gone"):
            own.execute({"script.py": "pass"}, 5, lambda folder: None)
    finally:
        own.close()
