"""Debian's Chromium for the browser tests: find it, or install it with apt-get (stdlib only).

``python -m reports.chromium --install`` installs it when missing and this is root with apt-get;
CI and tox install it with bubblewrap (``python -m checks.engine.packages --install``). Elsewhere it
prints how, and the browser tests fail saying so.
"""

from __future__ import annotations

import sys
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
INSTALL = "apt-get update && apt-get install -y chromium fonts-nanum"
ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def missing() -> str | None:
    """Why the browser tests cannot run here, with the fix; None when they can."""
    if not CHROMIUM.is_file():
        return (
            f"Chromium is not installed at {CHROMIUM}. Install Debian's package as root: `{INSTALL}` "
            "(or `python -m reports.chromium --install`)."
        )
    try:
        import playwright  # noqa: F401
    except ImportError:
        from checks.extras import line

        return f"Playwright for Python is missing: {line('browser')}."
    return None


def install() -> int:
    """Install the browser and its font if Chromium is missing and apt-get can; never fails the caller."""
    from checks.engine.packages import PACKAGES, install

    return install([] if CHROMIUM.is_file() else list(PACKAGES[str(CHROMIUM)]))


if __name__ == "__main__":
    if "--install" in sys.argv[1:]:
        raise SystemExit(install())
    problem = missing()
    print(problem or f"chromium: {CHROMIUM} and playwright present")
    raise SystemExit(1 if problem else 0)
