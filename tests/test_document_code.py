"""The document-code sandbox: one worker per test process, each script in a fresh fork, isolated from us.

tests/test_sandbox.py attacks it; this file checks that the document's code runs as a process would run it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from claims.catalog import lesson_code as document_code
from claims.catalog.lesson_adapters import TABLE_SIZES, DocumentRaised, Tables
from claims.catalog.lesson_code import DocumentCodeError, code_block, lesson_script, run_script

ROOT = Path(__file__).resolve().parent.parent


def test_scripts_run_in_another_process_and_leave_this_one_alone():
    run = run_script("import os\nos.environ['SANDBOX_MARK'] = '1'\nprint(os.getpid())\n")
    assert run.returncode == 0
    assert int(run.stdout) != os.getpid() and "SANDBOX_MARK" not in os.environ


def test_scripts_share_one_worker():
    """Later scripts reuse the worker (how fast that is: tests/benchmarks/test_budgets.py, ``tox -e bench``)."""
    run_script("import numpy")
    started = document_code._SANDBOX.started
    runs = [run_script(f"print({n} * 2)") for n in range(5)]
    assert [r.stdout for r in runs] == [f"{2 * n}\n" for n in range(5)]
    assert document_code._SANDBOX.started == started


def test_output_exit_status_and_errors_are_reported_as_a_process_would():
    printed = run_script("import os, sys\nprint('out')\nprint('err', file=sys.stderr)\nos.write(1, b'raw\\n')\n")
    assert sorted(printed.stdout.split()) == ["out", "raw"] and printed.stderr == "err\n"
    assert run_script("raise SystemExit(3)").returncode == 3
    said = run_script("raise SystemExit('no way')")
    assert said.returncode == 1 and "no way" in said.stderr
    failed = run_script("1 / 0")
    assert failed.returncode == 1 and failed.stderr.strip().splitlines()[-1] == "ZeroDivisionError: division by zero"


def test_a_script_that_exits_hard_gets_its_status_and_the_worker_stays():
    """Each script runs in a fork of the worker, so os._exit ends the script, not the worker (it was the worker)."""
    run_script("pass")  # the worker is up, whichever test ran first in this process
    started = document_code._SANDBOX.started
    assert run_script("import os\nos._exit(7)").returncode == 7
    assert run_script("print('again')").stdout == "again\n"
    assert document_code._SANDBOX.started == started


def test_a_script_past_its_timeout_is_stopped():
    with pytest.raises(DocumentCodeError, match="ran past 1 s"):
        run_script("while True:\n    pass\n", timeout=1)
    assert run_script("print('alive')").stdout == "alive\n"


def test_each_script_starts_from_the_same_state():
    first = run_script(
        "import numpy as np, sys, os\nnp.set_printoptions(precision=1)\nsys.argv.append('x')\nos.chdir('/')\n"
    )
    assert first.returncode == 0
    second = run_script(
        "import numpy as np, sys, os\nprint(np.array([np.pi]))\nprint(sys.argv[1:])\nprint(os.path.exists('out'))\n"
    )
    assert second.stdout.split("\n")[:3] == ["[3.14159265]", "[]", "True"]
    leaked = run_script("x = 1\n")
    assert run_script("print('x' in globals())").stdout == "False\n" and leaked.returncode == 0


def test_arrays_and_values_come_back():
    run = run_script(
        "import json, numpy as np\nnp.save('out/a.npy', np.arange(3))\n"
        "json.dump({'v': 2}, open('out/values.json', 'w'))\n"
    )
    assert np.array_equal(run.arrays["a"], np.arange(3)) and run.values == {"v": 2}


def test_the_lesson_script_prints_in_the_worker_what_it_prints_in_a_fresh_interpreter():
    shared = lesson_script()
    fresh = run_script(code_block("numpy"), fresh=True)
    assert shared.returncode == fresh.returncode == 0
    assert shared.stdout == fresh.stdout and "Positional Encoding 크기: (50, 64)" in shared.stdout


def test_the_document_functions_still_answer():
    table = document_code.numpy_encoding(10, 8)
    assert table.shape == (10, 8) and table[0, 1] == 1.0
    cases = document_code.torch_module_cases(((8, 10, 10), (8, 10, 11)))
    assert cases[(8, 10, 10)].error is None and cases[(8, 10, 10)].parameters == 0
    assert "must match" in (cases[(8, 10, 11)].error or "")


def test_a_larger_table_serves_every_smaller_size_exactly():
    """A row of the document's code does not depend on max_len, so one table per d_model serves every size."""
    assert np.array_equal(document_code.numpy_table(40, 6)[:9], document_code.numpy_table(9, 6))
    built = document_code.run_torch_cases(((6, 40, 1), (6, 9, 1)))
    assert np.array_equal(built[(6, 40, 1)].pe[0][:9], built[(6, 9, 1)].pe[0])


