"""What failed at which sizes: a failed cell's sizes set aside in turn until a run holds, and the rule that
separates the failing sizes from the holding ones, stated once for the dtypes whose failures are of one kind."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from checks.evidence.check.harness import Trial
from checks.evidence.check.record import CheckRun, CheckSpec
from checks.implementations.base import ImplementationFailure
from checks.implementations.topic_records import topic
from checks.numerics.domain import Domain
from checks.numerics.size_rules import SizeRule, separating
from checks.numerics.tolerances import LOW_PRECISION


@dataclass
class Attempt:
    """One Hypothesis run of a check: what failed (None: it held), at which input, and the sizes it called with."""

    trial: Trial
    failure: BaseException | None = None
    failing_input: dict[str, str] | None = None
    whole_input: dict[str, Any] | None = None
    """The failing input's arrays that ``failing_input`` summarises, whole."""
    unsatisfiable: str = ""
    read_dtype: bool = True
    """Whether the run read its dtype from checks.numerics.current (False: it drew what any dtype would)."""
    passed: Counter[int] = field(default_factory=Counter)
    """Per size, the test cases that passed with a call at it."""

    @property
    def held(self) -> set[int]:
        """When the run held, each size it called with in HOLDING_CASES test cases or more; nothing when it failed
        (a fault some inputs hide passes a size's one or two test cases: zeros, at a size drawn once)."""
        if self.failure is not None or self.unsatisfiable:
            return set()
        return {size for size, cases in self.passed.items() if cases >= HOLDING_CASES}

    @property
    def failed_at(self) -> int | None:
        """The d_model of a failed run's last call: the size its failure, replayed last, happened at."""
        seen = self.trial.impl.d_models_seen
        return seen[-1] if self.failure is not None and seen else None

    @property
    def drawn(self) -> tuple[str, int]:
        """The sizes it called with in words (sizes_said), and its examples."""
        return sizes_said(self.trial.impl.d_models_seen), self.trial.run.examples


HOLDING_CASES = 3
"""Test cases a size must pass, in a run that held, to hold where the failure depends on the input (_pooled)."""
SUB_DOMAIN_TRIES = 3
"""How many failing sizes are set aside, one after the other, to look for the answer at the other sizes."""


@dataclass
class FailedCell:
    """An implementation's failed run in one dtype, kept until each of its dtypes has run on the device, so that its
    failing sizes are stated together with those of the dtypes that failed the same way (state_sizes)."""

    check: CheckSpec
    run: CheckRun
    adapter: Any
    rerun: Callable[[CheckRun, Domain], Attempt]
    """The check again on a domain into a scratch run, unshrunk (only whether it fails matters)."""
    first: Attempt
    said: str
    """The failure in words, before any size is stated."""
    failing: list[int] = field(default_factory=list)
    """The d_model each failed run of the cell failed at, in the order found."""
    set_aside: Attempt | None = None
    """The run that held with the failing sizes set aside."""
    retried: list[Attempt] = field(default_factory=list)
    """Every run after the first."""

    @property
    def attempts(self) -> list[Attempt]:
        """Every run of the cell, the first one first."""
        return [self.first, *self.retried]

    @property
    def kind(self) -> str:
        """Which dtypes' sizes pool (state_sizes). An implementation that raised, or broke its contract, does so
        whatever the dtype's precision: its sizes pool across dtypes, by what it raised. Any other failure, a
        comparison out of tolerance, pools within its precision only (bfloat16 with float16, float32 with float64): a
        low precision's rounding can fail, or its tolerance hide a fault, at sizes where float32 and float64 do not,
        which is no size rule of theirs."""
        failure = self.first.failure
        if isinstance(failure, ImplementationFailure):
            cause = failure.__cause__
            return "broke its contract" if cause is None else f"raised {type(cause).__name__}"
        precision = "low" if self.run.dtype in LOW_PRECISION else "full"
        return f"{type(failure).__name__} in {precision} precision"

    def retry(self, domain: Domain) -> Attempt:
        """The check again on ``domain``, unshrunk (only whether it fails matters), its time counted in the cell's."""
        run = self.run
        scratch = CheckRun(run.name, run.device, run.dtype, implementation=run.implementation, reference=False)
        started = time.perf_counter()
        try:
            attempt = self.rerun(scratch, domain)
        finally:
            run.seconds += time.perf_counter() - started
        self.retried.append(attempt)
        return attempt

    @property
    def domain(self) -> Domain:
        """The domain the implementation declares."""
        return self.first.trial.impl.domain

    @property
    def size_name(self) -> str:
        """What the check's topic calls its size (checks.topics.Topic.size_name; d_model without a topic)."""
        return topic(self.check.uses).size_name if self.check.uses else "d_model"


