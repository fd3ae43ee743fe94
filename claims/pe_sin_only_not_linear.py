"""With sin alone, sin(ω(pos + k)) is not a function of sin(ω pos); with its cos partner, M_k maps it exactly."""

import math

import numpy as np
import sympy as sp

from checks import Claim, Erratum, given
from checks.figures import scatter
from checks.reference import frequency_values
from checks.strategies import position_offset_batches, with_frequencies
from claims.catalog.works import LESSON_002

SECTION = "5. k칸 이동 = 회전 행렬"
DEMO_K = 3
DEMO_OMEGA = float(frequency_values(16)[1])
"""Demo 5b shows no ω; demo 5a beside it uses pair i = 1 of d_model = 16: ω_1 = 10000^(−2/16) ≈ 0.316."""
DEMO_POSITIONS = np.arange(100)
claim = Claim(
    id="pe.sin-only-not-linear",
    title="From sin alone the k-step shift cannot be computed; with (sin, cos) it is one matrix",
    statement=(
        "sin(ω(pos + k)) = cos(ωk) sin(ω pos) + sin(ωk) cos(ω pos) needs cos(ω pos): positions pos and π/ω − pos "
        "share sin(ω pos) but their shifted sines differ by 2 sin(ωk) cos(ω pos), so no function (and no line) of "
        "sin(ω pos) gives sin(ω(pos + k)); the points (sin ω pos, sin ω(pos + k)) lie on an ellipse. "
        "(sin, cos) with M_k gives it exactly."
    ),
    sources=[
        LESSON_002.quote(
            SECTION,
            "sin만 있다면 어떨까요? $\\sin(\\omega(pos+k))$를 만들려면 $\\cos(\\omega\\,pos)$가 필요한데, 그 값이 "
            "벡터에 없습니다.",
        ),
        LESSON_002.quote(
            SECTION,
            "점들이 직선이 아니라 타원을 그립니다. 같은 가로 값에 세로 값이 두 개 있으니 어떤 함수로도, 하물며 "
            "선형 함수로도 만들 수 없습니다.",
        ),
        LESSON_002.quote("5. k칸 이동 = 회전 행렬", "데모 5b · sin만으로 k칸 뒤를 예측할 수 있나"),
    ],
    erratum=Erratum(
        severity="condition",
        problem=(
            "At ωk = mπ the ellipse flattens into a line (sin(ω(pos + k)) = ±sin(ω·pos)); a PE frequency never hits "
            "one exactly, but near one the best sine-only line misses by only {line_error:.3f} (ω = {omega:.3f}, "
            "k = {k}, the largest miss over pos = 0…99), against {line_error_demo_k:.2f} at the demo's k: the "
            "text's 'cannot be made' reads as 'never close'."
        ),
        reader_problem=(
            "ωk가 π의 정수배(mπ, m은 정수)이면 타원이 직선으로 눌립니다(sin(ω(pos + k)) = ±sin(ω·pos)). PE의 "
            "주파수가 정확히 그 값이 되지는 않지만, 그 근처에서는 sin만으로 만든 가장 좋은 선형 변환도 "
            "{line_error:.3f}밖에 벗어나지 않습니다(ω = {omega:.3f}, k = {k}, pos = 0…99에서 최대 오차). 데모의 "
            "k에서는 {line_error_demo_k:.2f}입니다. 본문의 '만들 수 없다'는 '결코 가까워지지 않는다'로 읽힙니다."
        ),
        wording=(
            "점들이 직선이 아니라 타원을 그립니다. pos를 실수로 보면 같은 가로 값에 세로 값이 두 개이니 어떤 "
            "함수로도, 하물며 선형 함수로도 만들 수 없습니다. ω·k가 π의 정수배에 가까운 k에서는 타원이 거의 선분으로 "
            "눌려 직선 오차가 작아지지만 0이 되지는 않습니다. 반면 (sin, cos) 쌍과 M_k는 어떤 k에서도 정확합니다."
        ),
        sentence=(
            "점들이 직선이 아니라 타원을 그립니다. 같은 가로 값에 세로 값이 두 개 있으니 어떤 함수로도, 하물며 선형 "
            "함수로도 만들 수 없습니다."
        ),
    ),
    expect="qualified",
)


