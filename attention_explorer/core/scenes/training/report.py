"""What `attention-explorer compute` prints for a training file: both runs' summaries (as `train` ends them).

Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from attention_explorer.core.scenes.kinds import TRAINING_KIND
from attention_explorer.core.scenes.training.scene import TrainingResult, TrainingScene
from attention_explorer.core.terminal import terminal_json, terminal_text


def training_report_json(scene: TrainingScene, result: TrainingResult) -> str:
    """What `compute` prints for a training file, as JSON."""
    return terminal_json({"kind": TRAINING_KIND, "title": scene.title, "d_k": scene.d_k, "steps": scene.steps,
                          "lr": scene.lr, "seed": scene.seed, "verdict": result.verdict,
                          "scaled": result.scaled.as_json(), "unscaled": result.unscaled.as_json()})


def _reached(step: int | None) -> str:
    return "never" if step is None else f"at step {step}"


def training_report_text(scene: TrainingScene, result: TrainingResult) -> str:
    """What `compute --format text` prints for a training file."""
    lines = [terminal_text(scene.title)] if scene.title else []
    lines.append(f"d_k = {scene.d_k}, {scene.steps} steps, lr = {scene.lr:g}, seed = {scene.seed}; "
                 f"threshold loss {result.scaled.threshold:.4f}")
    for name, summary in (("scaled  ", result.scaled), ("unscaled", result.unscaled)):
        lines.append(f"{name}: below the threshold {_reached(summary.reached_at)}, final loss "
                     f"{summary.final_loss:.4g}, first entropy {summary.first_entropy:.3f} bits")
    lines.append(f"verdict: {result.verdict}")
    return "\n".join(lines) + "\n"


# The roles every kind's report module plays, by the same names (core/scenes/registry.py finds them here).
to_json = training_report_json
to_text = training_report_text
