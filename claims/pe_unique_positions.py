"""Distinct integer positions have distinct PE vectors (in exact arithmetic; low precision merges some)."""

import math

import numpy as np
import sympy as sp

from checks import FLOATS, LOW_PRECISION, Claim, Erratum, given
from checks.reference import frequency_values, table_in, table_rounded
from checks.strategies import d_models, position_pair_batches
from claims.catalog.works import LESSON_000, LESSON_001, LESSON_002

claim = Claim(
    id="pe.unique-positions",
    title="Every position gets its own vector, except when formed in bfloat16 or float16",
    statement=(
        "For integers p ≠ q, PE(p) ≠ PE(q): already the first pair (ω_0 = 1) differs, since "
        "‖(sin p, cos p) − (sin q, cos q)‖² = 2 − 2cos(p − q) vanishes only when p − q ∈ 2πℤ, impossible for a "
        "nonzero integer because π is irrational. ‖PE(p) − PE(q)‖² = Σ_i (2 − 2cos(ω_i (p − q)))."
    ),
    sources=[
        LESSON_000.quote("직관적 이해: 이진수와의 유사성", "이 조합으로 각 위치가 고유한 패턴을 가짐!"),
        LESSON_000.quote(
            "핵심 아이디어",
            "사인(sin)과 코사인(cos) 함수를 서로 다른 주파수로 사용하여, 각 위치를 고유한 벡터로 표현합니다.",
        ),
        LESSON_001.quote("2. Sinusoidal Positional Encoding", "각 위치가 고유한 벡터를 갖도록 합니다."),
        LESSON_002.quote("7. 시계가 여러 개인 이유", "여러 속도의 시계를 함께 보면 위치가 하나로 정해집니다."),
        LESSON_002.quote(
            "7. 시계가 여러 개인 이유", "초침·분침·시침을 함께 봐야 정확한 시각을 알 수 있는 것과 같습니다."
        ),
        LESSON_001.quote("3. 위치 정보 직관", "각 위치에 고유한 encoding 벡터가 추가됩니다."),
        LESSON_000.quote(
            "직관적 이해: 이진수와의 유사성", "각 위치는 이 모든 주파수의 값을 조합한 고유한 벡터를 가집니다."
        ),
        LESSON_000.quote("직관적 이해: 이진수와의 유사성", '마치 각 위치에 고유한 "지문"을 부여하는 것과 같습니다!'),
        LESSON_000.quote("핵심 메시지", 'Positional Encoding은 각 단어에 고유한 "줄 번호 도장"을 찍어주는 것입니다.'),
    ],
    erratum=Erratum(
        severity="precision",
        problem=(
            "Unique in exact arithmetic and in float32/float64; with positions and angles computed in bfloat16 or "
            "float16, neighbouring positions get identical vectors (the finding names the first pair in each "
            "dtype)."
        ),
    ),
    expect="qualified",
)

N = 2050
"""Positions 0 … 2049: 2049 is the first integer float16 cannot hold (bfloat16: 257)."""
D_MODELS = (64, 512)


@claim.proof
def _(p):
    a, b = sp.symbols("p q", real=True)
    difference = (sp.sin(a) - sp.sin(b)) ** 2 + (sp.cos(a) - sp.cos(b)) ** 2
    p.decide(difference, 2 - 2 * sp.cos(a - b), label="first pair (ω_0 = 1): ‖hand(p) − hand(q)‖² = 2 − 2cos(p − q)")
    w = sp.Symbol("omega", positive=True)
    pair_gap = (sp.sin(w * a) - sp.sin(w * b)) ** 2 + (sp.cos(w * a) - sp.cos(w * b)) ** 2
    p.decide(pair_gap, 2 - 2 * sp.cos(w * (a - b)), label="every pair: 2 − 2cos(ω_i (p − q)), a function of p − q")
    p.step("2 − 2cos(p − q) = 0 ⇔ p − q ∈ 2πℤ; for integers p ≠ q that needs π = (p − q)/(2n), rational", sp.pi)
    p.fact("π is irrational (sympy: pi.is_irrational)", sp.pi.is_irrational is True)
    p.unchecked("hence PE(p) ≠ PE(q) for integers p ≠ q (argued from the two facts above, not decided)", sp.Ne(a, b))


