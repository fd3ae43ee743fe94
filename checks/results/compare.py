"""What changed between two results files: claims added or removed, verdicts, and findings.

``python -m checks compare BEFORE AFTER`` prints it; a refactoring that keeps every verdict and finding prints
"identical". Findings are compared by kind and text (their numbers are part of the text). A claim whose evidence
is timed by the wall clock (a timed experiment) has numbers that differ from run to run: its findings' changes
are listed apart, as timings, and only its verdict counts toward "identical".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from checks.results.records import ClaimRecord, Results, Run


@dataclass
class ClaimChange:
    """How one claim present in both files differs."""

    id: str
    verdicts: tuple[str, str] | None = None
    """(before, after) observed verdicts, when they differ."""
    expected: tuple[str, str] | None = None
    """(before, after) expected verdicts, when they differ."""
    lost: list[str] = field(default_factory=list)
    """Findings only before ("kind: text")."""
    gained: list[str] = field(default_factory=list)
    """Findings only after."""
    timed: bool = False
    """Its evidence is timed by the wall clock: changed findings are timings, not a change of what it found."""

    @property
    def substantive(self) -> bool:
        """A verdict changed, or (for untimed evidence) a finding."""
        return bool(self.verdicts or self.expected or (not self.timed and (self.lost or self.gained)))

    def lines(self) -> list[str]:
        out = []
        if self.verdicts:
            out.append(f"  verdict {self.verdicts[0]} -> {self.verdicts[1]}")
        if self.expected:
            out.append(f"  expected {self.expected[0]} -> {self.expected[1]}")
        if self.timed and (self.lost or self.gained):
            out.append("  (timed by the wall clock: these findings' numbers differ from run to run)")
        out += [f"  - {text}" for text in self.lost]
        out += [f"  + {text}" for text in self.gained]
        return out


@dataclass
class Comparison:
    """Every difference between two results files that a reviewer or a refactoring cares about."""

    compared: int
    added: list[str]
    removed: list[str]
    changed: list[ClaimChange]
    """Every claim that differs, timings included."""

    @property
    def identical(self) -> bool:
        """No claim added or removed, no verdict changed, no finding of untimed evidence changed."""
        return not (self.added or self.removed or any(change.substantive for change in self.changed))

    @property
    def headline(self) -> str:
        """One sentence: what changed, never "every finding the same" when a timed finding moved."""
        timed = [change.id for change in self.changed if not change.substantive]
        if not self.identical:
            changed = sum(change.substantive for change in self.changed)
            return f"{changed} claim(s) changed, {len(self.added)} added, {len(self.removed)} removed"
        if timed:
            return (
                f"no verdict changed in {self.compared} claims; the findings of {len(timed)} claim(s) timed by the "
                f"wall clock moved: {', '.join(timed)}"
            )
        return f"{self.compared} claims, every verdict and finding the same"

    def report(self) -> str:
        timings = [change for change in self.changed if not change.substantive]
        changes = [change for change in self.changed if change.substantive]
        if self.identical:
            lines = [f"identical: {self.headline}"]
        else:
            lines = [
                f"{self.compared} claims in both; {len(changes)} changed, "
                f"{len(self.added)} added, {len(self.removed)} removed"
            ]
        lines += [f"added: {claim_id}" for claim_id in self.added]
        lines += [f"removed: {claim_id}" for claim_id in self.removed]
        for change in changes:
            lines += [f"changed: {change.id}", *change.lines()]
        for change in timings:
            lines += [f"timings only: {change.id} (verdict unchanged)", *change.lines()]
        return "\n".join(lines)

    def markdown(self) -> str:
        """The comparison as a pull-request comment: one line when nothing changed, else a table of the claims
        that changed and, folded, every finding and number that moved."""
        changes = [change for change in self.changed if change.substantive]
        if self.identical and not self.changed:
            return f"**No change**: {self.headline}.\n"
        verdicts = sum(1 for c in changes if c.verdicts)
        gained, lost = sum(len(c.gained) for c in changes), sum(len(c.lost) for c in changes)
        lines = [
            f"**{verdicts} verdict(s) changed, {gained} finding(s) or number(s) added, {lost} removed** "
            f"({self.compared} claims in both; {len(self.added)} added, {len(self.removed)} removed)",
        ]
        if self.identical:
            lines = [f"**No verdict changed**: {self.headline}."]
        listed = [f"- added: `{claim_id}`" for claim_id in self.added]
        listed += [f"- removed: `{claim_id}`" for claim_id in self.removed]
        lines += ["", *listed] if listed else []
        changes = changes + [change for change in self.changed if not change.substantive]
        if changes:
            lines += ["", "| claim | verdict | expected | added | removed |", "| --- | --- | --- | --- | --- |"]
            for c in changes:
                verdict = " → ".join(c.verdicts) if c.verdicts else "unchanged"
                expected = " → ".join(c.expected) if c.expected else "unchanged"
                lines.append(f"| `{c.id}` | {verdict} | {expected} | {len(c.gained)} | {len(c.lost)} |")
            lines += ["", "<details><summary>What moved</summary>", ""]
            for c in changes:
                lines += [f"**`{c.id}`**" + (" (timed by the wall clock)" if c.timed else ""), ""]
                lines += [f"- added: {_cell(text)}" for text in c.gained]
                lines += [f"- removed: {_cell(text)}" for text in c.lost]
                lines.append("")
            lines.append("</details>")
        return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """A finding or run line as Markdown text (no raw HTML, no table breaks)."""
    return text.replace("<", "&lt;").replace("|", "\\|")


def compare(before: Results, after: Results, runs: bool = False) -> Comparison:
    """The differences from ``before`` to ``after``, claim by claim; with ``runs``, every numeric run's status,
    examples, largest error and tolerance too (a refactoring's strictest test: the same numbers)."""
    old = {claim.id: claim for claim in before.claims}
    new = {claim.id: claim for claim in after.claims}
    both = sorted(old.keys() & new.keys())
    changes = [change for claim_id in both if (change := _change(old[claim_id], new[claim_id], runs)) is not None]
    return Comparison(len(both), sorted(new.keys() - old.keys()), sorted(old.keys() - new.keys()), changes)


def _change(before: ClaimRecord, after: ClaimRecord, runs: bool = False) -> ClaimChange | None:
    old, new = _findings(before), _findings(after)
    if runs:
        old, new = old + _runs(before), new + _runs(after)
    change = ClaimChange(
        before.id,
        verdicts=_pair(before.observed.value, after.observed.value),
        expected=_pair(before.expected.value, after.expected.value),
        lost=[text for text in old if text not in new],
        gained=[text for text in new if text not in old],
        timed=any(record.timed for record in (*before.evidence, *after.evidence)),
    )
    return change if change.lines() else None


def _runs(record: ClaimRecord) -> list[str]:
    """Each numeric run as a line: where it ran, and what it measured (wall-clock fields left out)."""
    return [
        f"run {run.kind} {run.name} [{run.implementation or '-'} {run.device} {run.dtype}{run.detail and ' '}"
        f"{run.detail}]: {run.status}, {run.count} {run.unit}, max error {run.max_error:.6g}, "
        f"tolerance {run.tolerance:.6g}"
        for run in record.of(Run)
    ]


def _findings(record: ClaimRecord) -> list[str]:
    """Each finding, and the erratum's texts (their figures come from the run) as lines."""
    lines = [f"{finding.kind}: {finding.text}" for finding in record.findings]
    if record.erratum is not None:
        lines.append(f"erratum ({record.erratum.severity}): {record.erratum.problem}")
        lines += [f"erratum wording: {record.erratum.wording}"] if record.erratum.wording else []
        lines += [f"erratum wording of {sentence!r}: {wording}" for sentence, wording in record.erratum.also.items()]
    return lines


def _pair(before: str, after: str) -> tuple[str, str] | None:
    return None if before == after else (before, after)
