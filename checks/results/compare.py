"""What changed between two results files: claims added or removed, verdicts, and findings.

``python -m checks compare BEFORE AFTER`` prints it; a refactoring that keeps every verdict and finding prints
"identical". Findings are compared by kind and text (their numbers are part of the text).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from checks.results.records import ClaimRecord, Results


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

    def lines(self) -> list[str]:
        out = []
        if self.verdicts:
            out.append(f"  verdict {self.verdicts[0]} -> {self.verdicts[1]}")
        if self.expected:
            out.append(f"  expected {self.expected[0]} -> {self.expected[1]}")
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

    @property
    def identical(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def report(self) -> str:
        if self.identical:
            return f"identical: {self.compared} claims, every verdict and finding the same"
        lines = [
            f"{self.compared} claims in both; {len(self.changed)} changed, "
            f"{len(self.added)} added, {len(self.removed)} removed"
        ]
        lines += [f"added: {claim_id}" for claim_id in self.added]
        lines += [f"removed: {claim_id}" for claim_id in self.removed]
        for change in self.changed:
            lines += [f"changed: {change.id}", *change.lines()]
        return "\n".join(lines)


def compare(before: Results, after: Results) -> Comparison:
    """The differences from ``before`` to ``after``, claim by claim."""
    old = {claim.id: claim for claim in before.claims}
    new = {claim.id: claim for claim in after.claims}
    both = sorted(old.keys() & new.keys())
    changes = [change for claim_id in both if (change := _change(old[claim_id], new[claim_id])) is not None]
    return Comparison(len(both), sorted(new.keys() - old.keys()), sorted(old.keys() - new.keys()), changes)


def _change(before: ClaimRecord, after: ClaimRecord) -> ClaimChange | None:
    old, new = _findings(before), _findings(after)
    change = ClaimChange(
        before.id,
        verdicts=_pair(before.observed.value, after.observed.value),
        expected=_pair(before.expected.value, after.expected.value),
        lost=[text for text in old if text not in new],
        gained=[text for text in new if text not in old],
    )
    return change if change.lines() else None


def _findings(record: ClaimRecord) -> list[str]:
    return [f"{finding.kind}: {finding.text}" for finding in record.findings]


def _pair(before: str, after: str) -> tuple[str, str] | None:
    return None if before == after else (before, after)