def set_aside(cell: FailedCell) -> bool:
    """Set the failing size aside (as if the implementation had declared it outside its domain) and run the check
    again, up to SUB_DOMAIN_TRIES times, until a run holds: "fails for d_model = 2; holds for d_model 4 … 128 over
    40 examples". A domain error never hides the answer at the sizes the implementation supports. False (the message
    said) when no other size inside the domain is left to try (the run drew none)."""
    attempt = cell.first
    for _ in range(SUB_DOMAIN_TRIES):
        size = attempt.failed_at
        if size is None or size in cell.failing:
            break
        cell.failing.append(size)
        attempt = cell.retry(cell.domain.excluding(cell.failing))
        if (ended := _ended(cell, attempt)) is not None:
            return ended
    return True


def _ended(cell: FailedCell, attempt: Attempt) -> bool | None:
    """Whether a run with sizes set aside ends the search: True when it held, False (the message said) when no size
    was left to draw, None when it failed at another size."""
    if attempt.unsatisfiable or not attempt.trial.impl.d_models_seen:
        aside = _listed(cell.failing)
        cell.run.message = f"{cell.said} ({cell.size_name} = {aside}: no other size inside its domain to try)"
        return False
    if attempt.failure is None:
        cell.set_aside = attempt
        return True
    return None


def search_sizes(failed: list[FailedCell]) -> None:
    """The sizes each failed cell fails at (set_aside), then stated together (state_sizes): run after every dtype
    of the implementation had its first run, so that the search costs none of them their share of the time."""
    state_sizes([cell for cell in failed if set_aside(cell)])


def unsearched(failed: list[FailedCell], late: str) -> None:
    """The failed cells whose sizes the search did not state before the implementation's share ran out: their
    failure stands, with why no size is stated ("not run: … ran past its share …" → "sizes not searched: …")."""
    reason = late.removeprefix("not run: ")
    for cell in failed:
        if cell.run.message == cell.said:
            cell.run.message = f"{cell.said} (the sizes it fails at were not searched: {reason})"


Confirmed = tuple[SizeRule, dict[str, Attempt]]
"""A rule with, per dtype, the run that held with every size it names set aside."""


def state_sizes(failed: list[FailedCell]) -> None:
    """Each failed cell's message: its failure with the sizes it fails at, as one rule (_group_rule) for the dtypes
    whose failures are of one kind (FailedCell.kind) and so pool their sizes; where the kinds' rules differ every
    message says each one: "By dtype, in bfloat16: …; in float32 and float64: …"."""
    groups: dict[str, list[FailedCell]] = {}
    for cell in failed:
        if cell.failing:
            groups.setdefault(cell.kind, []).append(cell)
    rules = {kind: _group_rule(group) for kind, group in groups.items()}
    differ = _by_dtype(groups, rules)
    for cell in failed:
        group = groups.get(cell.kind, []) if cell.failing else []
        stated = _statement(cell, group, rules.get(cell.kind) if group else None)
        cell.run.message = stated + differ if group else stated


def _pooled(group: list[FailedCell]) -> tuple[set[int], set[int]]:
    """The sizes the group's dtypes failed at, and those they held at and none failed at: every size of a test case
    that passed, unless the failure depends on the input (a size both passed a test case and failed another: a zero
    vector passes faulty-odd-head at an odd size); then only the sizes of runs that held, each in HOLDING_CASES test
    cases at least, as one input that passed says nothing of the next."""
    attempts = [attempt for cell in group for attempt in cell.attempts]
    failing = {size for cell in group for size in cell.failing}
    passed = set().union(*(attempt.passed for attempt in attempts))
    holding = passed if not passed & failing else set().union(*(attempt.held for attempt in attempts))
    return failing, holding - failing