@claim.proof
def _(p):
    w = sp.Symbol("omega", positive=True)
    pos, k = p.reals("pos k")
    p.decide(
        sp.sin(w * (pos + k)),
        sp.cos(w * k) * sp.sin(w * pos) + sp.sin(w * k) * sp.cos(w * pos),
        label="sin(ω(pos+k)) needs cos(ω pos)",
    )
    mirror = sp.pi / w - pos
    p.step("mirror position pos′", mirror)
    p.decide(sp.sin(sp.expand(w * mirror)), sp.sin(w * pos), label="sin(ω pos′) = sin(ω pos)")
    p.decide(
        sp.sin(sp.expand(w * (mirror + k))) - sp.sin(w * (pos + k)),
        -2 * sp.sin(w * k) * sp.cos(w * pos),
        label="yet sin(ω(pos′+k)) − sin(ω(pos+k)) = −2 sin(ωk) cos(ω pos)",
    )
    x, y, phase = sp.sin(w * pos), sp.sin(w * pos + w * k), w * k
    p.decide(
        x**2 - 2 * x * y * sp.cos(phase) + y**2,
        sp.sin(phase) ** 2,
        label="the points lie on the ellipse x² − 2xy cos(ωk) + y² = sin²(ωk)",
    )


@claim.check(batched=True)
@given(at=with_frequencies(position_offset_batches()))
def mirror_shares_sin_not_shift(t, at):
    (pos, k), w = np.asarray(at[0], dtype=np.float64).T, np.asarray(at[1])
    mirror = math.pi / w - pos
    angles = t.xp.array(np.stack([pos, mirror, pos + k, mirror + k], axis=1)) * t.xp.array(w[:, None])
    s = t.xp.sin(angles)
    largest = w * np.maximum(np.abs(pos), np.abs(mirror))
    t.close_angle(s[:, 0:2], np.repeat(np.sin(w * pos)[:, None], 2, axis=1), largest, label="sin(ω pos), sin(ω pos′)")
    t.close_angle(
        s[:, 3] - s[:, 2],
        -2 * np.sin(w * k) * np.cos(w * pos),
        w * (pos + k),
        w * (mirror + k),
        bound=4.0,
        label="sin(ω(pos′+k)) − sin(ω(pos+k))",
    )


def best_line_error(w: float, k: int, pos: np.ndarray) -> tuple[float, np.ndarray]:
    """Max error of the least-squares line y ≈ a·sin(ω pos) + b for y = sin(ω(pos + k)); and (a, b)."""
    x, y = np.sin(w * pos), np.sin(w * (pos + k))
    design = np.stack([x, np.ones_like(x)], axis=1)
    coefficients, *_ = np.linalg.lstsq(design, y, rcond=None)
    return float(np.max(np.abs(design @ coefficients - y))), coefficients


def predicted_shift_errors(w: float, k: int, pos: np.ndarray) -> dict[str, float]:
    """Max error of sin(ω(pos + k)) predicted from (sin, cos)(ω pos) with M_k, computed in float64 and float32."""
    shifted = {}
    for dtype in (np.float64, np.float32):
        angle, step = dtype(w) * pos.astype(dtype), dtype(w) * dtype(k)
        predicted = np.cos(step) * np.sin(angle) + np.sin(step) * np.cos(angle)
        shifted[np.dtype(dtype).name] = float(np.max(np.abs(predicted - np.sin(w * (pos + k)))))
    return shifted


def widest_gap(x: np.ndarray, y: np.ndarray) -> dict[str, tuple]:
    """The two positions whose sin(ω pos) differ by < 0.01 with the widest gap in sin(ω(pos + k))."""
    close = np.abs(x[:, None] - x[None, :]) < 0.01
    gaps = np.where(close, np.abs(y[:, None] - y[None, :]), 0.0)
    i, j = np.unravel_index(np.argmax(gaps), gaps.shape)
    return {"positions": (int(i), int(j)), "sin": (float(x[i]), float(x[j])), "shifted": (float(y[i]), float(y[j]))}


