"""The proof record a claim's ``@claim.proof`` function fills in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import sympy as sp

from checks.symbolic.decide import Decision, Relation, Status, Step, decide
from checks.symbolic.moments import DerivedMoment, Moments, pending


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
    gaps: list[str] = field(default_factory=list)
    """Steps the argument needs that no decision checked: while there is one, the proof is not proved."""
    assumptions: list[str] = field(default_factory=list)
    """What the argument takes as given about the claim's setting (an even d_model): shown beside "proved"."""
    moments: Moments = field(default_factory=Moments, init=False, repr=False, compare=False)
    """The random variables declared (``random``, ``random_vector``, ``independent``), for ``expectation``."""

    def symbols(self, names: str, **assumptions: bool) -> tuple[sp.Symbol, ...]:
        """Symbols from space-separated names, e.g. ``p.symbols("pos k", real=True)``."""
        return tuple(sp.Symbol(name, **assumptions) for name in names.split())

    def reals(self, names: str) -> tuple[sp.Symbol, ...]:
        return self.symbols(names, real=True)

    def assume(self, text: str) -> None:
        """State what the argument takes as given (``p.assume("d_model is even: every sin has its cos")``): the
        verdict does not change, and every page shows it beside the proof's status."""
        if text not in self.assumptions:
            self.assumptions.append(text)

    def random(
        self, name: str, *, mean: object = None, variance: object = None, moments: Mapping[int, object] | None = None
    ) -> sp.Symbol:
        """A random variable with its stated moments (``x = p.random("x", mean=0, variance=1)``; ``moments={4: 3}``
        states E x⁴): a real symbol to build expressions with. The declaration is an assumption of the proof."""
        variable = self.moments.declare(name, mean, variance, moments or {}, vector=False)
        self.assume(variable.assumption)
        assert isinstance(variable.handle, sp.Symbol)
        return variable.handle

    def random_vector(
        self, name: str, *, mean: object = None, variance: object = None, moments: Mapping[int, object] | None = None
    ) -> sp.IndexedBase:
        """A random vector whose components ``q[i]`` are independent, each with the stated moments
        (``q = p.random_vector("q", mean=0, variance=1)``); sum them with ``sp.Sum(q[i] * k[i], (i, 1, d_k))``. The
        declaration is an assumption of the proof."""
        variable = self.moments.declare(name, mean, variance, moments or {}, vector=True)
        self.assume(variable.assumption)
        assert isinstance(variable.handle, sp.IndexedBase)
        return variable.handle

    def independent(self, *variables: sp.Basic) -> None:
        """State that declared random variables (or vectors: all their components) are mutually independent, an
        assumption of the proof; without it a product of different variables has no derived moment."""
        self.assume(self.moments.independent(variables))

    def expectation(self, expr: object) -> sp.Expr:
        """E[expr] for a polynomial in the declared random variables (sums over a symbolic count included), derived
        by linearity, independence and the stated moments, with a certificate the kernel re-checks. The derivation
        is kept as a decision: a moment that was not stated leaves it, and the proof, unknown."""
        return self._derive(self.moments.expectation(expr))

    def variance(self, expr: object) -> sp.Expr:
        """Var[expr] = E[expr²] − (E expr)², derived as ``expectation`` derives each."""
        return self._derive(self.moments.variance(expr))

    def _derive(self, derivation: DerivedMoment) -> sp.Expr:
        self._keep(derivation.decision, "moment by linearity, independence and the stated moments")
        return derivation.value

    def step(self, label: str, expr: sp.Basic) -> None:
        """An explanatory step: shown, marked as not checked, and never part of the verdict."""
        self.steps.append(Step(label, expr))

    def unchecked(self, label: str, expr: sp.Basic) -> None:
        """A step the argument needs but the machine did not check (a limit, an argument for every n, another
        claim's result): shown, and the proof stays unknown, so the claim rests on its checks."""
        self.gaps.append(label)
        self.steps.append(Step(f"unchecked: {label}", expr))

    def decide(self, lhs: object, rhs: object, label: str = "", relation: Relation = "==") -> Decision:
        """Decide lhs = rhs (or lhs ≤ rhs, ≥, <, > with ``relation``) and keep the decision with its certificate."""
        title = label or ("identity" if relation == "==" else "inequality")
        return self._keep(self._decided(lhs, rhs, relation), title)

    def _decided(self, lhs: object, rhs: object, relation: Relation = "==") -> Decision:
        """decide(), unless a side rests on a moment that was not derived (unknown); a random variable outside an
        expectation is refused."""
        if reason := self.moments.admit(lhs, rhs):
            return pending(lhs, rhs, relation, reason)
        return decide(lhs, rhs, relation)

    def _keep(self, decision: Decision, title: str) -> Decision:
        self.decisions.append(decision)
        self._show(f"{title}: {decision.status}", decision)
        for condition in decision.conditions:
            if condition not in self.conditions:
                self.conditions.append(condition)
        return decision

    def refute(self, lhs: object, rhs: object, label: str = "") -> Decision:
        """Show that lhs = rhs is false: a witness-confirmed refutation counts for the claim.

        For statements of the form "this identity fails" (sin alone, additive PE): the
        proof is proved when ``decide`` refutes the identity, refuted when it proves it.
        """
        decision = self._decided(lhs, rhs)
        self._show(f"{label or 'identity'}: expected refuted, {decision.status}", decision)
        self.refutations.append(decision)
        return decision

    def _show(self, title: str, decision: Decision) -> None:
        checked = decision.status != "unknown"
        self.steps.append(Step(title, decision.statement, checked))
        self.steps += [Step(f"  {s.label}", s.expr, checked) for s in decision.steps[1:]]

    def fact(self, label: str, holds: bool, expr: sp.Basic | None = None) -> bool:
        """Record a structural fact checked exactly by the caller (shown with ``expr`` when given)."""
        self.facts.append(Fact(label, holds))
        shown = expr if expr is not None else sp.true if holds else sp.false
        self.steps.append(Step(f"{label}: {holds}", shown, checked=True))
        return holds

    def free_of(self, expr: sp.Basic, *symbols: sp.Symbol, label: str = "") -> bool:
        """Record whether ``expr`` contains none of ``symbols``."""
        names = ", ".join(map(str, symbols))
        return self.fact(label or f"contains no {names}", not any(expr.has(s) for s in symbols), expr)

    @property
    def status(self) -> Status:
        """proved only if every decision is proved, every refutation refuted, every fact holds and no step the
        argument needs is unchecked."""
        if any(d.status == "refuted" for d in self.decisions) or any(d.status == "proved" for d in self.refutations):
            return "refuted"
        if any(not f.holds for f in self.facts):
            return "refuted"
        decisions_proved = all(d.status == "proved" for d in self.decisions)
        refutations_refuted = all(d.status == "refuted" for d in self.refutations)
        if (self.decisions or self.refutations) and decisions_proved and refutations_refuted and not self.gaps:
            return "proved"
        return "unknown"

    @property
    def witness(self) -> dict[str, str] | None:
        """The witness of a refuted decision (the claim's counterexample)."""
        return next((d.witness for d in self.decisions if d.witness), None)
