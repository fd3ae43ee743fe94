"""The inequality corpora's figures: ``python -m tests.corpus_figures`` prints, per corpus, how many true ones are
proved, false ones proved, false ones refuted, and the median and worst seconds per decision (cvxpy imported
first: the solver's import is not counted against a proof)."""

from __future__ import annotations

import statistics
import time

from checks.symbolic.decide import decide
from tests.inequality_corpus import FALSE, TRUE, Inequality, families, generated, generated_sums


def figures(true: list[Inequality], false: list[Inequality]) -> str:
    """One table row: true proved, false proved, false refuted, median and worst seconds."""
    seconds, statuses = [], {True: [], False: []}
    for truth, group in ((True, true), (False, false)):
        for lhs, relation, rhs in group:
            started = time.perf_counter()
            statuses[truth].append(decide(lhs, rhs, relation).status)
            seconds.append(time.perf_counter() - started)
    return (
        f"{statuses[True].count('proved')} / {len(true)} | {statuses[False].count('proved')} | "
        f"{statuses[False].count('refuted')} / {len(false)} | {statistics.median(seconds):.3f} | {max(seconds):.2f}"
    )


def main() -> None:
    import cvxpy  # noqa: F401

    corpora = {
        "families": families(),
        "first corpus": (TRUE, FALSE),
        "50 + 50 generated sums": generated_sums(50, seed=20261202),
        "12 + 12 generated squares": generated(12, seed=20261201),
    }
    print("| corpus | true proved | false proved | false refuted | median s | worst s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (true, false) in corpora.items():
        print(f"| {name} | {figures(true, false)} |", flush=True)


if __name__ == "__main__":
    main()
