"""The model view (as in BertViz): every layer × head as a thumbnail of its head view; click one to open it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QWidget

from attention_explorer.ui.labs.transformer.attention_lines import draw_lines, head_color
from attention_explorer.ui.labs.transformer.kv_groups import GROUP_GAP_PX, draw_group_bracket, group_index, head_groups
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.heatmap import MARK_HEX

TILE_GAP = 6  # pixels between thumbnails
TILE_MAX_LINES = 200  # a thumbnail shows each head's pattern; more lines only blur it (and cost time)


class ModelView(QWidget):
    """Layers down, heads across; each tile draws that head's lines between two columns of tokens."""

    head_chosen = Signal(int, int)  # layer, head (a click)
    tile_hovered = Signal(int, int)  # -1, -1 when none

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelView")
        self.setMouseTracking(True)
        self.setMinimumSize(240, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.attentions = np.zeros((0, 0, 0, 0))
        self.current = (0, 0)
        self.hovered = (-1, -1)
        self._cache: QPixmap | None = None
        self.kv_heads: tuple[int, ...] = ()
        self.group_text = "K/V {0}"

    def set_kv_heads(self, kv_heads: tuple[int, ...]) -> None:
        """The K/V head each query head reads: with grouped-query attention the columns stand in labelled groups."""
        self.kv_heads = tuple(kv_heads)
        self._cache = None
        self.update()

    def show_attentions(self, attentions: np.ndarray) -> None:
        """layers × heads × N × N (already renormalised when sinks are hidden); redraws in place."""
        self.attentions = attentions
        self._cache = None
        self.update()

    def set_current(self, layer: int, head: int) -> None:
        """Frame the head the page shows."""
        if (layer, head) != self.current:
            self.current = (layer, head)
            self.update()

    def apply_theme(self) -> None:
        """Draw again in the theme's colours and sizes."""
        self._cache = None
        self.update()

    # ------------------------------------------------------------ geometry

    def _label_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt() * 0.85)
        return font

    def _groups(self) -> list:
        """The groups of query heads sharing a K/V head, when they match the heads drawn ([] otherwise)."""
        return head_groups(self.kv_heads) if len(self.kv_heads) == self.attentions.shape[1] else []

    def _margins(self) -> tuple[float, float]:
        metrics = QFontMetricsF(self._label_font())
        band = metrics.height() + 8 if self._groups() else 0.0  # the group labels above the head labels
        return metrics.horizontalAdvance("L00") + 8, metrics.height() + 6 + band

    def tile_rect(self, layer: int, head: int, size: QSize | None = None) -> QRectF:
        """Where one head's thumbnail is drawn (and clicked); groups sharing a K/V head stand apart."""
        size = size or self.size()
        layers, heads = self.attentions.shape[:2]
        left, top = self._margins()
        gaps = max(len(self._groups()) - 1, 0) * GROUP_GAP_PX
        side = min((size.width() - left - 4 - gaps) / max(heads, 1), (size.height() - top - 4) / max(layers, 1))
        offset = group_index(self.kv_heads, head) * GROUP_GAP_PX if self._groups() else 0
        return QRectF(left + offset + head * side + TILE_GAP / 2, top + layer * side + TILE_GAP / 2,
                      max(side - TILE_GAP, 2.0), max(side - TILE_GAP, 2.0))

    def group_labels(self, size: QSize | None = None) -> list[tuple[str, QRectF]]:
        """Each group's label ("K/V 0") and where it is drawn, above its column of heads; [] without grouping."""
        labels = []
        height = QFontMetricsF(self._label_font()).height()
        for group in self._groups():
            first, last = self.tile_rect(0, group.first, size), self.tile_rect(0, group.last, size)
            text = self.group_text.format(group.kv)
            labels.append((text, QRectF(first.left(), 2, last.right() - first.left(), height)))
        return labels

    def tile_at(self, point: QPointF) -> tuple[int, int]:
        """(layer, head) of the thumbnail under a point, or (-1, -1)."""
        layers, heads = self.attentions.shape[:2]
        for layer in range(layers):
            for head in range(heads):
                if self.tile_rect(layer, head).contains(point):
                    return layer, head
        return -1, -1

    # ------------------------------------------------------------ drawing

    def export_title(self) -> str:
        """The figure's title in an exported SVG."""
        return "model view"

    def resizeEvent(self, event) -> None:
        self._cache = None
        super().resizeEvent(event)

    def paintEvent(self, _event: QPaintEvent) -> None:
        if self._cache is None or self._cache.size() != self.size() * self.devicePixelRatioF():
            self._cache = QPixmap(self.size() * self.devicePixelRatioF())
            self._cache.setDevicePixelRatio(self.devicePixelRatioF())
            cache_painter = QPainter(self._cache)  # fast: short thin lines look much the same unsmoothed, 3× faster
            self.render_to(cache_painter, self.size(), frames=False)
            cache_painter.end()
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._cache)
        self._draw_frames(painter)
        painter.end()

    def render_to(self, painter: QPainter, size: QSize, fast: bool = True, frames: bool = True) -> None:
        """Every thumbnail, with layer and head labels (screen, PNG and SVG alike); `fast` leaves lines rough."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, not fast)
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), theme().background())
        layers, heads, n = self.attentions.shape[:3]
        if layers == 0 or n == 0:
            return
        painter.setFont(self._label_font())
        painter.setPen(QPen(theme().foreground()))
        for layer in range(layers):
            rect = self.tile_rect(layer, 0, size)
            painter.drawText(QRectF(0, rect.top(), rect.left() - 6, rect.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"L{layer}")
        for head in range(heads):
            rect = self.tile_rect(0, head, size)
            painter.drawText(QRectF(rect.left(), 0, rect.width(), rect.top() - 2),
                             Qt.AlignmentFlag.AlignCenter | Qt.AlignmentFlag.AlignBottom, f"H{head}")
        for text, rect in self.group_labels(size):
            draw_group_bracket(painter, rect.left(), rect.right(), rect.bottom() + 4, text, False, rect.height())
        painter.setPen(QPen(theme().foreground()))
        border = QPen(theme().faint(), 1)
        for layer in range(layers):
            for head in range(heads):
                rect = self.tile_rect(layer, head, size)
                painter.setPen(border)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect)
                inner = rect.adjusted(rect.width() * 0.12, 3, -rect.width() * 0.12, -3)
                rows = inner.top() + inner.height() * (np.arange(n) + 0.5) / n
                draw_lines(painter, self.attentions[layer, head], head_color(head), inner.left(), inner.right(),
                           rows, 1.0, max_lines=TILE_MAX_LINES)
        if frames:
            self._draw_frames(painter, size)

    def _draw_frames(self, painter: QPainter, size: QSize | None = None) -> None:
        """The page's current head (a thick frame) and the hovered one (a thin frame)."""
        if self.attentions.shape[0] == 0:
            return
        for (layer, head), width in ((self.current, 3.0), (self.hovered, 1.5)):
            if layer >= 0 and layer < self.attentions.shape[0] and head < self.attentions.shape[1]:
                painter.setPen(QPen(QColor(MARK_HEX) if width > 2 else theme().foreground(), width))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(self.tile_rect(layer, head, size).adjusted(-2, -2, 2, 2))

    # ------------------------------------------------------------ mouse

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        found = self.tile_at(event.position())
        if found != self.hovered:
            self.hovered = found
            self.update()
            self.tile_hovered.emit(*found)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        if self.hovered != (-1, -1):
            self.hovered = (-1, -1)
            self.update()
            self.tile_hovered.emit(-1, -1)
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        layer, head = self.tile_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and layer >= 0:
            event.accept()
            self.head_chosen.emit(layer, head)
            return
        super().mousePressEvent(event)
