"""The Hypothesis profiles mean the same thing on a CI machine as on a laptop."""

import json
import os
import subprocess
import sys

import pytest

SHOW_PROFILE = """
import json
from hypothesis import settings
from checks.settings.profiles import register_profiles

register_profiles()
current = settings()
print(json.dumps({"name": settings.get_current_profile_name(), "derandomize": current.derandomize,
                  "max_examples": current.max_examples, "database": current.database is not None}))
"""


def _profile(name: str, ci: bool) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["THEORY_CLAIMS_PROFILE"] = name
    if ci:
        # Hypothesis reads CI at import and then parents every new profile on its own derandomized one.
        env["CI"] = "true"
    out = subprocess.run([sys.executable, "-c", SHOW_PROFILE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("ci", [False, True], ids=["laptop", "ci-machine"])
@pytest.mark.parametrize(
    ("name", "derandomize", "max_examples", "database"),
    [("dev", False, 15, True), ("ci", True, 40, False), ("thorough", False, 10_000, True)],
)
def test_profile_settings_do_not_depend_on_the_ci_variable(name, derandomize, max_examples, database, ci):
    assert _profile(name, ci) == {
        "name": name,
        "derandomize": derandomize,
        "max_examples": max_examples,
        "database": database,
    }


DRAWS = """
import json, sys
from hypothesis import given, settings, strategies as st
from checks.settings.profiles import register_profiles

register_profiles("ci")
if sys.argv[1] == "with-literals":
    sys.path.insert(0, sys.argv[2])
    import many_literals  # a local module full of literals, as the other claim files of a catalog are
drawn = []

@settings(max_examples=200)
@given(st.integers(0, 10**6), st.floats(0, 10**4))
def draw(n, x):
    drawn.append((n, x))

draw()
print(json.dumps(drawn))
"""


def _draws(*args: str) -> list:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    out = subprocess.run([sys.executable, "-c", DRAWS, *args], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_claim_draws_the_same_examples_whatever_other_modules_are_loaded(tmp_path):
    """Issue 43: Hypothesis mixed the literals of every loaded local module into its draws, so a claim run alone
    (its page's Reproduce line) drew other examples than in the catalog. The profiles pin that pool."""
    literals = [123457 + 7919 * i for i in range(400)] + [float(i) + 0.5 for i in range(400)]
    (tmp_path / "many_literals.py").write_text(
        "\n".join(f"C{i} = {value!r}" for i, value in enumerate(literals)), encoding="utf-8"
    )
    alone, beside = _draws("alone"), _draws("with-literals", str(tmp_path))
    assert len(alone) == 200 and alone == beside
    assert not {n for n, _ in beside} & set(literals[:400]), "no literal of the loaded module is drawn"
