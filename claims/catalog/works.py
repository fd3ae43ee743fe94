"""The catalog's documents and the published works it cites, each named once.

A document is a ``Document`` of sources/ (``LESSON_002.quote(section, text)``); a work is a function giving the
``Citation`` of a section and a sentence of it.
"""

from __future__ import annotations

from checks import Citation, Document

LESSON_000 = Document("000_1100ff0056b332e7.txt")
"""The lesson on positional encoding: why order matters, the sin/cos formula, its numpy and PyTorch code, RoPE."""
LESSON_001 = Document("001_53050abb35828e70.txt")
"""The short post: X = E + P, relative position, attention's parallelism and cost, five misconceptions."""
LESSON_002 = Document("002_86fa32f25d4c4c54.txt")
"""Why sin and cos: the clock hand, the k-step rotation M_k, constant norm, distance-only dot products, RoPE."""


def vaswani_2017(section: str, text: str) -> Citation:
    """Attention Is All You Need (the Transformer and its sinusoidal encoding)."""
    return Citation(
        title="Attention Is All You Need",
        authors="Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N. Gomez, "
        "Łukasz Kaiser, Illia Polosukhin",
        year=2017,
        section=section,
        text=text,
        arxiv="1706.03762",
    )


def su_2021(section: str, text: str) -> Citation:
    """RoFormer (RoPE)."""
    return Citation(
        title="RoFormer: Enhanced Transformer with Rotary Position Embedding",
        authors="Jianlin Su, Yu Lu, Shengfeng Pan, Ahmed Murtadha, Bo Wen, Yunfeng Liu",
        year=2021,
        section=section,
        text=text,
        arxiv="2104.09864v2",
    )


def touvron_2023(section: str, text: str) -> Citation:
    """LLaMA."""
    return Citation(
        title="LLaMA: Open and Efficient Foundation Language Models",
        authors="Hugo Touvron, Thibaut Lavril, Gautier Izacard, et al.",
        year=2023,
        section=section,
        text=text,
        arxiv="2302.13971",
    )


def ba_2016(section: str, text: str) -> Citation:
    """Layer Normalization."""
    return Citation(
        title="Layer Normalization",
        authors="Jimmy Lei Ba, Jamie Ryan Kiros, Geoffrey E. Hinton",
        year=2016,
        section=section,
        text=text,
        arxiv="1607.06450",
    )


def zhang_2019(section: str, text: str) -> Citation:
    """Root Mean Square Layer Normalization (RMSNorm)."""
    return Citation(
        title="Root Mean Square Layer Normalization",
        authors="Biao Zhang, Rico Sennrich",
        year=2019,
        section=section,
        text=text,
        arxiv="1910.07467",
    )
