"""Self-attention on a token sequence: X·W_Q, X·W_K, X·W_V, the N×N scores and the row softmax.

An immutable, always valid `SequenceScenario` (its file is file.py's job, what `compute` prints report.py's), the
seeded embeddings and projections the lab starts from, and the single-query scenario that makes one token the
explorer's query. Pure numpy, no Qt.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from attention_explorer.core.limits import (
    MAX_DESCRIPTION,
    MAX_DIM,
    MAX_TITLE,
    MAX_TOKEN,
    MAX_TOKENS,
    ScenarioError,
)
from attention_explorer.core.maths.masks import additive_mask, attention_mask, check_padding, masked_attention
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
from attention_explorer.core.scenes.query.scene import Scenario, _check_numbers, _readonly

MATRICES = ("embeddings", "w_q", "w_k", "w_v")


@dataclass(frozen=True, eq=False)
class SequenceScenario(ProjectedScene):
    """N tokens, their embeddings X (N×d_model) and the projections W_Q, W_K (d_model×d_k), W_V (d_model×d_v)."""

    tokens: tuple[str, ...]
    embeddings: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    causal: bool = False
    scale: float | None = None
    title: str = ""
    description: str = ""
    padding: tuple[int, ...] = ()  # positions of padding tokens: no query attends to them
    PLAIN_FIELDS: ClassVar[tuple[str, ...]] = ("tokens", "causal", "scale", "padding", "title", "description")
    MATRIX_FIELDS: ClassVar[tuple[str, ...]] = MATRICES

    def __post_init__(self) -> None:
        if isinstance(self.tokens, str):
            raise ScenarioError("tokens: expected a list of strings, got a string")
        object.__setattr__(self, "tokens", tuple(self.tokens))
        if isinstance(self.padding, list):
            object.__setattr__(self, "padding", tuple(self.padding))
        for name in MATRICES:
            object.__setattr__(self, name, _readonly(getattr(self, name), name))
        validate_sequence(self)
        # Sorted, so that equal masks compare equal and a file always writes its positions in order.
        object.__setattr__(self, "padding", check_padding(self.padding, self.n, self.causal))

    @property
    def n(self) -> int:
        """Number of tokens."""
        return len(self.tokens)

    @property
    def d_model(self) -> int:
        """Width of every embedding (rows of each W)."""
        return int(self.embeddings.shape[1])

    @property
    def blocked(self) -> np.ndarray:
        """Boolean N×N, True where a query may not look (causal mask and padding columns)."""
        return attention_mask(self.n, self.causal, self.padding)

    def compute(self) -> SequenceResult:
        """Project X and run self-attention on every position."""
        return compute_sequence(self)


@dataclass(frozen=True, eq=False)
class SequenceResult:
    """Every number of one self-attention pass (arrays read-only; masked scaled scores are −inf)."""

    queries: np.ndarray  # Q = X·W_Q, N×d_k
    keys: np.ndarray  # K = X·W_K, N×d_k
    values: np.ndarray  # V = X·W_V, N×d_v
    scores: np.ndarray  # Q·Kᵀ, N×N, never masked
    scale: float
    scaled_scores: np.ndarray  # scale·Q·Kᵀ + M: −inf where masked (causal, padding)
    weights: np.ndarray  # row softmax; masked entries exactly 0, every row sums to 1
    output: np.ndarray  # weights·V, N×d_v
    causal: bool
    padding: tuple[int, ...] = ()

    @property
    def n(self) -> int:
        """Number of tokens."""
        return int(self.scores.shape[0])

    @property
    def mask(self) -> np.ndarray:
        """Boolean N×N, True where a query may not look (all False without a mask)."""
        return np.isneginf(self.scaled_scores)

    @property
    def additive(self) -> np.ndarray:
        """M: 0 where a query may look, −∞ where it may not."""
        return additive_mask(self.mask)


# ---------------------------------------------------------------- validation and computing


def check_tokens(tokens: tuple[Any, ...]) -> None:
    """Raise ScenarioError naming the first bad token (1 to 512 non-empty strings of at most 64 characters)."""
    if not 1 <= len(tokens) <= MAX_TOKENS:
        raise ScenarioError("tokens: expected 1 to {0} tokens, got {1}", MAX_TOKENS, len(tokens))
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise ScenarioError("tokens[{0}]: expected a string, got {1}", i, value_kind(token))
        if not token:
            raise ScenarioError("tokens[{0}]: empty; every token needs at least one character", i)
        if len(token) > MAX_TOKEN:
            raise ScenarioError("tokens[{0}]: {1} characters, at most {2} are allowed", i, len(token), MAX_TOKEN)
        check_text(token, f"tokens[{i}]")


def score_bound(sequence: SequenceScenario) -> float:
    """An upper bound on |scale · q_i·k_j| from the largest numbers and the dimensions (no projection needed)."""
    return projected_score_bound(sequence, sequence.embeddings, sequence.embeddings)


def validate_sequence(sequence: SequenceScenario) -> None:
    """Raise ScenarioError naming the first problem of a self-attention scenario, or return None."""
    check_tokens(sequence.tokens)
    n = len(sequence.tokens)
    x = sequence.embeddings
    check_shape(x, "embeddings", n, "one per token", None, "d_model")
    d_model = x.shape[1]
    check_shape(sequence.w_q, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    d_k = sequence.w_q.shape[1]
    check_shape(sequence.w_k, "w_k", d_model, f"d_model = {d_model}", d_k, "d_k, the width of w_q")
    check_shape(sequence.w_v, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    for name in MATRICES:
        _check_numbers(getattr(sequence, name), name)
    if not isinstance(sequence.causal, bool):
        raise ScenarioError("causal: expected true or false, got {0}", value_kind(sequence.causal))
    check_padding(sequence.padding, n, sequence.causal)
    check_scale(sequence.scale)
    check_texts(sequence)
    check_score_bound(score_bound(sequence))


def project(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """X·W: one row per token (Q, K or V)."""
    return np.asarray(x, dtype=np.float64) @ np.asarray(w, dtype=np.float64)


def compute_sequence(sequence: SequenceScenario) -> SequenceResult:
    """Q, K, V and masked attention on them, with the sequence's scale, causal mask and padding."""
    queries = project(sequence.embeddings, sequence.w_q)
    keys = project(sequence.embeddings, sequence.w_k)
    values = project(sequence.embeddings, sequence.w_v)
    attention = masked_attention(queries, keys, values, sequence.effective_scale, sequence.blocked, sequence.causal)
    for matrix in (queries, keys, values):
        matrix.setflags(write=False)
    return SequenceResult(
        queries=queries, keys=keys, values=values, scores=attention.scores, scale=attention.scale,
        scaled_scores=attention.scaled_scores, weights=attention.weights, output=attention.output,
        causal=attention.causal, padding=sequence.padding,
    )


