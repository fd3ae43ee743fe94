"""What the lesson's script prints about its table is true: its size, its value range, its first rows."""

import re

import numpy as np

from checks import Claim
from checks.reference import NumpyBackend, Reference
from claims.catalog.lesson_code import DocumentCodeError, failure, lesson_script
from claims.catalog.works import LESSON_000

SECTION = "실행해보기: Positional Encoding 생성과 시각화"
claim = Claim(
    id="lesson.script-printout",
    title="The lesson's script prints its table's true size, range and first rows",
    statement=(
        "Run as written, document 000's numpy script builds a 50 × 64 table (50 positions × 64 dimensions) whose "
        "values lie in [−1, 1] (printed as [-1.000, 1.000]), and the first 8 dimensions it prints for positions 0, "
        "1 and 2 are those of the sin/cos formula at 3 decimals."
    ),
    sources=[
        LESSON_000.quote(SECTION, 'print(f"Positional Encoding 크기: {PE.shape}")'),
        LESSON_000.quote(SECTION, 'print(f"  - {max_len}개 위치 x {d_model}차원")'),
        LESSON_000.quote(SECTION, 'print(f"  - 값 범위: [{PE.min():.3f}, {PE.max():.3f}]")'),
        LESSON_000.quote(SECTION, 'print(f"  - sin/cos이므로 항상 [-1, 1] 범위!")'),
        LESSON_000.quote(SECTION, 'print(f"위치 {pos}의 처음 8차원: {np.round(PE[pos, :8], 3)}")'),
    ],
    expect="holds",
)

MAX_LEN, D_MODEL = 50, 64
"""The script's own settings."""
SHAPE = re.compile(r"크기: \((\d+), (\d+)\)\n\s+- (\d+)개 위치 x (\d+)차원")
RANGE = re.compile(r"값 범위: \[(-?\d+\.\d+), (-?\d+\.\d+)\]")
ROW = re.compile(r"위치 (\d+)의 처음 8차원: \[([^\]]*)\]")


@claim.probe
def printed_lines(r):
    """The script's output, line by line, against the formula computed here in float64."""
    run = lesson_script()
    if run.returncode:
        raise DocumentCodeError(f"the lesson's script did not run: {failure(run)}")
    table = Reference(NumpyBackend("float64")).sinusoidal(np.arange(MAX_LEN), D_MODEL)
    shape = SHAPE.search(run.stdout)
    printed_shape = tuple(int(v) for v in shape.groups()) if shape else None
    r.measure("printed: shape, then positions × dimensions", printed_shape)
    if printed_shape != (MAX_LEN, D_MODEL, MAX_LEN, D_MODEL):
        r.counterexample("the printed size is not 50 positions × 64 dimensions", printed=printed_shape)
    found = RANGE.search(run.stdout)
    printed_range = tuple(float(v) for v in found.groups()) if found else None
    formula_range = (round(float(table.min()), 3), round(float(table.max()), 3))
    r.measure("printed value range; the formula's, at 3 decimals", (printed_range, formula_range))
    if printed_range != formula_range or not (-1 <= formula_range[0] <= formula_range[1] <= 1):
        r.counterexample("the printed range is not the table's, inside [-1, 1]", printed=printed_range)
    rows = {int(n): [float(v) for v in values.split()] for n, values in ROW.findall(run.stdout)}
    r.measure("printed first 8 dimensions of positions 0, 1, 2", rows)
    wrong = {n: v for n, v in rows.items() if not np.allclose(v, np.round(table[n, :8], 3), atol=5e-4, rtol=0)}
    if sorted(rows) != [0, 1, 2] or wrong:
        r.counterexample("a printed row is not the formula at 3 decimals", rows=wrong or rows)
