"""Each claim evaluated at most once per run, its record shared with the claims that depend on it.

In one process the records are kept in memory. Under pytest-xdist the workers share a folder the
controller made for the run: whoever needs a claim first evaluates it under a file lock and writes
its record there, and every other worker (running the claim's own test, or a claim derived from it)
reads that record instead of evaluating again.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from filelock import FileLock

from checks.claim import Claim
from checks.engine.discovery import find_claim
from checks.engine.evaluate import dependency_of, evaluate, implementations_run
from checks.engine.limits import longest_time_limit
from checks.engine.reuse import Earlier, claim_key
from checks.evidence import Dependency
from checks.implementations.registry import implementations
from checks.results.codec import from_json, to_json
from checks.results.records import ClaimRecord


class Outcomes:
    """The records of one run, by claim id; with ``earlier``, a claim whose inputs did not change is taken from it
    (checks.engine.reuse)."""

    def __init__(self, folder: Path | None = None, earlier: Earlier | None = None) -> None:
        self.folder = folder
        self.earlier = earlier
        self._records: dict[str, ClaimRecord] = {}
        self._evaluating: list[str] = []
        self.evaluated: list[str] = []
        """The claims this process evaluated itself, in order (a test counts them)."""

    def record(self, claim: Claim) -> ClaimRecord:
        """The claim's record, evaluating it only if no one in this run has."""
        if claim.id not in self._records:
            if claim.id in self._evaluating:
                chain = " → ".join([*self._evaluating[self._evaluating.index(claim.id) :], claim.id])
                raise LookupError(f"claims depend on each other in a cycle: {chain}")
            self._records[claim.id] = self._shared(claim) if self.folder else self._evaluate(claim)
        return self._records[claim.id]

    def dependency(self, claim_id: str, directory: Path | None = None) -> Dependency:
        """What a derived claim sees of the claim ``claim_id`` among the claim files in ``directory``."""
        return dependency_of(self.record(find_claim(claim_id, directory)))

    def _evaluate(self, claim: Claim) -> ClaimRecord:
        directory = claim.origin.parent if claim.origin else None
        self._evaluating.append(claim.id)
        try:
            dependencies = [self._key_of(d, directory) for d in claim.depends]
            key = claim_key(claim, dependencies, (adapter.name for adapter in implementations()))
            if self.earlier is not None and (found := self.earlier.reusable(claim.id, key)) is not None:
                return found
            record = evaluate(claim, lambda claim_id: self.dependency(claim_id, directory))
        finally:
            self._evaluating.pop()
        self.evaluated.append(claim.id)
        return replace(record, key=key)

    def _key_of(self, claim_id: str, directory: Path | None) -> str:
        """A dependency's key; one that cannot be found or evaluated is said so (its claim then says why)."""
        try:
            return self.record(find_claim(claim_id, directory)).key
        except Exception as error:  # the evaluation that follows reports it as the claim's error
            return f"unresolved {claim_id}: {type(error).__name__}"

    def _shared(self, claim: Claim) -> ClaimRecord:
        assert self.folder is not None
        stored = self.folder / f"{claim.id}.json"
        limit = longest_time_limit(len(implementations_run(claim)))
        with FileLock(self.folder / f"{claim.id}.lock", timeout=3 * limit + 60 if limit > 0 else -1):
            if stored.is_file():
                return from_json(ClaimRecord, json.loads(stored.read_text(encoding="utf-8")))
            record = self._evaluate(claim)
            stored.write_text(json.dumps(to_json(record), ensure_ascii=False), encoding="utf-8")
            return record
