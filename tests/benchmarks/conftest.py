"""Speed budgets and timings run only when asked (``tox -e bench``, or ``pytest --benchmark-only``).

Plain ``pytest`` then behaves like ``tox -e tests``: every benchmark is skipped, saying how to run it. Under
pytest-xdist, pytest-benchmark turns itself off; a budget then skips instead of failing on missing timings.
"""

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("benchmark_only", False):
        return
    skip = pytest.mark.skip(reason="a speed benchmark: run with `tox -e bench` or `pytest --benchmark-only`")
    for item in items:
        if "benchmark" in getattr(item, "fixturenames", ()):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _timings_available(request: pytest.FixtureRequest) -> None:
    if "benchmark" in request.fixturenames and request.getfixturevalue("benchmark").disabled:
        pytest.skip("pytest-benchmark is off here (it turns itself off under pytest-xdist): run without -n")
