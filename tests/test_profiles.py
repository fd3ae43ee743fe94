"""The Hypothesis profiles mean the same thing on a CI machine as on a laptop."""

import json
import os
import subprocess
import sys

import pytest

SHOW_PROFILE = """
import json
from hypothesis import settings
from checks.profiles import register_profiles

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
