"""The precision an implementation computes in, read off its float64 outputs: the measurement every topic gets.

Called in float64, an implementation whose every output is a float32 value (and the reference's, on the same
inputs, is not) computed in float32, whatever it was handed: three libraries' ALiBi attention run their softmax in
float32 on float64 scores, which a float64 tolerance scaled to their error never shows. A topic without a
fingerprint of its own is measured so (checks.implementations.contract); the norms' fingerprints read the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.implementations.fingerprint import probe_d_model, probing
from checks.implementations.topic_records import SEED, Topic, on_backend
from checks.numerics.domain import Domain
from checks.numerics.tolerances import BFLOAT16, COARSEST_FIRST, FLOAT16, FLOAT32, FLOAT64


def carried(values: np.ndarray) -> str:
    """The coarsest dtype that holds every one of ``values`` exactly (float64 when float32 does not)."""
    single = values.astype(np.float32)
    if not np.array_equal(single.astype(np.float64), values):
        return FLOAT64
    if not (single.view(np.uint32) & 0xFFFF).any():
        return BFLOAT16
    return FLOAT16 if np.array_equal(values.astype(np.float16).astype(np.float64), values) else FLOAT32


def computed_in(adapter: Any, domain: Domain, topic: Topic) -> dict[str, str] | None:
    """``{"computed_in": dtype, "probed_in": "float64"}`` for an adapter called in float64 on the topic's inputs at
    its first probe size; None where it cannot be told (no float64 on the CPU, no inputs or NumPy reference, or the
    reference's own output is as coarse)."""
    reference = topic.references.get("numpy")
    bound = probing(adapter, domain)
    if topic.inputs is None or topic.call is not None or reference is None or bound.xp.dtype != FLOAT64:
        return None
    size = probe_d_model(domain, sizes=topic.probe_sizes)
    arrays = topic.inputs(np.random.default_rng(SEED), size)
    expected = np.asarray(reference(*arrays), dtype=np.float64)
    found = bound.xp.to_float64(bound.call(topic.name, *(on_backend(bound.xp, a) for a in arrays)))
    finite = np.isfinite(found)
    if not finite.any() or COARSEST_FIRST.index(carried(expected[np.isfinite(expected)])) < COARSEST_FIRST.index(
        FLOAT64
    ):
        return None
    return {"computed_in": carried(found[finite]), "probed_in": FLOAT64}


def variants(found: dict[str, str]) -> list[str]:
    """The difference it shows: computed in a coarser dtype than it was called in."""
    if found["computed_in"] == found["probed_in"]:
        return []
    return [
        f"computes in {found['computed_in']} when called in {found['probed_in']} (every output is a "
        f"{found['computed_in']} value; the reference's on the same inputs are not)"
    ]