def _group_rule(group: list[FailedCell]) -> Confirmed | None:
    """The simplest rule separating the group's pooled failing sizes from its pooled holding ones, confirmed in each
    of its dtypes by a run with every size the rule names set aside; None when no rule of the family is confirmed.

    A confirming run that fails adds its size to the pool and the rule is inferred anew from every size drawn so
    far, in any run of any of the group's dtypes: a rule that a holding size contradicts is never stated (a
    confirming run draws none of the rule's sizes), nor one where a run on its sizes alone holds (_covered). One
    rule for the group, so one text across its dtypes. A rule that leaves nothing to draw in a dtype (every even
    d_model, for a check that draws even sizes only) is passed over."""
    check, adapter = group[0].check, group[0].adapter
    share = topic(check.uses).rotated_fraction if check.uses else None
    pairs = share(adapter) if share else None
    families = topic(check.uses).size_families if check.uses else ()
    passed_over: set[SizeRule] = set()
    for _ in range(RULE_TRIES):
        rule = separating(*_pooled(group), passed_over, pairs, families)
        if rule is None:
            return None
        held: dict[str, Attempt] = {}
        for cell in group:
            attempt = cell.retry(cell.domain.excluding_rule(rule))
            if attempt.unsatisfiable or not attempt.trial.impl.d_models_seen:
                passed_over.add(rule)
                break
            if (size := attempt.failed_at) is not None:
                cell.failing.append(size)
                break
            held[cell.run.dtype] = attempt
        else:
            if _covered(group, rule):
                return rule, held
            passed_over.add(rule)
    return None


def _covered(group: list[FailedCell], rule: SizeRule) -> bool:
    """Whether the check fails at every size ``rule`` names that it draws: the check again on those sizes alone,
    those already failing set aside, until no size is left to draw (True), a run holds (False: a size where the
    implementation is exact, in HOLDING_CASES test cases, withdraws the rule) or COVER_TRIES runs each failed at a
    size of their own (True)."""
    cell = group[0]
    for _ in range(COVER_TRIES):
        failing = {size for member in group for size in member.failing}
        attempt = cell.retry(cell.domain.within_rule(rule).excluding(failing))
        if attempt.unsatisfiable or not attempt.trial.impl.d_models_seen:
            return True
        if (size := attempt.failed_at) is None:
            return not attempt.held  # exact where a size held its test cases (Attempt.held); else no answer
        cell.failing.append(size)
    return True


def _by_position(cell: FailedCell) -> str | None:
    """A failure no size explains, stated as a threshold on the position: the check again with every position from
    the failing call's largest one on set aside, lower each time it fails again (up to RULE_TRIES runs); None when
    no such run holds (or the failure took no position)."""
    domain, seen = cell.domain, cell.first.trial.impl.positions_seen
    tried: list[int] = []
    while seen and len(tried) < RULE_TRIES and seen[-1] > (domain.min_position or 0):
        if tried and seen[-1] >= tried[-1]:
            return None
        tried.append(seen[-1])
        attempt = cell.retry(domain.below_position(tried[-1]))
        seen = attempt.trial.impl.positions_seen
        if attempt.unsatisfiable or not seen:
            return None
        if attempt.failure is None and len(set(seen)) < 2:
            return None  # held at one position only (position 0, say): no threshold to state
        if attempt.failure is None:
            return (
                f"{cell.said}. It fails once a call holds a position ≥ {tried[-1]} (the largest position of the "
                f"failing call; tried: {_listed(tried)}); holds at every position below it drawn, up to "
                f"{max(seen)}, over {attempt.trial.run.examples} examples"
            )
    return None


