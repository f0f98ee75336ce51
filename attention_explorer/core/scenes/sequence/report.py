"""What `attention-explorer compute` prints for a self-attention file: Q, K, V, the scores, the weights, the output.

As JSON (written in pieces: a report at the limits is 200 MB) or as text tables. Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from attention_explorer.core.files.jsonwrite import NullMasked, iter_json
from attention_explorer.core.limits import AUTO_SCALE
from attention_explorer.core.scenes.kinds import SEQUENCE_KIND  # the `kind` in the report
from attention_explorer.core.scenes.sequence.scene import SequenceResult, SequenceScenario
from attention_explorer.core.scenes.tables import matrix, text_table
from attention_explorer.core.terminal import json_without_controls, terminal_text


def sequence_report(sequence: SequenceScenario, result: SequenceResult) -> dict[str, Any]:
    """Every number of one self-attention pass as plain JSON-ready values (masked scaled scores are None)."""
    document = _report_arrays(sequence, result)
    for name, value in document.items():
        if isinstance(value, NullMasked):
            document[name] = matrix(value.array)
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
    lines += text_table(f"Q = X.W_Q  ({sequence.n} x {sequence.d_k})", tokens,
                         [f"q{c + 1}" for c in range(sequence.d_k)], result.queries)
    lines += text_table(f"K = X.W_K  ({sequence.n} x {sequence.d_k})", tokens,
                         [f"k{c + 1}" for c in range(sequence.d_k)], result.keys)
    lines += text_table(f"V = X.W_V  ({sequence.n} x {sequence.d_v})", tokens,
                         [f"v{c + 1}" for c in range(sequence.d_v)], result.values)
    shapes = f"({sequence.n} x {sequence.d_k}) . ({sequence.d_k} x {sequence.n}) = {sequence.n} x {sequence.n}"
    lines += text_table(f"scores Q.K^T  {shapes}  (row = query token, column = key token)", tokens, keys,
                         result.scores)
    masked = ", -inf above the diagonal (causal mask)" if sequence.causal else ""
    if sequence.padding:
        masked += ", -inf in the padding columns"
    lines += text_table(f"scaled scores x {result.scale:.3f}{masked}", tokens, keys, result.scaled_scores)
    lines += text_table("weights = softmax of each row (each row sums to 1)", tokens, keys, result.weights)
    lines += text_table(f"output = weights . V  ({sequence.n} x {sequence.d_v})", tokens,
                         [f"o{c + 1}" for c in range(sequence.d_v)], result.output)
    return "\n".join(lines[:-1]) + "\n"


# The roles every kind's report module plays, by the same names (core/scenes/registry.py finds them here).
to_json = sequence_report_json
to_text = sequence_report_text
json_chunks = sequence_report_chunks  # the JSON in pieces: a report at the limits is never held whole
