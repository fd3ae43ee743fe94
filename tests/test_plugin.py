"""The pytest plugin: claims become tests, verdicts land in the results file."""

import textwrap

import pytest

from checks.evidence.check import CheckRun
from checks.evidence.derivation import DerivationRecord
from checks.evidence.proof import ProofRecord
from checks.results import read_results

HEADER = textwrap.dedent(
    """
    import sympy as sp
    from hypothesis import strategies as st
    from checks import Claim, Quote
    from checks import given

    QUOTE = Quote("002_86fa32f25d4c4c54.txt", "5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    x = sp.Symbol("x", real=True)
    """
)

CLAIM_FILES = {
    "proved_claim": """
        claim = Claim(id="demo.proved", title="t", statement="s", sources=[QUOTE], expect="proved")

        @claim.proof
        def _(p):
            p.decide(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)

        @claim.check(dtypes=("float64", "float32"))
        @given(v=st.floats(-1, 1))
        def _(t, v):
            t.close(t.xp.sin(t.xp.array(v)), __import__("math").sin(v))
    """,
    "refuted_claim": """
        claim = Claim(id="demo.refuted", title="t", statement="s", sources=[QUOTE], expect="refuted")

        @claim.check(dtypes=("float64",), backends=("numpy",))
        @given(v=st.floats(0.5, 1))
        def _(t, v):
            t.close(t.xp.array(v), 0.0)
    """,
    "crashing_claim": """
        claim = Claim(id="demo.crashing", title="t", statement="s", sources=[QUOTE], expect="proved")

        @claim.check(dtypes=("float64",), backends=("numpy",))
        @given(v=st.floats(0, 1))
        def _(t, v):
            raise RuntimeError("the check itself is wrong")
    """,
    "syntax_error": "claim = Claim(id=",
    "derived_claim": """
        from checks import Verdict

        claim = Claim(id="demo.derived", title="t", statement="s", sources=[QUOTE], expect="holds",
                      depends=["demo.refuted"])

        @claim.derive
        def _(r, dependencies):
            return Verdict.HOLDS if dependencies["demo.refuted"].verdict == Verdict.REFUTED else Verdict.REFUTED
    """,
    "zz_duplicate_id": """
        claim = Claim(id="demo.proved", title="t", statement="s", sources=[QUOTE], expect="proved")

        @claim.proof
        def _(p):
            p.decide(x, x)
    """,
}


@pytest.fixture
def results(pytester):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    for name, body in CLAIM_FILES.items():
        (claims / f"{name}.py").write_text(HEADER + textwrap.dedent(body))
    outcome = pytester.runpytest_inprocess("claims", "--results", "out/results.json", "-p", "no:cacheprovider")
    document = read_results(pytester.path / "out" / "results.json")
    return outcome, {c.id: c for c in document.claims}, document


def test_a_run_whose_claims_examine_no_implementation_checks_no_implementation(results):
    """Contract checks run before claims that call adapters, not before every run (they are not free)."""
    _, _, document = results
    assert document.implementations == []


def test_observed_verdicts(results):
    _, claims, _ = results
    assert claims["demo.proved"].observed == "proved"
    assert claims["demo.refuted"].observed == "refuted"
    assert claims["demo.crashing"].observed == "broken"
    assert claims["demo.derived"].observed == "holds"
    assert claims["demo.derived"].of(DerivationRecord)[0].dependencies == {"demo.refuted": "refuted"}


def test_a_crash_is_broken_and_the_rest_still_run(results):
    outcome, claims, _ = results
    outcome.assert_outcomes(passed=3, failed=3)
    assert "RuntimeError: the check itself is wrong" in claims["demo.crashing"].of(CheckRun)[0].message


def test_bad_files_are_broken_with_their_fault(results):
    _, claims, _ = results
    broken = {k: v for k, v in claims.items() if k.startswith("file:")}
    assert any("syntax_error.py" in k and "SyntaxError" in v.errors[0] for k, v in broken.items())
    assert any("zz_duplicate_id.py" in k and "also declared" in v.errors[0] for k, v in broken.items())


@pytest.mark.needs("torch")
def test_runs_record_examples_error_tolerance_and_worst_input(results):
    _, claims, _ = results
    runs = claims["demo.proved"].of(CheckRun)
    assert {(r.implementation, r.dtype) for r in runs if r.status == "passed"} == {
        ("reference-numpy", "float64"),
        ("reference-numpy", "float32"),
        ("reference-torch", "float64"),
        ("reference-torch", "float32"),
    }
    for run in runs:
        if run.status == "passed":
            assert run.examples > 0 and run.tolerance > 0 and "v" in run.worst_input
    cuda = [r for r in runs if r.device == "cuda"]
    assert cuda and all(r.status in ("skipped", "passed") for r in cuda)


def test_refutation_keeps_the_counterexample(results):
    _, claims, _ = results
    finding = claims["demo.refuted"].findings[0]
    assert finding.kind == "counterexample" and float(finding.data["v"]) >= 0.5


def test_results_file_has_symbolic_steps_and_environment(results):
    _, claims, document = results
    [symbolic] = claims["demo.proved"].of(ProofRecord)
    assert symbolic.status == "proved" and symbolic.decisions[0].certificates[0].verified
    assert all(step.mathml.startswith("<") for step in symbolic.steps)
    environment = {name for name, _ in document.environment.items()}
    assert {"torch", "sympy", "hypothesis", "commit", "date", "hypothesis_profile"} <= environment


def test_k_selects_one_claim(pytester):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    (claims / "proved_claim.py").write_text(HEADER + textwrap.dedent(CLAIM_FILES["proved_claim"]))
    (claims / "refuted_claim.py").write_text(HEADER + textwrap.dedent(CLAIM_FILES["refuted_claim"]))
    outcome = pytester.runpytest_inprocess("claims", "-k", "demo.refuted", "--results", "r.json")
    outcome.assert_outcomes(passed=1, deselected=1)


LEANING_PROOF = 'p.decide(sp.sin(x), sp.Rational(9, 10), relation="<=")'


def test_pytest_says_why_a_proof_is_unknown_or_refuted_with_the_witness(pytester):
    pytester.makeconftest('pytest_plugins = ["checks.engine.plugin"]')
    claims = pytester.mkdir("claims")
    proofs = {"unknown": "p.decide(sp.sin(x / 10) + sp.sin(x / 1000), 0)", "wrong": LEANING_PROOF}
    for name, proof in proofs.items():
        claim = f'claim = Claim(id="demo.{name}", title="t", statement="s", sources=[QUOTE], expect="proved")'
        (claims / f"{name}_claim.py").write_text(f"{HEADER}\n{claim}\n\n@claim.proof\ndef _(p):\n    {proof}\n")
    outcome = pytester.runpytest_inprocess("claims", "--results", "r.json", "-p", "no:cacheprovider")
    text = outcome.stdout.str()
    assert "proof: Eq(sin(x/1000) + sin(x/10), 0): unknown; outside the decidable fragment: multiple 100" in text
    assert "proof: sin(x) <= 9/10: refuted; at this point ≤ fails; witness (x = " in text
