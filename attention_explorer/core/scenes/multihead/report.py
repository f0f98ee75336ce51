"""What `attention-explorer compute` prints for a multi-head file: every head's numbers, the concatenation, the output.

Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from typing import Any

from attention_explorer.core.limits import AUTO_SCALE
from attention_explorer.core.scenes.multihead.scene import MULTIHEAD_KIND, MultiHeadResult, MultiHeadScenario
from attention_explorer.core.scenes.tables import matrix, text_table
from attention_explorer.core.terminal import terminal_json, terminal_text


def multihead_report(scenario: MultiHeadScenario, result: MultiHeadResult) -> dict[str, Any]:
    """Every number of one multi-head pass as JSON-ready values (per-head lists; masked scaled scores are None)."""
    return {
        "kind": MULTIHEAD_KIND,
        "title": scenario.title,
        "tokens": list(scenario.tokens),
        "causal": scenario.causal,
        "n": scenario.n,
        "d_model": scenario.d_model,
        "heads": scenario.heads,
        "d_k": scenario.d_k,
        "d_v": scenario.d_k,
        "scale_mode": AUTO_SCALE if scenario.scale is None else "factor",
        "scale": result.scale,
        "per_head": [
            {
                "head": head + 1,
                "columns": [head * scenario.d_k, (head + 1) * scenario.d_k],
                "queries": result.head_slice(result.queries, head).tolist(),
                "keys": result.head_slice(result.keys, head).tolist(),
                "values": result.head_slice(result.values, head).tolist(),
                "scores": result.scores[head].tolist(),
                "scaled_scores": matrix(result.scaled_scores[head]),
                "weights": result.weights[head].tolist(),
                "output": result.head_outputs[head].tolist(),
            }
            for head in range(scenario.heads)
        ],
        "concat": result.concat.tolist(),
        "output": result.output.tolist(),
    }


def multihead_report_json(scenario: MultiHeadScenario, result: MultiHeadResult) -> str:
    """One JSON object, UTF-8 friendly."""
    return terminal_json(multihead_report(scenario, result))


def multihead_report_text(scenario: MultiHeadScenario, result: MultiHeadResult) -> str:
    """Each head's scores, weights and output, the concatenation and the output as tables (3 decimals)."""
    keys = [terminal_text(token) for token in scenario.tokens]
    tokens = [f"{i + 1} {token}" for i, token in enumerate(keys)]
    n, d_model, h, d_k = scenario.n, scenario.d_model, scenario.heads, scenario.d_k
    scale_text = "1/sqrt(d_k)" if scenario.scale is None else "manual factor"
    lines = [
        terminal_text(scenario.title) or "Multi-head attention",
        f"tokens: {' '.join(keys)}",
        f"N = {n}, d_model = {d_model}, h = {h}, d_k = d_v = d_model / h = {d_k}, "
        f"scale = {result.scale:.3f} ({scale_text}), causal mask: {'on' if scenario.causal else 'off'}",
        "",
    ]
    masked = ", -inf above the diagonal (causal mask)" if scenario.causal else ""
    for head in range(h):
        first, last = head * d_k + 1, (head + 1) * d_k
        lines += [f"head {head + 1}: columns {first}..{last} of W_Q, W_K, W_V", ""]
        lines += text_table(f"head {head + 1} scores Q_{head + 1}.K_{head + 1}^T  ({n} x {n})", tokens, keys,
                             result.scores[head])
        lines += text_table(f"head {head + 1} scaled scores x {result.scale:.3f}{masked}", tokens, keys,
                             result.scaled_scores[head])
        lines += text_table(f"head {head + 1} weights (each row sums to 1)", tokens, keys, result.weights[head])
        lines += text_table(f"head {head + 1} output = weights . V_{head + 1}  ({n} x {d_k})", tokens,
                             [f"o{c + 1}" for c in range(d_k)], result.head_outputs[head])
    columns = [f"h{c // d_k + 1}.{c % d_k + 1}" for c in range(d_model)]
    lines += text_table(f"concat [head 1 | ... | head {h}]  ({n} x {d_model})", tokens, columns, result.concat)
    lines += text_table(f"output = concat . W_O  ({n} x {d_model}) . ({d_model} x {d_model}) = {n} x {d_model}",
                         tokens, [f"y{c + 1}" for c in range(d_model)], result.output)
    return "\n".join(lines[:-1]) + "\n"


# The roles every kind's report module plays, by the same names (core/scenes/registry.py finds them here).
to_json = multihead_report_json
to_text = multihead_report_text
