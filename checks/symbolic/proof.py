"""The proof record a claim's ``@claim.proof`` function fills in."""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from checks.symbolic.decide import Decision, Status, Step, decide


@dataclass
class Fact:
    """A structural fact checked exactly (e.g. "M_k contains no pos")."""

    label: str
    holds: bool


@dataclass
class Proof:
    """Steps, decisions and facts of one claim's symbolic argument."""

    steps: list[Step] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    refutations: list[Decision] = field(default_factory=list)

    def symbols(self, names: str, **assumptions: bool) -> tuple[sp.Symbol, ...]:
        """Symbols from space-separated names, e.g. ``p.symbols("pos k", real=True)``."""
        return tuple(sp.Symbol(name, **assumptions) for name in names.split())

    def reals(self, names: str) -> tuple[sp.Symbol, ...]:
        return self.symbols(names, real=True)

    def step(self, label: str, expr: sp.Basic) -> None:
        """A displayed derivation step (shown, not decided)."""
        self.steps.append(Step(label, expr))

    def decide(self, lhs: object, rhs: object, label: str = "") -> Decision:
        """Decide lhs = rhs and keep the decision with its steps and certificate."""
        decision = decide(lhs, rhs)
        self.decisions.append(decision)
        title = label or "identity"
        self.steps.append(Step(f"{title}: {decision.status}", sp.Eq(decision.lhs, decision.rhs, evaluate=False)))
        self.steps += [Step(f"  {s.label}", s.expr) for s in decision.steps[1:]]
        for condition in decision.conditions:
            if condition not in self.conditions:
                self.conditions.append(condition)
        return decision

    def refute(self, lhs: object, rhs: object, label: str = "") -> Decision:
        """Show that lhs = rhs is false: a witness-confirmed refutation counts for the claim.

        For statements of the form "this identity fails" (sin alone, additive PE): the
        proof is proved when ``decide`` refutes the identity, refuted when it proves it.
        """
        decision = decide(lhs, rhs)
        title = f"{label or 'identity'}: expected refuted, {decision.status}"
        self.steps.append(Step(title, sp.Eq(decision.lhs, decision.rhs, evaluate=False)))
        self.steps += [Step(f"  {s.label}", s.expr) for s in decision.steps[1:]]
        self.refutations.append(decision)
        return decision

    def fact(self, label: str, holds: bool, expr: sp.Basic | None = None) -> bool:
        """Record a structural fact checked exactly by the caller (shown with ``expr`` when given)."""
        self.facts.append(Fact(label, holds))
        self.steps.append(Step(f"{label}: {holds}", expr if expr is not None else sp.true if holds else sp.false))
        return holds

    def free_of(self, expr: sp.Basic, *symbols: sp.Symbol, label: str = "") -> bool:
        """Record whether ``expr`` contains none of ``symbols``."""
        names = ", ".join(map(str, symbols))
        return self.fact(label or f"contains no {names}", not any(expr.has(s) for s in symbols), expr)

    @property
    def status(self) -> Status:
        """proved only if every decision is proved, every refutation refuted and every fact holds."""
        if any(d.status == "refuted" for d in self.decisions) or any(d.status == "proved" for d in self.refutations):
            return "refuted"
        if any(not f.holds for f in self.facts):
            return "refuted"
        decisions_proved = all(d.status == "proved" for d in self.decisions)
        refutations_refuted = all(d.status == "refuted" for d in self.refutations)
        if (self.decisions or self.refutations) and decisions_proved and refutations_refuted:
            return "proved"
        return "unknown"

    @property
    def witness(self) -> dict[str, str] | None:
        """The witness of a refuted decision (the claim's counterexample)."""
        return next((d.witness for d in self.decisions if d.witness), None)
