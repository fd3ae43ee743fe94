"""Example tables whose column the text cites for how it changes, though the table never shows it change.

A lesson shows a table (binary counting from 0 to 7) and then says another thing changes slowly 'like bit3': in
the table bit3 is 0 on every row, so the example cannot show the slow change it is cited for. Such a column is a
finding; where the table counts in binary (each ``bitN`` column is bit N of the first column), its wording is the
table continued to the first row where the column changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from checks.written.remarks import NotationFinding, Place, particle

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
COMMENT = re.compile(r"\s*(?:←|<-|#|//).*$")
CHANGING = re.compile(r"변하|변함|변화|바뀌|바뀝|달라|chang|vary|varies|flip", re.IGNORECASE)
BIT = re.compile(r"(?i)^(?:bit|b)(\d+)$")
EVERY = re.compile(r"←\s*(\S+):\s*(\d+)번마다 변함")
"""A row's note that a column changes every N rows (the note the continued rows copy)."""


@dataclass(frozen=True)
class _Table:
    header_line: int
    names: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    """(line, cells) for each row."""


def constant_columns(lines: list[str]) -> list[NotationFinding]:
    """A column that holds one value on every row of a table (three rows or more), which a line outside the table
    names with a word for changing."""
    found = []
    for table in _tables(lines):
        inside = set(range(table.header_line, table.rows[-1][0] + 1))
        for column, name in enumerate(table.names):
            values = {cells[column] for _, cells in table.rows}
            if len(values) != 1:
                continue
            named = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
            cited = [
                n for n, line in enumerate(lines, 1) if n not in inside and named.search(line) and CHANGING.search(line)
            ]
            if cited:
                found.append(_finding(lines, table, column, cited))
    return found


def _tables(lines: list[str]) -> list[_Table]:
    """Tables written in plain text: a header of names over three or more rows of as many numbers."""
    tables = []
    number = 1
    while number <= len(lines):
        names = tuple(lines[number - 1].split())
        rows = []
        below = number + 1
        while below <= len(lines):
            cells = tuple(COMMENT.sub("", lines[below - 1]).split())
            if len(cells) != len(names) or not all(NUMBER.fullmatch(c) for c in cells):
                break
            rows.append((below, cells))
            below += 1
        if len(names) >= 2 and len(rows) >= 3 and not any(NUMBER.fullmatch(n) for n in names):
            tables.append(_Table(number, names, tuple(rows)))
            number = below
        else:
            number += 1
    return tables


def _finding(lines: list[str], table: _Table, column: int, cited: list[int]) -> NotationFinding:
    name = table.names[column]
    value = table.rows[0][1][column]
    first, last = table.rows[0][1][0], table.rows[-1][1][0]
    cited_at = ", ".join(map(str, cited))
    continued = _continued(lines, table, column)
    last_line = table.rows[-1][0]
    wording = "\n".join([lines[last_line - 1], *continued]) if continued else ""
    fix = (
        f"표를 {name}{particle(name, '이가')} 처음 바뀌는 행까지 이어 썼습니다."
        if continued
        else f"표를 {name}{particle(name, '이가')} 바뀌는 행까지 늘리거나, 표 안에서 바뀌는 열을 예로 들어 주세요."
    )
    return NotationFinding(
        "example column never changes",
        (Place(last_line, lines[last_line - 1], wording),),
        f"Line(s) {cited_at} cite {name} for how it changes, but in the table (lines {table.header_line}–{last_line}) "
        f"{name} is {value} on every row ({table.names[0]} {first} to {last}): the example does not show the change.",
        f"{cited_at}행은 변하는 예로 {name}{particle(name, '을를')} 들지만, "
        f"위 표({table.header_line}–{last_line}행)에서 {name}{particle(name, '은는')} "
        f"{table.names[0]} {first}~{last}의 모든 행에서 {value}입니다. 예가 보여 주려는 변화가 표에 없습니다. {fix}",
    )


def _continued(lines: list[str], table: _Table, column: int) -> list[str]:
    """The rows after the last, up to the first where ``column`` changes, for a table that counts in binary (its
    first column counts by one; each bitN column is bit N of it); none for another table."""
    bits = {c: int(m.group(1)) for c, name in enumerate(table.names) if (m := BIT.match(name))}
    if column not in bits or set(bits) != set(range(1, len(table.names))):
        return []
    try:
        counts = [int(cells[0]) for _, cells in table.rows]
        cells_of = [[int(c) for c in cells[1:]] for _, cells in table.rows]
    except ValueError:
        return []
    if counts != list(range(counts[0], counts[0] + len(counts))):
        return []
    if any(cells[c - 1] != (count >> bits[c]) & 1 for count, cells in zip(counts, cells_of, strict=True) for c in bits):
        return []
    last_line, last_cells = table.rows[-1]
    template = COMMENT.sub("", lines[last_line - 1])
    spans = [m.span() for m in re.finditer(r"\S+", template)]
    rows, count = [], counts[-1]
    while True:
        count += 1
        values = [str(count)] + [str((count >> bits[c]) & 1) for c in range(1, len(table.names))]
        rows.append(_aligned(values, spans) + _note(lines, table, column, count, values[column] != last_cells[column]))
        if values[column] != last_cells[column]:
            return rows


def _aligned(values: list[str], spans: list[tuple[int, int]]) -> str:
    """Values set right-aligned where the template row's cells end."""
    row = ""
    for value, (_, end) in zip(values, spans, strict=True):
        row += " " * max(1, end - len(row) - len(value)) + value
    return row


def _note(lines: list[str], table: _Table, column: int, count: int, changes: bool) -> str:
    """The table's own note ('← bit2: 4번마다 변함') for the row where the column first changes."""
    notes = [EVERY.search(lines[line - 1]) for line, _ in table.rows]
    noted = next((lines[line - 1] for (line, _), note in zip(table.rows, notes, strict=True) if note), None)
    if not changes or noted is None:
        return ""
    gap = re.search(r"(\s*)←", noted)
    return f"{gap.group(1) if gap else '    '}← {table.names[column]}: {count}번마다 변함"
