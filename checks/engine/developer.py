"""Commands for developing theory-claims itself, run in its checkout (never offered by a user's ``theory-claims``):

    python -m checks.engine.developer api [--root DIR]   rewrite docs/api.md from the public modules' __all__
    python -m checks.engine.developer schema             rewrite checks/results/*.schema.json from the typed records

From an install they refuse to write (an install's files are not the repository's sources).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import checks


def checkout() -> Path | None:
    """The source checkout this package runs from (its pyproject.toml names theory-claims); None when installed."""
    root = Path(checks.__file__).resolve().parent.parent
    project = root / "pyproject.toml"
    if project.is_file() and re.search(r'^name = "theory-claims"', project.read_text(encoding="utf-8"), re.M):
        return root
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m checks.engine.developer", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    api = commands.add_parser("api", help="rewrite docs/api.md")
    api.add_argument("--root", type=Path, help="write DIR/docs/api.md (default: the package's checkout)")
    commands.add_parser("schema", help="rewrite checks/results/*.schema.json")
    args = parser.parse_args(argv)
    root = getattr(args, "root", None) or checkout()
    if root is None:
        print("error: theory-claims runs from an install here, not from its checkout", file=sys.stderr)
        return 2
    if args.command == "api":
        from checks.engine.api import write_page

        print(f"wrote {write_page(root)}")
        return 0
    import checks.evidence  # noqa: F401  (the evidence kinds, whose records the schema describes)
    from checks.results.schema import write_schemas

    return write_schemas()


if __name__ == "__main__":
    sys.exit(main())
