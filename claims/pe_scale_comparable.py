"""PE added to a word embedding does not swamp it: true only when the embedding's entries are of order one."""

import math

import numpy as np
import sympy as sp
import torch

from checks import Claim, Erratum, given
from checks.figures import lines
from checks.formulas import d_model, omega, pairs_sum, pos
from checks.reference import EXACT
from checks.strategies import d_models, vector_batches
from claims.catalog.works import LESSON_000

SECTION = "1. 값이 항상 -1 ~ 1 사이"
FORWARD = "return x + self.pe[:, :x.size(1), :]"
"""The lesson's PositionalEncoding adds PE to x as given: the embedding's scale is the caller's; x is batch-first."""
RANGES = "sin과 cos의 출력 범위: [-1, 1] 단어 임베딩의 값 범위: 보통 [-1, 1] 근처"
"""Two lines of the lesson run into one (a line break lost); the second is the premise the caveat corrects."""
TYPICAL = "단어 임베딩 벡터의 값은 보통 -1 ~ 1 범위"
"""The same premise said earlier, against integer indices: true there (small initialisations lie well inside ±1, and
10000 swamps them still), so it is named with the row and not rewritten."""

claim = Claim(
    id="pe.scale-comparable",
    title="Position and word vectors have comparable scales only if embedding entries are of order one",
    statement=(
        "‖PE(pos)‖ = √(d_model/2) at every position, so ‖PE‖/‖E‖ = 1/(√2·RMS(E)): an embedding with entries "
        "in [−1, 1] never outweighs PE (ratio ≥ 1/√2), and PE does not swamp the word only when the word's "
        "entries are of order one (uniform [−1, 1]: 1.22; N(0, 1): 0.71); small-init embeddings are swamped."
    ),
    sources=[
        LESSON_000.quote(SECTION, RANGES),
        LESSON_000.quote("시도 1: 정수 인덱스 사용", TYPICAL),
        LESSON_000.quote("PyTorch로 보는 Positional Encoding (참고용)", FORWARD),
        LESSON_000.quote(
            SECTION, "→ 위치 정보와 단어 의미 정보의 스케일이 비슷 → 단순히 더해도(+) 한쪽이 다른 쪽을 압도하지 않음"
        ),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "PE's length is √(d_model/2) whatever the word, so the scales match only if the embedding's entries are "
            "of order one; the small initialisations models use (N(0, 0.02²) in BERT and GPT-2) are swamped at "
            "d_model = 512 (the finding gives the ratios); the original Transformer multiplies the embeddings by "
            "√d_model before adding PE."
        ),
        reader_problem=(
            "PE의 길이는 단어와 상관없이 √(d_model/2)이므로, 임베딩 값이 1 정도의 크기일 때만 두 크기가 "
            "비슷합니다. 실제 모델이 쓰는 작은 초기값(BERT와 GPT-2의 N(0, 0.02²))이면 d_model = 512에서 PE가 "
            "임베딩을 압도합니다(비율은 발견 사항에 있습니다). 원래 Transformer는 PE를 더하기 전에 임베딩에 "
            "√d_model을 곱합니다."
        ),
        wording=(
            "→ 임베딩 원소가 ±1 정도 크기라면 두 스케일이 비슷해, 단순히 더해도(+) 한쪽이 압도하지 않음. 임베딩을 "
            "작게 초기화하면(표준편차 0.02 등) PE 쪽이 훨씬 큼. (원논문은 임베딩에 √d_model을 곱한 뒤 PE를 더함)"
        ),
        sentence="→ 위치 정보와 단어 의미 정보의 스케일이 비슷 → 단순히 더해도(+) 한쪽이 다른 쪽을 압도하지 않음",
        also={
            TYPICAL: "",
            FORWARD: (
                "return x + self.pe[:, :x.size(1), :]  # x: (batch, seq_len, d_model); "
                "원논문은 임베딩에 √d_model을 곱한 값을 x로 넣음"
            ),
            RANGES: (
                "sin과 cos의 출력 범위: [-1, 1]\n"
                "단어 임베딩의 값 범위: 초기화에 따라 다름 (예: N(0, 1)로 초기화하면 ±1 안팎)"
            ),
        },
    ),
    expect="qualified",
)

WIDTH = 16
"""Largest d_model the check draws (the bound ‖E‖ ≤ √2‖PE‖ has the same form for every even d)."""
WORDS = 256
D_MODELS = (16, 32, 64, 128, 256, 512, 1024)
SWAMPED = 3.0
"""A norm ratio beyond which one side dominates the sum (cos(E + PE, E) below about 0.32)."""


@claim.proof
def _(p):
    p.decide(
        pairs_sum(sp.sin(omega() * pos) ** 2 + sp.cos(omega() * pos) ** 2), d_model / 2, label="‖PE(pos)‖² = d_model/2"
    )
    x, theta = sp.Symbol("x", real=True), sp.Symbol("theta", real=True)
    p.decide(
        sp.sin(theta) ** 2, 1, label="an entry in [−1, 1] is sin θ for some θ: its square ≤ 1, so σ² ≤ 1", relation="<="
    )
    p.step(
        "E[x²] for x ~ U[−1, 1] (sympy.integrate)",
        sp.Eq(sp.Integral(x**2 / 2, (x, -1, 1)), sp.integrate(x**2 / 2, (x, -1, 1))),
    )
    sigma = sp.Symbol("sigma", positive=True)
    p.decide(
        (d_model / 2) / (d_model * sigma**2),
        1 / (2 * sigma**2),
        label="‖PE‖²/E‖E‖² = 1/(2σ²) for entries of mean square σ²",
    )
    scales = {
        "U[−1, 1]": sp.Rational(1, 3),
        "N(0, 1)": sp.Integer(1),
        "N(0, 1/d_model)": 1 / d_model,
        "N(0, 0.02²)": sp.Rational(1, 2500),
    }
    p.step(
        "‖PE‖/‖E‖ ≈ 1/√(2σ²) for U[−1, 1], N(0, 1), N(0, 1/d_model), N(0, 0.02²)",
        sp.Tuple(*(sp.sqrt(1 / (2 * s)) for s in scales.values())),
    )
    p.step("the integer index p·1 against the same word: ‖p·1‖/‖E‖ = p√d/(σ√d)", sp.Symbol("p") / sigma)


