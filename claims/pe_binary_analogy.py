"""The lesson's binary-counting table is right, and PE's columns slow down from left to right as its bits do."""

import re

import numpy as np
import sympy as sp

from checks import Claim, given
from checks.figures import lines
from checks.formulas import w
from checks.reference import EXACT, chord_lengths, frequency_values, pair_chords
from checks.strategies import d_models, position_batches
from claims.catalog.works import LESSON_000, LESSON_002

SECTION = "직관적 이해: 이진수와의 유사성"
TABLE = (
    "위치  bit3  bit2  bit1  bit0",
    "0     0     0     0     0",
    "1     0     0     0     1    ← bit0: 매번 변함",
    "2     0     0     1     0    ← bit1: 2번마다 변함",
    "3     0     0     1     1",
    "4     0     1     0     0    ← bit2: 4번마다 변함",
    "5     0     1     0     1",
    "6     0     1     1     0",
    "7     0     1     1     1",
)
"""The lesson's table, row by row as it stands in the document (each row is a quote, verified verbatim)."""
claim = Claim(
    id="pe.binary-analogy",
    title="The binary-counting table is right, and PE's columns slow down from left to right as its bits do",
    statement=(
        "Each row pos of the lesson's table lists bits 3…0 of pos, and bit j changes between pos − 1 and pos "
        "exactly when 2^j divides pos (bit0 every step, bit1 every 2, bit2 every 4). PE's pairs behave alike: "
        "one step pos → pos + 1 moves pair i by the chord 2·sin(ω_i/2) = √(2 − 2 cos ω_i), whatever pos, and "
        "that step shrinks as i grows (ω_i falls), so the left (low) columns flicker and the right ones change "
        "slowly."
    ),
    sources=[
        LESSON_000.quote(SECTION, "각 자릿수(비트)는 서로 다른 주기로 0과 1을 반복합니다."),
        *(LESSON_000.quote(SECTION, row) for row in TABLE),
        LESSON_000.quote(SECTION, "Positional Encoding도 비슷합니다:"),
        LESSON_002.quote(
            "2. 사인·코사인 위치 인코딩", "왼쪽 열들은 빠르게 깜빡이고 오른쪽으로 갈수록 천천히 변합니다."
        ),
    ],
    expect="proved",
)

ROW = re.compile(r"^(\d+)\s+([01])\s+([01])\s+([01])\s+([01])")
CHANGES = re.compile(r"bit(\d): (?:매번|(\d+)번마다) 변함")
DEMO_D_MODEL, DEMO_POSITIONS = 64, 60
"""Document 002's demo 2 heatmap, whose columns §2 describes."""


def bit(position: int, j: int) -> int:
    return (position >> j) & 1


@claim.proof
def _(p):
    a = sp.Symbol("a", real=True)
    step = (sp.sin(a + w) - sp.sin(a)) ** 2 + (sp.cos(a + w) - sp.cos(a)) ** 2
    p.decide(step, 2 - 2 * sp.cos(w), label="one step moves a pair by |Δ|² = 2 − 2 cos ω_i, whatever the angle a")
    p.free_of(2 - 2 * sp.cos(w), a, label="the step size contains no position")
    p.decide(sp.diff(2 - 2 * sp.cos(w), w), 2 * sp.sin(w), label="d/dω (2 − 2 cos ω) = 2 sin ω > 0 for 0 < ω ≤ 1")
    p.step("ω_i = 10000^(−2i/d_model) falls with i, so the step 2 − 2 cos ω_i falls with i", w)
    table = [[int(v) for v in ROW.match(row).groups()] for row in TABLE[1:]]  # type: ignore[union-attr]
    p.decide(
        sp.Matrix(table),
        sp.Matrix([[n, bit(n, 3), bit(n, 2), bit(n, 1), bit(n, 0)] for n in range(8)]),
        label="the table's rows are pos and its bits 3, 2, 1, 0",
    )


