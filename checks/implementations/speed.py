"""How fast an implementation answers, and the share of a claim's time limit that buys it (checks.engine.limits
splits the limit; the contract checks measure the calls and name a slow implementation)."""

from __future__ import annotations

CALL_BUDGET = 0.05
"""Seconds a call into an implementation may take (the median of its contract checks' calls). On a 2-core machine
the references and the built-in and optional adapters took 0.02 to 0.8 ms idle and up to 16 ms under a load of 2.5
(positional-encodings; their means up to 43 ms, moved by the first call's loading and by load spikes); a slower one
is named slow and gets a longer share."""
LONGEST_SHARE = 4.0
"""The most usual shares one implementation gets, however slow its calls."""


def share_factor(seconds_per_call: float) -> float:
    """How many usual shares an implementation gets: 1 within the call budget, its seconds a call over the budget
    past it, at most LONGEST_SHARE."""
    return min(max(seconds_per_call / CALL_BUDGET, 1.0), LONGEST_SHARE)


def slow_note(seconds_per_call: float) -> str:
    """What the implementations page says of an implementation slower than the call budget (empty: it is not)."""
    if seconds_per_call <= CALL_BUDGET:
        return ""
    return (
        f"slow: {seconds_per_call * 1e3:.3g} ms a call (budget {CALL_BUDGET * 1e3:g} ms); its cells get a "
        f"{share_factor(seconds_per_call):.2g}× longer share of the time limit"
    )
