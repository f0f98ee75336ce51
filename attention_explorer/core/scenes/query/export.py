"""Copy-as formats for slides and notebooks: a Markdown table, LaTeX, and a NumPy snippet."""

from __future__ import annotations

from attention_explorer.core.maths.attention import AttentionResult
from attention_explorer.core.scenes.query.scene import Scenario


def _f(value: float) -> str:
    return f"{value:.3f}"


def _vec(values) -> str:
    return "[" + ", ".join(_f(float(v)) for v in values) + "]"


def to_markdown(scenario: Scenario, result: AttentionResult) -> str:
    """The four steps as a Markdown table, one row per key, and the output."""
    exp_name = "e^(x−max)" if result.exp_shifted else "e^x"
    lines = [
        f"| key | Q·K | × {_f(result.scale)} | {exp_name} | weight | V | weight × V |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for i, label in enumerate(scenario.labels):
        safe_label = label.replace("|", "\\|")
        lines.append(
            f"| {safe_label} | {_f(result.scores[i])} | {_f(result.scaled_scores[i])} | "
            f"{_f(result.exponentials[i])} | {_f(result.weights[i])} | {_vec(scenario.values[i])} | "
            f"{_vec(result.weighted_values[i])} |"
        )
    lines.append(f"| **sum** | | | {_f(result.exp_sum)} | {_f(float(result.weights.sum()))} | | "
                 f"**{_vec(result.output)}** |")
    return "\n".join(lines) + "\n"


def _latex_escape(text: str) -> str:
    for char, escaped in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"),
                          ("#", r"\#"), ("_", r"\_"), ("{", r"\{"), ("}", r"\}")):
        text = text.replace(char, escaped)
    return text


def to_latex(scenario: Scenario, result: AttentionResult) -> str:
    """A LaTeX tabular of the four steps, with the output below it."""
    exp_name = r"e^{x-\max}" if result.exp_shifted else r"e^{x}"
    rows = [
        r"\begin{tabular}{lrrrr}",
        r"\hline",
        rf"key & $q\cdot k_i$ & $\times {_f(result.scale)}$ & ${exp_name}$ & $w_i$ \\",
        r"\hline",
    ]
    for i, label in enumerate(scenario.labels):
        rows.append(
            f"{_latex_escape(label)} & {_f(result.scores[i])} & {_f(result.scaled_scores[i])} & "
            f"{_f(result.exponentials[i])} & {_f(result.weights[i])} \\\\"
        )
    rows += [r"\hline", rf"$\sum$ & & & {_f(result.exp_sum)} & 1.000 \\", r"\hline", r"\end{tabular}", ""]
    output = ", ".join(_f(float(v)) for v in result.output)
    rows.append(rf"$\mathrm{{softmax}}\!\left(s\, q K^\top\right) V = [{output}]$")
    return "\n".join(rows) + "\n"


def to_numpy(scenario: Scenario) -> str:
    """A short, self-contained NumPy script that reproduces the four steps for this scenario."""
    def array(rows) -> str:
        return repr(rows.tolist())

    scale_line = (
        "scale = 1 / np.sqrt(q.shape[0])  # 1/sqrt(d_k)" if scenario.scale is None
        else f"scale = {scenario.scale!r}  # manual factor"
    )
    return "\n".join([
        "import numpy as np",
        "",
        f"q = np.array({array(scenario.query)})",
        f"K = np.array({array(scenario.keys)})",
        f"V = np.array({array(scenario.values)})",
        scale_line,
        "",
        "scores = K @ q                      # step 1: dot products",
        "scaled = scores * scale             # step 2: scale",
        "e = np.exp(scaled - scaled.max())   # step 3: softmax (max subtracted for stability)",
        "weights = e / e.sum()",
        "output = weights @ V                # step 4: weighted sum of the values",
        "print(weights.round(3), output.round(3))",
        "",
    ])
