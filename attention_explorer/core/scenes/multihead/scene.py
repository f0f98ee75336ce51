"""Multi-head self-attention: h heads on slices of W_Q, W_K, W_V, their outputs concatenated and projected by W_O.

An immutable, always valid `MultiHeadScenario` (its file is core/scenes/multihead/file.py's job), the computation with
every intermediate number per head, the seeded weights the lab starts from, and one head's query as the explorer's
single-query scenario. Pure numpy, no Qt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attention_explorer.core.limits import (
    MAX_DESCRIPTION,
    MAX_DIM,
    MAX_TITLE,
    ScenarioError,
)
from attention_explorer.core.maths.attention import causal_mask, frozen, softmax
from attention_explorer.core.messages import value_kind
from attention_explorer.core.scenes.checks import (
    ProjectedScene,
    check_scale,
    check_score_bound,
    check_texts,
    projected_score_bound,
)
from attention_explorer.core.scenes.kinds import MULTIHEAD_KIND as MULTIHEAD_KIND  # kept importable from here
from attention_explorer.core.scenes.query.scene import Scenario, _check_numbers, _readonly
from attention_explorer.core.scenes.sequence.scene import check_tokens, random_projection, token_embeddings

MAX_HEADS = 16  # small multiples for every head must still fit a lecture screen
WEIGHTS = ("w_q", "w_k", "w_v", "w_o")
MATRICES = ("embeddings", *WEIGHTS)
_OUTPUT_SEED = 4  # W_O's stream beside W_Q, W_K, W_V's 1, 2, 3 in core.scenes.sequence.scene.random_projection


@dataclass(frozen=True, eq=False)
class MultiHeadScenario(ProjectedScene):
    """N tokens, X (N×d_model), W_Q, W_K, W_V, W_O (d_model×d_model each) and h heads of d_model/h columns."""

    tokens: tuple[str, ...]
    embeddings: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    heads: int
    causal: bool = False
    scale: float | None = None
    title: str = ""
    description: str = ""
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("tokens", "heads", "causal", "scale", "title", "description")
    MATRIX_FIELDS: ClassVar[tuple[str, ...]] = MATRICES

    def __post_init__(self) -> None:
        if isinstance(self.tokens, str):
            raise ScenarioError("tokens: expected a list of strings, got a string")
        object.__setattr__(self, "tokens", tuple(self.tokens))
        for name in MATRICES:
            object.__setattr__(self, name, _readonly(getattr(self, name), name))
        validate_multihead(self)

    @property
    def n(self) -> int:
        """Number of tokens."""
        return len(self.tokens)

    @property
    def d_model(self) -> int:
        """Width of every embedding, of the concatenation and of the output."""
        return int(self.embeddings.shape[1])

    @property
    def d_k(self) -> int:
        """Width of one head's queries, keys and values: d_model / h (d_v = d_k)."""
        return self.d_model // self.heads

    @property
    def d_v(self) -> int:
        """Width of one head's values: d_k."""
        return self.d_k

    def head_columns(self, head: int) -> slice:
        """Columns of W_Q, W_K, W_V (and rows of W_O) that belong to head `head` (counted from 0)."""
        return slice(head * self.d_k, (head + 1) * self.d_k)

    def compute(self) -> MultiHeadResult:
        """Every head's attention, the concatenation and the output."""
        return compute_multihead(self)


@dataclass(frozen=True, eq=False)
class MultiHeadResult:
    """Every number of one multi-head pass (arrays read-only; per-head arrays are h × …; masked scores are −inf)."""

    queries: np.ndarray  # Q = X·W_Q, N×d_model: head i's queries are columns i·d_k … (i+1)·d_k − 1
    keys: np.ndarray  # K = X·W_K, N×d_model
    values: np.ndarray  # V = X·W_V, N×d_model
    scores: np.ndarray  # h×N×N, Q_i·K_iᵀ, never masked
    scale: float
    scaled_scores: np.ndarray  # h×N×N, scale·Q_i·K_iᵀ, −inf above the diagonal when causal
    weights: np.ndarray  # h×N×N, row softmax; masked entries exactly 0
    head_outputs: np.ndarray  # h×N×d_k, weights_i·V_i
    concat: np.ndarray  # N×d_model, [head_1 | … | head_h]
    output: np.ndarray  # N×d_model, concat·W_O
    causal: bool

    @property
    def heads(self) -> int:
        """Number of heads."""
        return int(self.scores.shape[0])

    @property
    def n(self) -> int:
        """Number of tokens."""
        return int(self.scores.shape[1])

    @property
    def d_k(self) -> int:
        """Width of one head."""
        return int(self.head_outputs.shape[2])

    @property
    def mask(self) -> np.ndarray:
        """Boolean N×N, True where a causal model may not look (the same for every head)."""
        return np.isneginf(self.scaled_scores[0])

    def head_slice(self, matrix: np.ndarray, head: int) -> np.ndarray:
        """Head `head`'s columns of Q, K or V (N×d_k)."""
        return matrix[:, head * self.d_k:(head + 1) * self.d_k]


