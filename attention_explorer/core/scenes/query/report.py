"""What `attention-explorer compute` prints: every number the explorer shows, as JSON or as a handout."""

from __future__ import annotations

import math
from typing import Any

from attention_explorer.core.maths.attention import AttentionResult
from attention_explorer.core.scenes.query.scene import Scenario

# The escaping lives in core/terminal.py, every printing command's one helper; still importable from here.
from attention_explorer.core.terminal import json_without_controls as json_without_controls
from attention_explorer.core.terminal import terminal_json, terminal_text


def result_to_dict(scenario: Scenario, result: AttentionResult) -> dict[str, Any]:
    """All numbers of one computation as plain JSON-ready values (None for undefined angles)."""
    return {
        "title": scenario.title,
        "d_k": scenario.d_k,
        "d_v": scenario.d_v,
        "n": scenario.n,
        "labels": list(scenario.labels),
        "scale_mode": "inv_sqrt_dk" if scenario.scale is None else "factor",
        "scale": result.scale,
        "temperature": None if math.isinf(result.temperature) else result.temperature,
        "scores": result.scores.tolist(),
        "scaled_scores": result.scaled_scores.tolist(),
        "exponentials": result.exponentials.tolist(),
        "exp_shifted": result.exp_shifted,
        "exp_sum": result.exp_sum,
        "weights": result.weights.tolist(),
        "output": result.output.tolist(),
        "cosines": list(result.cosines),
        "angles_deg": list(result.angles_deg),
        "query_norm": result.query_norm,
        "key_norms": result.key_norms.tolist(),
        "entropy": result.entropy,
        "entropy_unit": "bits",
        "max_weight": result.max_weight,
        "jacobian_norm": result.jacobian_norm,
    }


def to_json(scenario: Scenario, result: AttentionResult) -> str:
    """One JSON object, UTF-8 friendly, safe to print on a terminal."""
    return terminal_json(result_to_dict(scenario, result))


def _num(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def _vec(values: Any) -> str:
    return "[" + ", ".join(f"{float(v):.3f}" for v in values) + "]"


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths)))
    out = [line, "-" * len(line)]
    for row in rows:
        out.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))))
    return out


def to_text(scenario: Scenario, result: AttentionResult) -> str:
    """The four steps as readable tables, numbers to 3 decimals, for a handout."""
    scale_text = "1/sqrt(d_k)" if scenario.scale is None else "manual factor"
    exp_name = "e^(x-max)" if result.exp_shifted else "e^x"
    labels = [terminal_text(label) for label in scenario.labels]  # a file's text, never a terminal command
    lines = [
        terminal_text(scenario.title) or "Attention",
        f"d_k = {scenario.d_k}, d_v = {scenario.d_v}, {scenario.n} keys",
        f"Q = {_vec(scenario.query)}   |Q| = {result.query_norm:.3f}",
        "",
        "Step 1  dot products  score_i = Q . K_i",
        f"Step 2  scale         x_i = score_i * {result.scale:.3f}  ({scale_text})",
        f"Step 3  softmax       w_i = {exp_name} / sum",
        "",
    ]
    rows = []
    for i, label in enumerate(labels):
        rows.append([
            label, f"{result.scores[i]:.3f}", f"{result.scaled_scores[i]:.3f}",
            f"{result.exponentials[i]:.3f}", f"{result.weights[i]:.3f}",
            _num(result.cosines[i]), _num(result.angles_deg[i]),
        ])
    headers = ["key", "score", "scaled", exp_name, "weight", "cos", "angle"]
    lines += _table(headers, rows)
    lines += [f"sum of {exp_name} = {result.exp_sum:.3f}", "", "Step 4  weighted sum of the values"]
    for i, label in enumerate(labels):
        lines.append(
            f"  {result.weights[i]:.3f} x {_vec(scenario.values[i])} = {_vec(result.weighted_values[i])}   ({label})"
        )
    lines += [
        f"output = {_vec(result.output)}",
        "",
        f"entropy = {result.entropy:.3f} bits, largest weight = {result.max_weight:.3f}, "
        f"softmax Jacobian norm = {result.jacobian_norm:.3f}",
    ]
    return "\n".join(lines) + "\n"
