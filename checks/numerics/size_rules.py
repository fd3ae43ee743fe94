"""Failures stated as rules: the simplest rule of a small family that separates the sizes a check fails at from
the sizes it holds at ("every odd d_model", "every d_model ≡ 4 (mod 8)", "every d_model below 8").

The family: a residue class of d_model modulo 2, 4 or 8 (which residues: the failing sizes' own), the parity of
the number of rotated pairs for a RoPE ("the rotated count d/4 is odd" where half of each head rotates), and a
threshold on d_model. Simplest first, by the residues a rule names times its modulus (parity 2, parity of the pairs
2.5, one class mod 4: 4, a threshold 5, one class mod 8: 8). A rule that every
size matches is no rule. A rule rests on failures: each residue class it names on two failing sizes of its own
(d_model = 2 alone is no "d_model ≡ 2 (mod 8)", even beside failures at 4 and 6), a threshold on one at least. A
rule that a holding size matches is contradicted, never proposed. The engine confirms a rule by running the check
again with every size it names set aside (checks.evidence.check.runner); until then a rule is only consistent with
the sizes seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

MODULI = (2, 4, 8)
SIZES_PER_CLASS = 2
"""Failing sizes each residue class a rule names must hold: one size alone says nothing about a modulus."""


POWERS_OF_TWO = "powers of 2"
FAMILIES = (POWERS_OF_TWO,)
"""The size families a topic may declare (checks.topics.Topic.size_families): its natural sizes, whose rules
("every heads that is not a power of 2") join the family of rules."""


@dataclass(frozen=True)
class SizeRule:
    """Sizes matching a residue class (``modulus``, ``residues``), a family (``power_of_two``: sizes that are, or are
    not, powers of 2) or a threshold (``below`` / ``at_least``); a residue class with ``at_least`` is both ("every
    odd d_model ≥ 3")."""

    modulus: int = 0
    residues: frozenset[int] = frozenset()
    below: int | None = None
    at_least: int | None = None
    pairs: Fraction | None = None
    """A rule over the number of rotated pairs, d_model · ``pairs`` (1/2 for a full RoPE, 1/4 when half of each
    head rotates), instead of d_model itself: ``residues`` mod 2 of that count."""
    power_of_two: bool | None = None
    even: bool = False
    """Even sizes only: a rule stated where every size drawn was even names no odd size ("every even number of heads
    that is not a power of 2", where a check drew even sizes only)."""

    @property
    def cost(self) -> float:
        """How complex the rule is to state (lower: simpler)."""
        if self.power_of_two is not None:
            return 3.0
        threshold = 5.0 if self.below is not None or self.at_least is not None else 0.0
        if not self.modulus:
            return threshold
        residues = float(self.modulus * len(self.residues)) + (0.5 if self.pairs is not None else 0.0)
        return residues + (threshold and 3.0)

    def matches(self, d_model: int) -> bool:
        if self.even and d_model % 2:
            return False
        if self.power_of_two is not None:
            return (d_model > 0 and d_model & (d_model - 1) == 0) == self.power_of_two
        if self.below is not None and d_model >= self.below:
            return False
        if self.at_least is not None and d_model < self.at_least:
            return False
        return not self.modulus or self.residue(d_model) in self.residues

    def residue(self, d_model: int) -> int:
        """The residue class of ``d_model`` (or of its rotated pair count) this rule's modulus sorts it into."""
        counted = d_model if self.pairs is None else pair_count(d_model, self.pairs)
        return counted % self.modulus

    def rests_on(self, failing: Collection[int]) -> bool:
        """Whether ``failing`` bear the rule: a threshold or a family any of them; a residue rule SIZES_PER_CLASS of
        them in each class it names, and not every class (a rule every size matches is none)."""
        if not self.modulus:
            return any(self.matches(d) for d in failing)
        counts = Counter(self.residue(d) for d in failing)
        return len(self.residues) < self.modulus and all(counts[r] >= SIZES_PER_CLASS for r in self.residues)

    def contradicted_by(self, holding: Iterable[int]) -> list[int]:
        """The holding sizes this rule names: each one withdraws it."""
        return sorted(d for d in set(holding) if self.matches(d))

    def describe(self, size: str = "d_model") -> str:
        """The rule in words, ``size`` naming the size (a topic's ``size_name``; a plural one is a count: "number of
        heads"): "every odd d_model", "every d_model ≡ 4 (mod 8)", "every d_model ≥ 64", "every odd d_model ≥ 3",
        "every number of heads that is not a power of 2", "every even number of heads ≥ 6"."""
        noun = f"number of {size}" if size.endswith("s") and not size.endswith("ss") else size
        if self.even:
            noun = f"even {noun}"
        if self.power_of_two is not None:
            return f"every {noun} that is {'' if self.power_of_two else 'not '}a power of 2"
        if not self.modulus:
            return f"every {noun} below {self.below}" if self.below is not None else f"every {noun} ≥ {self.at_least}"
        from_on = f" ≥ {self.at_least}" if self.at_least is not None else ""
        if self.pairs is not None:
            kind = "odd" if self.residues == {1} else "even"
            share = "" if self.pairs == Fraction(1, 2) else " rotated"
            return f"every {noun}{from_on} with an {kind} number of{share} pairs ({size} · {self.pairs} {kind})"
        if self.modulus == 2:
            return f"every {'odd' if self.residues == {1} else 'even'} {noun}{from_on}"
        residues = ", ".join(map(str, sorted(self.residues)))
        return f"every {noun}{from_on} ≡ {residues} (mod {self.modulus})"


def pair_count(d_model: int, pairs: Fraction) -> int:
    """How many pairs rotate at this d_model (an odd leftover dimension rotates with none)."""
    return int(d_model * pairs)


def candidates(
    failing: Iterable[int],
    pairs: Fraction | None = None,
    families: Collection[str] = (),
    drawn: Collection[int] = (),
) -> list[SizeRule]:
    """Every rule of the family that all of ``failing`` match and rest on (SizeRule.rests_on), simplest first.

    A residue class needs two failing sizes of its own: "d_model = 2, 4, 6" is no "every d_model ≡ 2, 4, 6 (mod
    8)", each class holding one; a threshold may rest on one size (the smallest or largest), and a residue class
    may start at the smallest failing size. ``families``: the topic's declared size families (FAMILIES), whose
    rules join. Where every size ``drawn`` is a power of 2, no residue class is stated ("every even number of heads"
    would name sizes never drawn); where every one is even, no threshold or family names an odd size."""
    failed = sorted(set(failing))
    if not failed:
        return []
    even = bool(drawn) and all(d % 2 == 0 for d in drawn)  # a threshold or family names no odd size never drawn
    found = [SizeRule(below=failed[-1] + 1, even=even), SizeRule(at_least=failed[0], even=even)]
    if POWERS_OF_TWO in families:
        found += [SizeRule(power_of_two=True, even=even), SizeRule(power_of_two=False, even=even)]
    if not (POWERS_OF_TWO in families and drawn and all(SizeRule(power_of_two=True).matches(d) for d in drawn)):
        classes = [SizeRule(modulus, frozenset(d % modulus for d in failed)) for modulus in MODULI]
        if pairs is not None:
            classes.append(SizeRule(2, frozenset(pair_count(d, pairs) % 2 for d in failed), pairs=pairs))
        found += classes + [replace(rule, at_least=failed[0]) for rule in classes if failed[0] > 1]
    return sorted((rule for rule in found if rule.rests_on(failed)), key=lambda rule: rule.cost)


def separating(
    failing: Iterable[int],
    holding: Iterable[int],
    passed_over: Collection[SizeRule] = (),
    pairs: Fraction | None = None,
    families: Collection[str] = (),
) -> SizeRule | None:
    """The simplest rule all of ``failing`` match and none of ``holding`` does (leaving out ``passed_over``); None
    when no rule of the family separates them: a rule that a holding size contradicts is withdrawn. ``pairs``: the
    rotated pairs per dimension of d_model, for a RoPE (rules over the count of rotated pairs join the family);
    ``families``: the topic's size families."""
    failed, held = set(failing), set(holding)
    found = (rule for rule in candidates(failed, pairs, families, failed | held) if rule not in passed_over)
    return next((rule for rule in found if not rule.contradicted_by(held)), None)
