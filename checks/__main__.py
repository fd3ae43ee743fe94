"""python -m checks: see checks.cli (new, list, flake)."""

from checks.cli import main

raise SystemExit(main())
