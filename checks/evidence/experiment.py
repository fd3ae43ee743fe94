"""Controlled experiments: a design fixed in the claim file before any result, seeds, and a declared decision rule.

``@claim.experiment(Design(...))`` over ``def _(arm, seed, log) -> float`` (train or time one arm with one seed,
report through ``log``, return the metric). The engine runs every arm for every seed of the profile, pairs the arms
by seed, and decides with the design's rule: the effect is the treatment's advantage over the control in the
metric's direction; a bootstrap 95 % interval of its mean over seeds above the threshold holds, below it refutes,
and an interval that straddles it is qualified as undecided at this budget. With regimes (e.g. lengths) each is
decided alone: a mix of holding and other regimes is qualified, naming where it holds; refuted somewhere and
holding nowhere is refuted.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from checks.evidence.base import Declaring, Evidence, RunContext, name_of
from checks.results.records import EvidenceRecord, Figure, Finding, Series
from checks.verdicts import Weight

RESAMPLES = 10_000
"""Bootstrap resamples of the per-seed effects (their generator is seeded: the interval is reproducible)."""


@dataclass(frozen=True)
class Design:
    """Everything an experiment fixes before it runs (shown on the claim page as declared)."""

    hypothesis: str
    task: str
    models: str
    budget: str
    metric: str
    better: Literal["lower", "higher"]
    treatment: str
    control: str
    threshold: float
    """The smallest advantage (in the metric's units) that counts as the hypothesis holding."""
    seeds: dict[str, int]
    """Seeds per Hypothesis profile ("ci", "dev", "thorough"); a profile not named takes the "ci" count."""
    regimes: list[str] = field(default_factory=lambda: ["all"])
    statistic: str = (
        f"bootstrap 95 % interval of the mean paired effect over seeds ({RESAMPLES} resamples, generator seed 0)"
    )
    timed: bool = False
    """The metric is a wall-clock time, which varies from run to run on one machine. Any other metric is seeded
    and repeats exactly: ``checks flake`` leaves out a claim made only of untimed experiments, since the
    Hypothesis seed cannot move it, and keeps a timed one."""

    def seed_count(self, profile: str) -> int:
        return self.seeds.get(profile, self.seeds["ci"])


@dataclass
class SeedLog:
    """What one arm reports for one seed while it runs: ``log.step(loss, grad_norm)`` per training step."""

    losses: list[float] = field(default_factory=list)
    grad_norms: list[float] = field(default_factory=list)

    def step(self, loss: float, grad_norm: float = 0.0) -> None:
        self.losses.append(loss)
        self.grad_norms.append(grad_norm)

    @property
    def diverged(self) -> bool:
        """A NaN or infinite loss, or one that blew up past 10× the first."""
        finite = [x for x in self.losses if math.isfinite(x)]
        return len(finite) < len(self.losses) or bool(finite and max(finite) > 10 * max(finite[0], 1e-12))


@dataclass
class SeedRun:
    """One arm, one regime, one seed: the metric and what the run looked like."""

    arm: str
    regime: str
    seed: int
    metric: float
    max_grad_norm: float
    diverged: bool
    seconds: float
    losses: list[float] = field(default_factory=list)
    """The loss curve, at most 100 points: the loss at steps 0, every, 2·every, …"""
    every: int = 1


@dataclass
class RegimeDecision:
    regime: str
    effects: list[float]
    mean: float
    low: float
    high: float
    verdict: Literal["holds", "refuted", "undecided"]


@dataclass
class ExperimentRecord(EvidenceRecord):
    """An experiment's design as declared, every seed's run, and the decision per regime."""

    kind = "experiment"
    name: str
    design: Design
    profile: str
    claim: str = ""
    """The claim's id (for the command that reproduces it)."""
    runs: list[SeedRun] = field(default_factory=list)
    decisions: list[RegimeDecision] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def command(self) -> str:
        return f"THEORY_CLAIMS_PROFILE={self.profile} pytest -k {self.claim or self.name}"

    @property
    def timed(self) -> bool:
        return self.design.timed

    def effect_figure(self) -> Figure | None:
        """What the decision is about: per regime, the effect's mean and 95 % interval, each seed's effect and the
        threshold the interval must clear."""
        from checks.figures import intervals

        rows = {r.regime: (r.low, r.mean, r.high, r.effects) for r in self.decisions}
        if not rows:
            return None
        design = self.design
        return intervals(
            "effect",
            f"Advantage of “{design.treatment}” over “{design.control}” per regime, against the threshold",
            f"For each regime, the mean advantage (large dot), its 95 % interval (bar) and each seed's advantage "
            f"(small dots), in {design.metric}; the dashed line is the threshold {design.threshold:g}: an interval "
            "wholly right of it holds, wholly left of it refutes, across it is undecided.",
            rows,
            x_label=f"advantage of “{design.treatment}” over “{design.control}”",
            marks={f"threshold {design.threshold:g}": design.threshold},
        )

    def loss_figures(self) -> list[Figure]:
        """One figure per regime: every seed's loss curve, one line per arm and seed."""
        drawn = []
        for regime in self.design.regimes:
            runs = [run for run in self.runs if run.regime == regime and run.losses]
            series = {
                f"{run.arm}, seed {run.seed}": Series(
                    x=[float(n * run.every) for n in range(len(run.losses))], y=[float(v) for v in run.losses]
                )
                for run in runs
            }
            if series:
                drawn.append(
                    Figure(
                        f"loss-{regime}",
                        "lines",
                        f"Training loss per step, regime {regime}",
                        f"Training loss of {self.design.treatment} and of {self.design.control}, one line per "
                        "seed, as measured.",
                        x_label="step",
                        y_label="loss",
                        series=series,
                    )
                )
        return drawn


TrialFunction = Callable[[str, str, int, SeedLog], float]
"""(arm, regime, seed, log) → the metric."""


class Experiment(Evidence):
    """A designed comparison of two arms over seeds, decided by the design's rule."""

    kind, order = "experiment", 45
    title = "Experiments"
    template = "evidence/experiment.html.j2"
    record_type = ExperimentRecord

    def __init__(self, name: str, design: Design, trial: TrialFunction) -> None:
        self.name, self.design, self.trial = name, design, trial

    def repeats_exactly(self) -> bool:
        return not self.design.timed

    @classmethod
    def declare(cls, claim: Declaring, design: Design) -> Callable[[TrialFunction], TrialFunction]:
        """``@claim.experiment(Design(...))`` over ``def _(arm, regime, seed, log) -> float``."""

        def register(trial: TrialFunction) -> TrialFunction:
            claim.add(cls(name_of(trial, len(claim.declared(cls))), design, trial))
            return trial

        return register

    def run(self, context: RunContext) -> list[EvidenceRecord]:
        from hypothesis import settings

        profile = settings.get_current_profile_name()
        record = ExperimentRecord(self.name, self.design, profile, claim=context.claim_id if context else "")
        started = time.perf_counter()
        for regime in self.design.regimes:
            for seed in range(self.design.seed_count(profile)):
                for arm in (self.design.treatment, self.design.control):
                    record.runs.append(run_seed(self.trial, arm, regime, seed))
        record.decisions = [decide(self.design, record.runs, regime) for regime in self.design.regimes]
        record.findings = findings(self.design, record.decisions)
        record.seconds = time.perf_counter() - started
        return [record]

    @classmethod
    def weigh(cls, records: Sequence[EvidenceRecord]) -> Weight:
        found = cls.findings(records)
        kinds = {finding.kind for finding in found}
        ran = any(isinstance(record, ExperimentRecord) for record in records)
        return Weight(
            refutes="counterexample" in kinds, qualifies="condition" in kinds, support="holds" if ran else None
        )

    @classmethod
    def findings(cls, records: Sequence[EvidenceRecord]) -> list[Finding]:
        return [f for record in records if isinstance(record, ExperimentRecord) for f in record.findings]


def run_seed(trial: TrialFunction, arm: str, regime: str, seed: int) -> SeedRun:
    """One arm for one seed: seeded, deterministic algorithms, one CPU thread (the same seed gives the same numbers
    on the same machine, whatever else runs beside it)."""
    import torch

    torch.manual_seed(seed)
    deterministic, threads = torch.are_deterministic_algorithms_enabled(), torch.get_num_threads()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    log = SeedLog()
    started = time.perf_counter()
    try:
        metric = float(trial(arm, regime, seed, log))
    finally:
        torch.use_deterministic_algorithms(deterministic)
        torch.set_num_threads(threads)
    every = max(1, len(log.losses) // 100)
    norms = [g for g in log.grad_norms if math.isfinite(g)]
    return SeedRun(
        arm=arm,
        regime=regime,
        seed=seed,
        metric=metric,
        max_grad_norm=max(norms, default=0.0) if len(norms) == len(log.grad_norms) else math.inf,
        diverged=log.diverged,
        seconds=time.perf_counter() - started,
        losses=log.losses[::every],
        every=every,
    )


def decide(design: Design, runs: list[SeedRun], regime: str) -> RegimeDecision:
    """Paired effects per seed (treatment's advantage), their bootstrap interval, and the declared rule."""
    by_seed: dict[int, dict[str, float]] = {}
    for run in runs:
        if run.regime == regime:
            by_seed.setdefault(run.seed, {})[run.arm] = run.metric
    sign = 1.0 if design.better == "higher" else -1.0
    effects = [sign * (arms[design.treatment] - arms[design.control]) for _, arms in sorted(by_seed.items())]
    low, high = bootstrap_interval(effects)
    mean = sum(effects) / len(effects)
    verdict: Literal["holds", "refuted", "undecided"] = (
        "holds" if low > design.threshold else "refuted" if high < design.threshold else "undecided"
    )
    return RegimeDecision(regime, effects, mean, low, high, verdict)


def bootstrap_interval(effects: list[float], resamples: int = RESAMPLES) -> tuple[float, float]:
    """The 2.5 % and 97.5 % quantiles of the resampled means (a non-finite effect makes the interval infinite)."""
    import numpy as np

    values = np.asarray(effects, dtype=np.float64)
    if not np.isfinite(values).all():
        return (-math.inf, math.inf)
    draws = np.random.default_rng(0).integers(0, len(values), size=(resamples, len(values)))
    means = values[draws].mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def as_ratio(log2_effect: float) -> str:
    """An effect in log₂ as the factor it stands for: 3.46 → "a factor of 11", −3.46 → "a factor of 1/11"."""
    factor = 2.0**log2_effect
    return f"a factor of {factor:.3g}" if factor >= 1 else f"a factor of 1/{1 / factor:.3g}"


def findings(design: Design, decisions: list[RegimeDecision]) -> list[Finding]:
    """The declared rule: refuted in a regime and holding in none → a counterexample (the regimes left undecided
    are named); a mix of holding and other regimes → a condition naming where it holds, and the numbers of the
    regimes where it fails (every regime's are in the record and its decision table); all holding → no finding."""
    verdicts = {d.verdict for d in decisions}

    def shown(d: RegimeDecision) -> str:
        text = f"{d.regime}: mean effect {d.mean:.3g}, 95 % interval [{d.low:.3g}, {d.high:.3g}]"
        return text + (f" ({as_ratio(d.mean)})" if design.metric.startswith(("log₂", "log2")) else "")

    data = {d.regime: {"mean": d.mean, "low": d.low, "high": d.high, "effects": d.effects} for d in decisions}
    holding = [f"“{d.regime}”" for d in decisions if d.verdict == "holds"]
    undecided = [f"“{d.regime}”" for d in decisions if d.verdict == "undecided"]
    refuted = [f"“{d.regime}”" for d in decisions if d.verdict == "refuted"]
    if refuted and not holding:
        arms = f"“{design.treatment}”", f"“{design.control}”"
        text = (
            f"{arms[0]} falls behind {arms[1]} by more than {-design.threshold:g} in {design.metric}"
            if design.threshold < 0
            else f"{arms[0]} is not ahead of {arms[1]} by {design.threshold:g} in {design.metric}"
        )
        if undecided:
            left = ", ".join(undecided)
            text += f": fails in {', '.join(refuted)} and holds nowhere (undecided at this budget in {left})"
        return [Finding("counterexample", f"{text}: " + "; ".join(map(shown, decisions)), data)]
    if verdicts == {"holds"}:
        return []
    count = len(decisions)
    parts = [f"holds only in {', '.join(holding)} ({len(holding)} of {count} regimes)"]
    if refuted:
        failing = [shown(d) for d in decisions if d.verdict == "refuted"]
        parts.append(f"fails in {len(refuted)}: " + "; ".join(failing))
    if undecided:
        straddled = f"the interval straddles {design.threshold:.3g}"
        parts.append(f"undecided at this budget in {', '.join(undecided)} ({straddled})")
    return [Finding("condition", "; ".join(parts) + ".", data)]
