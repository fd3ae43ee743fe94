"""The core install (issue 45): without the extras' modules (torch, cvxpy and scipy, playwright, transformers,
matplotlib: tests/without_extras refuses them in every Python the run starts) a researcher's repository is set up,
its claims run and its site is built; what needs a missing extra is skipped with one line naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from checks.settings import extras

ROOT = Path(__file__).resolve().parent.parent
WITHOUT_EXTRAS = ROOT / "tests" / "without_extras"
PAPER = r"""# Attention Is All You Need: footnotes

## Footnote 4

To illustrate why the dot products get large, assume that the components of $q$ and $k$ are independent random
variables with mean $0$ and variance $1$. Then their dot product, $q \cdot k = \sum_{i=1}^{d_k} q_i k_i$, has mean
$0$ and variance $d_k$.
"""
HEAD = """from checks import Claim, Document

PAPER = Document("paper.md")
QUOTE = PAPER.quote("Footnote 4", "has mean\\n$0$ and variance $d_k$.")
"""
CLAIMS = {
    "dot_variance.py": HEAD
    + """import sympy as sp
from hypothesis import strategies as st

from checks import given
from checks.statistics import NORMAL, draws

claim = Claim("paper.dot-variance", "q · k", "q · k has mean 0 and variance d_k.", [QUOTE], "proved")
d_k, i = sp.Symbol("d_k", integer=True, positive=True), sp.Symbol("i", integer=True, positive=True)


@claim.proof
def _(p):
    q, k = p.random_vector("q", **NORMAL.stated), p.random_vector("k", **NORMAL.stated)
    p.independent(q, k)
    dot = sp.Sum(q[i] * k[i], (i, 1, d_k))
    p.decide(p.expectation(dot), 0, label="E[q·k] = 0")
    p.decide(p.variance(dot), d_k, label="Var[q·k] = d_k")


@claim.check(dtypes=("float64",))
@given(d=st.integers(1, 16), draw=draws())
def dot_products(t, d, draw):
    q, k = (t.xp.array(a) for a in draw.arrays(2, (5_000, d)))
    products = t.xp.sum(q * k, axis=1)
    t.mean_is(products, 0.0)
    t.variance_is(products, float(d), mean=0.0)
""",
    "encoder.py": HEAD
    + """from checks.training import TinyEncoder

claim = Claim("paper.encoder", "t", "A tiny encoder trains.", [QUOTE], "holds")
""",
    "probe.py": HEAD
    + """claim = Claim("paper.probe", "t", "A probe that needs torch inside.", [QUOTE], "holds")


@claim.probe
def _(r):
    import torch

    r.measure("one", float(torch.ones(1)))
""",
    "bound.py": HEAD
    + """import sympy as sp

claim = Claim("paper.bound", "t", "x⁴ + y⁴ − x²y² − xy + 2 ≥ 0.", [QUOTE], "proved")
x, y = sp.symbols("x y", real=True)


@claim.proof
def _(p):
    p.decide(x**4 + y**4 - x**2 * y**2 - x * y + 2, 0, relation=">=", label="a sum of squares")
""",
}


TORCH_ADAPTER = """import torch


class TorchTable:
    name = "torch-table"

    def sinusoidal(self, positions, d_model, dtype, device):
        return torch.zeros(len(positions), d_model)