# ---------------------------------------------------------------- validation and computing


def _check_matrix(array: np.ndarray, name: str, rows: int, rows_name: str, width: int, width_name: str) -> None:
    if array.ndim != 2:
        raise ScenarioError("{0}: expected {1} rows of numbers ({2})", name, rows, rows_name)
    if array.shape[0] != rows:
        raise ScenarioError("{0}: expected {1} rows ({2}), got {3}", name, rows, rows_name, array.shape[0])
    if array.shape[1] != width:
        raise ScenarioError("{0}: expected rows of {1} numbers ({2}), got {3}", name, width, width_name, array.shape[1])


def check_heads(heads: Any, d_model: int) -> None:
    """Raise ScenarioError unless `heads` is a whole number from 1 to MAX_HEADS that divides d_model."""
    if isinstance(heads, bool) or not isinstance(heads, int):
        raise ScenarioError("heads: expected a whole number, got {0}", value_kind(heads))
    if not 1 <= heads <= MAX_HEADS:
        raise ScenarioError("heads: expected 1 to {0} heads, got {1}", MAX_HEADS, heads)
    if d_model % heads:
        raise ScenarioError(
            "heads: d_model = {0} is not divisible by h = {1} (each head gets d_model / h columns; h could be {2})",
            d_model, heads, ", ".join(str(h) for h in head_counts(d_model)),
        )


def check_d_model(d_model: Any, heads: int) -> None:
    """Raise ScenarioError unless d_model is a whole number from 1 to MAX_DIM that h divides."""
    if isinstance(d_model, bool) or not isinstance(d_model, int) or not 1 <= d_model <= MAX_DIM:
        raise ScenarioError("{0}: expected a whole number from 1 to {1}, got {2!r}", "d_model", MAX_DIM, d_model)
    if d_model % heads:
        raise ScenarioError("d_model: {0} is not divisible by h = {1} (d_model must be a multiple of h)",
                            d_model, heads)


def check_seed(seed: Any) -> None:
    """Raise ScenarioError unless the seed is a whole number ≥ 0."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ScenarioError("seed: expected a whole number ≥ 0, got {0!r}", seed)


def check_head_and_row(scenario: MultiHeadScenario, head: Any, row: Any) -> None:
    """Raise ScenarioError unless `head` is one of the scenario's heads and `row` one of its tokens."""
    if isinstance(head, bool) or not isinstance(head, int) or not 0 <= head < scenario.heads:
        raise ScenarioError("head {0} is out of range (there are {1} heads)", head, scenario.heads)
    if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < scenario.n:
        raise ScenarioError("token index {0} is out of range (there are {1} tokens)", row, scenario.n)


def head_counts(d_model: int) -> list[int]:
    """Every number of heads that d_model allows (its divisors up to MAX_HEADS)."""
    return [h for h in range(1, MAX_HEADS + 1) if d_model % h == 0]


def score_bound(scenario: MultiHeadScenario) -> float:
    """An upper bound on |scale · q·k| of any head, from the largest numbers and the dimensions."""
    return projected_score_bound(scenario, scenario.embeddings, scenario.embeddings)


def validate_multihead(scenario: MultiHeadScenario) -> None:
    """Raise ScenarioError naming the first problem of a multi-head scenario, or return None."""
    check_tokens(scenario.tokens)
    n = len(scenario.tokens)
    x = scenario.embeddings
    if x.ndim != 2 or x.shape[0] != n:
        raise ScenarioError("embeddings: expected {0} rows (one per token)", n)
    d_model = x.shape[1]
    if not 1 <= d_model <= MAX_DIM:
        raise ScenarioError("embeddings: expected rows of 1 to {0} numbers (d_model), got {1}", MAX_DIM, d_model)
    check_heads(scenario.heads, d_model)
    for name in WEIGHTS:
        _check_matrix(getattr(scenario, name), name, d_model, f"d_model = {d_model}", d_model,
                      f"d_model = {d_model}")
    for name in MATRICES:
        _check_numbers(getattr(scenario, name), name)
    validate_settings(scenario)


def validate_settings(scenario: MultiHeadScenario) -> None:
    """Raise ScenarioError naming the first problem of the fields besides the matrices (h, mask, scale, texts)."""
    check_heads(scenario.heads, scenario.d_model)
    if not isinstance(scenario.causal, bool):
        raise ScenarioError("causal: expected true or false, got {0}", value_kind(scenario.causal))
    check_scale(scenario.scale)
    check_texts(scenario)
    check_score_bound(score_bound(scenario))