RULE_TRIES = 4
"""How many rules (checks.numerics.size_rules) are tried, each by a run with every size it names set aside."""
COVER_TRIES = 3
"""How many runs on a rule's sizes alone look for one where the implementation is exact (_covered)."""


def _statement(cell: FailedCell, group: list[FailedCell], confirmed: Confirmed | None) -> str:
    """The cell's failure with its sizes: the rule confirmed for its group; else the sizes the group failed at and the
    cell's run that held without them; else a threshold on the position (_by_position); else every size tried."""
    failing, size = sorted(_pooled(group)[0]), cell.size_name
    dtypes = sorted(member.run.dtype for member in group)
    pooled = f", the sizes of {_and(dtypes)} pooled" if len(dtypes) > 1 else ""
    if confirmed is not None:
        rule, held = confirmed
        sizes, examples = held[cell.run.dtype].drawn
        return (
            f"{cell.said}. It fails for {rule.describe(size)} (tried: {size} = {_listed(failing)}); holds at the "
            f"other sizes drawn, {size} {sizes}, over {examples} examples{pooled}"
        )
    # a run that held with sizes set aside: the cell's own, else (its own search ran out of tries) another dtype's
    # of the group that drew none of the pooled failing sizes; where the cell's own drew some (they held in this
    # dtype, failed in another), the cell's own failing sizes alone, never "fails for 20 … holds for 4 … 60"
    held_by = cell if cell.set_aside is not None else next((m for m in group if _clear(m, failing)), None)
    if held_by is not None and held_by.set_aside is not None:
        sizes, examples = held_by.set_aside.drawn
        listed = failing if _clear(held_by, failing) else sorted(cell.failing)
        aside = sorted(held_by.set_aside.trial.impl.domain.excluded_d_models)
        which = "those sizes" if aside == listed else f"{size} = {_listed(aside)}"
        where = "" if held_by is cell else f" in {held_by.run.dtype}"
        return (
            f"{cell.said}. It fails for {size} = {_listed(listed)}; holds for {size} {sizes} over "
            f"{examples} examples with {which} set aside{where}{pooled if listed == failing else ''}"
        )
    by_position = _by_position(cell)
    if by_position or len(cell.failing) < 2:
        return by_position or cell.said
    return f"{cell.said}. It fails at every size tried ({size} = {_listed(cell.failing)}, each set aside in turn)"


def _clear(cell: FailedCell, failing: list[int]) -> bool:
    """Whether the cell's run with sizes set aside held and drew none of ``failing``."""
    return cell.set_aside is not None and not set(cell.set_aside.trial.impl.d_models_seen) & set(failing)


def _by_dtype(groups: dict[str, list[FailedCell]], rules: dict[str, Confirmed | None]) -> str:
    """Nothing when every group of dtypes states one rule (or none does); else each group's rule by its dtypes:
    ". By dtype, in bfloat16: every d_model below 3; in float32 and float64: every odd d_model"."""
    if len({confirmed[0] if confirmed else None for confirmed in rules.values()}) < 2:
        return ""
    readings: dict[str, list[str]] = {}
    for kind, group in groups.items():
        confirmed, size = rules[kind], group[0].size_name
        reading = (
            confirmed[0].describe(size) if confirmed else f"{size} = {_listed(sorted(_pooled(group)[0]))} (no rule)"
        )
        readings.setdefault(reading, []).extend(cell.run.dtype for cell in group)
    return ". By dtype, " + "; ".join(sorted(f"in {_and(sorted(dtypes))}: {said}" for said, dtypes in readings.items()))


def _and(names: list[str]) -> str:
    """Names joined in words: "a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


LISTED_SIZES = 8
"""Up to this many distinct sizes drawn are listed ("1, 2, 4, 8, 16"); more read as a span ("2 … 64")."""


def sizes_said(seen: list[int]) -> str:
    """The sizes a run drew in words: each one where they are few (a span "1 … 16" would claim the sizes between),
    else the smallest and largest."""
    distinct = sorted(set(seen))
    return _listed(distinct) if len(distinct) <= LISTED_SIZES else f"{distinct[0]} … {distinct[-1]}"


def _listed(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes))