def norms(t, rows) -> np.ndarray:
    """‖row‖ of each row, computed in the dtype."""
    return t.xp.to_float64(t.xp.sqrt(t.xp.sum(rows * rows, axis=-1)))


@claim.check(batched=True)
@given(words=vector_batches(WIDTH), d=d_models(even=True, high=WIDTH))
def word_never_outweighs_position(t, words, d):
    """An embedding with entries in [−1, 1] has ‖E‖ ≤ √d = √2·‖PE(pos)‖ (norms computed in the dtype): rows E,
    each with a position."""
    e, pos = np.asarray(words[0])[:, :d], words[1]
    excess = norms(t, t.xp.array(e)) - math.sqrt(2) * norms(t, t.impl.sinusoidal(pos, d))
    t.close(np.maximum(excess, 0.0), np.zeros_like(excess), scale=math.sqrt(d), label="‖E‖ − √2‖PE‖ above 0")


def embeddings(d: int) -> dict[str, np.ndarray]:
    """WORDS word vectors per usual initialisation (seeded)."""
    rng = np.random.default_rng(d)
    torch.manual_seed(d)
    default = torch.nn.Embedding(WORDS, d).weight.detach().double().numpy()
    return {
        "uniform [−1, 1]": rng.uniform(-1.0, 1.0, (WORDS, d)),
        "nn.Embedding default N(0, 1)": default,
        "N(0, 1/d_model)": rng.normal(0.0, 1 / math.sqrt(d), (WORDS, d)),
        "N(0, 0.02²) (BERT, GPT-2)": rng.normal(0.0, 0.02, (WORDS, d)),
    }


def cosine_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sum(x * y, axis=1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1))


def norm_ratios(d: int):
    """(initialisation, median ‖PE‖/‖E‖, mean cos(E + PE, E)) of WORDS words at positions 0 … WORDS − 1."""
    pe = EXACT.sinusoidal(np.arange(WORDS), d)
    for name, words in embeddings(d).items():
        ratio = float(np.median(np.linalg.norm(pe, axis=1) / np.linalg.norm(words, axis=1)))
        yield name, ratio, float(np.mean(cosine_rows(words + pe, words)))


def integer_index(words: np.ndarray) -> dict[int, dict[str, float]]:
    """The integer index p·1 added to the words instead of PE (d_model = 512): its norm ratio and cosine."""
    return {
        p: {
            "median ‖p·1‖/‖E‖": round(float(np.median(p * math.sqrt(512) / np.linalg.norm(words, axis=1))), 1),
            "mean cos(E + p·1, E)": round(float(np.mean(cosine_rows(words + p, words))), 4),
        }
        for p in (10, 100, 10_000)
    }


@claim.probe
def ratios(r):
    """‖PE‖/‖E‖ and how much of the word's direction survives E + PE, per initialisation and d_model."""
    rows = [(name, d, ratio, kept) for d in D_MODELS for name, ratio, kept in norm_ratios(d)]
    table = {}
    for name, d, ratio, kept in rows:
        table.setdefault(name, {})[d] = {"median ‖PE‖/‖E‖": round(ratio, 4), "mean cos(E + PE, E)": round(kept, 4)}
    r.measure("per initialisation and d_model (256 words at positions 0–255)", table)
    words = embeddings(512)["uniform [−1, 1]"]
    r.measure("integer index p·1 beside uniform [−1, 1] words, d_model = 512", integer_index(words))
    r.figure(
        lines(
            "pe-to-word-norm",
            "‖PE‖/‖E‖ by embedding initialisation",
            "Median norm ratio of PE to the word embedding against d_model: flat near 1.2 for uniform [−1, 1] and 0.71 "
            "for nn.Embedding's N(0, 1), growing as √(d_model/2) for N(0, 1/d_model), flat near 35 for N(0, 0.02²).",
            {name: (D_MODELS, [ratio for at, _, ratio, _ in rows if at == name]) for name in table},
            x_label="d_model",
            y_label="‖PE‖/‖E‖",
        )
    )
    swamped = {name: by_d[512] for name, by_d in table.items() if by_d[512]["median ‖PE‖/‖E‖"] > SWAMPED}
    if swamped:
        r.condition(
            "PE's norm is √(d_model/2) whatever the word, so 'scales are similar' needs embedding entries of "
            "order one (uniform [−1, 1]: ‖PE‖/‖E‖ ≈ 1.22, N(0, 1): 0.71). Common small initialisations are "
            "swamped at d_model = 512: "
            + "; ".join(
                f"{name}: ratio {v['median ‖PE‖/‖E‖']}, cos(E + PE, E) {v['mean cos(E + PE, E)']}"
                for name, v in swamped.items()
            )
            + " (the original Transformer multiplies embeddings by √d_model before adding PE).",
            d_model=512,
            **{name: v["median ‖PE‖/‖E‖"] for name, v in swamped.items()},
        )
