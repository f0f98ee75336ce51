"""Benchmark case: the multi-head lab at N = 64, d_model = 512, h = 8, an edit recomputed and the page repainted.

    python tests/benchmarks/cases_multihead.py        # prints the figures; bench_interaction.py collects CASES

Ours: the causal mask is switched (every head's 64 × 64 scores and weights change, and their masks), the lab's
model recomputes, the lab redraws its maps, tables and texts, events are processed, and the lab is repainted
at once (`QWidget.repaint()`). Baseline, measured in the same run and alternated with it: a widget of the same
size with what the lab shows at the same places and sizes and no model: 16 pyqtgraph plots, each an ImageItem
with the lab's colour map and colour bar and a mask path, given the recorded 64 × 64 arrays, levels and masks of
the lab's frames, and the three visible W tables with their recorded texts and tints; repainted the same way.
The ratio ours / baseline is what the lab adds to the toolkit's own cost: the recompute (Q, K, V are reused
when only the mask changes; Concat·W_O is not), the heatmaps' bookkeeping, the texts and the controls.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QApplication, QGraphicsPathItem, QTableView, QWidget

# A quick run (AE_BENCH_QUICK=1, the test suite's smoke test) only shows that the case still works: small and few.
_QUICK = os.environ.get("AE_BENCH_QUICK") == "1"
N, D_MODEL, HEADS = (8, 64, 2) if _QUICK else (64, 512, 8)
WIDTH, HEIGHT = 1280, 640  # the lab's page in the 1280×720 window (menu, tabs and status bar take the rest)
REPETITIONS = 3 if _QUICK else 30
TARGET = 2.0


def _app() -> QApplication:
    app = QApplication.instance() or QApplication([sys.argv[0]])
    pg.setConfigOption("mouseRateLimit", -1)
    return app


def _drain(app: QApplication) -> None:
    app.processEvents()
    app.sendPostedEvents()
    app.processEvents()


def _lab(app: QApplication):
    from attention_explorer.core.scenes.multihead.scene import build_multihead
    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.labs.multihead.lab import MultiHeadLab

    scenario = build_multihead([f"t{i}" for i in range(N)], D_MODEL, HEADS, seed=3)
    lab = MultiHeadLab(ExplorerModel(), scenario=scenario)
    lab.resize(WIDTH, HEIGHT)
    lab.show()
    for _ in range(3):
        _drain(app)
    return lab


class _StaticTable(QAbstractTableModel):
    """Recorded cell texts and backgrounds: what a table of the lab shows, with no model behind it."""

    def __init__(self, texts: list[list[str]], brushes: list[list[QBrush | None]], parent=None) -> None:
        super().__init__(parent)
        self.texts, self.brushes = texts, brushes

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return len(self.texts)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return len(self.texts[0]) if self.texts else 0

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole:
            return self.texts[index.row()][index.column()]
        if role == Qt.ItemDataRole.BackgroundRole:
            return self.brushes[index.row()][index.column()]
        return None


class _Baseline(QWidget):
    """The lab's visible items with no model: its 16 maps (image, colour map, colour bar, mask) and its 3 tables."""

    def __init__(self, lab) -> None:
        super().__init__()
        self.resize(lab.size())
        self.maps = []
        for tile in lab.heads_grid.tiles:
            for heatmap in (tile.score_map, tile.weight_map):
                plot = pg.PlotWidget(self, background="w")
                place = heatmap.mapTo(lab, heatmap.rect().topLeft())
                plot.setGeometry(place.x(), place.y(), heatmap.width(), heatmap.height())
                item = plot.getPlotItem()
                item.setMouseEnabled(x=False, y=False)
                item.showAxis("top")
                item.hideAxis("bottom")
                item.getViewBox().invertY(True)
                image = pg.ImageItem(axisOrder="row-major")
                item.addItem(image)
                bar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=heatmap.colormap, interactive=False,
                                      width=heatmap.look.bar_width, colorMapMenu=False)
                bar.setImageItem(image, insert_in=item)
                mask = QGraphicsPathItem()
                mask.setBrush(QBrush(QColor("#D4D4D4")))
                item.addItem(mask)
                item.getViewBox().setRange(xRange=(0, N), yRange=(0, N), padding=0.02)
                self.maps.append((image, bar, mask))
        for name in ("w_q", "w_k", "w_v"):
            table = lab.tabs.tables[name]
            model = table.model()
            rows, columns = model.rowCount(), model.columnCount()
            texts = [[model.data(model.index(r, c)) for c in range(columns)] for r in range(rows)]
            brushes = [[model.data(model.index(r, c), Qt.ItemDataRole.BackgroundRole) for c in range(columns)]
                       for r in range(rows)]
            view = QTableView(self)
            view.setModel(_StaticTable(texts, brushes, view))
            place = table.mapTo(lab, table.rect().topLeft())
            view.setGeometry(place.x(), place.y(), table.width(), table.height())
            view.horizontalHeader().setDefaultSectionSize(table.horizontalHeader().defaultSectionSize())
            view.verticalHeader().setDefaultSectionSize(table.verticalHeader().defaultSectionSize())
        self.show()

    def show_frames(self, frames: list[tuple[np.ndarray, tuple[float, float], QPainterPath]]) -> None:
        for (image, bar, mask), (values, levels, path) in zip(self.maps, frames):
            image.setImage(values, levels=levels, autoLevels=False)
            bar.setLevels(levels)
            mask.setPath(path)


