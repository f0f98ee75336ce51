"""An N×N matrix of tokens as a heatmap: colour bar, numbers in the cells, hover and click signals, marks and mask.

Both labs that show an attention matrix use it (the self-attention lab and the transformer page); a HeatmapLook
holds what differs between them. Items are built once per N and updated in place, so it stays interactive up to
N = 512 (cell texts only up to CELL_TEXT_MAX_N).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem, QWidget

from attention_explorer.ui.style.numbers import MINUS
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.axes import cache_axes

CELL_TEXT_MAX_N = 16  # numbers in the cells up to this N; beyond it colour only
EVERY_TOKEN_MAX_N = 12  # up to this N every column's token is named along the top (beyond it every k-th one)
SMALLEST_TICK_SHARE = 0.7  # a column's token may shrink to this share of the tick font before it is elided
MASK_FILL_HEX = "#D4D4D4"
MASK_HATCH_HEX = "#8A8A8A"
ROW_BAND_HEX = "#C98A00"
HOVER_BOX_HEX = "#111111"
MARK_HEX = "#D55E00"  # the marked query row and key column
LIGHT_TEXT_HEX = "#FFFFFF"
BAR_HIDDEN_BELOW = 140  # a colour bar squeezed below this height is a smear of overlapping tick labels


@dataclass(frozen=True)
class HeatmapLook:
    """What differs between the labs' heatmaps."""

    colours: tuple[str, ...]  # the colour map, low to high
    bar_width: int = 14
    bar_menu: bool = True  # right-click on the colour bar offers other colour maps
    axis_text_hex: str = "#202020"
    padding: float = 0.0  # around the matrix, as a share of its size
    square_cells: bool = False
    dark_text_hex: str = "#141414"  # cell numbers on light cells (and on masked ones)
    luminance: tuple[float, float, float] = (0.299, 0.587, 0.114)  # of a cell's r, g, b (0…1)
    dark_text_above: float = 0.55  # cells lighter than this get dark numbers, the others white ones
    compact_numbers: bool = False  # fit numbers by size, then as ".85"; else by a sample of the longest text
    tick_steps: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100, 200)
    short_row_ticks: bool = False  # row tokens cut to 14 characters (else elided to six M's)
    bar_hides_when_low: bool = False


def short_token(token: str, limit: int = 14) -> str:
    """A token cut to `limit` characters with "…"."""
    return token if len(token) <= limit else token[: limit - 1] + "…"


def _fitted_font(font: QFont, texts: Sequence[str], room: int) -> QFont:
    """`font`, made smaller (to SMALLEST_TICK_SHARE of its size at least) until every text fits `room` pixels."""
    fitted = QFont(font)
    size = font.pointSizeF()
    while size > font.pointSizeF() * SMALLEST_TICK_SHARE:
        if max(QFontMetrics(fitted).horizontalAdvance(text) for text in texts) <= room:
            break
        size -= 0.5
        fitted.setPointSizeF(size)
    return fitted


def _elided_keeping_a_letter(metrics: QFontMetrics, text: str, room: int) -> str:
    """`text` elided to `room` pixels, but never to a bare "…": its first letter at least says which token it is."""
    elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
    return text[:1] if elided in ("…", "") and text else elided


def _compact(text: str) -> str:
    """".85" for "0.85" where a cell is narrow."""
    return text.replace("0.", ".", 1) if text.startswith(("0.", "−0.")) else text


