"""The pytest items a claim file becomes: one per claim, or one that stands for a file that needs an extra or failed
to load; each writes its claim's record into its report (RECORD) for the results collector (checks.engine.collector).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from checks.claim import Claim
from checks.engine.discovery import load_claims
from checks.engine.evaluate import broken_file
from checks.engine.memory import release_freed_memory
from checks.engine.outcomes import Outcomes
from checks.evidence import kinds
from checks.results.codec import to_json
from checks.results.records import ClaimRecord, Run
from checks.settings import extras
from checks.settings.extras import MissingExtra

RECORD = "claim_record"
"""The user property under which a claim's test reports its record (JSON)."""
OUTCOMES = pytest.StashKey[Outcomes]()
"""Where a run keeps the outcomes its claims share (checks.engine.outcomes)."""


class NotATestModule(pytest.File):
    """What pytest's Python collector gets for a claim file: nothing (ClaimFile collects it)."""

    def collect(self):
        return []


class ClaimFile(pytest.File):
    """A claim file: one test per claim it declares."""

    def collect(self):
        try:
            claims = load_claims(self.path)
        except Exception as error:
            if module := extras.needed(error):
                yield NeedsExtraItem.from_parent(self, name=self.path.name, said=str(MissingExtra(module)))
                return
            yield BrokenFileItem.from_parent(self, name=self.path.name, said=f"{type(error).__name__}: {error}")
            return
        for claim in claims:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class ClaimMismatch(AssertionError):
    """The observed verdict is not the one the claim file expects."""


class ClaimItem(pytest.Item):
    def __init__(self, *, claim: Claim, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.duplicate_of: str | None = None
        self.billed: float | None = None
        """The claim's own evaluation time, in seconds: what its test's call reports as its duration."""

    def runtest(self) -> None:
        if self.duplicate_of:
            record = broken_file(self.path, f"claim id {self.claim.id!r} is also declared in {self.duplicate_of}")
        else:
            record = self.config.stash[OUTCOMES].record(self.claim)
            self.billed = record.seconds
        self.user_properties.append((RECORD, json.dumps(to_json(record), ensure_ascii=False)))
        if record.needs:  # the rest of its evidence is recorded; a verdict on part of it is neither pass nor fail
            raise pytest.skip.Exception(f"claim {self.claim.id}: {record.needs}", _use_item_location=True)
        if record.observed != record.expected:
            raise ClaimMismatch(_mismatch(record))

    def teardown(self) -> None:
        release_freed_memory()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimMismatch):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim {self.claim.id}"


class ClaimFileItem(pytest.Item):
    """Stands for a claim file that gives no claims to run; ``said`` says why."""

    def __init__(self, *, said: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.said = said

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"claim file {self.path.name}"


class NeedsExtraItem(ClaimFileItem):
    """A claim file that imports a module of an extra this install lacks: skipped with that line."""

    def runtest(self) -> None:
        raise pytest.skip.Exception(self.said, _use_item_location=True)


class BrokenFileItem(ClaimFileItem):
    """A claim file that failed to load: broken, with the error."""

    def runtest(self) -> None:
        record = broken_file(self.path, self.said)
        self.user_properties.append((RECORD, json.dumps(to_json(record), ensure_ascii=False)))
        raise ClaimMismatch(f"{self.path}: {self.said}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        return str(excinfo.value)


def _mismatch(record: ClaimRecord) -> str:
    if record.id.startswith("file:"):
        return record.errors[0]
    lines = [f"{record.id}: observed {record.observed}, expected {record.expected}"]
    lines += [f"  error: {e}" for e in record.errors]
    lines += [f"  finding ({f.kind}): {f.text}{_data(f.data)}" for f in record.findings]
    for kind in kinds():
        lines += [f"  {line}" for line in kind.explain([r for r in record.evidence if isinstance(r, kind.record_type)])]
    lines += [
        f"  {r.implementation or r.kind}/{r.device}/{r.dtype} {r.name}: {r.status} {r.message}"
        for r in record.of(Run)
        if r.status == "error"
    ]
    return "\n".join(lines)


def _data(data: dict[str, Any] | None) -> str:
    if not data:
        return ""
    text = ", ".join(f"{key} = {value}" for key, value in data.items())
    return f" ({text[:400]})"
