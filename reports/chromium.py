"""Debian's Chromium for the browser tests: find it, or say how to install it (stdlib only).

CI and tox install it with bubblewrap (``python -m checks.engine.packages --install``, as root with apt-get);
``python -m reports.chromium`` says whether it is here.
"""

from __future__ import annotations

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
            "(or `python -m checks.engine.packages --install`)."
        )
    try:
        import playwright  # noqa: F401
    except ImportError:
        from checks.settings.extras import line

        return f"Playwright for Python is missing: {line('browser')}."
    return None


if __name__ == "__main__":
    problem = missing()
    print(problem or f"chromium: {CHROMIUM} and playwright present")
    raise SystemExit(1 if problem else 0)