class Heatmap(pg.PlotWidget):
    """An N×N matrix as an image (row i = query token, column j = key token) with a colour bar and cell texts."""

    cell_hovered = Signal(int, int)  # row, column; -1, -1 when the mouse leaves the matrix
    cell_clicked = Signal(int, int)  # a left click on a cell

    def __init__(self, look: HeatmapLook, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w", enableMenu=False)
        self.look = look
        self.colormap = pg.ColorMap(np.linspace(0.0, 1.0, len(look.colours)), [QColor(c) for c in look.colours])
        self._lookup = self.colormap.getLookupTable(0.0, 1.0, 256)  # the colours a cell's text must stand out on
        item = self.getPlotItem()
        item.setMouseEnabled(x=False, y=False)  # a lecture click must never pan or zoom the matrix
        item.setMenuEnabled(False)
        item.hideButtons()
        cache_axes(item)
        item.showAxis("top")
        item.hideAxis("bottom")
        self.view_box = item.getViewBox()
        self.view_box.invertY(True)  # row 0 at the top, as a matrix is written
        if look.square_cells:
            self.setAspectLocked(True)
        self.view_box.disableAutoRange()
        for name in ("left", "top"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen("#303030"))
            axis.setTextPen(pg.mkPen(look.axis_text_hex))
            # No tick marks: pyqtgraph draws them into the cells, where one before a cell's number read as a minus
            # sign ("—0.00" for a weight of 0.00).
            axis.setStyle(tickLength=0)
        # keep our own references: pyqtgraph holds items weakly in places
        self.image = pg.ImageItem(axisOrder="row-major")
        item.addItem(self.image)
        self.colour_bar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=self.colormap, rounding=0.01,
                                          interactive=False, width=look.bar_width, colorMapMenu=look.bar_menu)
        self.colour_bar.setImageItem(self.image, insert_in=item)
        self.mask_fill = QGraphicsPathItem()
        self.mask_fill.setBrush(QBrush(QColor(MASK_FILL_HEX)))
        self.mask_fill.setPen(QPen(Qt.PenStyle.NoPen))
        self.mask_hatch = QGraphicsPathItem()
        self.mask_hatch.setBrush(QBrush(QColor(MASK_HATCH_HEX), Qt.BrushStyle.BDiagPattern))
        self.mask_hatch.setPen(QPen(Qt.PenStyle.NoPen))
        self.row_band = QGraphicsRectItem()
        band_pen = QPen(QColor(ROW_BAND_HEX), 2.5)
        band_pen.setCosmetic(True)
        band_pen.setStyle(Qt.PenStyle.DashLine)
        self.row_band.setPen(band_pen)
        self.hover_box = QGraphicsRectItem()
        hover_pen = QPen(QColor(HOVER_BOX_HEX), 3.5)
        hover_pen.setCosmetic(True)
        self.hover_box.setPen(hover_pen)
        self.row_mark = QGraphicsRectItem()
        self.column_mark = QGraphicsRectItem()
        overlays = (self.mask_fill, self.mask_hatch, self.row_band, self.hover_box)
        for z, graphics in enumerate((*overlays, self.row_mark, self.column_mark)):
            graphics.setZValue(5 + z if z < len(overlays) else 20)  # marks above the numbers (z 10)
            graphics.setVisible(False)
            item.addItem(graphics)
        for box in (self.row_band, self.hover_box, self.row_mark, self.column_mark):
            box.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self._mark_styles = {self.row_mark: Qt.PenStyle.SolidLine, self.column_mark: Qt.PenStyle.DashLine}
        self.cell_texts: list[pg.TextItem] = []  # row by row, N·N of them while N ≤ CELL_TEXT_MAX_N
        self._texts: list[str] = []
        self._n = -1
        self._text_limit = CELL_TEXT_MAX_N
        self._tokens: tuple[str, ...] = ()
        self._masked = np.zeros((0, 0), dtype=bool)
        self._longest = 5  # characters of the longest cell text: the fonts are fitted to it
        self._hovered = (-1, -1)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.view_box.sigResized.connect(self._on_resized)
        self.viewport().installEventFilter(self)
        self._apply_mark_pens()

    @property
    def n(self) -> int:
        """Size of the matrix shown."""
        return max(self._n, 0)

    def cell_pixels(self) -> float:
        """Width of one cell on screen."""
        return self.view_box.width() / max(self._n, 1)

    def cell_height(self) -> float:
        """Height of one cell on screen."""
        return self.view_box.height() / max(self._n, 1)

    def set_cell_text_limit(self, limit: int) -> None:
        """Numbers in the cells up to this N (small multiples hold fewer); the next matrix rebuilds the texts."""
        if limit != self._text_limit:
            self._text_limit = limit
            self._n = -1

    # ------------------------------------------------------------ showing a matrix

    def show_matrix(self, values: np.ndarray, levels: tuple[float, float], tokens: Sequence[str],
                    texts: Sequence[str] | None = None, masked: np.ndarray | None = None) -> None:
        """Draw `values` (NaN where masked) at `levels`, `texts` in the cells (N ≤ 16), the `masked` cells hatched."""
        n = values.shape[0]
        if n != self._n:
            self._rebuild_for_n(n)
        self.image.setImage(values, levels=levels, autoLevels=False)
        self.image.setRect(QRectF(0.0, 0.0, n, n))
        self.colour_bar.setLevels(levels)
        if tuple(tokens) != self._tokens:
            self._tokens = tuple(tokens)
            self._update_ticks()
        masked = np.zeros(values.shape, dtype=bool) if masked is None else masked
        if not np.array_equal(masked, self._masked):
            self._masked = masked.copy()
            self._update_mask()
        if texts is not None and self.cell_texts:
            self._texts = list(texts)
            for text, colour in zip(self.cell_texts, self._text_colours(values, levels)):
                text.setColor(colour)
            if self.look.compact_numbers:
                self._fit_texts()
                return
            longest = max(len(content) for content in texts)
            if longest != self._longest:
                self._longest = longest
                self._update_fonts()
            for text, content in zip(self.cell_texts, texts):
                text.setText(content)
        if self.look.compact_numbers:
            self._fit_texts()

    def _rebuild_for_n(self, n: int) -> None:
        """Items whose count depends on N: the cell texts (reused when possible) and the view range."""
        self._n = n
        self.view_box.setRange(xRange=(0, n), yRange=(0, n), padding=self.look.padding)
        wanted = n * n if n <= self._text_limit else 0
        while len(self.cell_texts) > wanted:
            self.removeItem(self.cell_texts.pop())
        while len(self.cell_texts) < wanted:
            text = pg.TextItem(anchor=(0.5, 0.5))
            text.setZValue(10)
            self.addItem(text)
            self.cell_texts.append(text)
        for index, text in enumerate(self.cell_texts):
            text.setPos(index % n + 0.5, index // n + 0.5)
        self._texts = []
        if not self.look.compact_numbers:
            self._update_fonts()

    def _text_colours(self, values: np.ndarray, levels: tuple[float, float]) -> list[QColor]:
        """Dark text on light cells, white text on dark ones; dark on the grey masked cells."""
        low, high = levels
        flat = values.ravel()
        share = np.clip((np.nan_to_num(flat, nan=low) - low) / (high - low or 1.0), 0.0, 1.0)
        rgb = self._lookup[np.round(share * 255).astype(int), :3] / 255.0
        luminance = rgb @ np.array(self.look.luminance)
        dark, light = QColor(self.look.dark_text_hex), QColor(LIGHT_TEXT_HEX)
        threshold = self.look.dark_text_above
        return [dark if np.isnan(v) or lum > threshold else light for v, lum in zip(flat, luminance)]

    def _update_mask(self) -> None:
        """The masked cells (causal staircase, padding columns) as one grey, hatched area."""
        path = QPainterPath()
        for i, row in enumerate(self._masked):
            # One rectangle per run of masked cells: a padding column may sit apart from the causal staircase.
            edges = np.flatnonzero(np.diff(np.concatenate(([False], row, [False])).astype(np.int8)))
            for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist()):
                path.addRect(QRectF(float(start), float(i), float(stop - start), 1.0))
        path = path.simplified()
        for graphics in (self.mask_fill, self.mask_hatch):
            graphics.setPath(path)
            graphics.setVisible(bool(self._masked.any()))

    # ------------------------------------------------------------ ticks and fonts

    def _tick_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        return font

    def _update_ticks(self) -> None:
        """Tokens on both axes, elided to a cell's room (every k-th one when N is large)."""
        n = len(self._tokens)
        item = self.getPlotItem()
        if not n:
            if self.look.short_row_ticks:
                for name in ("left", "top"):
                    item.getAxis(name).setTicks([[]])
            return
        font = self._tick_font()
        metrics = QFontMetrics(font)
        steps = self.look.tick_steps
        if self.look.short_row_ticks:
            per_cell = max(min(self.view_box.width(), self.view_box.height()), 80.0) / n
            step = next((s for s in steps if per_cell * s >= metrics.height()), steps[-1])
            left = [(i + 0.5, short_token(self._tokens[i])) for i in range(0, n, step)]
            # Along the top every k-th key so that about four letters fit (longer tokens are elided to their room).
            top_font, room = font, max(int(per_cell) - 4, 10)
            if n <= EVERY_TOKEN_MAX_N:
                # Few tokens: every one is named (a skipped 爱 or 天安门 leaves a column nobody can read), in a
                # smaller type when the cell is narrow, elided only below that.
                top_font = _fitted_font(font, self._tokens, room)
            first_letters_fit = max(QFontMetrics(top_font).horizontalAdvance(token[:1]) for token in self._tokens)
            if n <= EVERY_TOKEN_MAX_N and first_letters_fit <= room:
                top_step = 1
                metrics = QFontMetrics(top_font)
            else:  # many tokens, or cells too narrow for a letter: every k-th token, in the full tick font
                top_font = font
                needed = min(max(metrics.horizontalAdvance(token) for token in self._tokens),
                             metrics.horizontalAdvance("Mmmm"))
                top_step = next((s for s in steps if per_cell * s >= needed + 4), steps[-1])
                room = max(int(per_cell * top_step) - 4, 10)
            top = [(j + 0.5, _elided_keeping_a_letter(metrics, self._tokens[j], room)) for j in range(0, n, top_step)]
            item.getAxis("left").setTicks([left])
            item.getAxis("top").setTicks([top])
            item.getAxis("top").setStyle(tickFont=top_font, hideOverlappingLabels=False)
            return
        room_left = max(metrics.horizontalAdvance("MMMMMM"), 40)
        widest = min(max(metrics.horizontalAdvance(token) for token in self._tokens), room_left)
        # Rows need a line height each; columns the width of a label, elided down to one character and "…" (北…)
        # before a column goes without its token: skipping every other token hides half the sentence.
        row_step = next((s for s in steps if self.cell_height() * s >= metrics.height() + 2), steps[-1])
        shortest = min(widest, metrics.horizontalAdvance("中…"))
        column_step = next((s for s in steps if self.cell_pixels() * s >= shortest + 4), steps[-1])
        room_top = max(int(self.cell_pixels() * column_step) - 6, 14)
        left = [(i + 0.5, metrics.elidedText(self._tokens[i], Qt.TextElideMode.ElideRight, room_left))
                for i in range(0, n, row_step)]
        top = [(j + 0.5, metrics.elidedText(self._tokens[j], Qt.TextElideMode.ElideRight, room_top))
               for j in range(0, n, column_step)]
        item.getAxis("left").setTicks([left, []])
        item.getAxis("top").setTicks([top, []])
        for name in ("left", "top"):
            # the steps above keep labels apart; pyqtgraph's own check would drop the first one at the edge
            item.getAxis(name).setStyle(tickFont=font, hideOverlappingLabels=False)

    def _update_fonts(self) -> None:
        """Cell numbers as large as a cell allows (the number size at most); hidden when none fits."""
        if not self.cell_texts:
            return
        room = self.cell_pixels() - 6
        sample = MINUS + "0" * max(self._longest - 1, 1)
        font = QFont(self.font())
        size = theme().number_pt()
        while size > 7.0:
            font.setPointSizeF(size)
            metrics = QFontMetrics(font)
            if metrics.horizontalAdvance(sample) <= room and metrics.height() <= self.cell_height():
                break
            size -= 0.5
        font.setPointSizeF(size)
        fits = QFontMetrics(font).horizontalAdvance(sample) <= room + 4
        for text in self.cell_texts:
            text.setFont(font)
            text.setVisible(fits)

    def _fit_texts(self) -> None:
        """Cell numbers as large as a cell allows (number size at most); in a narrow cell ".85" for "0.85";
        hidden when even that will not fit."""
        if self.look.bar_hides_when_low:
            self.colour_bar.setVisible(self.view_box.height() >= BAR_HIDDEN_BELOW)
        if not self.cell_texts or len(self._texts) != len(self.cell_texts):
            return
        # A cell's own width and height (the multi-head maps' cells are wider than tall: the smaller side for both
        # shrank "−16.15" to 11 pt where 13 pt fits).
        cell_w = self.view_box.width() / max(self.n, 1)
        cell_h = self.view_box.height() / max(self.n, 1)
        font = QFont(self.font())
        chosen = None
        for compact, smallest in ((False, 8.0), (True, 6.0)):
            shown = [_compact(text) for text in self._texts] if compact else self._texts
            widest = max(shown, key=len, default="0.00")
            size = theme().number_pt()
            while size >= smallest:
                font.setPointSizeF(size)
                metrics = QFontMetrics(font)
                if metrics.horizontalAdvance(widest) <= cell_w - 3 and metrics.capHeight() * 1.6 <= cell_h:
                    chosen = (compact, size)
                    break
                size -= 1.0
            if chosen is not None:
                break
        if chosen is not None:
            font.setPointSizeF(chosen[1])
        for text, content in zip(self.cell_texts, self._texts):
            text.setVisible(chosen is not None)
            if chosen is not None:
                text.setFont(font)
                text.setText(_compact(content) if chosen[0] else content)
        self._update_ticks()

    def apply_theme(self) -> None:
        """Re-apply sizes after a presentation-zoom change."""
        if self.look.compact_numbers:
            font = self._tick_font()
            for name in ("left", "top"):
                self.getPlotItem().getAxis(name).setStyle(tickFont=font)
            self._apply_mark_pens()
            self._update_ticks()
            self._fit_texts()
            return
        self._update_ticks()
        self._update_fonts()

    def _apply_mark_pens(self) -> None:
        for mark, style in self._mark_styles.items():
            pen = QPen(QColor(MARK_HEX), theme().line_px())
            pen.setCosmetic(True)
            pen.setStyle(style)
            mark.setPen(pen)

    def _on_resized(self) -> None:
        if self.look.compact_numbers:
            self._fit_texts()
            return
        self._update_ticks()
        self._update_fonts()

    # ------------------------------------------------------------ cells under the mouse, hover and marks

    def cell_at(self, scene_pos: QPointF) -> tuple[int, int] | None:
        """(row, column) of the cell under a scene position, or None outside the matrix."""
        if self._n <= 0 or not self.view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.view_box.mapSceneToView(scene_pos)
        row, column = math.floor(point.y()), math.floor(point.x())
        if 0 <= row < self._n and 0 <= column < self._n:
            return row, column
        return None

    def cell_center(self, row: int, column: int) -> QPointF:
        """Widget coordinates of a cell's centre (for tests and tooltips)."""
        scene = self.view_box.mapViewToScene(QPointF(column + 0.5, row + 0.5))
        return QPointF(self.mapFromScene(scene))

    def show_hover(self, cell: tuple[int, int] | None) -> None:
        """Outline the hovered cell and its row (the row a click would choose)."""
        if cell is None:
            self.hover_box.setVisible(False)
            self.row_band.setVisible(False)
            return
        row, column = cell
        self.hover_box.setRect(QRectF(column, row, 1.0, 1.0))
        self.row_band.setRect(QRectF(0.0, row, self._n, 1.0))
        self.hover_box.setVisible(True)
        self.row_band.setVisible(True)

    def set_marks(self, row: int, column: int) -> None:
        """Outline one query row (solid) and one key column (dashed); -1 hides a mark."""
        n = self.n
        self.row_mark.setVisible(0 <= row < n)
        self.column_mark.setVisible(0 <= column < n)
        if 0 <= row < n:
            self.row_mark.setRect(QRectF(0, row, n, 1))
        if 0 <= column < n:
            self.column_mark.setRect(QRectF(column, 0, 1, n))

    def _set_hovered(self, cell: tuple[int, int]) -> None:
        if cell != self._hovered:
            self._hovered = cell
            self.cell_hovered.emit(*cell)

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        self._set_hovered(self.cell_at(scene_pos) or (-1, -1))

    def _on_click(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        cell = self.cell_at(event.scenePos())
        if cell is not None:
            event.accept()
            self.cell_clicked.emit(*cell)

    def leaveEvent(self, event) -> None:
        """Nothing is under the mouse any more."""
        super().leaveEvent(event)
        self._set_hovered((-1, -1))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.viewport() and event.type() == QEvent.Type.Leave:
            self._set_hovered((-1, -1))
        return super().eventFilter(watched, event)
