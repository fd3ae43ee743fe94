"""Topics: the components under test as records (checks.implementations.topic_records defines them), and a module per
topic: ``checks.topics.positional`` (the sinusoidal table, RoPE), ``checks.topics.attention``,
``checks.topics.normalisation`` (LayerNorm, RMSNorm), ``checks.topics.multihead``. A repository's own topic needs no
edit of the package (docs/topics.md).
"""

from __future__ import annotations

from checks.implementations.topic_records import (
    Fingerprint,
    Topic,
    TopicError,
    capabilities,
    comparator,
    names,
    register,
    topic,
    topics,
    unregister,
)

__all__ = [
    "Fingerprint",
    "Topic",
    "TopicError",
    "capabilities",
    "comparator",
    "names",
    "register",
    "topic",
    "topics",
    "unregister",
]
