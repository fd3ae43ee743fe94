"""A learned position table (BERT 512, GPT-2 1024 rows) cannot look up a position past its length; the formula can."""

import importlib.util

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

from checks import FLOAT32, FLOAT64, Claim, Quote
from checks.helpers.strategies import d_models

SECTION = "Sinusoidal vs 학습 가능한 위치 임베딩"
QUOTED_LENGTHS = {"BERT": 512, "GPT-2": 1024}
claim = Claim(
    id="pe.learned-fixed-length",
    title="Learned position embeddings stop at their table length",
    statement=(
        "A learned positional embedding is a table of max_len rows (torch.nn.Embedding(max_len, d)): looking up "
        "position max_len or later raises IndexError, while the sinusoidal formula gives a vector of norm "
        "√(d/2) at any position. The quoted sizes are BERT 512 and GPT-2 1024."
    ),
    sources=[
        Quote("000_1100ff0056b332e7.txt", SECTION, "위치별 벡터를 처음에 랜덤 초기화"),
        Quote("000_1100ff0056b332e7.txt", SECTION, "BERT: 최대 512 위치, GPT-2: 최대 1024 위치"),
    ],
    expect="holds",
)


@claim.check(dtypes=(FLOAT64, FLOAT32))
@given(length=st.integers(1, 1024), extra=st.integers(0, 1024), d=d_models(even=True, high=64))
def table_stops_formula_goes_on(t, length, extra, d):
    """Positions up to 2048 exceed float16's and bfloat16's meaningful position limit, so float64 and float32 only."""
    table, position = t.xp.zeros(length, d), length + extra
    try:
        table[position]
    except IndexError:
        pass
    else:
        raise AssertionError(f"a {length}-row table returned a row for position {position}")
    row = t.impl.sinusoidal([position], d)
    t.close(t.xp.sqrt(t.xp.sum(row * row)), np.sqrt(d / 2), scale=position, bound=np.sqrt(d / 2), label="‖PE(pos)‖")


@claim.probe
def embedding_modules(r):
    """torch.nn.Embedding with the quoted sizes: the last row works, the next position raises."""
    torch.manual_seed(0)
    for model, length in QUOTED_LENGTHS.items():
        table = torch.nn.Embedding(length, 64)
        last = tuple(table(torch.tensor([length - 1])).shape)
        try:
            table(torch.tensor([length]))
            past = "returned a row"
        except IndexError as error:
            past = f"IndexError: {error}"
        r.measure(f"{model}-sized nn.Embedding({length}, 64): position {length - 1}, position {length}", (last, past))
        if past == "returned a row":
            r.counterexample(f"nn.Embedding({length}, 64) returned a row for position {length}")


@claim.probe
def library_defaults(r):
    """The quoted sizes against transformers' config defaults, where the library is installed."""
    if importlib.util.find_spec("transformers") is None:
        r.measure(
            "transformers defaults (BertConfig().max_position_embeddings, GPT2Config().n_positions)",
            "not checkable here: transformers is not installed in this environment (deliberately not installed)",
        )
        return
    from transformers import BertConfig, GPT2Config

    defaults = {"BERT": BertConfig().max_position_embeddings, "GPT-2": GPT2Config().n_positions}
    r.measure("transformers defaults", defaults)
    if defaults != QUOTED_LENGTHS:
        r.counterexample(
            "the quoted sizes differ from transformers' defaults", quoted=QUOTED_LENGTHS, defaults=defaults
        )
