"""PE(pos, 2i) = sin(pos ω_i), PE(pos, 2i+1) = cos(pos ω_i) with ω_i = 1/10000^(2i/d_model): formula and code agree."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import sympy as sp

from checks import FLOAT32, FLOAT64, Claim, Erratum, given
from checks.figures import heatmap
from checks.formulas import BASE, d_model, i, omega, pair, pos
from checks.reference import frequency_values, tolerance
from checks.strategies import d_models, position_batches
from claims.catalog.lesson_code import numpy_encoding, torch_module_cases
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

SECTION_001, SECTION_002 = "2. Sinusoidal Positional Encoding", "2. 사인·코사인 위치 인코딩"
claim = Claim(
    id="pe.formula",
    title="The formula, the numpy loop and the PyTorch class agree only for an even d_model within max_len",
    statement=(
        "Column 2i of PE holds sin(pos ω_i) and column 2i+1 holds cos(pos ω_i), one ω_i = 1/10000^(2i/d_model) per "
        "pair; document 000's numpy loop and PyTorch class compute this same matrix (even d_model, positions "
        "within the class's max_len)."
    ),
    sources=[
        LESSON_000.quote(
            "수학적 공식",
            "$\\text{PE}(\\text{pos}, 2i) = \\sin\\left(\\frac{\\text{pos}}{10000^{2i/d_{\\text{model}}}}\\right)$",
        ),
        LESSON_000.quote(
            "수학적 공식",
            "$\\text{PE}(\\text{pos}, 2i+1) = \\cos\\left(\\frac{\\text{pos}}{10000^{2i/d_{\\text{model}}}}\\right)$",
        ),
        LESSON_001.quote(SECTION_001, "P E (p o s, 2 i) = s i n (p o s / 10000^{(} 2 i / d))"),
        LESSON_001.quote(SECTION_001, "P E (p o s, 2 i + 1) = c o s (p o s / 10000^{(} 2 i / d))"),
        LESSON_002.quote(
            SECTION_002,
            "같은 i를 쓰는 두 차원 (2i, 2i+1)이 한 쌍이며, 이 쌍은 같은 주파수 "
            "$\\omega_i = 1/10000^{2i/d_{model}}$를 공유합니다.",
        ),
        LESSON_002.quote(
            SECTION_002,
            "$$PE_{(pos,\\,2i)} = \\sin\\!\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right),\\qquad "
            "PE_{(pos,\\,2i+1)} = \\cos\\!\\left(\\frac{pos}{10000^{2i/d_{model}}}\\right)$$ 짝수 차원에는 sin, "
            "바로 옆 홀수 차원에는 cos.",
        ),
        LESSON_002.quote(
            SECTION_002, "식을 주파수로 다시 쓰면 각 쌍은 그냥 $(\\sin\\omega_i\\,pos,\\ \\cos\\omega_i\\,pos)$입니다."
        ),
        LESSON_002.quote(SECTION_002, "데모 2 · 위치 인코딩 히트맵"),
        LESSON_001.quote("코드-수식 연결", "sin(pos/...)\t`torch.sin()`\tsin positional encoding"),
        LESSON_001.quote("코드-수식 연결", "cos(pos/...)\t`torch.cos()`\tcos positional encoding"),
        LESSON_000.quote("Sinusoidal Positional Encoding", "• •짝수 차원(0, 2, 4, ...): sin 사용"),
        LESSON_000.quote("Sinusoidal Positional Encoding", "• •홀수 차원(1, 3, 5, ...): cos 사용"),
        LESSON_000.quote("핵심 요약", "$PE(pos, 2i) = sin(pos / 10000^{2i/d_{model}})$"),
        LESSON_000.quote("핵심 요약", "$PE(pos, 2i+1) = cos(pos / 10000^{2i/d_{model}})$"),
    ],
    erratum=Erratum(
        severity="implementation",
        problem=(
            "The document's numpy loop and PyTorch class compute the formula only for an even d_model and, for the "
            "class, up to max_len positions: at an odd d_model the loop drops the last cos and the class raises, "
            "and the class raises on an input longer than max_len (the findings name the sizes)."
        ),
    ),
    expect="qualified",
)

EVEN, ODD = 64, 63
ROWS, SHORT = 60, 50
"""Demo 2's 60 positions × d_model 64; document 000's script uses max_len 50."""
CASES = ((EVEN, ROWS, ROWS), (ODD, ROWS, ROWS), (EVEN, SHORT, ROWS))
"""(d_model, max_len, seq_len) for the PyTorch class: even, odd, and a sequence longer than max_len."""


@claim.proof
def _(p):
    divided = pos / BASE ** (2 * i / d_model)
    p.decide(pair(divided), pair(omega() * pos), label="(PE(pos, 2i), PE(pos, 2i+1)) = (sin ω_i pos, cos ω_i pos)")
    column = sp.Symbol("c", integer=True, nonnegative=True)
    loop = 1 / BASE ** (column / d_model)
    p.decide(loop.subs(column, 2 * i), omega(), label="numpy loop: freq = 1/10000^(c/d) at the even column c = 2i")
    div_term = sp.exp(2 * i * (-sp.log(BASE) / d_model))
    same = div_term == omega().rewrite(sp.exp)
    p.step(f"PyTorch div_term = exp(2i · (−ln 10000 / d)) is ω_i written with exp: {same}", sp.Eq(div_term, omega()))
    p.fact("PyTorch div_term is ω_i (sympy: ω_i.rewrite(exp) is the same expression)", same)


def formula_table(rows: int | list[int], d: int) -> np.ndarray:
    """The formula column by column in float64: 2i → sin(pos/10000^(2i/d)), 2i+1 → cos(pos/10000^(2i/d)).

    ``rows``: a number of positions from 0, or a list of positions.
    """
    position = np.arange(rows, dtype=np.float64) if isinstance(rows, int) else np.asarray(rows, dtype=np.float64)
    table = np.zeros((position.size, d))
    for column in range(d):
        pair_start = column - column % 2
        angle = position / 10000 ** (pair_start / d)
        table[:, column] = np.sin(angle) if column % 2 == 0 else np.cos(angle)
    return table


@claim.check(uses="sinusoidal", batched=True)
@given(pos=position_batches(), d=d_models(even=None, high=128))
def implementation_is_formula(t, pos, d):
    """Each implementation's sinusoidal rows, in the dtype, match the formula written column by column, at every
    d_model from 1 (an odd one's last column a lone sine, as document 000's code writes it)."""
    t.close_pe(t.impl.sinusoidal(pos, d), formula_table(pos, d), pos, label="PE(pos)")


def worst(actual: np.ndarray, expected: np.ndarray, dtype: str) -> dict[str, float]:
    """Largest difference beside the tolerance at the largest angle (the last position, ω_0 = 1)."""
    error = float(np.max(np.abs(actual - expected)))
    return {"max |difference|": error, "tolerance": tolerance(dtype).at(expected.shape[0] - 1)}


@claim.probe
def document_code(r):
    """Document 000's numpy loop and PyTorch class, run as written, for even and odd d_model and past max_len."""
    with ThreadPoolExecutor() as pool:  # three subprocesses at once: the wait is mostly importing torch
        pending = pool.submit(torch_module_cases, CASES)
        loop_even, loop_odd = pool.map(numpy_encoding, (SHORT, SHORT), (EVEN, ODD))
        torch_runs = pending.result()
    module = torch_runs[CASES[0]]
    even_d_model(r, loop_even, module)
    odd_d_model(r, loop_odd, torch_runs[CASES[1]])
    short = torch_runs[CASES[2]]
    r.measure("PyTorch class, max_len = 50, forward on 60 positions", short.error)
    if short.error:
        found = {"d_model": EVEN, "max_len": SHORT, "seq_len": ROWS, "torch_error": short.error}
        r.condition(
            "the PyTorch class encodes at most max_len positions (default 5000): forward on 60 positions with "
            f"max_len = 50 raises {short.error}; the formula and the numpy loop take any position",
            **found,
        )
    r.figure(
        heatmap(
            "pe-heatmap",
            "PE computed by document 000's PyTorch class: 60 positions × d_model 64",
            "Rows are positions 0–59, columns dimensions 0–63, values from −1 to 1: the left columns alternate quickly "
            "between +1 and −1 down the rows, the right columns change slowly (odd columns stay near 1).",
            np.round(module.pe[0].astype(np.float64), 4),
            x_label="dimension",
            y_label="position",
        )
    )


