"""Cross-attention: queries from one sequence (the target, a decoder's), keys and values from another (the source).

An immutable, always valid `CrossScenario` (its file is core/scenes/cross/file.py's job): target embeddings Y (N_q rows)
and source embeddings X (N_k rows) of one width d_model, Q = Y·W_Q, K = X·W_K, V = X·W_V, the N_q × N_k scores and
the row softmax; one target token as the explorer's query (what `compute` prints: report.py). Pure numpy, no Qt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attention_explorer.core.limits import (
    MAX_DESCRIPTION,
    MAX_KEYS,
    MAX_LABEL,
    MAX_TITLE,
    ScenarioError,
)
from attention_explorer.core.maths.attention import self_attention
from attention_explorer.core.messages import value_kind
from attention_explorer.core.scenes.checks import (
    ProjectedScene,
    check_scale,
    check_score_bound,
    check_shape,
    check_text,
    check_texts,
    projected_score_bound,
)
from attention_explorer.core.scenes.query.scene import Scenario, _as_float, _check_numbers, _readonly
from attention_explorer.core.scenes.sequence.scene import project, token_embedding

CROSS_MATRICES = ("target_embeddings", "source_embeddings", "w_q", "w_k", "w_v")
TOKEN_LISTS = ("target_tokens", "source_tokens")


@dataclass(frozen=True, eq=False)
class CrossScenario(ProjectedScene):
    """Target tokens (queries) and source tokens (keys, values), their embeddings and W_Q, W_K, W_V."""

    target_tokens: tuple[str, ...]
    source_tokens: tuple[str, ...]
    target_embeddings: np.ndarray  # Y, N_q × d_model: where the queries come from
    source_embeddings: np.ndarray  # X, N_k × d_model: where the keys and values come from
    w_q: np.ndarray  # d_model × d_k
    w_k: np.ndarray  # d_model × d_k
    w_v: np.ndarray  # d_model × d_v
    scale: float | None = None
    title: str = ""
    description: str = ""
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = (*TOKEN_LISTS, "scale", "title", "description")
    MATRIX_FIELDS: ClassVar[tuple[str, ...]] = CROSS_MATRICES

    def __post_init__(self) -> None:
        for name in TOKEN_LISTS:
            tokens = getattr(self, name)
            if isinstance(tokens, str):
                raise ScenarioError("{0}: expected a list of strings, got a string", name)
            object.__setattr__(self, name, tuple(tokens))
        for name in CROSS_MATRICES:
            object.__setattr__(self, name, _readonly(getattr(self, name), name))
        validate_cross(self)

    @property
    def n_q(self) -> int:
        """Number of target tokens (queries, rows of the weights)."""
        return len(self.target_tokens)

    @property
    def n_k(self) -> int:
        """Number of source tokens (keys and values, columns of the weights)."""
        return len(self.source_tokens)

    @property
    def d_model(self) -> int:
        """Width of every embedding, target and source alike."""
        return int(self.source_embeddings.shape[1])

    def compute(self) -> CrossResult:
        """Project both sequences and attend from every target token to the source."""
        return compute_cross(self)


@dataclass(frozen=True, eq=False)
class CrossResult:
    """Every number of one cross-attention pass (arrays read-only)."""

    queries: np.ndarray  # Q = Y·W_Q, N_q × d_k
    keys: np.ndarray  # K = X·W_K, N_k × d_k
    values: np.ndarray  # V = X·W_V, N_k × d_v
    scores: np.ndarray  # Q·Kᵀ, N_q × N_k
    scale: float
    scaled_scores: np.ndarray  # scale · Q·Kᵀ
    weights: np.ndarray  # row softmax, every row sums to 1
    output: np.ndarray  # weights · V, N_q × d_v


def check_token_list(tokens: tuple[Any, ...], place: str) -> None:
    """Raise ScenarioError naming the first bad token of `place` (1 to 512 strings of 1 to 64 characters)."""
    if not 1 <= len(tokens) <= MAX_KEYS:
        raise ScenarioError("{0}: expected 1 to {1} tokens, got {2}", place, MAX_KEYS, len(tokens))
    for i, token in enumerate(tokens):
        where = f"{place}[{i}]"
        if not isinstance(token, str):
            raise ScenarioError("{0}: expected a string, got {1}", where, value_kind(token))
        if not 1 <= len(token) <= MAX_LABEL:
            raise ScenarioError("{0}: {1} characters, a token has 1 to {2}", where, len(token), MAX_LABEL)
        check_text(token, where)


def cross_score_bound(cross: CrossScenario) -> float:
    """An upper bound on |scale · q_i·k_j| from the largest numbers and the dimensions (no projection needed)."""
    return projected_score_bound(cross, cross.target_embeddings, cross.source_embeddings)


def validate_cross(cross: CrossScenario) -> None:
    """Raise ScenarioError naming the first problem of a cross-attention scenario, or return None."""
    for name in TOKEN_LISTS:
        check_token_list(getattr(cross, name), name)
    source = cross.source_embeddings
    check_shape(source, "source_embeddings", cross.n_k, "one per source token", None, "d_model")
    d_model = source.shape[1]
    check_shape(cross.target_embeddings, "target_embeddings", cross.n_q, "one per target token", d_model,
                 "d_model from source_embeddings")
    check_shape(cross.w_q, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    d_k = cross.w_q.shape[1]
    check_shape(cross.w_k, "w_k", d_model, f"d_model = {d_model}", d_k, "d_k, the width of w_q")
    check_shape(cross.w_v, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    for name in CROSS_MATRICES:
        _check_numbers(getattr(cross, name), name)
    check_scale(cross.scale)
    check_texts(cross)
    check_score_bound(cross_score_bound(cross))


def compute_cross(cross: CrossScenario) -> CrossResult:
    """Q from the target, K and V from the source, and softmax(scale · Q·Kᵀ)·V row by row (no mask)."""
    queries = project(cross.target_embeddings, cross.w_q)
    keys = project(cross.source_embeddings, cross.w_k)
    values = project(cross.source_embeddings, cross.w_v)
    attention = self_attention(queries, keys, values, cross.effective_scale, causal=False)
    for matrix in (queries, keys, values):
        matrix.setflags(write=False)
    return CrossResult(
        queries=queries, keys=keys, values=values, scores=attention.scores, scale=attention.scale,
        scaled_scores=attention.scaled_scores, weights=attention.weights, output=attention.output,
    )


def replace_cross(cross: CrossScenario, **changes: Any) -> CrossScenario:
    """A copy with some fields replaced, validated like any new scenario."""
    fields = {name: getattr(cross, name) for name in (*TOKEN_LISTS, *CROSS_MATRICES, "scale", "title", "description")}
    fields.update(changes)
    return CrossScenario(**fields)


def with_cross_cell(cross: CrossScenario, matrix: str, row: int, column: int, value: float) -> CrossScenario:
    """Replace one number of Y, X, W_Q, W_K or W_V."""
    if matrix not in CROSS_MATRICES:
        raise ScenarioError("unknown matrix {0!r} (expected one of {1})", matrix, ", ".join(CROSS_MATRICES))
    current = np.array(getattr(cross, matrix))
    if not (0 <= row < current.shape[0] and 0 <= column < current.shape[1]):
        raise ScenarioError("{0}: there is no cell ({1}, {2}) in {3} × {4}", matrix, row + 1, column + 1,
                            current.shape[0], current.shape[1])
    current[row, column] = _as_float(value, f"{matrix}[{row}][{column}]")
    _check_numbers(current, matrix)
    return replace_cross(cross, **{matrix: current})


# ---------------------------------------------------------------- one target token as the explorer's query


def cross_query_scenario(cross: CrossScenario, result: CrossResult, index: int, title: str = "",
                         description: str = "") -> Scenario:
    """Target token `index` as a single query: q = Q[index] against every source key and value."""
    if isinstance(index, bool) or not 0 <= index < cross.n_q:
        raise ScenarioError("target token index {0} is out of range (there are {1} target tokens)", index, cross.n_q)
    return Scenario(
        query=result.queries[index], keys=result.keys, values=result.values, labels=cross.source_tokens,
        title=title[:MAX_TITLE], description=description[:MAX_DESCRIPTION], scale=cross.scale,
    )


# ---------------------------------------------------------------- new words (for the lab)


def cross_with_tokens(cross: CrossScenario, side: str, tokens: tuple[str, ...], seed: int = 0) -> CrossScenario:
    """New target or source words: a word keeps its embedding row where it was there before, a new one is seeded."""
    if side not in TOKEN_LISTS:
        raise ScenarioError("unknown side {0!r} (expected one of {1})", side, ", ".join(TOKEN_LISTS))
    tokens = tuple(tokens)
    check_token_list(tokens, side)
    matrix = "target_embeddings" if side == "target_tokens" else "source_embeddings"
    old_tokens, old_rows = getattr(cross, side), getattr(cross, matrix)
    rows = [old_rows[old_tokens.index(token)] if token in old_tokens else token_embedding(token, cross.d_model, seed)
            for token in tokens]
    return replace_cross(cross, **{side: tokens, matrix: np.array(rows)})
