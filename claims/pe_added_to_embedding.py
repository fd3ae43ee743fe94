"""X = E + P entry by entry, which needs P as wide as E; NumPy and PyTorch broadcast size-1 mismatches silently."""

import numpy as np
import torch
from hypothesis import strategies as st

from checks import FLOAT32, Claim, Erratum, given
from checks.reference import EXACT
from checks.strategies import d_models, vector_batches
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

SEQUENCE, WIDTH = 5, 8
claim = Claim(
    id="pe.added-to-embedding",
    title="The positional encoding is added entry by entry and must match the embedding's shape",
    statement=(
        "X = E + P adds PE(pos)[c] to E[pos][c] for every position and dimension, so P must have E's width "
        "d_model; a mismatch raises in NumPy and PyTorch unless one side has size 1, which broadcasts silently."
    ),
    sources=[
        LESSON_001.quote("1. Transformer 입력", "X = E + P"),
        LESSON_001.quote("1. Transformer 입력", "positional encoding은 embedding 차원과 동일해야 합니다."),
        LESSON_000.quote("입력 처리 전체 과정", "4. 최종 입력 = 임베딩 + PE:"),
        LESSON_000.quote("PyTorch로 보는 Positional Encoding (참고용)", "return x + self.pe[:, :x.size(1), :]"),
        LESSON_002.quote(
            "위치 인코딩 — sin과 cos를 함께 쓰는 이유",
            "그래서 Transformer는 위치마다 고유한 사인·코사인 무늬를 임베딩에 더합니다.",
        ),
        LESSON_002.quote("8. 그다음: RoPE", "사인·코사인 위치 인코딩은 위치 벡터를 임베딩에 더합니다."),
        LESSON_001.quote("직관 비유", "두 정보를 합쳐 모델 입력 생성"),
        LESSON_001.quote("1. Transformer 입력", "Transformer 입력은 다음 두 정보를 결합합니다."),
        LESSON_001.quote("3. 위치 정보 직관", "embedding + position"),
        LESSON_001.quote("코드-수식 연결", "X = E + P\t`x = embedding + position`\t위치 정보 결합"),
        LESSON_000.quote(
            "Sinusoidal Encoding의 장점", "final_input = word_embedding + positional_encoding (의미 정보) + (위치 정보)"
        ),
        LESSON_000.quote("입력 처리 전체 과정", '→ 이제 각 토큰이 "의미 + 위치" 정보를 모두 담고 있습니다!'),
        LESSON_000.quote("핵심 요약", "$ext{최종 입력} = ext{Word Embedding} + ext{Positional Encoding}$"),
    ],
    erratum=Erratum(
        severity="notation",
        problem=(
            "The sentence says the encoding must equal the embedding's dimension: what must match is the two "
            "vectors' widths, because they are added entry by entry."
        ),
        reader_problem=(
            "문장 그대로는 positional encoding(벡터)이 embedding 차원(수)과 같아야 한다고 읽힙니다. 같아야 하는 것은 "
            "두 벡터의 차원이고, 그 까닭은 두 벡터를 원소끼리 더하기 때문입니다."
        ),
        wording="positional encoding의 차원은 embedding 차원과 같아야 합니다(두 벡터를 원소끼리 더하므로).",
        sentence="positional encoding은 embedding 차원과 동일해야 합니다.",
    ),
    expect="holds",
)


@claim.check(batched=True)
@given(tokens=vector_batches(32), d=d_models(even=True, high=32))
def sum_is_entrywise(t, tokens, d):
    """Row j of X is E[j] + PE(pos_j), entry by entry, for tokens at any positions (E's entries in [−1, 1])."""
    embedding, at = np.asarray(tokens[0])[:, :d], tokens[1]
    summed = t.xp.array(embedding) + t.impl.sinusoidal(at, d)
    expected = embedding + EXACT.sinusoidal(at, d)
    t.close(summed, expected, scale=at + 1.0, bound=4.0, label="E + P")