def even_d_model(r, loop_even, module):
    """d_model = 64: the loop, the class's pe and its forward against the formula; each pair of pe is one hand."""
    agreement = {
        "numpy loop (50 × 64) vs formula": worst(loop_even, formula_table(SHORT, EVEN), FLOAT64),
        "PyTorch class pe (60 × 64, float32) vs formula": worst(module.pe[0], formula_table(ROWS, EVEN), FLOAT32),
        "PyTorch forward on zeros vs its pe": worst(module.forward[0], module.pe[0], FLOAT32),
    }
    r.measure("even d_model = 64: largest differences", agreement)
    for name, found in agreement.items():
        if found["max |difference|"] > found["tolerance"]:
            r.counterexample(f"{name}: the document's code and the formula differ", **found)
    pe = module.pe[0]
    angles = np.arange(ROWS)[:, None] * frequency_values(EVEN)[None, :]
    sines, cosines = pe[:, 0::2].astype(np.float64), pe[:, 1::2].astype(np.float64)
    turned = np.angle(np.exp(1j * (np.arctan2(sines, cosines) - angles)))
    r.measure(
        "PyTorch pe: each pair (2i, 2i+1) is one hand at pos·ω_i",
        {
            "max |sin² + cos² − 1|": np.max(np.abs(sines**2 + cosines**2 - 1)),
            "max angle residual": np.max(np.abs(turned)),
        },
    )


def odd_d_model(r, loop_odd, odd_torch):
    """d_model = 63: the numpy loop drops the last cos, the PyTorch class raises."""
    lone_sin = np.sin(np.arange(SHORT) * frequency_values(ODD)[-1])
    r.measure(
        "odd d_model = 63",
        {
            "numpy loop shape": list(loop_odd.shape),
            "numpy loop vs formula (31 pairs and a last lone sin)": worst(loop_odd, formula_table(SHORT, ODD), FLOAT64),
            "numpy loop: last column minus sin(pos ω_31)": np.max(np.abs(loop_odd[:, -1] - lone_sin)),
            "PyTorch class": odd_torch.error,
        },
    )
    if odd_torch.error or loop_odd.shape[1] % 2:
        found = {"d_model": ODD, "numpy_shape": list(loop_odd.shape), "torch_error": odd_torch.error}
        r.condition(
            "d_model must be even: with d_model = 63 the numpy loop silently drops the last cos (column 62 is a "
            f"lone sin(pos ω_31)) while the PyTorch class raises {odd_torch.error}",
            **found,
        )