def _numbered(size: int, d_model: int) -> np.ndarray:
    return np.arange(size * d_model, dtype=np.float64).reshape(size, d_model)


def test_a_table_is_built_once_per_d_model_and_looked_up_row_by_row():
    builds: list[tuple[int, int]] = []
    tables = Tables(lambda size, d_model: builds.append((size, d_model)) or _numbered(size, d_model))
    rows = tables.lookup(np.array([3, 0, 63]), 8)
    assert np.array_equal(rows, _numbered(64, 8)[[3, 0, 63]]) and type(rows) is np.ndarray
    assert np.array_equal(tables.lookup(np.array([[1, 2]]), 8), _numbered(64, 8)[[[1, 2]]])
    assert builds == [(64, 8)], "the second lookup read the kept table"
    tables.lookup(np.array([100]), 8)
    assert builds[-1] == (256, 8) and tables.built == {8: 256}, "a larger size is built and replaces the smaller"
    assert np.array_equal(tables.lookup(np.array([5]), 8), _numbered(256, 8)[[5]]) and len(builds) == 2
    with pytest.raises(ValueError, match="exceeds the document adapters' largest table"):
        tables.lookup(np.array([TABLE_SIZES[-1]]), 8)


def test_a_table_the_documents_code_refuses_is_refused_again_without_running_it():
    """Shrinking a failure asks for the same small tables over and over: a refusal of the document's own code (the
    lesson's PositionalEncoding at an odd d_model) is remembered; a stop for another cause is tried again."""
    builds: list[tuple[int, int]] = []

    def build(size: int, d_model: int) -> np.ndarray:
        builds.append((size, d_model))
        if d_model == 3:
            raise DocumentRaised(f"PositionalEncoding({d_model}, max_len={size}) failed: RuntimeError: odd")
        if d_model == 5:
            raise document_code.DocumentCodeError("the document's code ran past 120 s")
        return _numbered(size, d_model)

    tables = Tables(build)
    for _ in range(3):
        with pytest.raises(RuntimeError, match=r"^PositionalEncoding\(3, max_len=64\) failed: RuntimeError: odd$"):
            tables.lookup(np.array([0]), 3)
    assert builds == [(64, 3)], "the refusal was remembered"
    with pytest.raises(RuntimeError, match="max_len=256"):
        tables.lookup(np.array([100]), 3)
    assert builds[-1] == (256, 3), "another size is another question"
    for _ in range(2):
        with pytest.raises(document_code.DocumentCodeError):
            tables.lookup(np.array([0]), 5)
    assert builds[-2:] == [(64, 5), (64, 5)], "a time limit is no answer of the code's: asked again"


def test_the_tables_a_thorough_run_asks_for_stay_on_disk_not_in_the_worker():
    """Sixteen of the largest tables per adapter (d_model 241 … 256 at 4,096 positions, a stand-in builder of the
    document code's shapes and dtypes: 128 MB and 64 MB) looked up: the worker's peak RSS grows by less than one
    adapter's tables would hold, and the folder is gone when the process ends."""
    script = (
        "import resource, numpy as np\n"
        "from claims.catalog import lesson_adapters as d\n"
        "d.NUMPY_TABLES.build = lambda size, m: np.ones((size, m), dtype=np.float64)\n"
        "d.TORCH_TABLES.build = lambda size, m: np.ones((size, m), dtype=np.float32)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "positions = np.arange(d.TABLE_SIZES[-1])[::37]\n"
        "for m in range(241, 257):\n"
        "    d.DocumentNumpy().sinusoidal(positions, m, 'float64', 'cpu')\n"
        "    d.DocumentTorch().sinusoidal(positions, m, 'float32', 'cpu')\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024, d.NUMPY_TABLES._folder)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    growth, folder = done.stdout.split()
    assert int(growth) < 48, f"peak RSS grew by {growth} MB"
    assert not Path(folder).exists(), "the tables' folder outlived its process"