@claim.check(dtypes=(FLOAT32,))
@given(n=st.integers(1, 16), d=st.integers(2, 64), step=st.integers(1, 62))
def unequal_widths_raise(t, n, d, step):
    """E (n, d) + P (n, d_pe) with d_pe ≠ d, both ≥ 2, raises (shapes alone decide, so one dtype suffices)."""
    d_pe = 2 + (d - 2 + step) % 63
    embedding, encoding = t.xp.zeros(n, d), t.impl.sinusoidal(np.arange(n), d_pe)
    try:
        summed = embedding + encoding
    except (ValueError, RuntimeError):
        return
    raise AssertionError(f"E {tuple(embedding.shape)} + P {tuple(encoding.shape)} gave {tuple(summed.shape)}")


def _outcome(embedding, encoding, window: int | None) -> str:
    """E + P, or E + P[:, :window, :] as the document's forward does; the shape it gives or the error it raises."""
    try:
        summed = embedding + (encoding if window is None else encoding[:, :window, :])
    except (ValueError, RuntimeError) as error:
        return f"raises {type(error).__name__}"
    return f"gives shape {tuple(summed.shape)}"


def _outcomes(name: str, embedding: np.ndarray, encoding: np.ndarray) -> dict[str, str]:
    """The outcome of one case in NumPy and in torch (the document's forward slices P to the sequence)."""
    window = SEQUENCE if name.startswith("document forward") else None
    torch_case = (torch.from_numpy(embedding), torch.from_numpy(encoding))
    return {"numpy": _outcome(embedding, encoding, window), "torch": _outcome(*torch_case, window)}


@claim.probe
def shape_mismatches(r):
    """n = 5 positions, d_model = 8: which shapes of E and P raise, and which broadcast without a word."""
    pe, n, d = EXACT.sinusoidal(np.arange(WIDTH), WIDTH), SEQUENCE, WIDTH
    cases = {
        "E (n, d) + P (n, d)": (np.zeros((n, d)), pe[:n]),
        "E (n, d) + P (n, d − 2)": (np.zeros((n, d)), pe[:n, : d - 2]),
        "E (n + 1, d) + P (n, d) (sequence longer than P)": (np.zeros((n + 1, d)), pe[:n]),
        "E (n, d) + P (1, d) (one row: every position gets PE(0))": (np.zeros((n, d)), pe[:1]),
        "E (n, d) + P (d,) (1-D: every position gets PE(0))": (np.zeros((n, d)), pe[0]),
        "E (n, d) + P (n, 1) (d_pe = 1: one value spread over all d)": (np.zeros((n, d)), pe[:n, :1]),
        "E (n, 1) + P (n, d) (embedding width 1)": (np.zeros((n, 1)), pe[:n]),
        "E (d, d) + Pᵀ (n = d: positions and dimensions swapped)": (np.zeros((d, d)), pe.T),
        "E (b, n, d) + P (n, d) (a batch)": (np.zeros((2, n, d)), pe[:n]),
        "document forward: x (1, n, 1) + pe[:, :n, :] with pe (1, max_len, d)": (np.zeros((1, n, 1)), pe[None]),
    }
    table = {name: _outcomes(name, e, p) for name, (e, p) in cases.items()}
    r.measure("n = 5, d_model = 8: E + P per shape (numpy, torch)", table)
    matched = ("E (n, d) + P (n, d)", "E (b, n, d) + P (n, d) (a batch)")
    silent = [name for name, row in table.items() if "gives" in row["torch"] and name not in matched]
    r.measure("mismatched shapes that broadcast without an error", silent)
    agree = all(row["numpy"].split()[0] == row["torch"].split()[0] for row in table.values())
    r.measure("numpy and torch agree on every case", agree)
    for name in ("E (n, d) + P (n, d − 2)", "E (n + 1, d) + P (n, d) (sequence longer than P)"):
        if "raises" not in table[name]["torch"] or "raises" not in table[name]["numpy"]:
            r.counterexample(f"{name} did not raise", **table[name])
