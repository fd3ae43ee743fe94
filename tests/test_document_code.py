"""The document-code sandbox: one worker per test process, each script in a fresh fork, isolated from us.

tests/test_sandbox.py attacks it; this file checks that the document's code runs as a process would run it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np
import pytest

from checks.implementations import document_code
from checks.implementations.document import Tables
from checks.implementations.document_code import DocumentCodeError, code_block, lesson_script, run_script
from checks.results.files import ROOT


def test_scripts_run_in_another_process_and_leave_this_one_alone():
    run = run_script("import os\nos.environ['SANDBOX_MARK'] = '1'\nprint(os.getpid())\n")
    assert run.returncode == 0
    assert int(run.stdout) != os.getpid() and "SANDBOX_MARK" not in os.environ


def test_scripts_share_one_worker_and_later_ones_are_fast():
    run_script("import numpy")
    started = document_code._SANDBOX.started
    begun = time.perf_counter()
    runs = [run_script(f"print({n} * 2)") for n in range(5)]
    assert [r.stdout for r in runs] == [f"{2 * n}\n" for n in range(5)]
    assert document_code._SANDBOX.started == started
    assert time.perf_counter() - begun < 2.0


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


def test_the_adapters_tables_stay_under_their_byte_limit():
    builds: list[tuple[int, int]] = []

    def build(size: int, d_model: int) -> np.ndarray:
        builds.append((size, d_model))
        return np.zeros((size, 8))  # every table 64 × 8 here, whatever d_model: three fit the limit

    tables = Tables(build, limit=3 * 64 * 8 * 8)
    assert tables.rows(64, 8).shape == (64, 8)
    assert tables.rows(10, 8).shape == (64, 8) and builds == [(64, 8)], "a smaller size is sliced, not rebuilt"
    for d_model in (9, 10, 11):
        tables.rows(64, 8 if d_model == 11 else d_model)  # 8 used again: 9 becomes the least recent
    tables.rows(64, 12)
    assert tables.nbytes <= tables.limit
    tables.rows(64, 9)
    assert builds[-1] == (64, 9), "the least recently used table was dropped and is built again"
    tables.rows(64, 8)
    assert builds[-1] == (64, 9), "a recently used table is kept"


def test_every_table_a_thorough_run_can_ask_for_fits_a_worker_under_1_gb():
    """Every d_model the strategies draw (1 … 256) at the largest table, through both adapters (a stand-in
    builder of the document code's shapes and dtypes): the worker's peak RSS stays under 1 GB."""
    script = (
        "import resource, numpy as np\n"
        "from checks.implementations import document as d\n"
        "d.NUMPY_TABLES.build = lambda size, m: np.ones((size, m), dtype=np.float64)\n"
        "d.TORCH_TABLES.build = lambda size, m: np.ones((size, m), dtype=np.float32)\n"
        "last = np.array([d.TABLE_SIZES[-1] - 1])\n"
        "for m in range(1, 257):\n"
        "    d.DocumentNumpy().sinusoidal(last, m, 'float64', 'cpu')\n"
        "    d.DocumentTorch().sinusoidal(last, m, 'float32', 'cpu')\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 1024, f"peak RSS {done.stdout.strip()} MB"
