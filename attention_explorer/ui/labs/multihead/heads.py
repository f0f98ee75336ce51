"""The multi-head lab's small multiples: one tile per head with its score and weight heatmaps, in the head's colour.

Tiles are built once per number of heads and laid out in as many rows as make them largest; the heatmaps
(ui/widgets/heatmap.py) are updated in place. A click on a tile's title or on one of its rows chooses that head.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from attention_explorer.ui.style.theme import SCORE_MAP_HEX, WEIGHT_MAP_HEX
from attention_explorer.ui.widgets.heatmap import CELL_TEXT_MAX_N, Heatmap, HeatmapLook

# One colour per head, also used for that head's columns in W_Q, W_K, W_V and the concatenation (repeats after 8).
HEAD_HEX = ("#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#8C6D1F", "#6A3D9A")
_SMALL = dict(bar_width=10, bar_menu=False, padding=0.02, compact_numbers=True, short_row_ticks=True,
              bar_hides_when_low=True)
SCORE_LOOK = HeatmapLook(colours=SCORE_MAP_HEX, **_SMALL)
WEIGHT_LOOK = HeatmapLook(colours=WEIGHT_MAP_HEX, **_SMALL)
TILE_MIN = 96  # a heatmap's least side in pixels
CELL_TEXT_BUDGET = 200  # numbers in the cells of all maps together: each is a scene item, built when N or h changes
TITLE_HEIGHT = 30


def head_hex(head: int) -> str:
    """The colour of head `head` (counted from 0)."""
    return HEAD_HEX[head % len(HEAD_HEX)]


def cell_text_limit(heads: int) -> int:
    """The largest N whose cells carry their numbers with h heads (two maps each) within the budget."""
    return min(CELL_TEXT_MAX_N, math.isqrt(CELL_TEXT_BUDGET // (2 * heads)))


def best_rows(heads: int, width: float, height: float) -> int:
    """How many rows of tiles make the heatmaps largest (each tile is one map wide and two high)."""
    def side(rows: int) -> float:
        return min(width / math.ceil(heads / rows), (height - rows * TITLE_HEIGHT) / (2 * rows))

    return max(range(1, heads + 1), key=lambda rows: (side(rows), -rows))


class HeadTile(QFrame):
    """One head: its title (a button) above its score map and its weight map."""

    def __init__(self, head: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.head = head
        self.setObjectName(f"headTile{head + 1}")
        self.setProperty("figureTitled", True)  # a map exports as its tile: "Head n" above both maps (figures.py)
        self.title = QPushButton(self)
        self.title.setObjectName(f"headTitle{head + 1}")
        self.title.setFlat(True)
        self.title.setCursor(Qt.CursorShape.PointingHandCursor)
        self.score_map = Heatmap(SCORE_LOOK, self)
        self.score_map.setObjectName(f"headScores{head + 1}")
        self.weight_map = Heatmap(WEIGHT_LOOK, self)
        self.weight_map.setObjectName(f"headWeights{head + 1}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        for heatmap in (self.score_map, self.weight_map):
            heatmap.setMinimumSize(TILE_MIN, TILE_MIN)
            heatmap.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
            layout.addWidget(heatmap, 1)
        self.chosen: bool | None = None
        self.set_chosen(False)

    def set_chosen(self, chosen: bool) -> None:
        """A thick frame in the head's colour around the chosen head, a thin one around the others."""
        if chosen == self.chosen:
            return  # a style sheet costs a re-polish of the tile
        self.chosen = chosen
        colour = head_hex(self.head)
        width = 4 if chosen else 1
        self.setStyleSheet(f"#{self.objectName()} {{ border: {width}px solid {colour}; border-radius: 4px; }}")
        weight = "bold" if chosen else "normal"
        self.title.setStyleSheet(f"color: {colour}; font-weight: {weight}; text-align: left; padding: 2px 4px;")


class HeadsGrid(QWidget):
    """Every head's score and weight heatmaps as small multiples; emits which head (and row) was clicked."""

    head_clicked = Signal(int)  # a tile's title
    row_clicked = Signal(int, int)  # head, query row: a cell of either map

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("headsGrid")
        self.tiles: list[HeadTile] = []
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setSpacing(6)
        self._rows = 0
        self.setMinimumSize(2 * TILE_MIN, 2 * TILE_MIN + TITLE_HEIGHT)

    def sizeHint(self) -> QSize:
        return QSize(700, 520)

    def set_heads(self, heads: int) -> None:
        """One tile per head (tiles are kept when the count stays, added or removed when it changes)."""
        while len(self.tiles) > heads:
            tile = self.tiles.pop()
            self._grid.removeWidget(tile)
            tile.deleteLater()
        while len(self.tiles) < heads:
            tile = HeadTile(len(self.tiles), self)
            tile.title.clicked.connect(lambda _checked=False, h=tile.head: self.head_clicked.emit(h))
            for heatmap in (tile.score_map, tile.weight_map):
                heatmap.cell_clicked.connect(lambda row, _column, h=tile.head: self.row_clicked.emit(h, row))
                heatmap.apply_theme()
            self.tiles.append(tile)
        for tile in self.tiles:
            for heatmap in (tile.score_map, tile.weight_map):
                heatmap.set_cell_text_limit(cell_text_limit(heads))
        self._place(force=True)

    def _place(self, force: bool = False) -> None:
        if not self.tiles:
            return
        rows = best_rows(len(self.tiles), max(self.width(), 1), max(self.height(), 1))
        if rows == self._rows and not force:
            return
        self._rows = rows
        columns = math.ceil(len(self.tiles) / rows)
        for tile in self.tiles:
            self._grid.removeWidget(tile)
        for index, tile in enumerate(self.tiles):
            self._grid.addWidget(tile, index // columns, index % columns)
        for column in range(self._grid.columnCount()):
            self._grid.setColumnStretch(column, 1 if column < columns else 0)
        for row in range(self._grid.rowCount()):
            self._grid.setRowStretch(row, 1 if row < rows else 0)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._place()

    @property
    def rows(self) -> int:
        """Rows of tiles in the current layout."""
        return self._rows

    def show_heads(self, scores: np.ndarray, weights: np.ndarray, masked: np.ndarray, tokens: Sequence[str],
                   score_texts: list[list[str]] | None, weight_texts: list[list[str]] | None) -> None:
        """Every head's maps: scores on one symmetric scale for all heads (so heads compare), weights 0 … 1."""
        visible = scores[:, ~masked]
        peak = float(np.max(np.abs(visible))) if visible.size else 0.0
        peak = math.ceil(peak * 100.0) / 100.0 or 1.0
        shown = np.where(masked, np.nan, scores)
        for head, tile in enumerate(self.tiles):
            tile.score_map.show_matrix(shown[head], (-peak, peak), tokens,
                                       score_texts[head] if score_texts else None, masked)
            tile.weight_map.show_matrix(weights[head], (0.0, 1.0), tokens,
                                        weight_texts[head] if weight_texts else None, masked)

    def choose(self, head: int, row: int) -> None:
        """Frame the chosen head and mark its chosen query row in both of its maps."""
        for tile in self.tiles:
            chosen = tile.head == head
            tile.set_chosen(chosen)
            for heatmap in (tile.score_map, tile.weight_map):
                heatmap.set_marks(row if chosen else -1, -1)

    def apply_theme(self) -> None:
        """Fonts and pens after a theme or zoom change."""
        for tile in self.tiles:  # the tiles' own colours are the heads', the same in every theme
            for heatmap in (tile.score_map, tile.weight_map):
                heatmap.apply_theme()
