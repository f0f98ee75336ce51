"""What `attention-explorer compute` prints for a cross-attention file: every number, as JSON or text tables.

Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from typing import Any

from attention_explorer.core.limits import AUTO_SCALE
from attention_explorer.core.scenes.cross.scene import CrossResult, CrossScenario
from attention_explorer.core.scenes.kinds import CROSS_KIND
from attention_explorer.core.scenes.tables import matrix, text_table
from attention_explorer.core.terminal import terminal_json, terminal_text


def cross_report(cross: CrossScenario, result: CrossResult) -> dict[str, Any]:
    """Every number of one cross-attention pass as plain JSON-ready values."""
    return {
        "kind": CROSS_KIND,
        "title": cross.title,
        "target_tokens": list(cross.target_tokens),
        "source_tokens": list(cross.source_tokens),
        "n_q": cross.n_q,
        "n_k": cross.n_k,
        "d_model": cross.d_model,
        "d_k": cross.d_k,
        "d_v": cross.d_v,
        "scale_mode": AUTO_SCALE if cross.scale is None else "factor",
        "scale": result.scale,
        "queries": result.queries.tolist(),
        "keys": result.keys.tolist(),
        "values": result.values.tolist(),
        "scores": result.scores.tolist(),
        "scaled_scores": matrix(result.scaled_scores),
        "weights": result.weights.tolist(),
        "output": result.output.tolist(),
    }


def cross_report_json(cross: CrossScenario, result: CrossResult) -> str:
    """One JSON object, UTF-8 friendly."""
    return terminal_json(cross_report(cross, result))


def cross_report_text(cross: CrossScenario, result: CrossResult) -> str:
    """Q, K, V, the scores, the weights and the output as readable tables (3 decimals), for a handout."""
    target = [terminal_text(token) for token in cross.target_tokens]
    source = [terminal_text(token) for token in cross.source_tokens]
    rows_q = [f"{i + 1} {token}" for i, token in enumerate(target)]
    rows_k = [f"{j + 1} {token}" for j, token in enumerate(source)]
    n_q, n_k, d_k, d_v = cross.n_q, cross.n_k, cross.d_k, cross.d_v
    scale_text = "1/sqrt(d_k)" if cross.scale is None else "manual factor"
    lines = [
        terminal_text(cross.title) or "Cross-attention",
        f"target (queries): {' '.join(target)}",
        f"source (keys, values): {' '.join(source)}",
        f"N_q = {n_q}, N_k = {n_k}, d_model = {cross.d_model}, d_k = {d_k}, d_v = {d_v}, "
        f"scale = {result.scale:.3f} ({scale_text})",
        "",
    ]
    lines += text_table(f"Q = Y.W_Q  ({n_q} x {d_k}, from the target)", rows_q, [f"q{c + 1}" for c in range(d_k)],
                         result.queries)
    lines += text_table(f"K = X.W_K  ({n_k} x {d_k}, from the source)", rows_k, [f"k{c + 1}" for c in range(d_k)],
                         result.keys)
    lines += text_table(f"V = X.W_V  ({n_k} x {d_v}, from the source)", rows_k, [f"v{c + 1}" for c in range(d_v)],
                         result.values)
    shapes = f"({n_q} x {d_k}) . ({d_k} x {n_k}) = {n_q} x {n_k}"
    lines += text_table(f"scores Q.K^T  {shapes}  (row = target token, column = source token)", rows_q, source,
                         result.scores)
    lines += text_table(f"scaled scores x {result.scale:.3f}", rows_q, source, result.scaled_scores)
    lines += text_table("weights = softmax of each row (each row sums to 1)", rows_q, source, result.weights)
    lines += text_table(f"output = weights . V  ({n_q} x {d_v})", rows_q, [f"o{c + 1}" for c in range(d_v)],
                         result.output)
    return "\n".join(lines[:-1]) + "\n"


# The roles every kind's report module plays, by the same names (core/scenes/registry.py finds them here).
to_json = cross_report_json
to_text = cross_report_text
