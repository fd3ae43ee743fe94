"""Fingerprints of multi-head attention: how heads are split, what the scores are scaled by, and whether the output
projection is applied, read off outputs in float64 on the CPU (checks.implementations.fingerprint.probing).

- ``output_projection``: the output at W_O = M against the output Z at W_O = I: Z M ("applied"), Z Mᵀ ("applied
  transposed", a weight in torch.nn.Linear's layout), Z ("not applied");
- ``heads_split``: which columns make a head. With W_V = W_O = I and W_Q = W_K passing column j alone, only the
  head holding column j attends unevenly, so the output columns that move (against W_Q = W_K = 0) are its columns:
  contiguous blocks of d/h, interleaved (head i takes columns i, i + h, …), or each group listed;
- ``score_scale``: the factor the scores Q Kᵀ are multiplied by. Two tokens, 0 and e_0, with W_Q = W_K passing
  column 0: the second query scores 0 against the first key and the scale against itself, so the weight p of itself
  is σ(scale) and its output's column 0 is p: scale = log(p / (1 − p)), named 1/√(d/h), 1/√d or 1 (none).

A dimension that cannot be measured reads "not measured: <why>".
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from checks.implementations.base import Implementation
from checks.implementations.fingerprint import probe_d_model, probing
from checks.implementations.topic_records import Fingerprint
from checks.numerics.domain import Domain
from checks.numerics.tolerances import UNIT_ROUNDOFF
from checks.results.codec import JSON

METHOD = "multihead_attention"
CONTIGUOUS, INTERLEAVED = "contiguous", "interleaved"
"""Head i takes columns i·d/h … (i + 1)·d/h − 1 (the documents'), or columns i, i + h, i + 2h, …"""
SLACK = 2**12
"""Two probe outputs differ when they differ by more than this many unit roundoffs of the probe's dtype."""
TOKENS = 6
SEED = 20261214


def heads_for(d_model: int) -> int:
    """The heads an input of width ``d_model`` uses (a drawn one, and the probe's): 4 where they divide it, else 2,
    else 1."""
    return next(h for h in (4, 2, 1) if d_model % h == 0)


def measure(adapter: Any, domain: Domain) -> dict[str, JSON]:
    """What a multi-head attention computes, measured at one d_model with 4 (or 2) heads."""
    d_model = probe_d_model(domain)
    heads = heads_for(d_model)
    probe = _HeadsProbe(probing(adapter, domain), d_model, heads)
    found: dict[str, JSON] = {"d_model": d_model, "heads": heads, "output_projection": probe.projection()}
    if str(found["output_projection"]).startswith("other"):
        why = "not measured: its output is not the heads' times W_O (or W_Oᵀ, or without it)"
        return {**found, "heads_split": why, "score_scale_name": why}
    groups = probe.groups()
    found |= {"heads_split": _split_name(groups, d_model, heads), "head_columns": [_span(g) for g in groups]}
    scale = probe.scale()
    found |= {"score_scale": scale, "score_scale_name": _scale_name(scale, d_model, heads, probe.within)}
    return found


class _HeadsProbe:
    """Calls of one bound adapter on crafted inputs, in the probe's dtype."""

    def __init__(self, bound: Implementation, d_model: int, heads: int) -> None:
        self.bound, self.d_model, self.heads = bound, d_model, heads
        self.within = SLACK * UNIT_ROUNDOFF[bound.xp.dtype]
        self.rng = np.random.default_rng(SEED)

    def call(self, x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, w_o: np.ndarray) -> np.ndarray:
        xp = self.bound.xp
        arrays = (xp.array(a) for a in (x, w_q, w_k, w_v, w_o))
        return xp.to_float64(self.bound.call(METHOD, *arrays, self.heads))

    def drawn(self, *shape: int) -> np.ndarray:
        return self.rng.uniform(-1.0, 1.0, shape)

    def projection(self) -> str:
        """Whether W_O multiplies the joined heads: the output at W_O = M against Z, the output at W_O = I."""
        d = self.d_model
        x, w_q, w_k, w_v, w_o = self.drawn(TOKENS, d), *(self.drawn(d, d) / math.sqrt(d) for _ in range(4))
        joined, found = self.call(x, w_q, w_k, w_v, np.eye(d)), self.call(x, w_q, w_k, w_v, w_o)
        size = max(float(np.abs(found).max()), 1.0) * self.within
        candidates = {"applied": joined @ w_o, "applied transposed (W_Oᵀ)": joined @ w_o.T, "not applied": joined}
        named = next((name for name, value in candidates.items() if np.abs(found - value).max() <= size), None)
        return named or "other: the output is neither Z W_O, Z W_Oᵀ nor Z (Z: the output at W_O = I)"

    def groups(self) -> list[list[int]]:
        """The columns of each head: those of the output that move when Q and K carry one column alone."""
        d = self.d_model
        x, eye, zero = self.rng.normal(0.0, 1.0, (TOKENS, d)), np.eye(d), np.zeros((d, d))
        even = self.call(x, zero, zero, eye, eye)
        groups: list[list[int]] = []
        for column in range(d):
            if any(column in group for group in groups):
                continue
            alone = np.zeros((d, d))
            alone[column, column] = 1.0
            moved = np.abs(self.call(x, alone, alone, eye, eye) - even).max(0) > self.within
            groups.append(np.flatnonzero(moved).tolist() or [column])
        return groups

    def scale(self) -> float:
        """The factor on the scores, from the second of two tokens (0 and e_0) with Q and K passing column 0."""
        d = self.d_model
        x, alone, eye = np.zeros((2, d)), np.zeros((d, d)), np.eye(d)
        x[1, 0] = alone[0, 0] = 1.0
        p = float(self.call(x, alone, alone, eye, eye)[1, 0])
        return math.log(p / (1.0 - p)) if 0.0 < p < 1.0 else math.nan


def _split_name(groups: list[list[int]], d_model: int, heads: int) -> str:
    """The head split the measured column groups are."""
    width = d_model // heads
    if sorted(groups) == [list(range(i * width, (i + 1) * width)) for i in range(heads)]:
        return CONTIGUOUS
    if sorted(groups) == [list(range(i, d_model, heads)) for i in range(heads)]:
        return INTERLEAVED
    if len(groups) == 1:
        return f"one head: every column attends together, not {heads} heads"
    return f"other: {len(groups)} groups of columns ({', '.join(_span(g) for g in groups)}), not {heads} heads"


def _span(group: list[int]) -> str:
    return f"{group[0]} … {group[-1]}" if group == list(range(group[0], group[-1] + 1)) else str(group)


def _scale_name(scale: float, d_model: int, heads: int, within: float) -> str:
    """The scale a measured factor is: 1/√(d/h), 1/√d or 1, else its value and 1/scale²."""
    if math.isnan(scale):
        return "not measured: the query gave all its weight to one key (a mask?)"
    names = {"1/√(d/h)": 1 / math.sqrt(d_model // heads), "1/√d": 1 / math.sqrt(d_model), "none (1)": 1.0}
    named = next((name for name, value in names.items() if math.isclose(scale, value, rel_tol=within)), None)
    return named or f"other: {scale:.6g} (1/√{1 / scale**2:.4g})"


def variants(found: dict[str, JSON], adapter: Any) -> tuple[list[str], list[str]]:
    """(each difference from the documents' multi-head attention, in words; no declarations to contradict)."""
    del adapter  # the multi-head topic declares nothing
    notes = []
    if found["output_projection"] != "applied":
        notes.append(f"output projection {found['output_projection']}")
    split, scale = str(found["heads_split"]), str(found["score_scale_name"])
    if split == INTERLEAVED:
        notes.append(f"heads interleaved: head i takes columns i, i + h, … (h = {found['heads']}), not a block of d/h")
    elif split != CONTIGUOUS:
        notes.append(f"heads split: {split}")
    if scale != "1/√(d/h)":
        notes.append(f"scores scaled by {scale}, not 1/√(d/h) (d = {found['d_model']}, h = {found['heads']})")
    return notes, []


FINGERPRINT = Fingerprint(measure=measure, variants=variants)
"""The multi-head topic's fingerprint."""
