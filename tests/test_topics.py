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
from checks.topics import Topic, register, unregister

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


def test_a_reference_in_the_wrong_dtype_breaks_the_claim(doubled, tmp_path: Path):
    path = tmp_path / "doubled.py"
    path.write_text(textwrap.dedent(CLAIM).lstrip(), encoding="utf-8")
    (claim,) = load_claims(path)
    record = evaluate(claim, lambda other: dependency_of(None))  # type: ignore[arg-type]
    assert str(record.observed) == "broken"
    [run] = [run for run in record.of(CheckRun) if run.reference and run.device == "cpu"]
    assert run.status == "error"
    assert "the reference reference-numpy.doubled returned float64 for float32" in run.message, run.message
