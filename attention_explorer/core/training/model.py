"""A tiny single-head attention model on a retrieval task, trained by hand: forward, backward, Adam.

The task: each example has N = 8 keys x_1 … x_N (random vectors of width 32), each with a value v_i (width 8, unit
length on average), and a query that is a noisy copy of one of the keys, x_t + 0.1·noise. The model projects the query
and the keys, q = x_q·W_Q and k_i = x_i·W_K (width d_k), and returns o = Σ softmax(c·q·k)_i v_i; the loss is
½‖o − v_t‖², averaged over the 64 examples of the training set. It must learn to find the matching key. c is 1/√d_k
(scaled) or 1 (unscaled). W_Q and W_K start as N(0, 1/32) entries, so q and k have components of variance about 1 —
the article's premise, under which q·k has variance d_k.

Gradients are written out by hand: the loss through the values, through the softmax (its Jacobian diag(w) − w·wᵀ)
and through the scale c to W_Q and W_K. Pure numpy (float64), no Qt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from attention_explorer.core.maths.attention import softmax

D_IN = 32  # width of the keys and queries before projection
N_KEYS = 8  # keys per example: the query must find its one among them
D_V = 8  # width of the values
EXAMPLES = 64  # the training set (every step is one step on all of it)
NOISE = 0.1  # the query is its key plus this much noise


@dataclass(frozen=True, eq=False)
class Task:
    """The training set and the probe (a query the model never trains on). Arrays are read-only."""

    keys: np.ndarray  # (EXAMPLES, N, D_IN)
    values: np.ndarray  # (EXAMPLES, N, D_V)
    targets: np.ndarray  # (EXAMPLES,) the index of each query's key
    queries: np.ndarray  # (EXAMPLES, D_IN)
    probe_keys: np.ndarray  # (1, N, D_IN)
    probe_values: np.ndarray  # (1, N, D_V)
    probe_target: int
    probe_query: np.ndarray  # (1, D_IN)

    @property
    def uniform_loss(self) -> float:
        """The loss of attending to every key equally: the baseline a model that learned nothing gets."""
        output = self.values.mean(axis=1)
        return float(0.5 * np.mean(np.sum((output - self.values[np.arange(len(self.targets)), self.targets]) ** 2,
                                          axis=-1)))


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _examples(rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    keys = rng.standard_normal((count, N_KEYS, D_IN))
    values = rng.standard_normal((count, N_KEYS, D_V)) / math.sqrt(D_V)
    targets = rng.integers(0, N_KEYS, count)
    queries = keys[np.arange(count), targets] + NOISE * rng.standard_normal((count, D_IN))
    return keys, values, targets, queries


def make_task(seed: int) -> Task:
    """The training set and probe drawn from `seed` (the same for every d_k and for both runs)."""
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 1]))
    keys, values, targets, queries = _examples(rng, EXAMPLES)
    probe_keys, probe_values, probe_targets, probe_query = _examples(rng, 1)
    return Task(_frozen(keys), _frozen(values), _frozen(targets), _frozen(queries), _frozen(probe_keys),
                _frozen(probe_values), int(probe_targets[0]), _frozen(probe_query))


def initial_weights(seed: int, d_k: int) -> tuple[np.ndarray, np.ndarray]:
    """W_Q and W_K (D_IN × d_k) with N(0, 1/D_IN) entries: both runs of one seed start from these."""
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 2]))
    spread = 1.0 / math.sqrt(D_IN)
    return rng.standard_normal((D_IN, d_k)) * spread, rng.standard_normal((D_IN, d_k)) * spread


def attention_weights(w_q: np.ndarray, w_k: np.ndarray, keys: np.ndarray, queries: np.ndarray,
                      scale: float) -> np.ndarray:
    """softmax(c·q·k) over each example's keys: (examples, N)."""
    return softmax(scale * _scores(_product(queries, w_q), w_k, keys))