@claim.probe
def demo_5b(r):
    """ω = ω_1 of d_model = 16 (≈ 0.316), k = 3, pos = 0 … 99, float64 and float32."""
    w, k, pos = DEMO_OMEGA, DEMO_K, DEMO_POSITIONS
    line_error, (slope, intercept) = best_line_error(w, k, pos)
    r.measure("ω (pair i=1 of d_model=16), k", (w, k))
    r.measure("sin only: best least-squares line (slope, intercept)", (float(slope), float(intercept)))
    r.measure("sin only: max error of the best line", line_error)
    r.measure("(sin, cos) + M_k: max error of the prediction, per dtype", predicted_shift_errors(w, k, pos))
    here, there = 3.0, math.pi / w - 3.0
    r.measure(
        "two positions with the same sin(ω pos): (pos, pos′, sin ω pos, sin ω pos′, sin ω(pos+3), sin ω(pos′+3))",
        tuple(float(v) for v in (here, there, *np.sin(w * np.array([here, there, here + k, there + k])))),
    )
    x, y = np.sin(w * pos), np.sin(w * (pos + k))
    r.measure(
        "integer positions < 100 whose sin(ω pos) differ by < 0.01: widest gap in sin(ω(pos+3))", widest_gap(x, y)
    )
    line_x = np.linspace(-1, 1, 21)
    series = {
        "sin only: (sin ω pos, sin ω(pos+3))": (x, y),
        "best least-squares line": (line_x, slope * line_x + intercept),
        "(sin, cos) + M_k prediction": (x, np.cos(w * k) * x + np.sin(w * k) * np.cos(w * pos)),
    }
    r.figure(
        scatter(
            "sin-only-scatter",
            "sin(ω(pos+3)) against sin(ω pos): an ellipse, not a line",
            f"For ω ≈ {w:.3f}, k = 3 and pos 0…99 the points (sin ω pos, sin ω(pos+3)) trace an ellipse; the best "
            f"least-squares line misses some by {line_error:.2f}, while the (sin, cos) + M_k predictions sit on the "
            "points.",
            series,
            x_label="sin(ω pos)",
            y_label="sin(ω(pos + 3))",
        )
    )


@claim.probe
def degenerate_shifts(r):
    """The ellipse flattens into a line when sin(ωk) = 0: the sweep k = 1 … 30 at the demo's ω, and ω = π/3, k = 3."""
    errors = {k: best_line_error(DEMO_OMEGA, k, DEMO_POSITIONS)[0] for k in range(1, 31)}
    r.measure("ω ≈ 0.316: max error of the best sin-only line for k = 1 … 30", errors)
    k_low = min(errors, key=errors.get)
    exact, _ = best_line_error(math.pi / 3, 3, DEMO_POSITIONS)
    r.measure("ω = π/3, k = 3 (ωk = π): max error of the best line", exact)
    if errors[k_low] < 0.1 * errors[DEMO_K]:
        r.condition(
            "needs sin(ωk) ≠ 0 (ωk not a multiple of π), which the text does not say: then the ellipse "
            "x² − 2xy cos ωk + y² = sin² ωk flattens into the line y = cos(ωk)·x. At the demo's ω ≈ 0.316 the best "
            f"sin-only line misses by {errors[DEMO_K]:.3f} at k = {DEMO_K} but only by {errors[k_low]:.4f} at "
            f"k = {k_low} (ωk ≈ {DEMO_OMEGA * k_low:.4f} ≈ π); at ω = π/3, k = 3 it is exact ({exact:.1e}).",
            omega=DEMO_OMEGA,
            k=k_low,
            line_error=errors[k_low],
            line_error_demo_k=errors[DEMO_K],
            exact_case={"omega": math.pi / 3, "k": 3, "line_error": exact},
        )
