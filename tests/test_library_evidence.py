"""The evidence helpers behind the library and long-sequence claims: what they count must be what they say."""

from __future__ import annotations

import textwrap

import pytest

from checks.helpers.library import calls_rotary
from checks.helpers.sequence_layers import RECURRENT, activation_mib, layer, matched_hidden, parameter_count


@pytest.mark.parametrize(
    ("source", "rotary"),
    [
        ("q, k = apply_rotary_pos_emb(q, k, cos, sin)", True),
        ("self.rotary_emb = LlamaRotaryEmbedding(config)", True),
        ("cos, sin = self.rotary_emb(x, position_ids)", True),
        ("# unlike apply_rotary_pos_emb(q, k), this model adds a learned table\nx = x + self.wpe(positions)", False),
        ('"""Rotary embeddings (RotaryEmbedding(...)) are not used here."""\nx = x + self.wpe(positions)', False),
        ("rotary = False\nx = x + self.wpe(positions)", False),
    ],
)
def test_calls_rotary_counts_calls_in_code_not_words_in_comments_or_docstrings(source, rotary):
    assert calls_rotary(textwrap.dedent(source)) is rotary


def test_recurrent_layers_are_matched_to_the_attention_layer_within_two_percent():
    """The formula's choice is the real module's best: no other hidden size comes closer."""
    from torch import nn

    target = parameter_count(layer("attention"))
    for kind, module in RECURRENT.items():
        assert abs(parameter_count(layer(kind)) - target) <= 0.02 * target, (kind, matched_hidden(kind))
        best = min(range(8, 256), key=lambda h: abs(parameter_count(module(64, h)) - target))
        assert matched_hidden(kind) == best and isinstance(layer(kind), nn.RNNBase)


def test_activation_memory_grows_quadratically_only_when_the_scores_are_formed():
    """From n = 256 to 1024 (4×): linear layers grow about 4×, the formed n × n scores about 16×."""
    growth = {kind: activation_mib(kind, 1024) / activation_mib(kind, 256) for kind in ("attention", "lstm")}
    assert all(3.5 < g < 4.5 for g in growth.values()), growth
    formed = activation_mib("attention, scores formed", 1024) / activation_mib("attention, scores formed", 256)
    assert formed > 8, formed


def test_activation_memory_does_not_count_the_weights():
    """A tanh RNN saves its hidden-to-hidden weight at every step; counted, it alone would add 4 · 153² bytes."""
    kept = activation_mib("rnn", 64) * 2**20
    assert kept < 4 * 153**2, kept
