"""The head view (as in BertViz): each token on the left attends along lines to the tokens on the right.

One colour per head; the swatches above switch heads on and off (a double click keeps only that head);
hovering a token leaves only its lines and writes the weights beside the other column. It draws what it is
given (tokens, one layer's heads × N × N weights, the hidden sink columns): the page computes them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from attention_explorer.ui.labs.transformer.attention_lines import draw_lines, head_color, strongest_lines
from attention_explorer.ui.labs.transformer.kv_groups import GROUP_GAP_PX, draw_group_bracket, group_index, head_groups
from attention_explorer.ui.style.numbers import formatted_number
from attention_explorer.ui.style.theme import theme

SWATCH_PX = 22
MAX_TOKEN_PX = 150  # longer tokens are elided
LINE_AREA_PX = (120, 360)  # the gap the lines cross: at least, at most
SMOOTH_LINES = 600  # up to this many candidate lines are drawn antialiased on screen (exports always are)
MAX_LINES = 1500  # the strongest lines of all selected heads together; a hover redraws within ~0.1 s


@dataclass(frozen=True)
class Hover:
    """The token under the mouse: side "query" (left column) or "key" (right column), and its index."""

    side: str
    index: int


class HeadView(QWidget):
    """Lines between a query column and a key column, one colour per head; swatches, hover, export."""

    heads_changed = Signal()
    hovered = Signal(str, int)  # side ("query", "key" or ""), token index

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("headView")
        self.setMouseTracking(True)
        self.setMinimumSize(280, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.tokens: tuple[str, ...] = ()
        self.weights = np.zeros((0, 0, 0))
        self.hidden = np.zeros(0, dtype=bool)
        self.layer = 0
        self.selected: set[int] = set()
        self.hover: Hover | None = None
        self.kv_heads: tuple[int, ...] = ()  # the K/V head of each query head; grouped heads are spaced and labelled
        self.texts = {"query": "query", "key": "key", "mean": "mean of {0} heads", "group": "K/V {0}"}

    # ------------------------------------------------------------ what to draw

    def show_layer(self, tokens: tuple[str, ...], weights: np.ndarray, hidden: np.ndarray, layer: int) -> None:
        """One layer's heads × N × N weights (already renormalised when sinks are hidden); redraws in place."""
        heads = weights.shape[0]
        if heads != self.weights.shape[0] or not self.selected:
            self.selected = set(range(heads))
        self.selected &= set(range(heads))
        if tuple(tokens) != self.tokens:
            self.hover = None
        self.tokens, self.weights, self.hidden, self.layer = tuple(tokens), weights, hidden, layer
        self.update()

    def set_kv_heads(self, kv_heads: tuple[int, ...]) -> None:
        """The K/V head each query head reads: with grouped-query attention the swatches stand in groups."""
        self.kv_heads = tuple(kv_heads)
        self.update()

    def select_only(self, head: int) -> None:
        """Show one head alone (the page's current head, or a double click on its swatch)."""
        if 0 <= head < self.weights.shape[0]:
            self.selected = {head}
            self.heads_changed.emit()
            self.update()

    def toggle_head(self, head: int) -> None:
        """Switch one head's lines on or off."""
        self.selected ^= {head}
        self.heads_changed.emit()
        self.update()

    def set_hover(self, hover: Hover | None) -> None:
        """Show only the lines of one token (None: every line)."""
        if hover != self.hover:
            self.hover = hover
            self.update()
            self.hovered.emit(hover.side if hover else "", hover.index if hover else -1)

    def visible_lines(self) -> list[tuple[int, int, int, float]]:
        """(head, query, key, weight) of every line drawn now: selected heads, the hovered token's, not faint."""
        queries, keys = self._shown_rows()
        lines = []
        for head in sorted(self.selected):
            rows, columns = strongest_lines(self.weights[head], queries, keys, self._max_lines())
            lines += [(head, int(i), int(j), float(self.weights[head, i, j])) for i, j in zip(rows, columns)]
        return sorted(lines)

    def shown_numbers(self) -> dict[int, str]:
        """The weights written beside the other column while a token is hovered: token index → text."""
        row = self._hover_row()
        if row is None:
            return {}
        side, values = row
        return {index: formatted_number("{:.2f}", value) for index, value in enumerate(values)
                if not (side == "query" and self.hidden[index])}

    def _max_lines(self) -> int:
        """Each selected head's share of the lines drawn at most (long lines are slow to draw smoothly)."""
        return max(MAX_LINES // max(len(self.selected), 1), 64)

    def _hover_row(self) -> tuple[str, np.ndarray] | None:
        """The hovered token's weights over the other column, averaged over the selected heads."""
        if self.hover is None or not self.selected or self.weights.shape[0] == 0:
            return None
        mean = self.weights[sorted(self.selected)].mean(axis=0)
        if self.hover.side == "query":
            return "query", mean[self.hover.index]
        return "key", mean[:, self.hover.index]

    def _shown_rows(self) -> tuple[np.ndarray, np.ndarray]:
        n = len(self.tokens)
        queries, keys = np.arange(n), np.flatnonzero(~self.hidden) if self.hidden.size == n else np.arange(n)
        if self.hover is not None and self.hover.side == "query":
            queries = np.array([self.hover.index])
        elif self.hover is not None and self.hover.side == "key":
            keys = np.array([self.hover.index]) if self.hover.index in keys else np.array([], dtype=int)
        return queries, keys

    # ------------------------------------------------------------ geometry

    def _font(self, size: QSize) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        n = max(len(self.tokens), 1)
        row = (size.height() - self._top()) / n
        height = QFontMetricsF(font).height()
        if row < height * 1.15:  # long sentences: smaller text rather than overlapping rows
            font.setPixelSize(max(4, int(row / 1.15)))
        return font

    def _group_band(self) -> float:
        """The height of the group labels under the swatches (0 without grouped-query attention)."""
        return QFontMetricsF(self._small_font()).height() + 8 if head_groups(self.kv_heads) else 0.0

    def _small_font(self) -> QFont:
        small = QFont(self.font())
        small.setPointSizeF(theme().font_pt() * 0.9)
        return small

    def _top(self) -> float:
        return SWATCH_PX * theme().zoom + 2 * QFontMetricsF(self.font()).height() + 8 + self._group_band()

    def swatch_rect(self, head: int) -> QRectF:
        """Where head `head`'s swatch is drawn (and clicked); groups sharing a K/V head stand apart."""
        side = SWATCH_PX * theme().zoom
        return QRectF(8 + head * (side + 6) + group_index(self.kv_heads, head) * GROUP_GAP_PX, 6, side, side)

    def group_labels(self) -> list[tuple[str, QRectF]]:
        """Each group's label ("K/V 0") and where it is drawn, under its swatches; [] without grouping."""
        labels = []
        height = QFontMetricsF(self._small_font()).height()
        for group in head_groups(self.kv_heads):
            left, right = self.swatch_rect(group.first).left(), self.swatch_rect(group.last).right()
            text = self.texts["group"].format(group.kv)
            width = max(right - left, QFontMetricsF(self._small_font()).horizontalAdvance(text) + 4)
            labels.append((text, QRectF((left + right) / 2 - width / 2, self.swatch_rect(0).bottom() + 5, width,
                                        height)))
        return labels

    def _columns(self, size: QSize, font: QFont) -> tuple[float, float, float]:
        """Right edge of the query column, left edge of the key column, and the token column's width."""
        metrics = QFontMetricsF(font)
        widest = max((metrics.horizontalAdvance(token) for token in self.tokens), default=20.0)
        column = min(widest + 8, MAX_TOKEN_PX * theme().zoom)
        gap = min(max(size.width() - 2 * column - 90, LINE_AREA_PX[0]), LINE_AREA_PX[1] * theme().zoom)
        left = (size.width() - gap) / 2
        return left, left + gap, column

    def _rows_y(self, size: QSize) -> np.ndarray:
        n = max(len(self.tokens), 1)
        row = (size.height() - self._top() - 4) / n
        return self._top() + row * (np.arange(len(self.tokens)) + 0.5)

    def token_center(self, hover: Hover) -> QPointF:
        """The middle of a token's text in its column (where a hover finds it)."""
        size = self.size()
        font = self._font(size)
        left, right, column = self._columns(size, font)
        half = min(QFontMetricsF(font).horizontalAdvance(self.tokens[hover.index]), column) / 2
        x = left - 6 - half if hover.side == "query" else right + 6 + half
        return QPointF(x, float(self._rows_y(size)[hover.index]))

    def line_ends(self, query: int, key: int) -> tuple[QPointF, QPointF]:
        """Where the line from query token `query` to key token `key` starts and ends."""
        size = self.size()
        left, right, _column = self._columns(size, self._font(size))
        rows = self._rows_y(size)
        return QPointF(left + 4, float(rows[query])), QPointF(right - 4, float(rows[key]))

    def token_at(self, point: QPointF) -> Hover | None:
        """The token under a point of the widget, or None."""
        if not self.tokens:
            return None
        size = self.size()
        left, right, column = self._columns(size, self._font(size))
        rows = self._rows_y(size)
        row = (rows[1] - rows[0]) if len(rows) > 1 else size.height()
        index = int(np.argmin(np.abs(rows - point.y())))
        if abs(rows[index] - point.y()) > row / 2:
            return None
        if left - column - 6 <= point.x() <= left:
            return Hover("query", index)
        if right <= point.x() <= right + column + 6:
            return Hover("key", index)
        return None

    # ------------------------------------------------------------ drawing

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            self.render_to(painter, self.size())
        finally:  # a painter left open on an error would take the process down
            painter.end()

    def export_title(self) -> str:
        """The figure's title in an exported SVG."""
        return f"head view, layer {self.layer}"

    def render_to(self, painter: QPainter, size: QSize, fast: bool = True) -> None:
        """Draw the whole view (screen, PNG and SVG alike) into `size`; `fast` smooths lines only when few."""
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), theme().background())
        foreground = theme().foreground()
        small = self._small_font()
        painter.setFont(small)
        for head in range(self.weights.shape[0]):
            self._draw_swatch(painter, head)
        if self.weights.shape[0] == len(self.kv_heads):
            for group, (text, rect) in zip(head_groups(self.kv_heads), self.group_labels()):
                left, right = self.swatch_rect(group.first).left(), self.swatch_rect(group.last).right()
                draw_group_bracket(painter, left, right, rect.top() - 1, text, True, rect.height())
        if not self.tokens:
            return
        font = self._font(size)
        left, right, column = self._columns(size, font)
        rows = self._rows_y(size)
        painter.setPen(QPen(foreground))
        caption_y = SWATCH_PX * theme().zoom + 10 + self._group_band()
        caption_h = QFontMetricsF(small).height() + 4
        painter.drawText(QRectF(left - column - 6, caption_y, column, caption_h),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, self.texts["query"])
        painter.drawText(QRectF(right + 6, caption_y, column, caption_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.texts["key"])
        if len(self.selected) > 1 and self.hover is not None:
            painter.drawText(QRectF(left, caption_y, right - left, caption_h), Qt.AlignmentFlag.AlignCenter,
                             self.texts["mean"].format(len(self.selected)))
        queries, keys = self._shown_rows()
        width = max(1.0, theme().line_px() * 0.7)
        if fast:  # smooth lines cost ~8× more: a hover over many heads must still redraw at once
            painter.setRenderHint(QPainter.RenderHint.Antialiasing,
                                  len(self.selected) * len(queries) * len(keys) <= SMOOTH_LINES)
        for head in sorted(self.selected):
            draw_lines(painter, self.weights[head], head_color(head), left + 4, right - 4, rows, width,
                       queries, keys, self._max_lines())
        self._draw_tokens(painter, font, rows, left, right, column)

    def _draw_swatch(self, painter: QPainter, head: int) -> None:
        rect = self.swatch_rect(head)
        colour = head_color(head)
        on = head in self.selected
        painter.setPen(QPen(colour, 2))
        painter.setBrush(colour if on else Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(1, 1, -1, -1))
        painter.setPen(QPen(QColor("#FFFFFF") if on else colour))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(head))

    def _draw_tokens(self, painter: QPainter, font: QFont, rows: np.ndarray, left: float, right: float,
                     column: float) -> None:
        painter.setFont(font)
        metrics = QFontMetricsF(font)
        height = rows[1] - rows[0] if len(rows) > 1 else metrics.height()
        numbers = self.shown_numbers()
        faint, foreground = theme().faint(), theme().foreground()
        for index, token in enumerate(self.tokens):
            text = metrics.elidedText(token, Qt.TextElideMode.ElideRight, column)
            y = rows[index] - height / 2
            hidden_key = self.hidden.size == len(self.tokens) and bool(self.hidden[index])
            for side, x, align in (("query", left - column - 6, Qt.AlignmentFlag.AlignRight),
                                   ("key", right + 6, Qt.AlignmentFlag.AlignLeft)):
                hovered = self.hover == Hover(side, index)
                painter.setPen(QPen(faint if side == "key" and hidden_key else foreground))
                if hovered:
                    painter.fillRect(QRectF(x, y, column, height), _hover_fill())
                painter.drawText(QRectF(x, y, column, height), align | Qt.AlignmentFlag.AlignVCenter, text)
            if index in numbers:
                x = right + column + 10 if self.hover.side == "query" else left - column - 60
                painter.setPen(QPen(foreground))
                painter.drawText(QRectF(x, y, 50, height), Qt.AlignmentFlag.AlignVCenter
                                 | (Qt.AlignmentFlag.AlignLeft if self.hover.side == "query"
                                    else Qt.AlignmentFlag.AlignRight), numbers[index])

    # ------------------------------------------------------------ mouse

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.set_hover(self.token_at(event.position()))
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        self.set_hover(None)
        super().leaveEvent(event)

    def _swatch_at(self, point: QPointF) -> int:
        for head in range(self.weights.shape[0]):
            if self.swatch_rect(head).contains(point):
                return head
        return -1

    def mousePressEvent(self, event: QMouseEvent) -> None:
        head = self._swatch_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and head >= 0:
            self.toggle_head(head)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        head = self._swatch_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and head >= 0:
            self.select_only(head)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)


def _hover_fill() -> QColor:
    colour = QColor(theme().faint())
    colour.setAlphaF(0.45)
    return colour

