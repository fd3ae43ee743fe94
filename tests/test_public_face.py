"""The public face as a researcher uses it: recurrent cells by one spelling, symbolic formulas in the caller's
symbols, and strategies in a plain Hypothesis test outside any check."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from checks.attention import (
    RECURRENT,
    RECURRENT_CELLS,
    counted_recurrent,
    crossover,
    crossover_formula,
    crossover_ratios,
    matched_hidden,
    rnn_flops,
)
from checks.numerics.current import CurrentRun, running
from checks.numerics.tolerances import position_limit
from checks.strategies import position_batches, position_offset_batches, positions, vector_batches

FEW = settings(max_examples=20, database=None, deadline=None)


def test_recurrent_cells_have_one_spelling_and_either_case_is_taken():
    assert set(RECURRENT) == set(RECURRENT_CELLS) == {"rnn", "gru", "lstm"}
    assert counted_recurrent("lstm", 3, 4) == counted_recurrent("LSTM", 3, 4) == rnn_flops(3, 4, 4)
    assert matched_hidden("GRU") == matched_hidden("gru")
    assert crossover_ratios("Lstm", 8)["crossover n"] == 20.0


def test_an_unknown_cell_is_a_value_error_naming_the_cells():
    with pytest.raises(ValueError, match=r"'transformer'.*rnn, gru, lstm"):
        counted_recurrent("transformer", 3, 4)
    with pytest.raises(ValueError, match=r"'lstn'.*rnn, gru, lstm"):
        matched_hidden("lstn")


def test_the_crossover_is_in_the_callers_symbols():
    d, g = sp.Symbol("d"), sp.Symbol("g")
    assert crossover(4, d).subs(d, 16) == 40, "substituting the caller's own Symbol('d') works"
    assert crossover(4, 16) == 40 and crossover(3, 16) == 24
    assert crossover(1, d) is None, "attention always costs more than the tanh RNN"
    assert crossover_formula(d, g).subs({d: 16, g: 4}) == 40
    assert sp.simplify(crossover_formula(d, g) - (2 * g - 3) * d / 2) == 0


@FEW
@given(pos=positions(dtype="float32"), rows=position_offset_batches(dtype="float16"))
def test_a_strategy_draws_in_a_plain_hypothesis_test_given_its_dtype(pos, rows):
    assert 0 <= pos <= position_limit("float32")
    at, shift = rows.T
    assert np.all(at <= position_limit("float16")) and np.all(np.abs(shift) <= position_limit("float16"))


@FEW
@given(data=st.data())
def test_an_explicit_dtype_wins_over_the_checks(data):
    with running(CurrentRun("float64")):
        assert data.draw(positions(dtype="float16")) <= position_limit("float16")
        x, at = data.draw(vector_batches(3, dtype="bfloat16"))
        assert x.shape == (len(at), 3) and np.all(at <= position_limit("bfloat16"))


def test_without_a_dtype_outside_a_check_a_strategy_asks_for_one():
    @FEW
    @given(at=position_batches())
    def draws(at):
        pass

    with pytest.raises(InvalidArgument, match=r'pass dtype=\.\.\. \(for example positions\(dtype="float32"\)\)'):
        draws()
