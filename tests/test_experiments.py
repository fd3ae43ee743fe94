"""The experiment kind: seeded runs repeat exactly, the declared rule decides, a false hypothesis is refuted."""

from __future__ import annotations

import pytest

from checks.evidence.experiment import Design, Experiment, ExperimentRecord, SeedLog, decide, findings, run_seed
from checks.helpers.tiny_encoders import Budget, TinyEncoder, train, which_first

TASK, BUDGET = which_first(10, 12), Budget(steps=60)


def order_trial(arm: str, regime: str, seed: int, log: SeedLog) -> float:
    return train(TinyEncoder(arm, 10, classes=2), TASK, BUDGET, seed, log)


def _design(**changes) -> Design:
    fields = {
        "hypothesis": "h",
        "task": "which_first",
        "models": "TinyEncoder",
        "budget": "60 steps",
        "metric": "held-out accuracy",
        "better": "higher",
        "treatment": "sinusoidal",
        "control": "none",
        "threshold": 0.2,
        "seeds": {"ci": 3},
    }
    return Design(**{**fields, **changes})


def test_the_same_seed_gives_the_same_numbers():
    first, again = (run_seed(order_trial, "sinusoidal", "all", seed=1) for _ in range(2))
    assert (first.metric, first.losses, first.max_grad_norm) == (again.metric, again.losses, again.max_grad_norm)
    other = run_seed(order_trial, "sinusoidal", "all", seed=2)
    assert other.losses != first.losses


def test_a_deliberately_false_hypothesis_on_a_known_task_is_refuted():
    """No position encoding cannot beat the sinusoidal one on an order-only task: the claim must come out refuted."""
    false = _design(hypothesis="no encoding beats sinusoidal by 0.2", treatment="none", control="sinusoidal")
    (record,) = Experiment("false", false, order_trial).run(context=None)  # type: ignore[arg-type]
    assert isinstance(record, ExperimentRecord) and len(record.runs) == 6
    (decision,) = record.decisions
    assert decision.verdict == "refuted" and decision.high < 0.2
    assert [f.kind for f in record.findings] == ["counterexample"]
    weight = Experiment.weigh([record])
    assert weight.refutes


@pytest.mark.parametrize(
    ("effects", "verdict"),
    [([0.5, 0.45, 0.48], "holds"), ([0.0, 0.01, -0.02], "refuted"), ([0.9, -0.5, 0.1], "undecided")],
)
def test_the_declared_rule_reads_the_bootstrap_interval_against_the_threshold(effects, verdict):
    from checks.evidence.experiment import SeedRun

    runs = [
        SeedRun(arm, "all", seed, value, 1.0, False, 0.0)
        for seed, effect in enumerate(effects)
        for arm, value in (("sinusoidal", 0.5 + effect), ("none", 0.5))
    ]
    decision = decide(_design(), runs, "all")
    assert decision.verdict == verdict and decision.low <= decision.mean <= decision.high


def test_regimes_that_disagree_qualify_the_claim_naming_where_it_holds():
    from checks.evidence.experiment import RegimeDecision

    decisions = [
        RegimeDecision("short", [0.5], 0.5, 0.4, 0.6, "holds"),
        RegimeDecision("long", [0.0], 0.0, -0.1, 0.1, "refuted"),
    ]
    (finding,) = findings(_design(regimes=["short", "long"]), decisions)
    assert finding.kind == "condition" and finding.text.startswith("holds only in “short”")


def test_a_claim_refuted_in_one_regime_undecided_in_the_other_and_holding_in_none_is_refuted():
    """training.rope-length-generalization's shape: it fails at 4L, is undecided at 2L and holds nowhere."""
    from checks.evidence.experiment import RegimeDecision

    decisions = [
        RegimeDecision("2L", [0.0, -0.2], -0.1, -0.3, 0.1, "undecided"),
        RegimeDecision("4L", [-0.5, -0.4], -0.45, -0.5, -0.4, "refuted"),
    ]
    (finding,) = findings(_design(regimes=["2L", "4L"]), decisions)
    assert finding.kind == "counterexample"
    assert "fails in “4L” and holds nowhere (undecided at this budget in “2L”)" in finding.text


def test_a_training_run_shared_by_regimes_scores_as_a_fresh_one_would():
    """offset_trial trains once per (arm, seed, budget) and replays the log: the numbers equal a fresh train()."""
    from checks.helpers.tiny_encoders import (
        OFFSET,
        SEEN,
        TRAINED,
        UNSEEN,
        fitted_offset_model,
        offset_trial,
        token_back,
    )

    budget = Budget(steps=20)
    fitted_offset_model.cache_clear()
    trial = offset_trial(budget)
    first, shared = run_seed(trial, "sinusoidal", SEEN, 1), run_seed(trial, "sinusoidal", UNSEEN, 1)
    assert fitted_offset_model.cache_info().hits == 1 and first.losses == shared.losses

    def from_scratch(arm: str, regime: str, seed: int, log: SeedLog) -> float:
        model = TinyEncoder(arm, 10, classes=10, per_position=True)
        evaluate = token_back(OFFSET, 10, 2 * TRAINED, range(TRAINED, 2 * TRAINED))
        return train(model, token_back(OFFSET, 10, TRAINED), budget, seed, log, evaluate=evaluate)

    fresh = run_seed(from_scratch, "sinusoidal", UNSEEN, 1)
    assert (shared.metric, shared.losses) == (fresh.metric, fresh.losses)