# ---------------------------------------------------------------- building and editing (for the lab)


def token_embedding(token: str, d_model: int, seed: int = 0) -> np.ndarray:
    """A token's seeded N(0, 1) embedding: the same word gets the same vector, and a wider one extends it."""
    stream = np.random.default_rng([seed, zlib.crc32(token.encode("utf-8", "surrogatepass"))])
    return stream.standard_normal(d_model)


def token_embeddings(tokens: Sequence[str], d_model: int, seed: int = 0) -> np.ndarray:
    """X: one seeded embedding row per token."""
    return np.array([token_embedding(token, d_model, seed) for token in tokens]).reshape(len(tokens), d_model)


_PROJECTION_IDS = {"w_q": 1, "w_k": 2, "w_v": 3}


def random_projection(name: str, d_model: int, width: int, seed: int = 0) -> np.ndarray:
    """Seeded N(0, 1/d_model) weights, like a freshly initialised layer: Q, K, V entries stay near unit size."""
    rows = [np.random.default_rng([seed, _PROJECTION_IDS[name], r]).standard_normal(width) for r in range(d_model)]
    return np.array(rows).reshape(d_model, width) / math.sqrt(d_model)


def identity_refusal(d_model: int, d_k: int, d_v: int) -> ScenarioError | None:
    """Why W_Q = W_K = W_V = I is impossible for these sizes (an error to raise), or None when it is possible."""
    if d_k == d_model and d_v == d_model:
        return None
    return ScenarioError("an identity W needs d_k = d_v = d_model (here d_model = {0}, d_k = {1}, d_v = {2}): W_Q and "
                         "W_K are d_model × d_k, W_V is d_model × d_v, and only a square matrix can be the identity",
                         d_model, d_k, d_v)


def build_sequence(tokens: Sequence[str], d_model: int, d_k: int, d_v: int, seed: int = 0, identity: bool = False,
                   causal: bool = False, scale: float | None = None, title: str = "",
                   description: str = "", padding: Sequence[int] = ()) -> SequenceScenario:
    """A sequence with seeded embeddings and seeded random (or identity) projections."""
    for name, size in (("d_model", d_model), ("d_k", d_k), ("d_v", d_v)):
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_DIM:
            raise ScenarioError("{0}: expected a whole number from 1 to {1}, got {2!r}", name, MAX_DIM, size)
    check_tokens(tuple(tokens))
    if identity:
        refusal = identity_refusal(d_model, d_k, d_v)
        if refusal is not None:
            raise refusal
        w_q = w_k = w_v = np.eye(d_model)
    else:
        w_q = random_projection("w_q", d_model, d_k, seed)
        w_k = random_projection("w_k", d_model, d_k, seed)
        w_v = random_projection("w_v", d_model, d_v, seed)
    return SequenceScenario(
        tokens=tuple(tokens), embeddings=token_embeddings(tokens, d_model, seed), w_q=w_q, w_k=w_k, w_v=w_v,
        causal=causal, scale=scale, title=title, description=description, padding=tuple(padding),
    )


