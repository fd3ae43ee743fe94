"""Failures stated as rules: the simplest rule of a small family that separates the sizes a check fails at from
the sizes it holds at ("every odd d_model", "every d_model ≡ 4 (mod 8)", "every d_model below 8").

The family: a residue class of d_model modulo 2, 4 or 8 (which residues: the failing sizes' own; "the rotated
count d/4 is odd" reads d_model ≡ 4 (mod 8)), and a threshold on d_model. Simplest first, by the residues a rule
names times its modulus (parity 2, one class mod 4: 4, a threshold 5, one class mod 8: 8). A rule that every
size matches is no rule. The engine confirms a rule by running the check again with every size it names set aside
(checks.evidence.check.runner); until then a rule is only consistent with the sizes seen.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

MODULI = (2, 4, 8)


@dataclass(frozen=True)
class SizeRule:
    """Sizes matching a residue class (``modulus``, ``residues``) of d_model, or a threshold (``below`` /
    ``at_least``)."""

    modulus: int = 0
    residues: frozenset[int] = frozenset()
    below: int | None = None
    at_least: int | None = None

    @property
    def cost(self) -> float:
        """How complex the rule is to state (lower: simpler)."""
        if self.below is not None or self.at_least is not None:
            return 5.0
        return float(self.modulus * len(self.residues))

    def matches(self, d_model: int) -> bool:
        if self.below is not None:
            return d_model < self.below
        if self.at_least is not None:
            return d_model >= self.at_least
        return d_model % self.modulus in self.residues

    def describe(self) -> str:
        """The rule in words: "every odd d_model", "every d_model ≡ 4 (mod 8)", "every d_model ≥ 64"."""
        if self.below is not None:
            return f"every d_model below {self.below}"
        if self.at_least is not None:
            return f"every d_model ≥ {self.at_least}"
        if self.modulus == 2:
            return f"every {'odd' if self.residues == {1} else 'even'} d_model"
        residues = ", ".join(map(str, sorted(self.residues)))
        return f"every d_model ≡ {residues} (mod {self.modulus})"


def candidates(failing: Iterable[int]) -> list[SizeRule]:
    """Every rule of the family that all of ``failing`` match, simplest first (none that matches every size)."""
    failed = sorted(set(failing))
    if not failed:
        return []
    found = [SizeRule(below=failed[-1] + 1), SizeRule(at_least=failed[0])]
    for modulus in MODULI:
        residues = frozenset(d % modulus for d in failed)
        if len(residues) < modulus:
            found.append(SizeRule(modulus, residues))
    return sorted(found, key=lambda rule: rule.cost)


def separating(
    failing: Iterable[int], holding: Iterable[int], passed_over: Collection[SizeRule] = ()
) -> SizeRule | None:
    """The simplest rule all of ``failing`` match and none of ``holding`` does (leaving out ``passed_over``); None
    when no rule of the family separates them."""
    held = set(holding)
    found = (rule for rule in candidates(failing) if rule not in passed_over)
    return next((rule for rule in found if not any(rule.matches(d) for d in held)), None)
