"""Self-attention on a token sequence: X·W_Q, X·W_K, X·W_V, the N×N scores and the row softmax.

An immutable, always valid `SequenceScenario` (its file is core/scenes/query/file.py's job), the seeded
embeddings and projections the lab starts from, the single-query scenario that makes one token the
explorer's query, and what `compute` prints. Pure numpy, no Qt.
"""

from __future__ import annotations

import math
import unicodedata
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_explorer.core.files.jsonwrite import NullMasked, iter_json
from attention_explorer.core.maths.attention import inv_sqrt_scale
from attention_explorer.core.maths.masks import additive_mask, attention_mask, check_padding, masked_attention
from attention_explorer.core.messages import number_text, value_kind
from attention_explorer.core.scenes.kinds import SEQUENCE_KIND  # the `kind` in files and in the `compute` report
from attention_explorer.core.scenes.query.scene import (
    AUTO_SCALE,
    MAX_DESCRIPTION,
    MAX_DIM,
    MAX_KEYS,
    MAX_LABEL,
    MAX_SCALE,
    MAX_TITLE,
    Scenario,
    ScenarioError,
    _check_numbers,
    _check_text,
    _readonly,
)
from attention_explorer.core.terminal import json_without_controls, terminal_text

MAX_TOKENS = MAX_KEYS
MAX_TOKEN = MAX_LABEL
MATRICES = ("embeddings", "w_q", "w_k", "w_v")
# Under the limits (|x| ≤ 1e6, dimensions ≤ 4096, scale ≤ 1e6) a scaled score is at most about 7e40, far below
# float64's 1.8e308; the check below keeps that promise explicit should a limit ever be raised.
MAX_SCORE = 1e300


@dataclass(frozen=True, eq=False)
class SequenceScenario:
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
    def d_k(self) -> int:
        """Width of every query and key."""
        return int(self.w_q.shape[1])

    @property
    def d_v(self) -> int:
        """Width of every value."""
        return int(self.w_v.shape[1])

    @property
    def blocked(self) -> np.ndarray:
        """Boolean N×N, True where a query may not look (causal mask and padding columns)."""
        return attention_mask(self.n, self.causal, self.padding)

    @property
    def effective_scale(self) -> float:
        """The factor actually applied to Q·Kᵀ."""
        return inv_sqrt_scale(self.d_k) if self.scale is None else float(self.scale)

    def compute(self) -> SequenceResult:
        """Project X and run self-attention on every position."""
        return compute_sequence(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SequenceScenario):
            return NotImplemented
        return (
            self.tokens == other.tokens and self.causal == other.causal and self.scale == other.scale
            and self.padding == other.padding
            and self.title == other.title and self.description == other.description
            and all(np.array_equal(getattr(self, name), getattr(other, name)) for name in MATRICES)
        )

    __hash__ = None  # type: ignore[assignment]


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
        _check_text(token, f"tokens[{i}]")


def _check_shape(array: np.ndarray, name: str, rows: int, rows_name: str, width: int | None, width_name: str) -> None:
    if array.ndim != 2:
        raise ScenarioError("{0}: expected {1} rows of numbers ({2})", name, rows, rows_name)
    if array.shape[0] != rows:
        raise ScenarioError("{0}: expected {1} rows ({2}), got {3}", name, rows, rows_name, array.shape[0])
    if width is not None and array.shape[1] != width:
        raise ScenarioError(
            "{0}: expected rows of {1} numbers ({2} = {3}), got {4}",
            name, width, width_name, width, array.shape[1],
        )
    if not 1 <= array.shape[1] <= MAX_DIM:
        raise ScenarioError(
            "{0}: expected rows of 1 to {1} numbers ({2}), got {3}",
            name, MAX_DIM, width_name, array.shape[1],
        )