def replace_sequence(sequence: SequenceScenario, **changes: Any) -> SequenceScenario:
    """A copy with some fields replaced, validated like any new scenario."""
    fields = {
        "tokens": sequence.tokens, "embeddings": sequence.embeddings, "w_q": sequence.w_q, "w_k": sequence.w_k,
        "w_v": sequence.w_v, "causal": sequence.causal, "scale": sequence.scale, "title": sequence.title,
        "description": sequence.description, "padding": sequence.padding,
    }
    if "tokens" in changes and "padding" not in changes:
        fields["padding"] = tuple(p for p in sequence.padding if p < len(changes["tokens"]))  # shorter: cut
    fields.update(changes)
    return SequenceScenario(**fields)


def with_cell(sequence: SequenceScenario, matrix: str, row: int, column: int,
              value: float) -> SequenceScenario:
    """Replace one number of X, W_Q, W_K or W_V."""
    return with_block(sequence, matrix, row, column, [[value]])


def with_block(sequence: SequenceScenario, matrix: str, row: int, column: int,
               rows: Sequence[Sequence[float]]) -> SequenceScenario:
    """Replace a block of X, W_Q, W_K or W_V starting at (row, column), e.g. pasted from a spreadsheet."""
    if matrix not in MATRICES:
        raise ScenarioError("unknown matrix {0!r} (expected one of {1})", matrix, ', '.join(MATRICES))
    current = np.array(getattr(sequence, matrix))
    block = _readonly(rows, f"{matrix} block")
    if block.ndim != 2 or block.size == 0:
        raise ScenarioError("{0}: expected rows of numbers to paste", matrix)
    height, width = block.shape
    if row < 0 or column < 0 or row + height > current.shape[0] or column + width > current.shape[1]:
        raise ScenarioError(
            "{0}: a {1} × {2} block at row {3}, column {4} does not fit in {5} × {6}",
            matrix, height, width, row + 1, column + 1, current.shape[0], current.shape[1],
        )
    _check_numbers(block, f"{matrix}[{row}][{column}] block")
    current[row:row + height, column:column + width] = block
    return replace_sequence(sequence, **{matrix: current})


def resized(current: np.ndarray, fresh: np.ndarray) -> np.ndarray:
    """`fresh` with the overlapping top-left corner of `current` copied in: kept edits, seeded new numbers."""
    out = np.array(fresh, dtype=np.float64)
    rows = min(current.shape[0], out.shape[0])
    columns = min(current.shape[1], out.shape[1])
    out[:rows, :columns] = current[:rows, :columns]
    return out


def embeddings_for_tokens(sequence: SequenceScenario, tokens: Sequence[str], seed: int = 0,
                          known: Mapping[str, np.ndarray] | None = None) -> np.ndarray:
    """X for new tokens: a token keeps its row in the sequence (or in `known`), a new one gets its seeded row."""
    check_tokens(tuple(tokens))
    fresh = token_embeddings(tokens, sequence.d_model, seed)
    for i, token in enumerate(tokens):
        if i < sequence.n and sequence.tokens[i] == token:
            fresh[i] = sequence.embeddings[i]
        elif token in sequence.tokens:
            fresh[i] = sequence.embeddings[sequence.tokens.index(token)]
        elif known is not None and token in known and np.shape(known[token]) == (sequence.d_model,):
            fresh[i] = known[token]
    return fresh


# ---------------------------------------------------------------- one token as the explorer's query


def query_scenario(sequence: SequenceScenario, result: SequenceResult, index: int, title: str = "",
                   description: str = "") -> Scenario:
    """Token `index` as a single query: q = Q[index] against the keys and values its row may look at."""
    if isinstance(index, bool) or not 0 <= index < sequence.n:
        raise ScenarioError("token index {0} is out of range (there are {1} tokens)", index, sequence.n)
    visible = np.flatnonzero(~sequence.blocked[index])  # causal: keys up to it; padding keys left out
    return Scenario(
        query=result.queries[index], keys=result.keys[visible], values=result.values[visible],
        labels=tuple(sequence.tokens[j] for j in visible), title=title[:MAX_TITLE],
        description=description[:MAX_DESCRIPTION],
        scale=sequence.scale,
    )
