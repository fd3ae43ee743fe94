"""The published works the catalog cites, each named once: ``Citation``s of a section and a sentence of them."""

from __future__ import annotations

from checks.sources import Citation


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
