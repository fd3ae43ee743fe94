"""The values of the lessons' interactive demos, each named once."""

from __future__ import annotations

import numpy as np

DEMO_M, DEMO_N, DEMO_SHIFT = 2, 5, 5
"""Document 002, demo 8: query at m = 2, key at n = 5, then "둘 다 +5"."""
DEMO_Q, DEMO_KEY = np.array([1.0, 0.25]), np.array([0.5, 1.0])
"""The document prints no demo vectors; any 2-d q, k serve (for d = 2, RoPE's θ is 10000⁰ = 1)."""
