"""Topics as records (checks.topics): a reference that answers in the wrong dtype breaks the claim instead of passing
every low-precision run without testing anything."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from checks.engine.discovery import load_claims
from checks.engine.evaluate import dependency_of, evaluate
from checks.evidence.check import CheckRun
from checks.topics import Topic, TopicError, register, unregister

CLAIM = '''
    """Doubling doubles."""
    import numpy as np

    from checks import Citation, Claim, given
    from checks.topics import topic

    claim = Claim(
        id="doubled.doubles",
        title="Doubling doubles",
        statement="2x = x + x.",
        sources=[Citation(title="T", authors="A", year=2026, section="1", text="2x = x + x.", url="https://example.org")],
        expect="holds",
    )


    @claim.check(uses="doubled", backends=("numpy",), dtypes=("float32",))
    @given(inputs=topic("doubled").strategy())
    def doubles(t, inputs):
        (x,) = inputs
        found = t.impl.doubled(t.xp.array(x))
        t.close(found, 2 * t.xp.to_float64(t.xp.array(x)), scale=float(np.max(np.abs(x))))
'''


@pytest.fixture
def doubled() -> Iterator[None]:
    """A topic whose NumPy reference answers in float64 whatever the run's dtype."""
    added = Topic(
        name="doubled",
        summary="2x",
        arguments=("x",),
        inputs=lambda rng, d: (rng.uniform(-1.0, 1.0, (3, d)),),
        references={"numpy": lambda x: 2 * np.asarray(x, dtype=np.float64)},
    )
    register(added)
    yield
    unregister(added)


def test_a_second_topic_of_one_name_is_refused_with_the_error_a_researcher_catches(doubled):
    again = Topic(name="doubled", summary="2x again", arguments=("x",), inputs=lambda rng, d: (rng.uniform(size=d),))
    with pytest.raises(TopicError, match="a topic named 'doubled' is already known"):
        register(again)


@pytest.mark.needs("torch")
def test_a_reference_in_the_wrong_dtype_breaks_the_claim(doubled, tmp_path: Path):
    path = tmp_path / "doubled.py"
    path.write_text(textwrap.dedent(CLAIM).lstrip(), encoding="utf-8")
    (claim,) = load_claims(path)
    record = evaluate(claim, lambda other: dependency_of(None))  # type: ignore[arg-type]
    assert str(record.observed) == "broken"
    [run] = [run for run in record.of(CheckRun) if run.reference and run.device == "cpu"]
    assert run.status == "error"
    assert "the reference reference-numpy.doubled returned float64 for float32" in run.message, run.message


PACKAGE_TOPIC_CLAIM = '''
    """Each implementation of {name} computes its reference, checked as docs/topics.md shows."""
    import numpy as np

    from checks import Citation, Claim, given
    from checks.topics import topic

    TOPIC = topic("{name}")
    claim = Claim(
        id="topic.{slug}",
        title="t",
        statement="s",
        sources=[Citation(title="T", authors="A", year=2026, section="1", text="t", url="https://example.org")],
        expect="holds",
    )


    @claim.check(uses="{name}")
    @given(inputs=TOPIC.strategy())
    def as_the_reference(t, inputs):
        arrays = [t.xp.array(a) if isinstance(a, np.ndarray) else a for a in inputs]
        rounded = [t.xp.to_float64(a) if isinstance(a, np.ndarray) is False and hasattr(a, "shape") else a
                   for a in arrays]
        expected = TOPIC.references["numpy"](*[np.asarray(r) for r in rounded])
        {compare}
'''
COMPARE = {
    "attention": "t.close_attention(t.impl.attention(*arrays), expected, arrays[0], arrays[1:], label='output')",
    "layer_norm": "t.close_layer_norm(t.impl.layer_norm(*arrays), expected, *arrays)",
    "rms_norm": "t.close_rms_norm(t.impl.rms_norm(*arrays), expected, *arrays)",
    "multihead_attention": "t.close_multihead(t.impl.multihead_attention(*arrays), expected, tuple(rounded))",
}
"""Each package topic's comparator, called on an implementation's output and the float64 reference."""


