"""The examples of one test case of a batched check, as one array."""

from __future__ import annotations

import numpy as np


class Batch(np.ndarray):
    """The examples of one test case of a batched check, one per row (axis 0), distinct within the batch.

    The harness counts its rows as examples, and a comparison in a batched check compares one row per example:
    the row with the worst error is the worst input (checks.evidence.check.harness.Trial).
    """