def score_bound(sequence: SequenceScenario) -> float:
    """An upper bound on |scale · q_i·k_j| from the largest numbers and the dimensions (no projection needed)."""
    largest_x = float(np.max(np.abs(sequence.embeddings)))
    query_bound = sequence.d_model * largest_x * float(np.max(np.abs(sequence.w_q)))
    key_bound = sequence.d_model * largest_x * float(np.max(np.abs(sequence.w_k)))
    return sequence.d_k * query_bound * key_bound * max(sequence.effective_scale, 1.0)


def validate_sequence(sequence: SequenceScenario) -> None:
    """Raise ScenarioError naming the first problem of a self-attention scenario, or return None."""
    check_tokens(sequence.tokens)
    n = len(sequence.tokens)
    x = sequence.embeddings
    _check_shape(x, "embeddings", n, "one per token", None, "d_model")
    d_model = x.shape[1]
    _check_shape(sequence.w_q, "w_q", d_model, f"d_model = {d_model}, the width of the embeddings", None, "d_k")
    d_k = sequence.w_q.shape[1]
    _check_shape(sequence.w_k, "w_k", d_model, f"d_model = {d_model}", d_k, "d_k, the width of w_q")
    _check_shape(sequence.w_v, "w_v", d_model, f"d_model = {d_model}", None, "d_v")
    for name in MATRICES:
        _check_numbers(getattr(sequence, name), name)
    if not isinstance(sequence.causal, bool):
        raise ScenarioError("causal: expected true or false, got {0}", value_kind(sequence.causal))
    check_padding(sequence.padding, n, sequence.causal)
    scale = sequence.scale
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
            raise ScenarioError('scale: expected "{0}" or a finite number', AUTO_SCALE)
        if not 0 <= scale <= MAX_SCALE:
            raise ScenarioError("scale: {0} is out of range (0 to {1:g})", number_text(scale), MAX_SCALE)
    for name, limit in (("title", MAX_TITLE), ("description", MAX_DESCRIPTION)):
        text = getattr(sequence, name)
        if not isinstance(text, str) or len(text) > limit:
            raise ScenarioError("{0}: expected a string of at most {1} characters", name, limit)
        _check_text(text, name)
    bound = score_bound(sequence)
    if not bound <= MAX_SCORE:
        raise ScenarioError("the scores could reach {0:.3g}, too large to compute safely; use smaller numbers", bound)


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


# ---------------------------------------------------------------- what `compute` prints


def _matrix(rows: np.ndarray) -> list[list[float | None]]:
    """Rows as JSON lists, −inf (a masked entry) as None: JSON has no infinity."""
    return [[None if math.isinf(v) else v for v in row] for row in rows.tolist()]


def sequence_report(sequence: SequenceScenario, result: SequenceResult) -> dict[str, Any]:
    """Every number of one self-attention pass as plain JSON-ready values (masked scaled scores are None)."""
    document = _report_arrays(sequence, result)
    for name, value in document.items():
        if isinstance(value, NullMasked):
            document[name] = _matrix(value.array)
        elif isinstance(value, np.ndarray):
            document[name] = value.tolist()
    return document


def sequence_report_chunks(sequence: SequenceScenario, result: SequenceResult) -> Iterator[str]:
    """The text of sequence_report_json in pieces, matrices row by row (a report at the limits is 200 MB)."""
    yield from iter_json(_report_arrays(sequence, result), json_without_controls)
    yield ""


def _report_arrays(sequence: SequenceScenario, result: SequenceResult) -> dict[str, Any]:
    """The report's fields with its matrices still arrays (masked scaled scores wrapped to be written as null)."""
    return {
        "kind": SEQUENCE_KIND,
        "title": sequence.title,
        "tokens": list(sequence.tokens),
        "causal": sequence.causal,
        "padding": list(sequence.padding),
        "n": sequence.n,
        "d_model": sequence.d_model,
        "d_k": sequence.d_k,
        "d_v": sequence.d_v,
        "scale_mode": AUTO_SCALE if sequence.scale is None else "factor",
        "scale": result.scale,
        "queries": result.queries,
        "keys": result.keys,
        "values": result.values,
        "scores": result.scores,
        "mask": NullMasked(result.additive),
        "scaled_scores": NullMasked(result.scaled_scores),
        "weights": result.weights,
        "output": result.output,
    }


