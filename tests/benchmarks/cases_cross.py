"""Benchmark case: the cross-attention lab's maps at N_q = N_k = 512 against the self-attention lab's at N = 512.

One number of the embeddings changes and the events are processed (no repaint), in both labs alternately, in the
same process; the ratio of the medians is the figure (the self-attention lab's own update has a target of 33 ms).
Collected by bench_interaction.py (CASES); `python tests/benchmarks/cases_cross.py` runs it alone.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

N = 8 if os.environ.get("AE_BENCH_QUICK") == "1" else 512
EDITS = 3 if os.environ.get("AE_BENCH_QUICK") == "1" else 15


def _application():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([sys.argv[0]])


def _drain(app) -> None:
    app.processEvents()
    app.sendPostedEvents()
    app.processEvents()


def cross_heatmap_ratio() -> float:
    """Median time of one edit in the cross lab (512 × 512) over the same in the self-attention lab (N = 512)."""
    app = _application()
    from attention_explorer.core.files.presets import load_preset
    from attention_explorer.core.scenes.cross import scene as cx
    from attention_explorer.core.scenes.sequence import scene as sq
    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.labs.cross.lab import CrossAttentionLab
    from attention_explorer.ui.labs.self_attention.lab import SelfAttentionLab

    model = ExplorerModel(load_preset("drag-2d"))
    tokens = [f"t{i}" for i in range(N)]
    big = sq.build_sequence(tokens, 16, 8, 8, seed=5)
    self_lab = SelfAttentionLab(model, sequence=big)
    cross_lab = CrossAttentionLab(model, cross=cx.CrossScenario(
        target_tokens=tokens, source_tokens=[f"s{i}" for i in range(N)], target_embeddings=big.embeddings,
        source_embeddings=big.embeddings[::-1], w_q=big.w_q, w_k=big.w_k, w_v=big.w_v))
    times: dict[str, list[float]] = {"self": [], "cross": []}
    edits = {"self": lambda r, v: self_lab.sequence_model.set_cell("embeddings", r, 0, v),
             "cross": lambda r, v: cross_lab.cross_model.set_cell("source_embeddings", r, 0, v)}
    for lab in (self_lab, cross_lab):
        lab.resize(1280, 640)
        lab.show()
        lab.setUpdatesEnabled(False)
    _drain(app)
    rng = np.random.default_rng(17)
    for edit in range(EDITS):
        for name in ("self", "cross") if edit % 2 == 0 else ("cross", "self"):
            start = time.perf_counter()
            edits[name](edit % N, float(rng.uniform(-1, 1)))
            _drain(app)
            times[name].append(time.perf_counter() - start)
    for lab in (self_lab, cross_lab):
        lab.close()
    return float(np.median(times["cross"]) / np.median(times["self"]))


CASES = [("cross-attention maps 512×512 edit / self-attention maps N=512 edit", cross_heatmap_ratio, "≤ 1.5×")]


def check(ratio: float) -> bool:
    """The cross lab may cost at most half as much again as the self-attention lab."""
    return ratio <= 1.5


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    figure = cross_heatmap_ratio()
    print(f"{CASES[0][0]}: {figure:.2f} (target {CASES[0][2]}, {'ok' if check(figure) else 'MISSED'})")
