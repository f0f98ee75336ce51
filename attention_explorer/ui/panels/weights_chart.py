"""The attention weights as bars, one per key in its colour, over the weights the unscaled scores would give."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPen
from PySide6.QtWidgets import QLabel, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import UNSCALED_HEX, key_color, theme
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.chart_column import chart_column
from attention_explorer.ui.widgets.fast_items import CachedBars, QuickText, moves_quietly

# Pixels kept free between two neighbouring value texts.
VALUE_TEXT_GAP_PX = 6
# Value texts on the bars only up to this many keys; beyond it they would overlap and cost time per drag move.
VALUE_TEXT_MAX_KEYS = 12
BAR_WIDTH = 0.62
OVERLAY_WIDTH = 0.86  # wider than the bars, so the grey outline shows even where it matches a bar
Y_TOP = 1.14  # 0–1 plus room for the value written above a full bar (more in a short plot: _fit_y_range)
# Pixels between a value text and the top of its bar or dashed outline below it.
TEXT_LIFT_PX = 3.0
# Labels under every bar while they fit, else under every 2nd, 5th, 10th, … bar.
TICK_STEPS = (1, 2, 5, 10, 20, 50, 100, 200)
# From this many keys on, bars nearly touch and the unscaled weights are one grey step line.
DENSE_KEYS = 40
# Narrower than this (pixels at zoom 1) the texts around the plot switch to a short form, so the bars keep room.
NARROW_WIDTH = 360


class WeightAxis(pg.AxisItem):
    """The weight axis, whose label "0" sits on the plot's bottom edge and so reaches half a line below it."""

    # pyqtgraph drops a tick label that leaves the axis's bounding rect, and with a grid that rect ends at the
    # plot's edges: the label of weight 0, centred on the bottom edge, was never drawn.

    def __init__(self) -> None:
        super().__init__("left")
        self._overhang = 0.0

    def set_label_overhang(self, pixels: float) -> None:
        """How far (pixels) a tick label may reach past either end of the axis: half the tick font's height."""
        if pixels != self._overhang:
            self.prepareGeometryChange()
            self._overhang = pixels
            self.picture = None
            self.update()

    def boundingRect(self):
        return super().boundingRect().adjusted(0.0, -self._overhang, 0.0, self._overhang)