def sequence_report_json(sequence: SequenceScenario, result: SequenceResult) -> str:
    """One JSON object, UTF-8 friendly."""
    return "".join(sequence_report_chunks(sequence, result))


def _cell(value: float) -> str:
    return "-inf" if math.isinf(value) else f"{value:.3f}"


def _width(text: str) -> int:
    """Columns a terminal gives the text: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _pad(text: str, width: int, right: bool = True) -> str:
    padding = " " * max(0, width - _width(text))
    return padding + text if right else text + padding


def _text_table(title: str, row_names: Sequence[str], column_names: Sequence[str], rows: np.ndarray) -> list[str]:
    cells = [[_cell(v) for v in row] for row in rows.tolist()]
    name_width = max(_width(name) for name in row_names)
    widths = [max(_width(column_names[j]), *(len(row[j]) for row in cells)) for j in range(len(column_names))]
    lines = [title, " " * name_width + "  " + "  ".join(_pad(c, w) for c, w in zip(column_names, widths))]
    for name, row in zip(row_names, cells):
        lines.append(_pad(name, name_width, right=False) + "  " + "  ".join(_pad(c, w) for c, w in zip(row, widths)))
    return [*lines, ""]


def sequence_report_text(sequence: SequenceScenario, result: SequenceResult) -> str:
    """Q, K, V, the scores, the weights and the output as readable tables (3 decimals), for a handout."""
    keys = [terminal_text(token) for token in sequence.tokens]
    tokens = [f"{i + 1} {token}" for i, token in enumerate(keys)]
    scale_text = "1/sqrt(d_k)" if sequence.scale is None else "manual factor"
    lines = [
        terminal_text(sequence.title) or "Self-attention",
        f"tokens: {' '.join(keys)}",
        f"N = {sequence.n}, d_model = {sequence.d_model}, d_k = {sequence.d_k}, d_v = {sequence.d_v}, "
        f"scale = {result.scale:.3f} ({scale_text}), causal mask: {'on' if sequence.causal else 'off'}",
        f"padding: {' '.join(str(p) for p in sequence.padding) or 'none'}",
        "",
    ]
    lines += _text_table(f"Q = X.W_Q  ({sequence.n} x {sequence.d_k})", tokens,
                         [f"q{c + 1}" for c in range(sequence.d_k)], result.queries)
    lines += _text_table(f"K = X.W_K  ({sequence.n} x {sequence.d_k})", tokens,
                         [f"k{c + 1}" for c in range(sequence.d_k)], result.keys)
    lines += _text_table(f"V = X.W_V  ({sequence.n} x {sequence.d_v})", tokens,
                         [f"v{c + 1}" for c in range(sequence.d_v)], result.values)
    shapes = f"({sequence.n} x {sequence.d_k}) . ({sequence.d_k} x {sequence.n}) = {sequence.n} x {sequence.n}"
    lines += _text_table(f"scores Q.K^T  {shapes}  (row = query token, column = key token)", tokens, keys,
                         result.scores)
    masked = ", -inf above the diagonal (causal mask)" if sequence.causal else ""
    if sequence.padding:
        masked += ", -inf in the padding columns"
    lines += _text_table(f"scaled scores x {result.scale:.3f}{masked}", tokens, keys, result.scaled_scores)
    lines += _text_table("weights = softmax of each row (each row sums to 1)", tokens, keys, result.weights)
    lines += _text_table(f"output = weights . V  ({sequence.n} x {sequence.d_v})", tokens,
                         [f"o{c + 1}" for c in range(sequence.d_v)], result.output)
    return "\n".join(lines[:-1]) + "\n"
