"""What `attention-explorer compute` prints for a positions file: q, k and both encodings' q·k at m and n.

Pure Python and numpy, no Qt.
"""

from __future__ import annotations

from attention_explorer.core.maths.positional import frequencies
from attention_explorer.core.scenes.kinds import POSITIONS_KIND
from attention_explorer.core.scenes.positions.scene import PositionalResult, PositionalScene
from attention_explorer.core.terminal import terminal_json, terminal_text


def positions_report_json(scene: PositionalScene, result: PositionalResult) -> str:
    """What `compute` prints for a positions file, as JSON."""
    return terminal_json({
        "kind": POSITIONS_KIND, "title": scene.title, "d": scene.d, "pair": scene.pair, "m": scene.m, "n": scene.n,
        "offset": scene.m - scene.n, "seed": scene.seed, "base": scene.base,
        "theta": float(frequencies(scene.d, scene.base)[scene.pair]), "given": scene.given,
        "q": result.q.tolist(), "k": result.k.tolist(), "scores": result.scores,
    })


def positions_report_text(scene: PositionalScene, result: PositionalResult) -> str:
    """What `compute --format text` prints for a positions file."""
    lines = [terminal_text(scene.title)] if scene.title else []
    lines += [
        (f"d = {scene.d}, q and k given" if scene.given else f"d = {scene.d}, seed = {scene.seed}")
        + f": q at m = {scene.m}, k at n = {scene.n} (m - n = {scene.m - scene.n}), RoPE base {scene.base:g}",
        "q = [" + ", ".join(f"{value:.4f}" for value in result.q) + "]",
        "k = [" + ", ".join(f"{value:.4f}" for value in result.k) + "]",
        f"sinusoidal (q + p_m).(k + p_n) = {result.scores['sinusoidal']:.6f}",
        f"RoPE R(m)q.R(n)k = {result.scores['rope']:.6f}",
    ]
    return "\n".join(lines) + "\n"


# The roles every kind's report module plays, by the same names (core/scenes/registry.py finds them here).
to_json = positions_report_json
to_text = positions_report_text
