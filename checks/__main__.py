"""python -m checks: see checks.engine.cli (new, list, flake)."""

from checks.engine.cli import main

raise SystemExit(main())