def exact_distances(d: int, offsets: np.ndarray) -> np.ndarray:
    """‖PE(p) − PE(p + Δ)‖ in float64 for each offset Δ (it depends on Δ only)."""
    angles = offsets[:, None] * frequency_values(d)[None, :]
    return np.sqrt(np.sum(4 * np.sin(angles / 2) ** 2, axis=1))


@claim.check(batched=True)
@given(pq=position_pair_batches(), d=d_models(even=True, high=128))
def distance_matches_offset_formula(t, pq, d):
    """‖PE(p) − PE(q)‖ in the dtype matches √Σ(2 − 2cos ω_i(p − q)) > 0 (q = p + 1 where the two were drawn equal)."""
    p, q = pq.T
    q = np.where(q == p, p + 1, q)
    expected = exact_distances(d, (q - p).astype(np.float64))
    row = int(np.argmin(expected))
    assert expected[row] > 0, f"PE({p[row]}) = PE({q[row]}) for d_model {d} in exact arithmetic"
    distance = np.linalg.norm(
        t.xp.to_float64(t.impl.sinusoidal(p, d)) - t.xp.to_float64(t.impl.sinusoidal(q, d)), axis=1
    )
    t.close(distance, expected, scale=math.sqrt(d) * np.maximum(p, q), bound=math.sqrt(2 * d), label="‖PE(p) − PE(q)‖")


def identical_rows(table: np.ndarray) -> np.ndarray:
    """For each row, the index of the first row exactly equal to it."""
    keys = np.ascontiguousarray(table).view(np.dtype((np.void, table.shape[1] * table.itemsize))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first[inverse]


def first_collision(owners: np.ndarray) -> tuple[int, int] | None:
    """The first row equal to an earlier row, as (earlier, later), or None."""
    later = np.flatnonzero(owners != np.arange(owners.size))
    return (int(owners[later[0]]), int(later[0])) if later.size else None


def closest_distinct(table: np.ndarray, owners: np.ndarray) -> dict[str, object]:
    """The two positions with the smallest nonzero distance between their rows."""
    squares = np.einsum("ij,ij->i", table, table)
    gram = table @ table.T
    gram *= -2
    gram += squares[:, None]
    gram += squares[None, :]
    gram[owners[:, None] == owners[None, :]] = np.inf
    p, q = np.unravel_index(np.argmin(gram), gram.shape)
    return {"distance": float(np.linalg.norm(table[p] - table[q])), "positions": sorted((int(p), int(q)))}


@claim.probe
def closest_and_colliding(r):
    """Smallest distance between positions < 2050 and the first identical pair, per dtype and rounding."""
    offsets = np.arange(1.0, N)
    exact = {}
    for d in D_MODELS:
        distances = exact_distances(d, offsets)
        exact[d] = {"smallest distance": float(distances.min()), "at offset Δ": int(offsets[np.argmin(distances)])}
    r.measure("exact (float64 formula): smallest ‖PE(p) − PE(q)‖ over 0 ≤ p < q < 2050", exact)
    grid, d = np.arange(N), D_MODELS[0]
    tables = {f"{dtype}, computed in the dtype": table_in(dtype, grid, d) for dtype in FLOATS[1:]}
    owners = {key: identical_rows(table) for key, table in tables.items()}
    closest = {key: closest_distinct(table, owners[key]) for key, table in tables.items()}
    r.measure(f"d_model = {d}: closest distinct vectors among positions < 2050 (float64: see the formula)", closest)
    for dtype in LOW_PRECISION:
        owners[f"{dtype}, float64 table rounded to the dtype"] = identical_rows(table_rounded(dtype, grid, d))
    collisions = {key: first_collision(found) for key, found in owners.items()}
    r.measure(f"d_model = {d}: first pair of positions < 2050 with identical vectors", collisions)
    merged = {key: pair for key, pair in collisions.items() if pair is not None}
    if merged:
        r.condition(
            "unique only in exact arithmetic (and float32/float64 here): with positions and angles formed in low "
            "precision, distinct positions share a vector once the position itself is no longer representable — "
            + "; ".join(f"{key}: PE({a}) = PE({b})" for key, (a, b) in merged.items())
            + " (d_model = 64; a float64 table rounded to the dtype at the end keeps positions < 2050 distinct)",
            **{key: list(pair) for key, pair in merged.items()},
        )
