"""The transformer page's "Next token" tab: append a token, its query row over every cached key, the KV cache."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.pretrained.checkpoint import Analysis
from attention_explorer.core.pretrained.generation import MAX_TOP_K, CacheCost
from attention_explorer.ui.labs.transformer.heads import AXIS_HEX, WEIGHT_COLOURS
from attention_explorer.ui.style.numbers import formatted_number, grouped_integer
from attention_explorer.ui.style.safe_text import plain_label
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.heatmap import CELL_TEXT_MAX_N, MARK_HEX, short_token

CACHED_HEX = "#6A8EC8"
FULL_HEX = "#B0B0B0"  # the cache full multi-head attention would need
NEWEST_HEX = MARK_HEX
DIAGRAM_MAX_CELLS = 64  # beyond this many tokens the cache is drawn as a bar whose length still grows


class RowStrip(pg.PlotWidget):
    """One query row as a 1 × n strip of cells: the newest token's weights over every cached key."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w", enableMenu=False)
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.setMenuEnabled(False)
        item.hideButtons()
        cache_axes(item)
        item.showAxis("top")
        item.hideAxis("bottom")
        item.hideAxis("left")
        self.view_box = item.getViewBox()
        self.view_box.disableAutoRange()
        self.view_box.invertY(True)
        for name in ("top",):
            item.getAxis(name).setPen(pg.mkPen(AXIS_HEX))
            item.getAxis(name).setTextPen(pg.mkPen(AXIS_HEX))
        colour_map = pg.ColorMap([0.0, 1.0], [QColor(*c) for c in WEIGHT_COLOURS])
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(colour_map.getLookupTable(0.0, 1.0, 256))
        item.addItem(self.image)
        self.cell_texts: list[pg.TextItem] = []
        self.setFixedHeight(92)

    def show_row(self, weights: np.ndarray, tokens: Sequence[str]) -> None:
        """Draw the row (one cell per key, 0 white → 1 dark blue) with the tokens above and the numbers inside."""
        n = weights.shape[0]
        self.image.setImage(weights[np.newaxis, :], levels=(0.0, 1.0), autoLevels=False)
        self.image.setRect(QRectF(0.0, 0.0, n, 1.0))
        self.view_box.setRange(xRange=(0, n), yRange=(0, 1), padding=0.01)
        step = 1 if n <= 16 else max(1, n // 12)
        self.getPlotItem().getAxis("top").setTicks(
            [[(j + 0.5, short_token(tokens[j], 8)) for j in range(0, n, step)]])
        wanted = n if n <= CELL_TEXT_MAX_N else 0
        while len(self.cell_texts) > wanted:
            self.removeItem(self.cell_texts.pop())
        while len(self.cell_texts) < wanted:
            text = pg.TextItem(anchor=(0.5, 0.5))
            text.setZValue(10)
            self.addItem(text)
            self.cell_texts.append(text)
        for j, text in enumerate(self.cell_texts):
            text.setPos(j + 0.5, 0.5)
            text.setText(formatted_number("{:.2f}", weights[j]))
            text.setColor(QColor("#FFFFFF" if weights[j] > 0.55 else "#111111"))


class CacheDiagram(QWidget):
    """The KV cache drawn as it grows: per layer a row of K and a row of V, one cell per cached token."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layers = 0
        self.tokens = 0
        self.newest = False  # the last cell was added by the latest step
        self.setProperty("figure", True)  # right-click ▸ Export… (ui/widgets/figures.py)
        self.setMinimumHeight(60)

    def sizeHint(self) -> QSize:
        return QSize(400, 24 + 22 * min(max(self.layers, 1), 6) * 2)

    def set_cache(self, layers: int, tokens: int, newest: bool) -> None:
        """Draw `tokens` cells in each of 2·`layers` rows, the last one marked when `newest`."""
        self.layers, self.tokens, self.newest = layers, tokens, newest
        self.updateGeometry()
        self.update()

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt() * 0.85)
        painter.setFont(font)
        rows = max(2 * min(self.layers, 6), 1)
        label_width = painter.fontMetrics().horizontalAdvance("L00 K") + 8
        row_height = max(6.0, min(20.0, (self.height() - 4) / rows))
        cells = min(self.tokens, DIAGRAM_MAX_CELLS)
        width = max(self.width() - label_width - 4, 10)
        cell = min(18.0, width / max(DIAGRAM_MAX_CELLS, 1) if self.tokens > DIAGRAM_MAX_CELLS else width / 40)
        for row in range(rows):
            layer, part = divmod(row, 2)
            y = 2 + row * row_height
            painter.setPen(theme().foreground())  # readable on every theme (was dark grey on black)
            painter.drawText(QRectF(0, y, label_width, row_height), Qt.AlignmentFlag.AlignVCenter,
                             f"L{layer} {'KV'[part]}")
            for j in range(cells):
                last = j == cells - 1 and self.newest
                painter.setBrush(QColor(NEWEST_HEX if last else CACHED_HEX))
                painter.setPen(QPen(QColor("#FFFFFF"), 1))
                painter.drawRect(QRectF(label_width + j * cell, y + 1, cell, row_height - 2))
        painter.end()


class CacheSaving(QWidget):
    """Two bars to scale: the cache grouped-query attention keeps, and the one full multi-head attention would keep."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, int]] = []  # (label, bytes), the grouped cache first
        self.setMinimumHeight(44)

    def sizeHint(self) -> QSize:
        return QSize(400, 52)

    def set_rows(self, rows: list[tuple[str, int]]) -> None:
        """The bars' labels and byte counts (the longest bar fills the width)."""
        self.rows = rows
        self.update()

    def bar_rects(self) -> list[QRectF]:
        """Where each bar is drawn, in the widget's coordinates."""
        if not self.rows:
            return []
        label_width = max(self.fontMetrics().horizontalAdvance(label) for label, _size in self.rows) + 10
        most = max(size for _label, size in self.rows) or 1
        width = max(self.width() - label_width - 8, 10)
        height = max(8.0, (self.height() - 4) / len(self.rows) - 4)
        return [QRectF(label_width, 2 + index * (height + 4), width * size / most, height)
                for index, (_label, size) in enumerate(self.rows)]

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        for index, ((label, _size), rect) in enumerate(zip(self.rows, self.bar_rects())):
            painter.setPen(theme().foreground())
            painter.drawText(QRectF(0, rect.top(), rect.left() - 10, rect.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(CACHED_HEX if index == 0 else FULL_HEX))
            painter.drawRect(rect)
        painter.end()


class GenerationView(QWidget):
    """Next token: the controls, what was appended, the new row over the cache, and the cache's size and cost."""

    next_clicked = Signal()
    explore_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transformerGeneration")
        self.next_button = QPushButton(self)
        self.next_button.setObjectName("transformerNextToken")
        self.sampling_combo = QComboBox(self)
        self.sampling_combo.setObjectName("transformerSampling")
        self.sampling_combo.addItems(["", ""])
        self.k_label = QLabel(self)
        self.k_spin = QSpinBox(self)
        self.k_spin.setObjectName("transformerTopK")
        self.k_spin.setRange(2, MAX_TOP_K)
        self.k_spin.setValue(5)
        self.seed_label = QLabel(self)
        self.seed_spin = QSpinBox(self)
        self.seed_spin.setObjectName("transformerSeed")
        self.seed_spin.setRange(0, 999_999)
        self.explore_button = QPushButton(self)
        self.explore_button.setObjectName("transformerExploreNewest")
        self.appended_label = plain_label(QLabel(self))
        self.appended_label.setObjectName("transformerAppended")
        self.appended_label.setWordWrap(True)
        self.row_strip = RowStrip(self)
        self.row_strip.setObjectName("transformerNewRow")
        self.cache_label = QLabel(self)
        self.cache_label.setObjectName("transformerCacheShape")
        self.cache_label.setWordWrap(True)
        self.grouping_label = QLabel(self)  # grouped-query attention only: the cache against full multi-head
        self.grouping_label.setObjectName("transformerCacheGrouping")
        self.grouping_label.setWordWrap(True)
        self.saving = CacheSaving(self)
        self.saving.setObjectName("transformerCacheSaving")
        self.cost_label = QLabel(self)
        self.cost_label.setObjectName("transformerCacheCost")
        self.cost_label.setWordWrap(True)
        self.diagram = CacheDiagram(self)
        self.diagram.setObjectName("transformerCacheDiagram")
        controls = QHBoxLayout()
        for widget in (self.next_button, self.sampling_combo, self.k_label, self.k_spin, self.seed_label,
                       self.seed_spin):
            controls.addWidget(widget)
        controls.addStretch(1)
        controls.addWidget(self.explore_button)
        # Below the controls everything scrolls: at the hall's type size a model with grouped heads has more to say
        # than a 720-pixel window holds, and a squeezed label would lose its last line.
        body = QWidget(self)
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.appended_label, self.row_strip, self.cache_label, self.grouping_label, self.saving,
                       self.cost_label):
            widget.setParent(body)
            body_layout.addWidget(widget)
        self.diagram.setParent(body)
        body_layout.addWidget(self.diagram, 1)
        self.scroll = QScrollArea(self)
        self.scroll.setObjectName("transformerGenerationScroll")
        self.scroll.setWidget(body)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(controls)
        layout.addWidget(self.scroll, 1)
        self.next_button.clicked.connect(self.next_clicked)
        self.explore_button.clicked.connect(self.explore_clicked)
        self.sampling_combo.currentIndexChanged.connect(self._update_enabled)
        self._appended = ""
        self._cost: CacheCost | None = None
        self.grouping_label.setVisible(False)
        self.saving.setVisible(False)
        self.retranslate()
        self._update_enabled()

    @property
    def top_k(self) -> int:
        """1 for greedy, else the k of top-k."""
        return 1 if self.sampling_combo.currentIndex() == 0 else self.k_spin.value()

    @property
    def seed(self) -> int:
        """The seed of top-k draws."""
        return self.seed_spin.value()

    def _update_enabled(self, *_args) -> None:
        top_k = self.sampling_combo.currentIndex() == 1
        for widget in (self.k_label, self.k_spin, self.seed_label, self.seed_spin):
            widget.setEnabled(top_k)

    def set_appended(self, text: str) -> None:
        """The sentence about the token just appended ("" before any)."""
        self._appended = text
        self.appended_label.setText(text or self.tr(
            "Press “Next token”: the model appends its most likely next token (or one of the k likeliest) and "
            "only the new token's q, k and v are computed; every earlier k and v comes from the cache."))

    def show_analysis(self, analysis: Analysis, layer: int, head: int, cost: CacheCost) -> None:
        """The last token's row in this head over every key, and the cache that holds those keys (`cost`: the
        core's count for this model and sequence)."""
        attention = analysis.head(layer, head)
        self.row_strip.show_row(attention.weights[-1], analysis.tokens)
        self.diagram.set_cache(len(analysis.output.layers), analysis.n, analysis.generated > 0)
        self._cost = cost
        self._show_cost(cost)

    def _show_cost(self, cost: CacheCost) -> None:
        layers, _two, heads, tokens, size = cost.shape
        grouped = cost.cached_heads < cost.heads
        if grouped:
            self.cache_label.setText(self.tr(
                "KV cache: {0} layers × 2 (K, V) × {1} K/V heads × {2} tokens × {3} = {4} numbers, {5} bytes "
                "(float64)").format(layers, heads, tokens, size, grouped_integer(cost.numbers),
                                    grouped_integer(cost.bytes)))
            full = cost.numbers_without_grouping
            self.grouping_label.setText(self.tr(
                "Grouped-query attention: {0} query heads share {1} K/V heads, so the cache holds {1} heads' keys "
                "and values, not {0}. Full multi-head attention would hold {2} numbers, {3} bytes: {4}× as "
                "much.").format(cost.heads, cost.cached_heads, grouped_integer(full),
                                grouped_integer(full * cost.item_bytes),
                                formatted_number("{:.3g}", cost.grouping_saving)))
            self.saving.set_rows([
                (self.tr("GQA, {0} K/V heads: {1} bytes").format(cost.cached_heads, grouped_integer(cost.bytes)),
                 cost.bytes),
                (self.tr("full MHA, {0} heads: {1} bytes").format(cost.heads,
                                                                  grouped_integer(full * cost.item_bytes)),
                 full * cost.item_bytes)])
        else:
            self.cache_label.setText(self.tr(
                "KV cache: {0} layers × 2 (K, V) × {1} heads × {2} tokens × {3} = {4} numbers, {5} bytes "
                "(float64)").format(layers, heads, tokens, size, grouped_integer(cost.numbers),
                                    grouped_integer(cost.bytes)))
        self.grouping_label.setVisible(grouped)
        self.saving.setVisible(grouped)
        ratio = cost.step_without_cache / cost.step_with_cache
        self.cost_label.setText(self.tr(
            "The next token's attention: with the cache {0} multiply-adds (its q against {1} keys and values: "
            "O(n·d)); recomputing the whole sequence {2} (every query again: O(n²·d)), {3}× as many").format(
            grouped_integer(cost.step_with_cache), tokens + 1, grouped_integer(cost.step_without_cache),
            formatted_number("{:.0f}", ratio)))

    def retranslate(self) -> None:
        """Every static text in the current language."""
        self.next_button.setText(self.tr("Next token"))
        self.next_button.setToolTip(self.tr("Append the model's next token, computed from the KV cache"))
        self.sampling_combo.setItemText(0, self.tr("Greedy"))
        self.sampling_combo.setItemText(1, self.tr("Top-k"))
        self.sampling_combo.setToolTip(self.tr(
            "Greedy takes the most likely token; top-k draws among the k likeliest (seeded, so it can be repeated)"))
        self.k_label.setText(self.tr("k"))
        self.seed_label.setText(self.tr("Seed"))
        self.explore_button.setText(self.tr("Explore the last token as Q"))
        self.explore_button.setToolTip(self.tr(
            "Open the last token's q in the explorer, with the cached k's and v's as the keys and values"))
        self.set_appended(self._appended)
        if self._cost is not None:
            self._show_cost(self._cost)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
