"""A learned position table (BERT 512, GPT-2 1024 rows) cannot look up a position past its length; the formula can."""

import numpy as np
import torch
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from checks import FLOAT32, FLOAT64, Claim, given
from checks.models import bert, gpt2, library_version, longest_accepted, position_table_rows
from checks.strategies import Batch, as_batch, batch_size, d_models
from claims.catalog.works import LESSON_000

SECTION = "Sinusoidal vs 학습 가능한 위치 임베딩"
QUOTED_LENGTHS = {"BERT": 512, "GPT-2": 1024}
claim = Claim(
    id="pe.learned-fixed-length",
    title="Learned position embeddings stop at their table length",
    statement=(
        "A learned positional embedding is a table of max_len rows (torch.nn.Embedding(max_len, d)): looking up "
        "position max_len or later raises IndexError, while the sinusoidal formula gives a vector of norm "
        "√(d/2) at any position. BERT and GPT-2 as the installed transformers library builds them have learned "
        "tables of 512 and 1024 rows and refuse a sequence one token longer."
    ),
    sources=[
        LESSON_000.quote(SECTION, "위치별 벡터를 처음에 랜덤 초기화"),
        LESSON_000.quote(SECTION, "BERT: 최대 512 위치, GPT-2: 최대 1024 위치"),
    ],
    expect="holds",
)


@st.composite
def tables_and_positions(draw: st.DrawFn) -> Batch:
    """Rows (length, position): a table length in 1 … 1024 (distinct in the batch) and a position past it by
    0 … 1024."""
    length = draw(arrays(np.int64, batch_size(), elements=st.integers(1, 1024), unique=True))
    extra = draw(arrays(np.int64, len(length), elements=st.integers(0, 1024)))
    return as_batch(np.stack([length, length + extra], axis=1))


@claim.check(dtypes=(FLOAT64, FLOAT32), batched=True)
@given(rows=tables_and_positions(), d=d_models(even=True, high=64))
def table_stops_formula_goes_on(t, rows, d):
    """Positions up to 2048 exceed float16's and bfloat16's meaningful position limit, so float64 and float32 only."""
    for length, position in rows:
        try:
            t.xp.zeros(length, d)[position]
        except IndexError:
            continue
        raise AssertionError(f"a {length}-row table returned a row for position {position}")
    position = rows[:, 1]
    pe = t.impl.sinusoidal(position, d)
    norms, expected = t.xp.sqrt(t.xp.sum(pe * pe, axis=-1)), np.full(len(position), np.sqrt(d / 2))
    t.close_norm(norms, expected, position, d_model=d)


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
def library_models(r):
    """BERT and GPT-2 as the installed transformers builds them (default position settings, tiny widths): the
    rows of their position tables, and whether a sequence of the quoted length and one token more runs."""
    r.measure("transformers", library_version())
    for model, build in (("BERT", bert), ("GPT-2", gpt2)):
        quoted, network = QUOTED_LENGTHS[model], build()
        rows = position_table_rows(network)
        outcomes = longest_accepted(network, (quoted, quoted + 1))
        r.measure(f"{model}: learned position tables (rows)", rows)
        r.measure(f"{model}: a sequence of n tokens", outcomes)
        if set(rows.values()) != {quoted}:
            r.counterexample(f"{model}'s position table has {rows} rows, not {quoted}", rows=rows)
        if outcomes[quoted] != "ok" or outcomes[quoted + 1] == "ok":
            r.counterexample(f"{model} does not stop at {quoted} positions", outcomes=outcomes)