def test_token_back_labels_the_token_offset_positions_back_and_scores_only_the_asked_positions():
    import torch

    from checks.helpers.tiny_encoders import IGNORED, token_back

    tokens, labels = token_back(3, 10, 8, scored=range(5, 8))(torch.Generator().manual_seed(0), 4)
    assert (labels[:, :5] == IGNORED).all()
    assert torch.equal(labels[:, 5:], tokens[:, 2:5])


def test_only_claims_made_of_untimed_experiments_repeat_exactly():
    from checks import Claim, Quote
    from checks.engine.plugin import repeats_exactly
    from checks.evidence.probe import Probe

    def claim_of(*evidence):
        quote = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
        return Claim("test.repeats", "t", "s", [quote], "holds", evidence=list(evidence))

    seeded = Experiment("seeded", _design(), order_trial)
    timed = Experiment("timed", _design(timed=True), order_trial)
    assert repeats_exactly(claim_of(seeded))
    assert not repeats_exactly(claim_of(seeded, timed)) and not repeats_exactly(claim_of())
    assert not repeats_exactly(claim_of(seeded, Probe("probe", lambda r: None)))


def test_generated_sentences_read_whatever_the_arms_and_regimes_are_called():
    """Issue 29: "the at the longer length arm's advantage over at the training length", "holds only in order only"."""
    from checks.evidence.experiment import RegimeDecision

    design = _design(
        regimes=["order only", "tokens"], treatment="at the longer length", control="at the training length"
    )
    refuted = [RegimeDecision("order only", [-1.0], -1.0, -1.1, -0.9, "refuted")]
    (finding,) = findings(design, refuted)
    assert finding.text.startswith("“at the longer length” is not ahead of “at the training length” by ")
    mixed = [*refuted, RegimeDecision("tokens", [1.0], 1.0, 0.9, 1.1, "holds")]
    (finding,) = findings(design, mixed)
    assert finding.text.startswith("holds only in “tokens” (1 of 2 regimes); fails in 1: order only: mean effect -1,")
    behind = _design(regimes=["4L"], treatment="at 4L", control="at L", threshold=-0.05)
    (finding,) = findings(behind, [RegimeDecision("4L", [-0.2], -0.2, -0.25, -0.13, "refuted")])
    assert finding.text.startswith("“at 4L” falls behind “at L” by more than 0.05 in "), "not 'not ahead by -0.05'"


def test_a_condition_over_many_regimes_gives_the_numbers_of_the_failing_ones_only():
    """attention.training-speed's shape: 12 regimes; the finding names where it holds and what fails, not all 12."""
    from checks.evidence.experiment import RegimeDecision

    decisions = [RegimeDecision(f"n = {n}, GRU", [1.0], 1.0, 0.9, 1.1, "holds") for n in (64, 256, 1024, 4096)]
    decisions += [RegimeDecision("n = 4096, LSTM", [-3.0], -3.0, -3.1, -2.9, "refuted")]
    decisions += [RegimeDecision("n = 64, LSTM", [0.0], 0.0, -0.1, 0.1, "undecided")]
    (finding,) = findings(_design(regimes=[d.regime for d in decisions], threshold=0.0), decisions)
    assert finding.text.startswith(
        "holds only in “n = 64, GRU”, “n = 256, GRU”, “n = 1024, GRU”, “n = 4096, GRU” (4 of"
    )
    assert "fails in 1: n = 4096, LSTM: mean effect -3," in finding.text
    assert "mean effect 1," not in finding.text and finding.text.endswith("(the interval straddles 0).")
    assert set(finding.data) == {d.regime for d in decisions}, "every regime's numbers stay in the data"


def test_an_effect_in_log2_is_also_given_as_the_factor_it_stands_for():
    """Issue 29: "log₂ effect −3.46" is about 11× slower."""
    from checks.evidence.experiment import RegimeDecision, as_ratio

    assert (as_ratio(-3.46), as_ratio(3.46), as_ratio(0.0)) == ("a factor of 1/11", "a factor of 11", "a factor of 1")
    design = _design(regimes=["n = 4096"], metric="log₂ of the seconds of one step")
    (finding,) = findings(design, [RegimeDecision("n = 4096", [-3.46], -3.46, -3.5, -3.4, "refuted")])
    assert "mean effect -3.46, 95 % interval [-3.5, -3.4] (a factor of 1/11)" in finding.text


def test_the_effect_chart_shows_each_regimes_interval_and_seeds_against_the_threshold():
    """The chart of an experiment is about its decision: per regime the interval, each seed's effect, the threshold."""
    from checks.evidence.experiment import RegimeDecision
    from reports import figures

    record = ExperimentRecord("e", _design(regimes=["seen positions", "unseen positions"]), "ci")
    record.decisions = [
        RegimeDecision("seen positions", [0.7, 0.75, 0.78], 0.74, 0.7, 0.78, "holds"),
        RegimeDecision("unseen positions", [-0.08, 0.02, 0.07], 0.02, -0.08, 0.07, "refuted"),
    ]
    figure = record.effect_figure()
    assert figure is not None and figure.kind == "intervals" and figure.marks == {"threshold 0.2": 0.2}
    assert {name: (row.y, row.x) for name, row in figure.series.items()} == {
        "seen positions": ([0.7, 0.74, 0.78], [0.7, 0.75, 0.78]),
        "unseen positions": ([-0.08, 0.02, 0.07], [-0.08, 0.02, 0.07]),
    }
    svg = str(figures.render(figure))
    assert ">seen positions</text>" in svg and ">unseen positions</text>" in svg and ">threshold 0.2</text>" in svg
    assert svg.count('r="4.5"') == 2 and svg.count('r="2.4"') == 6, "a middle per regime, a dot per seed"
    assert ExperimentRecord("e", _design(), "ci").effect_figure() is None, "nothing decided, nothing drawn"
