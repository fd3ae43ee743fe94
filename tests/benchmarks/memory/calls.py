"""Peak resident memory of one check of 16 MiB inputs, in the tool and outside it (issue 65).

``python tests/benchmarks/memory/calls.py inside``: the check on the references, a correct adapter and a failing
one (2 dtypes, the profile's examples), through ``evaluate``. ``... outside``: the same calls on as many inputs
(numpy's and torch's reference and both adapters, each compared with the float64 reference). Each prints one
line: MiB after imports and at peak (``ru_maxrss``).
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
import heavy


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def outside(examples: int) -> None:
    calls = (lambda x: heavy.biased(x.numpy()), heavy.biased, heavy.TorchBiased().biased_logits)
    for dtype in (torch.float32, torch.float64):
        for seed in range(examples):
            (logits,) = heavy.drawn(np.random.default_rng(seed), heavy.HEADS)
            expected = heavy.biased(logits)
            for call in (*calls, heavy.OffBiased().biased_logits):
                got = call(torch.as_tensor(logits, dtype=dtype))
                np.abs((got if isinstance(got, np.ndarray) else got.double().numpy()) - expected).max()


def inside() -> int:
    from hypothesis import settings
    from hypothesis import strategies as st

    from checks import Claim, given
    from checks.engine.evaluate import evaluate
    from checks.implementations.topic_records import register
    from claims.catalog.works import LESSON_002

    register(heavy.TOPIC)
    quote = LESSON_002.quote("5. k칸 이동 = 회전 행렬", "M_k는 k에만 달려 있습니다.")
    claim = Claim("memory.heavy", "t", "s", [quote], "holds")

    @claim.check(uses="biased_logits", dtypes=("float32", "float64"), devices=("cpu",))
    @given(inputs=heavy.TOPIC.strategy(st.just(heavy.HEADS)))
    def _(t, inputs):
        (logits,) = inputs
        t.close(t.impl.biased_logits(t.xp.array(logits)), heavy.biased(logits), label="biased")

    record = evaluate(claim)
    assert record.errors == [], record.errors
    return settings().max_examples


if __name__ == "__main__":
    imported = peak_mib()
    if sys.argv[1] == "inside":
        inside()
    else:
        outside(int(sys.argv[2]))
    print(f"{sys.argv[1]}: after imports {imported:.0f} MiB, peak {peak_mib():.0f} MiB")