def _scores(q: np.ndarray, w_k: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """q·k_i = (q·W_Kᵀ)·x_i for every key of every example, (E, N): never the E × N × d_k keys themselves."""
    return np.einsum("eni,ei->en", keys, np.einsum("ed,id->ei", q, w_k))


def _product(rows: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """rows @ matrix without BLAS: these products are small, and BLAS's threads made a step six times slower on a
    busy two-core machine (einsum's own loop is one thread and gives the same bits on every machine)."""
    return np.einsum("ei,id->ed", rows, matrix)


@dataclass(frozen=True, eq=False)
class Backward:
    """One forward and backward pass over a set of examples."""

    loss: float
    weights: np.ndarray  # (examples, N) the attention weights
    grad_scores: np.ndarray  # ∂loss/∂(c·q·k), (examples, N)
    grad_w_q: np.ndarray  # ∂loss/∂W_Q, (D_IN, d_k)
    grad_w_k: np.ndarray  # ∂loss/∂W_K


def loss_and_gradients(w_q: np.ndarray, w_k: np.ndarray, keys: np.ndarray, values: np.ndarray,
                       targets: np.ndarray, queries: np.ndarray, scale: float) -> Backward:
    """The loss ½‖o − v_t‖² (mean over examples) and its gradients, by hand.

    q = x_q·W_Q,  k_i = x_i·W_K,  s_i = c·q·k_i,  w = softmax(s),  o = Σ w_i v_i:
    ∂L/∂o = (o − v_t)/E,  ∂L/∂w_i = v_i·∂L/∂o,  ∂L/∂s = w ⊙ (∂L/∂w − w·∂L/∂w)  (the softmax Jacobian),
    ∂L/∂q = c Σ_i ∂L/∂s_i k_i = c a·W_K  and  ∂L/∂k_i = c ∂L/∂s_i q,  with a = Σ_i ∂L/∂s_i x_i; so
    ∂L/∂W_Q = Σ_examples x_qᵀ ∂L/∂q  and  ∂L/∂W_K = Σ_examples Σ_i x_iᵀ ∂L/∂k_i = c Σ_examples aᵀ q.
    """
    count = len(targets)
    q = _product(queries, w_q)  # (E, d_k)
    weights = softmax(scale * _scores(q, w_k, keys))
    output = np.einsum("en,env->ev", weights, values)
    error = output - values[np.arange(count), targets]
    loss = float(0.5 * np.mean(np.sum(error**2, axis=-1)))
    grad_weights = np.einsum("ev,env->en", error, values) / count
    grad_scores = weights * (grad_weights - np.sum(weights * grad_weights, axis=-1, keepdims=True))
    a = np.einsum("en,eni->ei", grad_scores, keys)  # Σ_i ∂L/∂s_i x_i, (E, D_IN)
    grad_w_q = np.einsum("ei,ed->id", queries, scale * _product(a, w_k))
    grad_w_k = scale * np.einsum("ei,ed->id", a, q)
    return Backward(loss, weights, grad_scores, grad_w_q, grad_w_k)


class Adam:
    """Adam (β₁ 0.9, β₂ 0.999, ε 1e-8, bias-corrected), as transformers are trained, for a list of arrays."""

    BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8

    def __init__(self, shapes: list[tuple[int, ...]], lr: float) -> None:
        self.lr = float(lr)
        self.first = [np.zeros(shape) for shape in shapes]
        self.second = [np.zeros(shape) for shape in shapes]
        self.steps = 0

    def update(self, parameters: list[np.ndarray], gradients: list[np.ndarray]) -> None:
        """One step: each parameter array changed in place."""
        self.steps += 1
        correct1 = 1.0 - self.BETA1**self.steps
        correct2 = 1.0 - self.BETA2**self.steps
        for parameter, gradient, first, second in zip(parameters, gradients, self.first, self.second):
            first *= self.BETA1
            first += (1.0 - self.BETA1) * gradient
            second *= self.BETA2
            second += (1.0 - self.BETA2) * gradient**2
            parameter -= self.lr * (first / correct1) / (np.sqrt(second / correct2) + self.EPSILON)
