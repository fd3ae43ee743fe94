"""Debian packages the tests use from the machine: Chromium (the report's browser tests) and bubblewrap
(the document-code sandbox). Standard library only: CI runs it before any environment exists.

``python -m checks.engine.packages --install`` installs what is missing when this is root with
apt-get (CI and tox do this); elsewhere it prints how, and whatever needs a package says so itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

PACKAGES: dict[str, tuple[str, ...]] = {
    "/usr/bin/chromium": ("chromium", "fonts-nanum"),
    "/usr/bin/bwrap": ("bubblewrap",),
}
"""What each program needs: the browser with a Korean font (screenshots), and bubblewrap."""


def wanted() -> list[str]:
    """The packages whose program is not on this machine."""
    return [package for program, packages in PACKAGES.items() if not os.path.isfile(program) for package in packages]


def install_command(packages: list[str]) -> str:
    return f"apt-get update && apt-get install -y {' '.join(packages)}"


def install(packages: list[str] | None = None) -> int:
    """Install what is missing if apt-get can; never fails the caller (what needs a package says so)."""
    packages = wanted() if packages is None else packages
    if not packages:
        print("packages: " + ", ".join(program for program in PACKAGES) + " present")
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(
            f"packages: {', '.join(packages)} missing and not installable here (needs root and apt-get); run: "
            f"{install_command(packages)}"
        )
        return 0
    started = time.perf_counter()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *packages]):
        print("packages:", " ".join(command), flush=True)
        if subprocess.run(command, env=env, check=False).returncode != 0:
            print("packages: installation failed; what needs them will say so", file=sys.stderr)
            return 0
    print(f"packages: {', '.join(packages)} installed in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    if "--install" in sys.argv[1:]:
        raise SystemExit(install())
    missing = wanted()
    print(f"packages missing: {', '.join(missing)}" if missing else "packages: all present")
    raise SystemExit(1 if missing else 0)
