"""What attention and recurrent layers cost: FLOP formulas (what torch.utils.flop_counter counts), the counts
torch makes, the operations it dispatches and the depth of their graphs."""

from __future__ import annotations

import functools
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

import sympy as sp

from checks.helpers.attention_layers import rnn_layer, self_attention
from checks.numerics.backends import Backend, TorchBackend
from checks.settings.extras import optional

torch = optional("torch")


# --- FLOP formulas (what torch.utils.flop_counter counts: matrix products) ---------------------

n, d, gates = sp.symbols("n d g", positive=True, integer=True)
"""The symbols of the FLOP formulas: sequence length n, model width d, gate blocks g of a recurrent cell (RNN 1,
GRU 3, LSTM 4); positive integers. The formulas take them as arguments with these as defaults."""


def matmul_flops(rows: sp.Expr, inner: sp.Expr, cols: sp.Expr) -> sp.Expr:
    """(rows × inner) @ (inner × cols): one multiply and one add per term, 2 · rows · inner · cols."""
    return 2 * rows * inner * cols


def attention_products(length: sp.Expr = n, width: sp.Expr = d) -> dict[str, tuple[sp.Expr, sp.Expr, sp.Expr]]:
    """The matrix products of ``self_attention``, by name: (rows, inner, cols)."""
    projection = (length, width, width)
    return {
        "X W_Q": projection,
        "X W_K": projection,
        "X W_V": projection,
        "Q Kᵀ": (length, width, length),
        "A V": (length, length, width),
    }


def attention_flops(length: sp.Expr = n, width: sp.Expr = d) -> sp.Expr:
    """Σ over attention's products: 6 n d² + 4 n² d."""
    return sp.expand(sum(matmul_flops(*shape) for shape in attention_products(length, width).values()))


def rnn_flops(length: sp.Expr = n, width: sp.Expr = d, gate_blocks: sp.Expr = 1) -> sp.Expr:
    """n steps of x_t W_x and h_{t−1} W_h, each (1 × d) @ (d × g d): 4 g n d²."""
    return sp.expand(length * 2 * matmul_flops(1, width, gate_blocks * width))


RECURRENT_CELLS = {"rnn": ("RNN", 1), "gru": ("GRU", 3), "lstm": ("LSTM", 4)}
"""torch's recurrent layers (their names in torch.nn) and their gate blocks g, by cell name (lower case; the functions
taking a name accept either case: ``recurrent_cell``)."""


def recurrent_cell(name: str) -> str:
    """The RECURRENT_CELLS key of ``name`` in either case ("LSTM" → "lstm"); a ValueError naming the known cells for
    any other name."""
    key = name.lower()
    if key not in RECURRENT_CELLS:
        raise ValueError(f"unknown recurrent cell {name!r}: the cells are {', '.join(RECURRENT_CELLS)} (either case)")
    return key


def crossover_formula(width: sp.Expr = d, gate_blocks: sp.Expr = gates) -> sp.Expr:
    """The sequence length n ≠ 0 where attention and a g-gate recurrent layer cost the same, solved by SymPy:
    (2g − 3) d / 2, with ``width`` for d and ``gate_blocks`` for g (by default this module's symbols d and g)."""
    return _crossover().subs({d: width, gates: gate_blocks}, simultaneous=True)


@functools.cache
def _crossover() -> sp.Expr:
    (root,) = sp.solve(sp.Eq(attention_flops(), rnn_flops(n, d, gates)), n)
    return root


def crossover(gate_blocks: int, width: sp.Expr = d) -> sp.Expr | None:
    """The crossover n for g = ``gate_blocks`` at d = ``width`` (a number, or by default this module's symbol d:
    pass your own ``Symbol("d")`` to get it in yours), or None when it is not positive (attention always costs
    more)."""
    value = _crossover().subs(gates, gate_blocks)
    return value.subs(d, width) if value.is_positive else None


# --- counting what torch runs ----------------------------------------------------------------


def counted_flops(function: Callable[..., Any], *args: Any) -> int:
    """FLOPs torch.utils.flop_counter.FlopCounterMode counts while ``function(*args)`` runs."""
    from torch.utils.flop_counter import FlopCounterMode

    with FlopCounterMode(display=False) as counter:
        function(*args)
    return int(counter.get_total_flops())