def split_heads(matrix: np.ndarray, heads: int) -> np.ndarray:
    """N×d_model → h×N×d_k: head i takes columns i·d_k … (i+1)·d_k − 1."""
    n, d_model = matrix.shape
    return matrix.reshape(n, heads, d_model // heads).transpose(1, 0, 2)




def compute_multihead(scenario: MultiHeadScenario, before: MultiHeadScenario | None = None,
                      result: MultiHeadResult | None = None) -> MultiHeadResult:
    """Q, K, V = X·W; per head softmax(scale·Q_i·K_iᵀ [+ causal −∞])·V_i; concatenated; times W_O.

    With the scenario `before` it and its `result`, Q, K and V are reused when X, W_Q, W_K and W_V are the very
    same arrays (a new h, mask or scale): the projections are most of the work at d_model = 512.
    """
    x = scenario.embeddings
    same = before is not None and result is not None and all(
        getattr(before, name) is getattr(scenario, name) for name in ("embeddings", "w_q", "w_k", "w_v"))
    if same:
        queries, keys, values = result.queries, result.keys, result.values
    else:
        queries, keys, values = x @ scenario.w_q, x @ scenario.w_k, x @ scenario.w_v
    q, k, v = (split_heads(m, scenario.heads) for m in (queries, keys, values))
    scores = q @ k.transpose(0, 2, 1)
    scale = scenario.effective_scale
    scaled = scores * scale
    if scenario.causal:
        scaled = np.where(causal_mask(scenario.n), -np.inf, scaled)
    weights = softmax(scaled, axis=-1)  # e^(−inf − max) is exactly 0: masked weights are exact zeros
    head_outputs = weights @ v
    concat = head_outputs.transpose(1, 0, 2).reshape(scenario.n, scenario.d_model)
    return MultiHeadResult(
        queries=frozen(queries), keys=frozen(keys), values=frozen(values), scores=frozen(scores),
        scale=float(scale), scaled_scores=frozen(scaled), weights=frozen(weights),
        head_outputs=frozen(head_outputs), concat=frozen(concat), output=frozen(concat @ scenario.w_o),
        causal=scenario.causal,
    )


# ---------------------------------------------------------------- building and editing (for the lab)


def random_weights(name: str, d_model: int, seed: int = 0) -> np.ndarray:
    """Seeded N(0, 1/d_model) d_model×d_model weights (W_Q, W_K, W_V share the sequence lab's streams)."""
    if name == "w_o":
        rows = [np.random.default_rng([seed, _OUTPUT_SEED, r]).standard_normal(d_model) for r in range(d_model)]
        return np.array(rows).reshape(d_model, d_model) / math.sqrt(d_model)
    return random_projection(name, d_model, d_model, seed)


def build_multihead(tokens: Sequence[str], d_model: int, heads: int, seed: int = 0, causal: bool = False,
                    scale: float | None = None, title: str = "", description: str = "") -> MultiHeadScenario:
    """A multi-head scenario with seeded embeddings and seeded random W_Q, W_K, W_V, W_O."""
    check_tokens(tuple(tokens))
    check_d_model(d_model, 1)  # its range first: the heads' message divides it
    check_heads(heads, d_model)
    weights = {name: random_weights(name, d_model, seed) for name in WEIGHTS}
    return MultiHeadScenario(tokens=tuple(tokens), embeddings=token_embeddings(tokens, d_model, seed), heads=heads,
                             causal=causal, scale=scale, title=title, description=description, **weights)


SETTINGS = ("heads", "causal", "scale", "title", "description")


def replace_multihead(scenario: MultiHeadScenario, **changes: Any) -> MultiHeadScenario:
    """A copy with some fields replaced, validated like any new scenario.

    A change of settings only (h, mask, scale, texts) keeps the very same, already checked matrices and checks
    just the settings: a switch at d_model = 512 then costs no copy of a million numbers.
    """
    fields = {name: getattr(scenario, name) for name in ("tokens", *MATRICES, *SETTINGS)}
    fields.update(changes)
    if set(changes) <= set(SETTINGS):
        copy = object.__new__(MultiHeadScenario)
        for name, value in fields.items():
            object.__setattr__(copy, name, value)
        validate_settings(copy)
        return copy
    return MultiHeadScenario(**fields)


# ---------------------------------------------------------------- one head's query as the explorer's scenario


def head_query_scenario(scenario: MultiHeadScenario, result: MultiHeadResult, head: int, index: int,
                        title: str = "", description: str = "") -> Scenario:
    """Head `head`'s query of token `index` against that head's keys and values (keys up to it when causal)."""
    check_head_and_row(scenario, head, index)
    visible = index + 1 if scenario.causal else scenario.n
    return Scenario(
        query=result.head_slice(result.queries, head)[index], keys=result.head_slice(result.keys, head)[:visible],
        values=result.head_slice(result.values, head)[:visible], labels=scenario.tokens[:visible],
        title=title[:MAX_TITLE], description=description[:MAX_DESCRIPTION], scale=scenario.scale,
    )
