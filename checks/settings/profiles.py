"""Hypothesis profiles: dev (fast), ci (derandomized, replayable), thorough (10,000 examples)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

PROFILE_ENV = "THEORY_CLAIMS_PROFILE"
DATABASE = Path(".hypothesis") / "examples"
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


def register_profiles(profile: str | None = None) -> None:
    """Register the three profiles and load ``profile`` (None: the one THEORY_CLAIMS_PROFILE names, default dev)."""
    database = DirectoryBasedExampleDatabase(str(DATABASE))
    # Hypothesis makes its own derandomized "ci" profile the parent of every new
    # profile when it detects CI (the CI variable); inheriting from its pristine
    # "default" keeps dev and thorough random wherever they run.
    base = settings.get_profile("default")
    settings.register_profile("dev", base, max_examples=15, database=database, **_COMMON)
    # derandomize replays the same examples every run, so a failure replays by
    # rerunning; Hypothesis forbids a database with it, and print_blob prints
    # a @reproduce_failure line for any failure.
    settings.register_profile("ci", base, max_examples=40, derandomize=True, print_blob=True, **_COMMON)
    settings.register_profile("thorough", base, max_examples=10_000, database=database, **_COMMON)
    settings.load_profile(profile or os.environ.get(PROFILE_ENV, "dev"))
    pin_local_constants()


def pin_local_constants() -> None:
    """Draw the same examples whatever else is loaded.

    Hypothesis mixes into its draws the literals of every local module imported so far (its "local constants"), so
    a claim run alone drew other examples than in the catalog, where every claim file and whatever the claims before
    it imported are loaded: a page's counterexample was not what its Reproduce line found. No setting turns this
    off; the pool is pinned empty here (Hypothesis's own constants, 0, ±1, the float limits, stay).
    tests/test_profiles.py checks that a claim alone and beside the catalog draws the same examples, and fails
    loudly if Hypothesis renames what this pins.
    """
    from hypothesis.internal.conjecture import providers

    if not hasattr(providers, "_get_local_constants"):
        raise RuntimeError(
            "hypothesis no longer has providers._get_local_constants: draws would depend on the modules loaded; "
            "update checks.settings.profiles.pin_local_constants for this Hypothesis version"
        )
    pinned = providers.Constants()
    providers._get_local_constants = lambda: pinned


SWEEP_ELEMENTS = {"dev": 2**16, "ci": 2**18, "thorough": 2**26}
"""Positions × d_model a dense sweep covers per device, dtype and d_model, by profile."""


def sweep_elements() -> int:
    """The sweep budget of the loaded Hypothesis profile (ci's for a profile of another name)."""
    return SWEEP_ELEMENTS.get(settings.get_current_profile_name(), SWEEP_ELEMENTS["ci"])