def _recorded(lab) -> list[tuple[np.ndarray, tuple[float, float], QPainterPath]]:
    """What the lab's maps show now: each map's image, levels and mask, in the baseline's order."""
    frames = []
    for tile in lab.heads_grid.tiles:
        for heatmap in (tile.score_map, tile.weight_map):
            frames.append((np.array(heatmap.image.image), tuple(heatmap.image.getLevels()),
                           QPainterPath(heatmap.mask_fill.path())))
    return frames


def measure_ms() -> dict[str, float]:
    """Median milliseconds of ours and of the baseline, alternating, and their ratio."""
    app = _app()
    lab = _lab(app)
    if lab.multihead.scenario.heads != HEADS or len(lab.heads_grid.tiles) != HEADS:
        raise RuntimeError("the lab did not take the benchmark's scenario")
    states = []
    for causal in (True, False):  # the maps of both states, for the baseline to show in turn
        lab.multihead.set_causal(causal)
        _drain(app)
        states.append(_recorded(lab))
    baseline = _Baseline(lab)
    _drain(app)
    ours_ms, baseline_ms = [], []
    for repetition in range(REPETITIONS + 2):  # two rounds of warm-up
        causal = repetition % 2 == 0
        start = time.perf_counter()
        lab.multihead.set_causal(causal)
        _drain(app)
        lab.repaint()
        ours = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        baseline.show_frames(states[0 if causal else 1])
        _drain(app)
        baseline.repaint()
        theirs = (time.perf_counter() - start) * 1000
        if repetition >= 2:
            ours_ms.append(ours)
            baseline_ms.append(theirs)
    shown = lab.heads_grid.tiles[HEADS - 1].weight_map.image.image
    np.testing.assert_array_equal(shown, lab.multihead.result.weights[HEADS - 1])  # the maps show the model
    baseline.close()
    lab.close()
    ours, theirs = statistics.median(ours_ms), statistics.median(baseline_ms)
    return {"multihead_ms_median": ours, "baseline_ms_median": theirs, "ratio": ours / theirs}


def measure_ratio() -> float:
    """The CASES protocol: ours / baseline."""
    return measure_ms()["ratio"]


def check(ratio: float) -> bool:
    """Within the target."""
    return ratio <= TARGET


CASES = [("multihead64_d512_h8_ratio", measure_ratio, f"≤ {TARGET}×")]


if __name__ == "__main__":
    figures = measure_ms()
    print(", ".join(f"{name} {value:.2f}" for name, value in figures.items()), "target", CASES[0][2])
