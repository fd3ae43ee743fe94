"""The document-code sandbox: one worker per test process, each script in a fresh fork, isolated from us.

tests/test_sandbox.py attacks it; this file checks that the document's code runs as a process would run it.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from checks.implementations import document_code
from checks.implementations.document_code import DocumentCodeError, code_block, lesson_script, run_script


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
