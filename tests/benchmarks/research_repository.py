"""A researcher's repository of 20 claims for the loop's budgets (tests/benchmarks/test_loop.py): five proofs, five
NumPy checks and ten checks of the package's attention, LayerNorm and RMSNorm topics, each quoting a Markdown paper."""

from __future__ import annotations

from pathlib import Path

HEAD = """import numpy as np
import sympy as sp
from hypothesis import strategies as st

from checks import Claim, Document, given
from checks.topics import topic

claim = Claim(
    id="paper.claim-{n}",
    title="Claim {n}",
    statement="s",
    sources=[Document("paper.md").quote("Results", "{sentence}")],
    expect="{expect}",
)
"""
PROOF = """

@claim.proof
def _(p):
    a, b = sp.symbols("a b", real=True)
    p.decide(sp.sin(a + b), sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b))
    p.decide((a + b) ** 2, a**2 + 2 * a * b + b**2)
"""
TOPIC_CHECK = """
TOPIC = topic("{topic}")


@claim.check(uses="{topic}")
@given(inputs=TOPIC.strategy())
def _(t, inputs):
    arrays = [t.xp.array(a) if isinstance(a, np.ndarray) else a for a in inputs]
    expected = TOPIC.references["numpy"](*[t.xp.to_float64(a) if hasattr(a, "shape") else a for a in arrays])
    {compare}
"""
COMPARE = {
    "attention": "t.close_attention(t.impl.attention(*arrays), expected, arrays[0], arrays[1:], label='out')",
    "layer_norm": "t.close_layer_norm(t.impl.layer_norm(*arrays), expected, *arrays)",
    "rms_norm": "t.close_rms_norm(t.impl.rms_norm(*arrays), expected, *arrays)",
}
NUMERIC_CHECK = """

@claim.check(dtypes=("float64", "float32"))
@given(x=st.floats(-10, 10), y=st.floats(-10, 10))
def _(t, x, y):
    t.close(t.xp.array([x + y]), np.array([y + x]), scale=abs(x) + abs(y), label="sum")
"""


def write_repository(root: Path, claims: int = 20) -> None:
    """The repository at ``root``: pyproject's table, docs/paper.md and ``claims`` claim files."""
    (root / "docs").mkdir(parents=True, exist_ok=True)
    (root / "claims").mkdir(exist_ok=True)
    sentences = [f"Statement number {n} holds for every input we tried." for n in range(claims)]
    paper = "# A paper\n\n## Results\n\n" + "\n\n".join(sentences) + "\n"
    (root / "docs" / "paper.md").write_text(paper, encoding="utf-8")
    (root / "pyproject.toml").write_text('[tool.theory-claims]\nclaims = "claims"\nsources = "docs"\nprofile = "dev"\n')
    for n in range(claims):
        kind = n % 4
        body = HEAD.format(n=n, sentence=sentences[n], expect="proved" if kind == 0 else "holds")
        if kind == 0:
            body += PROOF
        elif kind == 3:
            body += NUMERIC_CHECK
        else:
            name = ("attention", "layer_norm", "rms_norm")[n % 3]
            body += TOPIC_CHECK.format(topic=name, compare=COMPARE[name])
        (root / "claims" / f"claim_{n:02d}.py").write_text(body, encoding="utf-8")