def counted_attention(length: int, width: int, device: str = "cpu") -> int:
    """FLOPs FlopCounterMode counts for ``self_attention`` (float32) over ``length`` zero tokens of ``width``
    (on the meta device, shapes only: nothing is computed)."""
    xp = TorchBackend("float32", device)
    return counted_flops(self_attention, xp, xp.zeros(length, width), *(xp.zeros(width, width) for _ in range(3)))


def counted_recurrent(name: str, length: int, width: int) -> int:
    """FLOPs FlopCounterMode counts for one torch recurrent layer (a RECURRENT_CELLS name) over ``length`` tokens.

    oneDNN is switched off: its fused LSTM kernel (aten.mkldnn_rnn_layer) has no FLOP formula and counts 0.
    """
    module, _ = RECURRENT_CELLS[recurrent_cell(name)]
    layer = getattr(torch.nn, module)(width, width)
    x = torch.zeros(length, width)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # oneDNN's TF32 notice when its flags change
        with torch.backends.mkldnn.flags(enabled=False):
            return counted_flops(layer, x)


def crossover_ratios(name: str, width: int) -> dict[str, object]:
    """The crossover n of a RECURRENT_CELLS layer at d = ``width``, and the counted attention / recurrent FLOPs one
    below and one above it (without a crossover: the ratio 3/2 + 1/d at n = 1)."""
    boundary = crossover(RECURRENT_CELLS[recurrent_cell(name)][1], width)
    if boundary is None:
        return {"crossover n": "none (attention always costs more)", "ratio at n = 1": 1.5 + 1 / width}
    at = float(boundary)
    ratios = {m: counted_attention(m, width) / counted_recurrent(name, m, width) for m in (int(at) - 1, int(at) + 1)}
    return {"crossover n": at, **{f"n={m}: attention / {name}": ratio for m, ratio in ratios.items()}}


def dispatched_ops(function: Callable[..., Any], *args: Any) -> Counter[str]:
    """The aten operators ``function(*args)`` dispatches, by name (each one kernel launch or more)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class OpRecorder(TorchDispatchMode):
        """Counts every aten operator dispatched while it is active."""

        def __init__(self) -> None:
            super().__init__()
            self.ops: Counter[str] = Counter()

        def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
            self.ops[func.overloadpacket.__name__] += 1
            return func(*args, **(kwargs or {}))

    with OpRecorder() as recorder:
        function(*args)
    return recorder.ops


def dependency_depth(output: torch.Tensor) -> int:
    """The longest chain of autograd nodes from ``output`` to its inputs: steps that must run in order."""
    order: list[Any] = []
    seen: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(output.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if node is None or (not expanded and node in seen):
            continue
        if expanded:
            order.append(node)
            continue
        seen.add(node)
        stack.append((node, True))
        stack += [(child, False) for child, _ in node.next_functions if child is not None and child not in seen]
    depth: dict[Any, int] = {}
    for node in order:
        children = [depth[c] for c, _ in node.next_functions if c is not None and c in depth]
        depth[node] = 1 + max(children, default=0)
    return depth.get(output.grad_fn, 0)


REFERENCE_LAYERS: dict[str, Callable[..., torch.Tensor]] = {
    "attention": lambda xp, x, weights: self_attention(xp, x, *weights),
    "rnn": lambda xp, x, weights: rnn_layer(xp, x, *weights[:2]),
}
"""The reference layers, both written as the formulas say: ``REFERENCE_LAYERS[name](xp, x, (W_1, W_2, W_3))``."""


def graph_structure(layer: str, backend: Backend, length: int, width: int) -> tuple[int, int]:
    """(dependency depth of the autograd graph, dispatched aten ops) of a reference layer over ``length`` zero tokens
    of ``width``, with zero weights (torch backends: the tensors require gradients)."""
    x = backend.zeros(length, width).requires_grad_()
    weights = [backend.zeros(width, width).requires_grad_() for _ in range(3)]
    run = functools.partial(REFERENCE_LAYERS[layer], backend, x, weights)
    return dependency_depth(run()), sum(dispatched_ops(run).values())