@claim.check(uses="sinusoidal", batched=True)
@given(pos=position_batches(), d=d_models(even=True, high=128))
def step_per_pair_is_its_chord(t, pos, d):
    """|PE(pos + 1) − PE(pos)| of pair i equals 2·sin(ω_i/2), whatever pos."""
    steps = pair_chords(t.xp.to_float64(t.impl.sinusoidal(pos, d)), t.xp.to_float64(t.impl.sinusoidal(pos + 1, d)))
    chords = np.broadcast_to(chord_lengths(frequency_values(d), 1), steps.shape)
    t.close_pe(steps, chords, pos + 1, label="step of pair i")


@claim.probe
def table_and_columns(r):
    """The table against binary counting, each bit's change rule up to 2^16, and the columns of demo 2's heatmap."""
    rows = {int(m.group(1)): [int(v) for v in m.groups()[1:]] for row in TABLE[1:] if (m := ROW.match(row))}
    wrong = {n: bits for n, bits in rows.items() if bits != [bit(n, j) for j in (3, 2, 1, 0)]}
    r.measure("table rows read (pos: bit3, bit2, bit1, bit0)", rows)
    if sorted(rows) != list(range(8)) or wrong:
        r.counterexample("the table is not binary counting", rows=wrong)
    stated = {int(m.group(1)): int(m.group(2) or 1) for row in TABLE for m in [CHANGES.search(row)] if m}
    r.measure("stated: bit j changes every … steps", stated)
    span = np.arange(1, 2**16)
    for j, every in stated.items():
        changed = ((span >> j) & 1) != (((span - 1) >> j) & 1)
        if not np.array_equal(changed, span % every == 0) or every != 2**j:
            r.counterexample(f"bit{j} does not change exactly every {every} steps", first=int(span[changed][0]))
    r.measure("checked for every pos in", "1 … 65535")
    columns_slow_down(r)


def columns_slow_down(r):
    """Demo 2's heatmap: the mean step of each pair and column over its 60 positions, beside a counter's bits."""
    table = EXACT.sinusoidal(np.arange(DEMO_POSITIONS), DEMO_D_MODEL)
    columns = np.mean(np.abs(np.diff(table, axis=0)), axis=0)
    pairs = pair_chords(table[:-1], table[1:]).mean(axis=0)
    r.measure("demo 2 (d_model 64, 60 positions): mean step of pair i, first and last four", [*pairs[:4], *pairs[-4:]])
    if np.any(np.diff(pairs) >= 0):
        r.counterexample("a pair's mean step does not shrink from left to right", steps=pairs)
    bits = 2.0 ** -np.arange(4)
    r.measure("bits 0…3: changes per step", bits)
    r.measure("d_model = 8 (4 pairs, as many as the 4 bits): step of pair i", chord_lengths(frequency_values(8), 1))
    within = int(np.sum(np.diff(columns) >= 0))
    r.measure("columns (not pairs) whose mean step is not below the column to their left", within)
    pair_axis = np.arange(DEMO_D_MODEL // 2)
    series = {"pair i: chord": (pair_axis, pairs), "sin column 2i": (pair_axis, columns[0::2])}
    series |= {"cos column 2i + 1": (pair_axis, columns[1::2]), "bit j of a counter": (np.arange(4), bits)}
    r.figure(
        lines(
            "columns-slow-down",
            "Left columns flicker, right columns change slowly (demo 2: d_model 64, 60 positions)",
            f"Mean change per step over positions 0–59, by pair i: the pair's step (chord) falls steadily from "
            f"{pairs[0]:.2f} at i = 0 to {pairs[-1]:.1e} at i = 31; its sin column (2i) changes from {columns[0]:.2f} "
            f"to {columns[-2]:.1e}, its cos column (2i + 1) from {columns[1]:.2f} to {columns[-1]:.1e} (near pos 0 a "
            f"slow cos hardly moves, so {within} columns change more than their left neighbour); bit j of a binary "
            "counter changes on 2^−j of the steps.",
            series,
            x_label="pair i (columns 2i and 2i + 1) / bit j",
            y_label="mean change per step",
            log_y=True,
        )
    )
