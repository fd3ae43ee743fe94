"""Self-attention and a simple RNN written once for any backend, and a check kept on one thread (single_threaded).

Row-vector convention throughout: a sentence is X (n × d, one token per row), Q = X W_Q,
K = X W_K, V = X W_V, Attention = softmax(Q Kᵀ / √d_k) V row by row, and the RNN state is
h_t = tanh(x_t W_x + h_{t−1} W_h) (the column form W_x x_t + W_h h_{t−1}, transposed).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import numpy as np

from checks.numerics.backends import Array, Backend
from checks.settings.extras import optional

torch = optional("torch")


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """torch on one CPU thread (a context manager and a decorator).

    Matrices of a few rows gain nothing from more threads and stall for milliseconds per op when
    the cores are shared; the number of threads is restored afterwards.
    """
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def self_attention(xp: Backend, x: Array, w_q: Array, w_k: Array, w_v: Array, causal: bool = False) -> Array:
    """softmax(Q Kᵀ / √d_k) V for every query at once: one head, no mask unless ``causal``."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    scores = (q @ k.T) / math.sqrt(k.shape[-1])
    if causal:
        size = scores.shape[0]
        scores = scores + xp.array(np.triu(np.full((size, size), -np.inf), 1))
    return xp.softmax(scores, axis=-1) @ v


def attention_per_query(xp: Backend, x: Array, w_q: Array, w_k: Array, w_v: Array) -> Array:
    """The same layer one query at a time: q_i = x_i W_Q, weights softmax(q_i Kᵀ / √d_k), output weights · V."""
    k, v = x @ w_k, x @ w_v
    rows = []
    for i in range(x.shape[0]):
        q_i = x[i] @ w_q
        rows.append(xp.softmax((q_i @ k.T) / math.sqrt(k.shape[-1]), axis=-1) @ v)
    return xp.stack(rows)


def rnn_layer(xp: Backend, x: Array, w_x: Array, w_h: Array) -> Array:
    """Every state h_t = tanh(x_t W_x + h_{t−1} W_h), h_0 = 0: n steps, each waiting for the last.

    Rows are kept 1 × d so that each product is a matrix product (what a FLOP counter sees).
    """
    h = xp.zeros(1, w_h.shape[0])
    states = []
    for t in range(x.shape[0]):
        h = tanh(xp, x[t : t + 1] @ w_x + h @ w_h)
        states.append(h[0])
    return xp.stack(states)


def tanh(xp: Backend, z: Array) -> Array:
    """tanh z = 1 − 2 / (e^{2z} + 1), from the backend's exp (saturates to ±1 when e^{2z} overflows)."""
    return 1 - 2 / (xp.exp(2 * z) + 1)
