"""Debian's Chromium for the browser tests: find it, or install it with apt-get (stdlib only).

``python -m reports.chromium --install`` installs it when missing and this is root with
apt-get (CI and tox do this); elsewhere it prints how, and the browser tests fail saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
PACKAGES = ("chromium", "fonts-nanum")
"""The browser, and a Korean font so the documents' text renders in screenshots."""
INSTALL = f"apt-get update && apt-get install -y {' '.join(PACKAGES)}"
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
            "(or `python -m reports.chromium --install`; tox's tests environment and .ci/run do this)."
        )
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is missing: `pip install -r requirements.txt` (or run the tests through tox)."
    return None


def install() -> int:
    """Install the packages if Chromium is missing and apt-get can; never fails the caller."""
    if CHROMIUM.is_file():
        print(f"chromium: {CHROMIUM} present")
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"chromium: missing and not installable here (needs root and apt-get); run: {INSTALL}")
        return 0
    started = time.perf_counter()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *PACKAGES]):
        print("chromium:", " ".join(command), flush=True)
        if subprocess.run(command, env=env, check=False).returncode != 0:
            print("chromium: installation failed; the browser tests will say so", file=sys.stderr)
            return 0
    print(f"chromium: installed in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    if "--install" in sys.argv[1:]:
        raise SystemExit(install())
    problem = missing()
    print(problem or f"chromium: {CHROMIUM} and playwright present")
    raise SystemExit(1 if problem else 0)