class WeightsChart(QWidget):
    """Bars of softmax weights; a dashed grey outline shows the weights without scaling (factor 1)."""

    hint = Signal(str)
    key_clicked = Signal(int)  # a bar (or its label) was clicked: a question may be waiting for a key

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("weightsChart")
        self.model = model

        self.stats_label = QLabel(self)
        self.stats_label.setObjectName("weightsStats")
        self.weight_axis = WeightAxis()
        self.plot, self.caption, item = chart_column(self, self.stats_label, "weights", {"left": self.weight_axis})
        item.showGrid(y=True, alpha=0.25)
        cache_axes(item)
        self.view_box = item.getViewBox()
        self.view_box.disableAutoRange()
        self.view_box.setRange(yRange=(0.0, Y_TOP), padding=0.0)
        left = item.getAxis("left")
        left.setTicks([[(v, f"{v:g}") for v in (0.0, 0.5, 1.0)], [(v, f"{v:g}") for v in (0.25, 0.75)]])

        self.bars = CachedBars(x=np.zeros(0), height=np.zeros(0), width=BAR_WIDTH,
                                    brush=QBrush(Qt.BrushStyle.NoBrush), pen=QPen(Qt.PenStyle.NoPen))
        self.overlay = CachedBars(x=np.zeros(0), height=np.zeros(0), width=OVERLAY_WIDTH,
                                       brush=QBrush(Qt.BrushStyle.NoBrush), pen=self._overlay_pen())
        self.overlay.setZValue(5)  # on top: it has no fill, so it never hides a bar
        # Many keys: the same numbers as one grey step line (outlines of touching bars would be a comb of lines).
        self.overlay_steps = pg.PlotDataItem(stepMode="center", pen=pg.mkPen(UNSCALED_HEX, width=1.5))
        self.overlay_steps.setZValue(5)
        self.overlay_steps.setVisible(False)
        self.plot.addItem(self.bars)
        self.plot.addItem(self.overlay)
        self.plot.addItem(self.overlay_steps)
        self.value_texts: list[QuickText] = []

        self._n = -1
        self._outlined_key = -1  # the key whose bar was last given the thick outline
        self._brushes: list[QBrush] = []
        self._plain_pen = QPen(Qt.PenStyle.NoPen)
        self._tick_labels: tuple[str, ...] = ()
        self._hovered = -1
        self._narrow = False
        self._shown_caption: tuple | None = None
        self.view_box.sigResized.connect(self._on_view_resized)
        self.plot.scene().sigMouseClicked.connect(self._on_click)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        model.changed.connect(self.refresh)
        model.selection_changed.connect(self._on_selection_changed)
        model.steps_changed.connect(self.refresh)
        theme().changed.connect(self._apply_theme)
        self._apply_theme()

    # ------------------------------------------------------------ updating

    def _overlay_pen(self) -> QPen:
        pen = QPen(QColor(UNSCALED_HEX), max(2.0, theme().line_px() * 0.7))
        pen.setStyle(Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        return pen

    def _selected_pen(self) -> QPen:
        pen = QPen(theme().foreground(), theme().line_px())  # an outline in the text colour reads on any theme
        pen.setCosmetic(True)
        return pen

    def _apply_theme(self) -> None:
        """Re-apply colours and sizes after a theme or presentation-zoom change."""
        number_font = QFont(self.font())
        number_font.setPointSizeF(theme().font_pt() if self._narrow else theme().number_pt())
        self.stats_label.setFont(number_font)
        text_font = QFont(self.font())
        text_font.setPointSizeF(theme().font_pt())
        self.caption.setFont(text_font)
        tick_font = QFont(self.font())
        tick_font.setPointSizeF(theme().font_pt())
        item = self.plot.getPlotItem()
        self.plot.setBackground(theme().background())
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=tick_font)
            axis.setPen(theme().foreground())
            axis.setTextPen(theme().foreground())
        self.weight_axis.set_label_overhang(QFontMetrics(tick_font).height() / 2.0 + 1.0)
        self._n = -1  # rebuild text items at the new size
        self.refresh()

    def _rebuild_for_n(self, n: int) -> None:
        """Items whose count depends on N: brushes, x positions, value texts (reused when possible)."""
        self._n = n
        self._brushes = [QBrush(key_color(i)) for i in range(n)]
        dense = n >= DENSE_KEYS
        self.bars.setOpts(width=0.9 if dense else BAR_WIDTH)
        self.overlay.setOpts(pen=self._overlay_pen())
        self.overlay.setVisible(not dense)
        self.overlay_steps.setVisible(dense)
        self.view_box.setRange(xRange=(-0.6, n - 0.4), padding=0.0)
        wanted = n if n <= VALUE_TEXT_MAX_KEYS else 0
        while len(self.value_texts) > wanted:
            self.plot.removeItem(self.value_texts.pop())
        while len(self.value_texts) < wanted:
            text = moves_quietly(QuickText(anchor=(0.5, 1.0)))
            text.setZValue(10)
            self.plot.addItem(text)
            self.value_texts.append(text)
        for text in self.value_texts:
            text.setColor(theme().foreground())  # above the bars, on the plot's background
        self._tick_labels = ()
        self._update_value_fonts()
        self._fit_y_range()

    def refresh(self) -> None:
        """Redraw every item in place from model.result."""
        result = self.model.result
        n = result.n
        weights, unscaled = self._drawn_weights()
        if n != self._n:
            self._rebuild_for_n(n)
            x = np.arange(n, dtype=np.float64)  # x and height change together: their lengths must match
            self.bars.setOpts(x=x, height=weights, brushes=self._brushes, pens=self._pens())
            self.overlay.setOpts(x=x, height=unscaled)
        elif self._outlined_key != self.model.selected_key:
            self.bars.setOpts(height=weights, brushes=self._brushes, pens=self._pens())
            self.overlay.setOpts(height=unscaled)
        else:  # a drag move: only the heights change
            self.bars.setOpts(height=weights)
            self.overlay.setOpts(height=unscaled)
        if self.overlay_steps.isVisible():
            self.overlay_steps.setData(np.arange(n + 1, dtype=np.float64) - 0.5, unscaled)
        for i, text in enumerate(self.value_texts):
            shown = f"{weights[i]:.3f}" if self.model.step_shown(3) else "?"
            if text.textItem.toPlainText() != shown:
                text.setText(shown)
        self._place_value_texts(weights, unscaled)
        labels = self.model.scenario.labels
        if labels != self._tick_labels:
            self._tick_labels = labels
            self._update_ticks()
        self._update_stats()
        self._update_caption()

    def _drawn_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """The bars' and outlines' heights: zero in step-through before the softmax (an empty frame, "?" texts)."""
        result = self.model.result
        if self.model.step_shown(3):
            return result.weights, result.unscaled_weights
        return np.zeros(result.n), np.zeros(result.n)

    def _place_value_texts(self, weights: np.ndarray, unscaled: np.ndarray) -> None:
        """Each value a few pixels above the taller of its bar and its dashed outline, so no line crosses it."""
        if not self.value_texts:
            return
        pixel_height = self.view_box.viewPixelSize()[1]
        lift = TEXT_LIFT_PX * pixel_height if np.isfinite(pixel_height) and pixel_height > 0.0 else 0.01
        tops = np.maximum(weights, unscaled) + lift
        for i, text in enumerate(self.value_texts):
            text.setPos(i, float(tops[i]))

    def _fit_y_range(self) -> None:
        """0 to Y_TOP, or higher when the plot is too short to fit a value text above a full bar below Y_TOP.

        Changes only with the plot's height or the texts' font, never during a drag, so the bars don't jump."""
        top = Y_TOP
        plot_px = self.view_box.height()
        if self.value_texts and self.value_texts[0].isVisible() and plot_px > 0.0:
            # The text's empty margin (QTextDocument's 4 px) may be cut off at the top, its letters may not.
            text_px = self.value_texts[0].textItem.boundingRect().height() - 4.0 + TEXT_LIFT_PX
            # The room above 1 is (top − 1) · plot_px / top pixels: text_px when top = 1 / (1 − text_px / plot_px).
            top = max(Y_TOP, 1.0 / (1.0 - min(text_px / plot_px, 0.4)))
        if abs(self.view_box.viewRange()[1][1] - top) > 1e-9 or self.view_box.viewRange()[1][0] != 0.0:
            self.view_box.setRange(yRange=(0.0, top), padding=0.0)

    def _pens(self) -> list[QPen]:
        pens = [self._plain_pen] * self._n
        selected = self.model.selected_key
        self._outlined_key = selected
        if 0 <= selected < self._n:
            pens[selected] = self._selected_pen()
        return pens

    def _on_selection_changed(self, _index: int) -> None:
        if self.model.result.n != self._n:
            # Undoing "add pair" clamps the selection before `changed` announces the smaller scenario: draw it all.
            self.refresh()
            return
        self.bars.setOpts(pens=self._pens())
        self._update_value_fonts()
        self._update_stats()

    def _update_stats(self) -> None:
        result = self.model.result
        top = int(np.argmax(result.weights))
        label = self.model.scenario.labels[top]
        maximum = math.log2(result.n) if result.n > 1 else 0.0
        if self._narrow:
            text = self.tr("Entropy <b>{0}</b> bits (max {2})<br/>Largest <b>{3}</b> ({4})")
        else:
            text = self.tr(
                "Entropy <b>{0}</b> bits (max log<sub>2</sub> {1} = {2})<br/>Largest weight <b>{3}</b> ({4})")
        if not self.model.step_shown(3):
            self.stats_label.setText(text.format("?", result.n, f"{maximum:.3f}", "?", "?"))
            return
        self.stats_label.setText(text.format(f"{result.entropy:.3f}", result.n, f"{maximum:.3f}",
                                             f"{result.max_weight:.3f}", escaped(label)))

    def _update_caption(self) -> None:
        result = self.model.result
        dense = result.n >= DENSE_KEYS
        same = abs(result.scale - 1.0) < 1e-12
        mark = "━━" if dense else "┅┅"
        swatch = f'<span style="color:{UNSCALED_HEX}; font-weight:bold">{mark}</span>'
        if dense:
            explanation = self.tr("{0} grey line: the weights without scaling (factor 1, softmax of the raw scores)")
        else:
            explanation = self.tr("{0} dashed grey: the weights without scaling (factor 1, softmax of the raw scores)")
        if same:
            explanation += self.tr(" — the same as the bars, since the factor is 1")
        short = self.tr("{0} grey: without scaling (× 1)")
        shown = ((short if self._narrow else explanation).format(swatch), explanation.format(mark))
        if shown != self._shown_caption:  # a drag leaves it as it is: no tooltip or layout work then
            self._shown_caption = shown
            self.caption.setText(shown[0])
            self.caption.setToolTip(shown[1])

    def _update_ticks(self) -> None:
        """Key labels under the bars, elided to the space a bar gets (every k-th label when N is large)."""
        labels = self.model.scenario.labels
        n = len(labels)
        axis = self.plot.getPlotItem().getAxis("bottom")
        per_bar = max(self.view_box.width(), 100.0) / max(n, 1)
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        metrics = QFontMetrics(font)
        # Room for the widest label (or six letters of it, then "…"), plus a gap.
        needed = min(max(metrics.horizontalAdvance(label) for label in labels), metrics.horizontalAdvance("MMMMMM")) + 8
        step = next((s for s in TICK_STEPS if per_bar * s >= needed), TICK_STEPS[-1])
        indices = range(0, n, step) if step <= 2 else range(step - 1, n, step)  # K5, K10, … when thinned
        room = max(int(per_bar * step) - 6, 12)
        axis.setTicks([[(i, metrics.elidedText(labels[i], Qt.TextElideMode.ElideRight, room)) for i in indices]])

    def _update_value_fonts(self) -> None:
        """Value texts as large as the bar spacing allows (number size at most); hidden when even small won't fit."""
        if not self.value_texts:
            return
        per_bar = max(self.view_box.width(), 100.0) / max(self._n, 1)
        size = theme().number_pt()
        font = QFont(self.font())
        # Measured bold (the selected key's text is), with a gap: two neighbours read "0.4280.428" otherwise.
        measure = QFont(font)
        measure.setBold(True)
        while size > 8.0:
            measure.setPointSizeF(size)
            if QFontMetrics(measure).horizontalAdvance("0.000") <= per_bar - VALUE_TEXT_GAP_PX:
                break
            size -= 1.0
        font.setPointSizeF(size)
        measure.setPointSizeF(size)
        fits = QFontMetrics(measure).horizontalAdvance("0.000") <= per_bar - VALUE_TEXT_GAP_PX / 2
        selected = self.model.selected_key
        for i, text in enumerate(self.value_texts):
            text_font = QFont(font)
            text_font.setBold(i == selected)
            text.setFont(text_font)
            text.setVisible(fits)

    def resizeEvent(self, event) -> None:
        """Switch the texts around the plot between their full and short forms."""
        super().resizeEvent(event)
        narrow = self.width() < NARROW_WIDTH * theme().zoom
        if narrow != self._narrow:
            self._narrow = narrow
            self._apply_theme()

    def retranslate(self) -> None:
        """No static texts here: the stats and the caption are rebuilt from the model in the current language."""
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _on_view_resized(self) -> None:
        """Labels and value texts depend on the pixels per bar, the texts' lift on the pixel height."""
        self._update_ticks()
        self._update_value_fonts()
        self._fit_y_range()
        if self.value_texts:
            self._place_value_texts(*self._drawn_weights())

    # ------------------------------------------------------------ interaction

    def _bar_at(self, scene_pos: QPointF) -> int:
        """Index of the bar column under a scene position (axis labels included), or -1."""
        if not self.plot.getPlotItem().sceneBoundingRect().contains(scene_pos):
            return -1
        x = self.view_box.mapSceneToView(scene_pos).x()
        index = round(x)
        if 0 <= index < self._n and abs(x - index) <= 0.5:
            return index
        return -1

    def _on_click(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        index = self._bar_at(event.scenePos())
        if index < 0:
            return
        event.accept()
        self.key_clicked.emit(index)
        try:
            self.model.select_key(index)
        except ScenarioError as error:
            self.hint.emit(error_text(error))

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        index = self._bar_at(scene_pos)
        if index == self._hovered:
            return
        self._hovered = index
        if index < 0:
            self.hint.emit("")
            return
        result = self.model.result
        shown = self.model.step_shown(3)
        weight, unscaled = (f"{result.weights[index]:.6f}", f"{result.unscaled_weights[index]:.6f}") if shown else "??"
        self.hint.emit(self.tr("{0}: weight {1}, without scaling {2} — click to select").format(
            self.model.scenario.labels[index], weight, unscaled))

    def leaveEvent(self, event) -> None:
        """Nothing is under the mouse any more."""
        super().leaveEvent(event)
        if self._hovered != -1:
            self._hovered = -1
            self.hint.emit("")
