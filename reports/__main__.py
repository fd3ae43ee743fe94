"""``python -m reports`` was the report command before it joined the others: it is ``python -m checks report``
(``theory-claims report``) now, with the same options. This says so, and builds nothing (reports/ builds pages
from results files and runs no claim)."""

import sys

if __name__ == "__main__":
    command = " ".join(["python -m checks report", *sys.argv[1:]])
    print(f"error: the report command is now `{command}` (theory-claims report)", file=sys.stderr)
    raise SystemExit(2)
