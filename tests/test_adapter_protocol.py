"""The adapter protocol's parts: declared domains, strategies inside them, messages, the report's cells."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.errors import FlakyFailure

from checks.evidence.check import CheckRun
from checks.evidence.check.runner import _message
from checks.helpers.rope_scores import common_shift_batches
from checks.helpers.variable_strategies import d_models, position_and_offset, position_offset_batches
from checks.implementations.base import ImplementationFailure, declaration_error
from checks.implementations.mutants import MUTANTS, python_name
from checks.implementations.registry import load
from checks.numerics.current import CurrentRun, running
from checks.numerics.domain import Domain, DomainError
from reports.model import _cell


class Declared:
    name = "declared"
    min_position, max_position = 0, 4095
    min_d_model = 4
    d_models = range(4, 65, 4)
    dtypes = ("float32", "float64")

    def rope(self, x, positions):
        return x


def test_a_declared_domain_is_read_and_said():
    domain = Domain.of(Declared())
    assert domain.describe() == "positions 0 … 4095; d_model ≥ 4; d_model in 4, 8, … 64; dtypes float32, float64"
    assert domain.refuses(d_model=6) and not domain.refuses(d_model=8, positions=[0, 4095])
    assert "position 4096" in domain.refuses(d_model=8, positions=[4096])
    assert domain.refuses_run("cpu", "bfloat16") and not domain.refuses_run("cpu", "float32")
    assert domain.excluding([8]).refuses(d_model=8)


@pytest.mark.parametrize(
    ("attribute", "value"), [("max_position", "4095"), ("d_models", 64), ("d_models", ()), ("dtypes", "float32")]
)
def test_a_malformed_declaration_is_one_message_naming_it(attribute, value, tmp_path, monkeypatch):
    adapter = Declared()
    setattr(adapter, attribute, value)
    with pytest.raises(DomainError, match=attribute):
        Domain.of(adapter)
    module = _adapter_module(
        tmp_path, monkeypatch, f"odd_adapter_{attribute}_{abs(hash(repr(value))) % 10**6}", attribute, value
    )
    with pytest.raises(ValueError, match=f"--impl '{module}:Rope': {attribute}"):
        load(f"{module}:Rope")


@pytest.mark.parametrize(("attribute", "value"), [("layout", "sideways"), ("pairing", 3), ("backend", "jax")])
def test_a_pairing_layout_or_backend_outside_the_known_names_is_refused_when_loaded(
    attribute, value, tmp_path, monkeypatch
):
    module = _adapter_module(tmp_path, monkeypatch, f"named_adapter_{attribute}", attribute, value)
    with pytest.raises(ValueError, match=f"--impl '{module}:Rope': {attribute} .* not one of"):
        load(f"{module}:Rope")


def _adapter_module(folder, monkeypatch, module: str, attribute: str, value: object) -> str:
    """A module on the path whose adapter class Rope declares ``attribute = value``; returns its name."""
    (folder / f"{module}.py").write_text(
        f"class Rope:\n    name = 'odd'\n    {attribute} = {value!r}\n    def rope(self, x, p):\n        return x\n"
    )
    monkeypatch.syspath_prepend(folder)
    return module


DOCUMENT_TABLE = Domain(min_position=0, max_position=4095)


@given(st.data())
def test_derived_positions_are_drawn_inside_the_declared_positions(data):
    with running(CurrentRun("float64", DOCUMENT_TABLE)):
        pos, k = data.draw(position_and_offset())
        assert 0 <= pos + k <= 4095
        pos, k = data.draw(position_and_offset(both_ways=True))
        assert pos - k >= 0 and pos + k <= 4095
        pos, other, k = data.draw(position_and_offset(starts=2))
        assert min(pos, other) + k >= 0 and max(pos, other) + k <= 4095

    with running(CurrentRun("float64", DOCUMENT_TABLE, batch=100)):
        pos, k = data.draw(position_offset_batches()).T
        assert (pos + k >= 0).all() and (pos + k <= 4095).all() and len(set(pos.tolist())) == len(pos)
        pos, k = data.draw(position_offset_batches(both_ways=True)).T
        assert (pos - k >= 0).all() and (pos + k <= 4095).all()
        pos, other, k = data.draw(position_offset_batches(starts=2)).T
        assert (np.minimum(pos, other) + k >= 0).all() and (np.maximum(pos, other) + k <= 4095).all()
        m, n, s = data.draw(common_shift_batches()).T
        assert (np.minimum(m, n) + s >= 0).all() and (np.maximum(m, n) + s <= 4095).all()


@given(st.data())
def test_sizes_are_drawn_inside_the_declared_d_models(data):
    with running(CurrentRun("float64", Domain.of(Declared()).excluding([8]))):
        d = data.draw(d_models(even=True, high=128))
    assert d % 4 == 0 and 4 <= d <= 64 and d != 8


def test_hypothesis_groups_are_said_failure_by_failure():
    first, second = ImplementationFailure("lib.rope(x: …) returned None"), ZeroDivisionError("division by zero")
    second.theory_claims_input = {"d": "2"}
    grouped = _message(ExceptionGroup("Hypothesis found 2 distinct failures.", [first, second]))
    assert grouped == (
        "2 distinct failures: (1) ImplementationFailure: lib.rope(x: …) returned None; "
        "(2) ZeroDivisionError: division by zero at {'d': '2'}"
    )
    flaky = _message(FlakyFailure("Hypothesis recording(...) produces unreliable results", [first]))
    assert flaky.startswith("output depends on earlier calls: the same input failed once and passed when repeated")
    assert "returned None" in flaky


def test_a_failed_cell_shows_its_counterexample_not_the_worst_input():
    run = CheckRun("shift", "cpu", "float64", status="failed", message="m", implementation="lib", reference=False)
    run.worst_input, run.counterexample = {"pos": "77", "k": "2788"}, {"pos": "1", "k": "4095"}
    assert _cell([run]).counterexample == "pos=1, k=4095"


def test_every_mutant_loads_as_an_adapter_declaring_only_what_it_means():
    """The mutation run loads each mutant through --impl: a field that shadows a declaration (``layout``) would
    make every check of it fail for that reason instead of its bug."""
    for mutant in MUTANTS:
        adapter = load(f"checks.implementations.mutants:{python_name(mutant.name)}")
        assert adapter.name == mutant.name and declaration_error(adapter) is None