"""
"""A repository's adapter (and topic) whose module imports torch: left out in the core install, never stopping the
run."""


def core(arguments: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m checks ...`` as the core install runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORY_CLAIMS_")}
    env["PYTHONPATH"] = os.pathsep.join([str(WITHOUT_EXTRAS), str(ROOT)])
    return subprocess.run(
        [sys.executable, "-m", "checks", *arguments], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_extras_are_refused_where_the_core_install_runs(tmp_path):
    done = core(["--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    probe = subprocess.run(
        [sys.executable, "-c", "import torch"],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(WITHOUT_EXTRAS), str(ROOT)])},
        capture_output=True,
        text=True,
    )
    assert "No module named 'torch'" in probe.stderr, "the trial would prove nothing with torch importable"


def test_a_repository_runs_on_the_core_install_and_skips_what_needs_an_extra_in_one_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "paper.md").write_text(PAPER, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    init = core(["init", "docs/paper.md"], tmp_path)
    assert init.returncode == 0, init.stdout + init.stderr
    for name, source in CLAIMS.items():
        (tmp_path / "claims" / name).write_text(source, encoding="utf-8")
    (tmp_path / "torch_adapters.py").write_text(TORCH_ADAPTER, encoding="utf-8")
    settings = tmp_path / "pyproject.toml"
    empty = 'implementations = ""\n'
    assert empty in settings.read_text(encoding="utf-8"), "init writes every key"
    named = 'implementations = "torch_adapters:TorchTable"\n'
    text = settings.read_text(encoding="utf-8").replace(empty, named)
    assert 'topics = ""\n' in text
    settings.write_text(text.replace('topics = ""\n', 'topics = "torch_adapters:SOFTMAX"\n'), encoding="utf-8")

    report = core(["report"], tmp_path)
    output = report.stdout + report.stderr
    assert report.returncode == 0, output
    assert "Traceback" not in output
    left_out = f"implementations 'torch_adapters:TorchTable': {extras.line('torch', 'torch')}"
    assert f"theory-claims: left out {left_out}" in output, "an adapter needing a missing extra is left out, said once"
    topic = f"topic 'torch_adapters:SOFTMAX': {extras.line('torch', 'torch')}"
    assert f"theory-claims: left out {topic}" in output, "so is a topic"
    skipped = {line for line in output.splitlines() if line.startswith("SKIPPED")}
    probe, bound = f"probe #1: {extras.line('torch', 'torch')}", f"proof _: {extras.line('sos', 'scipy')}"
    assert skipped == {
        f"SKIPPED [1] claims/encoder.py:1: {extras.line('torch', 'torch')}",
        f"SKIPPED [1] claims/probe.py:1: claim paper.probe: {probe}",
        f"SKIPPED [1] claims/bound.py:1: claim paper.bound: {bound}",
    }, output
    results = json.loads((tmp_path / "reports" / "html" / "results.json").read_text(encoding="utf-8"))
    verdicts = {claim["id"]: claim["observed"] for claim in results["claims"] if not claim["needs"]}
    assert verdicts == {"doc.paper-first-sentence": "out-of-scope", "paper.dot-variance": "proved"}
    left_out = {claim["id"]: claim["needs"] for claim in results["claims"] if claim["needs"]}
    assert left_out == {"paper.probe": probe, "paper.bound": bound}, "evidence fails alone: the claim is recorded"
    (dot,) = [claim for claim in results["claims"] if claim["id"] == "paper.dot-variance"]
    runs = {(run["implementation"], run["device"]): run for run in dot["evidence"] if run["kind"] == "check"}
    assert runs["reference-numpy", "cpu"]["status"] == "passed"
    assert runs["reference-torch", "cpu"]["message"] == extras.line("torch", "torch")
    assert results["environment"]["torch"] == "not installed (the [torch] extra)"
    page = (tmp_path / "reports" / "html" / "claims" / "paper.dot-variance.html").read_text(encoding="utf-8")
    assert "needs the [torch] extra" in page


@pytest.mark.parametrize("extra", sorted(extras.EXTRAS))
def test_each_extra_has_its_requirements_file_and_the_full_list_installs_them_all(extra):
    """pyproject's extras read requirements/<extra>.txt; requirements.txt (tox) includes core and every extra."""
    listed = (ROOT / "requirements" / f"{extra}.txt").read_text(encoding="utf-8")
    assert any(line and not line.startswith("#") for line in listed.splitlines())
    full = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert f"-r requirements/{extra}.txt" in full and "-r requirements/core.txt" in full