@pytest.mark.needs("torch")
@pytest.mark.parametrize("name", sorted(COMPARE))
def test_the_documented_pattern_holds_for_every_package_topic_in_every_dtype(name, tmp_path: Path):
    """Issue 61, item 4: ``@given(inputs=TOPIC.strategy())`` with the topic's comparator is never broken in a dtype:
    bfloat16's attention rejected almost every input (FailedHealthCheck), and every adapter read 'fails at every
    size tried'. An input beyond a dtype's resolution is not counted; a cell where every input is so is skipped."""
    path = tmp_path / f"topic_{name}.py"
    source = PACKAGE_TOPIC_CLAIM.format(name=name, slug=name.replace("_", "-"), compare=COMPARE[name])
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    (claim,) = load_claims(path)
    record = evaluate(claim, lambda other: dependency_of(None))  # type: ignore[arg-type]
    runs = [r for r in record.evidence if isinstance(r, CheckRun)]
    broken = [f"{r.implementation} {r.dtype}: {r.message[:200]}" for r in runs if r.status in ("error", "failed")]
    assert not broken and str(record.observed) == "holds", (record.errors, broken)
    ran = {r.dtype for r in runs if r.status == "passed" and r.examples}
    assert {"float64", "float32", "float16", "bfloat16"} <= ran, "every dtype compared some input"


class _HalvesBoth:
    """A mutant two topics list (ALiBi's bias and weights, say): one mutant."""

    name, bug = "halves-both", "returns half of its input"

    def halved_a(self, x):
        return x / 2

    def halved_b(self, x):
        return x / 2


def test_the_mutation_run_takes_each_mutant_once_and_only_the_topics_the_claims_use():
    """Issue 65 item 8: the mutation run crashed on a mutant listed on two topics, then counted 31 mutants of topics
    the repository does not use as survivors."""
    from checks.implementations.mutants import every_mutant

    mutant = _HalvesBoth()
    added = [
        Topic(name, "x", ("x",), inputs=lambda rng, d: (rng.normal(size=d),), mutants=(mutant,))
        for name in ("halved_a", "halved_b")
    ]
    for new in added:
        register(new)
    try:
        assert [m.name for m in every_mutant({"halved_a"})] == ["halves-both"], "once, and no other topic's"
        assert "halves-both" not in {m.name for m in every_mutant({"rope"})}
        everything = [m.name for m in every_mutant()]
        assert everything.count("halves-both") == 1 and len(everything) == len(set(everything))
    finally:
        for new in added:
            unregister(new)


def test_the_contract_calls_a_topic_at_its_own_probe_sizes():
    """Issue 65 item 2: the contract called a topic of heads at d_model's sizes (64 heads of 512 × 512 float64 inputs,
    128 MiB an argument), so a claim with 16 MiB inputs peaked at gigabytes before its first cell."""
    from checks.implementations.contract import _sizes
    from checks.numerics.domain import Domain

    assert _sizes(Domain(), (8, 4, 2)) == (8, 4, 2)
    assert _sizes(Domain(), Topic("t", "s", ("x",), inputs=lambda rng, d: (rng.normal(size=d),)).probe_sizes)[0] == 64
    assert _sizes(Domain(d_models=(2, 4)), (8, 4, 2)) == (4, 2, 2), "the first size the domain takes"


def test_a_domain_speaks_of_the_topics_size():
    """Issue 65 item 1: every message called a topic's size "d_model" (an ALiBi topic's: heads)."""
    from checks.numerics.domain import Domain

    said = Domain(min_d_model=2, d_models=(2, 4, 8)).refuses(d_model=3, size="heads") or ""
    assert said == "heads = 3 is outside the declared domain (heads ≥ 2; heads in {2, 4, 8})", said


def test_a_size_that_does_not_read_back_the_inputs_size_is_refused_at_once():
    """Issue 65 (the second researcher's trial): a SwiGLU topic of d_ff kept the default size, the first argument's
    last axis (d_model 16): every message said "d_ff = 16" of failures at d_ff 2, and the size search ran on it."""

    def swiglu_inputs(rng, d_ff):
        return rng.normal(size=(4, 16)), rng.normal(size=(16, d_ff)), rng.normal(size=(16, d_ff))

    with pytest.raises(ValueError, match=r"topic swiglu: size\(\.\.\.\) reads 16 from inputs\(rng, 4\), not 4: give"):
        Topic("swiglu", "s", ("x", "w_gate", "w_up"), inputs=swiglu_inputs, size_name="d_ff")
    kept = Topic(
        "swiglu",
        "s",
        ("x", "w_gate", "w_up"),
        inputs=swiglu_inputs,
        size_name="d_ff",
        size=lambda arguments: int(arguments[1].shape[-1]),
    )
    assert kept.size(kept.inputs(np.random.default_rng(0), 24)) == 24
