"""Saturation lab, "why scale?": every weight, the entropy and the Jacobian norm as the scale factor grows.

The curves depend only on the raw scores (core.saturation computes them); the vertical line is the model's
factor and dragging it sets the factor (one undo step per drag). Below, a constant added to every score shows
that softmax ignores shifts, and why a naive e^x fails where the max-subtracting softmax does not.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QLabel,
    QWidget,
)

from attention_explorer.core.limits import MAX_KEYS, MAX_TITLE, ScenarioError
from attention_explorer.core.maths.saturation import (
    LOG_FACTOR_MAX,
    LOG_FACTOR_MIN,
    entropy_rows,
    factor_grid,
    jacobian_norm_rows,
    naive_softmax,
    shifted_softmax,
    weights_over_factors,
)
from attention_explorer.core.scenes.query.scene import Scenario, default_labels
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.saturation.axis import (
    X_RANGE,
    ZERO_X,
    factor_from_x,
    x_from_factor,
)
from attention_explorer.ui.labs.saturation.page import SHIFT_LIMIT, build_page
from attention_explorer.ui.style.numbers import (
    compact_html,
    factor_text,
    parse_number_rows,
    tooltip_number,
    typographic_minus,
    weight_html,
)
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import key_color, key_hex, theme
from attention_explorer.ui.widgets.key_rows import shown_rows
from attention_explorer.ui.widgets.lab_plots import style_axes

TABLE_MAX_ROWS = 5
SHORT_TABLE_ROWS = 3  # in a low dock
LEGEND_MAX_KEYS = 10
LABEL_CHARS = 12  # longer key labels are cut with "…" in the legend and the table
# Below this width (pixels at zoom 1) the long shift note becomes a tooltip; below this height, the caption.
NARROW_WIDTH = 820
SHORT_HEIGHT = 540






def short_label(label: str) -> str:
    """A key label cut to LABEL_CHARS characters, escaped for rich text."""
    if len(label) > LABEL_CHARS:
        label = label[: LABEL_CHARS - 1] + "…"
    return escaped(label)


class SaturationLab(QWidget):
    """Weights, entropy and ‖J‖ against the scale factor (draggable), ×10 / ÷10, and the shift-invariance check."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("saturationLab")
        self.model = model
        self._gesture: int | None = None  # merge key of the line drag in progress
        # Display cache: the curves depend only on the raw scores, so a factor change reuses them.
        self._curves_for: bytes | None = None
        self._factors = np.concatenate([[0.0], factor_grid()])  # row 0 is factor 0 (drawn at ZERO_X)
        self._grid_x = np.log10(self._factors[1:])
        self._weights = np.zeros((self._factors.size, 0))
        self._entropy = np.zeros(self._factors.size)
        self._jacobian = np.zeros(self._factors.size)
        self._n = -1
        self._hint_text = ""
        self.titles: dict[pg.PlotWidget, QLabel] = {}
        self._stale = True  # the model changed while the lab was hidden
        self._table_rows = TABLE_MAX_ROWS  # key rows the shift table shows (fewer in a low dock)
        self._fitted: tuple[bool, bool] | None = None  # (narrow, short) the layout was last fitted to

        self._shift_grid = build_page(self)
        self._narrow = False
        self._place_shift_widgets(narrow=False)
        for line in self.factor_lines:
            line.sigDragged.connect(self._on_line_dragged)
            line.sigPositionChangeFinished.connect(self._on_line_released)

        self.scores_edit.returnPressed.connect(self._apply_typed_scores)
        self.scores_edit.textEdited.connect(self._clear_message)
        model.opened.connect(self._clear_message)
        self.multiply_button.clicked.connect(lambda: self._multiply_factor(10.0))
        self.divide_button.clicked.connect(lambda: self._multiply_factor(0.1))
        self.shift_slider.valueChanged.connect(self._update_shift)
        self.shift_zero_button.clicked.connect(lambda: self.shift_slider.setValue(0))
        self.shift_far_button.clicked.connect(lambda: self.shift_slider.setValue(SHIFT_LIMIT))
        # Buttons and the slider tell the status bar what they do (their tooltip) while under the mouse.
        self._described = (self.multiply_button, self.divide_button, self.shift_slider, self.shift_zero_button,
                           self.shift_far_button)
        for widget in self._described:
            widget.installEventFilter(self)
        for plot in (self.weights_plot, self.entropy_plot, self.jacobian_plot):
            plot.scene().sigMouseMoved.connect(lambda pos, plot=plot: self._on_mouse_moved(plot, pos))
        model.changed.connect(self.refresh)
        model.selection_changed.connect(self._on_selection_changed)
        theme().changed.connect(self._apply_theme)

        self.retranslate()
        self._apply_theme()

    def _place_shift_widgets(self, narrow: bool) -> None:
        """Put the table, the naive status and the note where the width allows."""
        self._narrow = narrow
        grid = self._shift_grid
        for widget in (self.shift_table, self.naive_status, self.shift_note):
            grid.removeWidget(widget)
        if narrow:
            grid.addWidget(self.shift_table, 0, 0)
            grid.addWidget(self.naive_status, 1, 0)
            grid.setColumnStretch(1, 0)
        else:
            grid.addWidget(self.shift_table, 0, 0, 3, 1)
            grid.addWidget(self.naive_status, 0, 1)
            grid.addWidget(self.shift_note, 1, 1)
            grid.setRowStretch(2, 1)
            grid.setColumnStretch(1, 1)
        self.shift_note.setVisible(not narrow)
        self.shift_title.setVisible(not narrow)  # its text stays as the slider's tooltip
        table_font = QFont(self.font())
        table_font.setPointSizeF(theme().font_pt() * 1.1 if narrow else theme().number_pt())
        self.shift_table.setFont(table_font)

    # ------------------------------------------------------------ language and theme

    def retranslate(self) -> None:
        """Every static text in the current language (called again on LanguageChange)."""
        self.multiply_button.setText(self.tr("× 10"))
        self.multiply_button.setToolTip(self.tr(
            "Multiply the factor by 10: scores 2, 1, 0 act like 20, 10, 0 and softmax goes nearly one-hot"))
        self.divide_button.setText(self.tr("÷ 10"))
        self.divide_button.setToolTip(self.tr("Divide the factor by 10: the weights spread out again"))
        self.weights_plot.getPlotItem().setLabel("bottom", self.tr("scale factor (log axis)"))
        self.weights_plot.getPlotItem().setLabel("left", self.tr("weight"))
        for line in self.factor_lines:
            line.setToolTip(self.tr("Drag to set the scale factor (one undo step per drag)"))
        self.caption.setText(self.tr(
            "A large factor makes softmax a hard choice: the entropy falls to 0 and so does ‖J‖ (the softmax "
            "Jacobian, which carries the gradient back to the scores): a saturated softmax barely learns. "
            "Dividing by √d_k keeps the factor in the soft part of the curves."))
        self.scores_title.setText(self.tr("Scores:"))
        self.scores_edit.setPlaceholderText(self.tr("e.g. 2, 1, 0 or 20, 10, 0"))
        self.scores_edit.setToolTip(self.tr(
            "Type raw scores separated by commas or spaces and press Enter: the lab shows their softmax "
            "(the explorer gets Q = [1] and one key per score, without scaling)"))
        self.shift_title.setText(self.tr("Add c to every score:"))
        self.shift_slider.setToolTip(self.tr("Add the same constant c to every scaled score: the weights do not move"))
        self.shift_zero_button.setText(self.tr("c = 0"))
        self.shift_zero_button.setToolTip(self.tr("Back to the scores as they are"))
        self.shift_far_button.setText(self.tr("c = 1000"))
        self.shift_far_button.setToolTip(self.tr("Scores around 1000: where a naive e^x overflows"))
        self.shift_note.setText(self.tr(
            "Softmax sees only differences: adding c multiplies every e<sup>x</sup> and their sum by e<sup>c</sup>, "
            "which cancels. So <b>ours</b> subtracts the largest x first: the top term is e<sup>0</sup> = 1 and "
            "nothing overflows. The <b>naive</b> e<sup>x</sup>/Σe<sup>x</sup> does not: in float64, e<sup>x</sup> "
            "is ∞ beyond x ≈ 709.8 and 0 below x ≈ −745."))
        self.shift_title.setToolTip(self.shift_note.text())
        if self._fitted is not None and self._fitted[1]:
            self.readout.setToolTip(self.caption.text())
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _apply_theme(self) -> None:
        """Fonts, pens and plot colours for the current zoom and theme."""
        current = theme()
        number_font = QFont(self.font())
        number_font.setPointSizeF(current.number_pt())
        for widget in (self.readout, self.shift_value, self.multiply_button, self.divide_button):
            widget.setFont(number_font)
        text_font = QFont(self.font())
        text_font.setPointSizeF(current.font_pt())
        for widget in (self.caption, self.shift_note, self.naive_status, self.legend, self.shift_title,
                       self.shift_zero_button, self.shift_far_button, self.message_label, *self.titles.values()):
            widget.setFont(text_font)
        tick_font = QFont(self.font())
        tick_font.setPointSizeF(current.font_pt() * 0.9)
        foreground, faint = current.foreground(), current.faint()
        label_style = {"color": foreground.name(), "font-size": f"{current.font_pt() * 0.9:.0f}pt"}
        plots = (self.weights_plot, self.entropy_plot, self.jacobian_plot)
        style_axes(plots, foreground, current.background(), tick_font, label_style)
        line_pen = pg.mkPen(foreground, width=current.line_px())
        hover_pen = pg.mkPen(QColor("#D55E00"), width=current.line_px() * 1.6)
        for line in self.factor_lines:
            line.setPen(line_pen)
            line.setHoverPen(hover_pen)
        break_pen = pg.mkPen(faint, width=2, style=Qt.PenStyle.DashLine)
        for line in self.break_lines:
            line.setPen(break_pen)
        curve_pen = pg.mkPen(foreground, width=current.line_px())
        self.entropy_curve.setPen(curve_pen)
        self.jacobian_curve.setPen(curve_pen)
        for dots in (self.entropy_dot, self.jacobian_dot):
            dots.setBrush(pg.mkBrush("#D55E00"))
            dots.setPen(pg.mkPen(foreground, width=1.5))
        for dots in (self.entropy_zero, self.jacobian_zero, self.zero_dot):
            dots.setBrush(pg.mkBrush(current.background()))
            dots.setPen(pg.mkPen(foreground, width=2))
        self.zero_label.setColor(foreground)
        self.zero_label.setFont(text_font)
        error_colour = current.error_hex()
        self.message_label.setStyleSheet(f"color: {error_colour}; font-weight: bold;")
        self._n = -1  # pens of the curves follow the zoom
        self._fitted = None  # re-fit (fonts and thresholds) at the new zoom
        self._fit_to_size()
        self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_to_size()

    def _fit_to_size(self) -> None:
        """In a small dock the long explanations step aside (they stay as tooltips) so the plots keep room."""
        zoom = theme().zoom
        narrow = self.width() < NARROW_WIDTH * zoom
        short = self.height() < SHORT_HEIGHT * zoom
        if (narrow, short) == self._fitted:
            return
        self._fitted = (narrow, short)
        self._place_shift_widgets(narrow)
        self.caption.setVisible(not short)
        self.readout.setToolTip(self.caption.text() if short else "")
        self._table_rows = SHORT_TABLE_ROWS if short else TABLE_MAX_ROWS
        self._update_shift()

    # ------------------------------------------------------------ redraw from the model

    def _rebuild_for_n(self, n: int) -> None:
        """One curve per key (reused when the count changes)."""
        self._n = n
        while len(self.curves) > n:
            self.weights_plot.removeItem(self.curves.pop())
        while len(self.curves) < n:
            index = len(self.curves)
            curve = pg.PlotDataItem()
            curve.setCurveClickable(True, width=10)
            curve.sigClicked.connect(lambda _item, _event=None, index=index: self._select(index))
            self.weights_plot.addItem(curve)
            self.curves.append(curve)
        self._curves_for = None
        self._update_pens()

    def _update_pens(self) -> None:
        width = theme().line_px()
        selected = self.model.selected_key
        for index, curve in enumerate(self.curves):
            pen = pg.mkPen(key_color(index), width=width * (2.0 if index == selected else 1.0))
            curve.setPen(pen)
            curve.setZValue(10 if index == selected else 5)

    def _update_legend(self) -> None:
        labels = self.model.scenario.labels
        selected = self.model.selected_key
        parts = []
        for index, label in enumerate(labels[:LEGEND_MAX_KEYS]):
            name = short_label(label)
            if index == selected:
                name = f"<b><u>{name}</u></b>"
            parts.append(f'<span style="color:{key_hex(index)}; font-weight:bold">━━</span>&nbsp;{name}')
        if len(labels) > LEGEND_MAX_KEYS:
            parts.append(self.tr("… {0} more").format(len(labels) - LEGEND_MAX_KEYS))
        self.legend.setText("&nbsp;&nbsp; ".join(parts))

    def _update_curves(self) -> None:
        """Recompute the curves only when the raw scores changed (a factor drag reuses them)."""
        scores = self.model.result.scores
        key = scores.tobytes()
        if key == self._curves_for:
            return
        self._curves_for = key
        self._weights = weights_over_factors(scores, self._factors)
        self._entropy = entropy_rows(self._weights)
        self._jacobian = jacobian_norm_rows(self._weights)
        for index, curve in enumerate(self.curves):
            curve.setData(self._grid_x, self._weights[1:, index])
        self.zero_dot.setData([ZERO_X], [float(self._weights[0, 0])])
        self.zero_label.setText(self.tr("1/{0}").format(self._n))
        self.zero_label.setPos(ZERO_X, float(self._weights[0, 0]))
        self.entropy_curve.setData(self._grid_x, self._entropy[1:])
        self.entropy_zero.setData([ZERO_X], [float(self._entropy[0])])
        self.jacobian_curve.setData(self._grid_x, self._jacobian[1:])
        self.jacobian_zero.setData([ZERO_X], [float(self._jacobian[0])])
        entropy_top = max(float(np.max(self._entropy)), 1.0)
        jacobian_top = max(float(np.max(self._jacobian)), 0.05)
        for plot, top in ((self.entropy_plot, entropy_top), (self.jacobian_plot, jacobian_top)):
            plot.getPlotItem().getViewBox().setRange(xRange=X_RANGE, yRange=(-0.05 * top, 1.12 * top), padding=0.0)

    def refresh(self) -> None:
        """Redraw in place from model.result (curves only when the scores changed)."""
        if not self.isVisible():
            # A lab in a hidden tab skips the work (512 curves cost ~50 ms); showEvent catches up.
            self._stale = True
            return
        self._stale = False
        result = self.model.result
        if result.n != self._n:
            self._rebuild_for_n(result.n)
        self._update_legend()
        self._update_curves()
        factor = result.scale
        x = x_from_factor(factor)
        for line in self.factor_lines:
            if not line.moving:  # the line under the mouse follows the mouse; the rest follow the model
                with QSignalBlocker(line):
                    line.setValue(x)
        self.current_dots.setData(
            x=np.full(result.n, x), y=np.asarray(result.weights),
            brush=[pg.mkBrush(key_color(i)) for i in range(result.n)],
            pen=pg.mkPen(theme().foreground(), width=1.5))
        self.entropy_dot.setData([x], [result.entropy])
        self.jacobian_dot.setData([x], [result.jacobian_norm])
        off_scale = factor > 10.0 ** LOG_FACTOR_MAX or 0 < factor < 10.0 ** LOG_FACTOR_MIN
        self.readout.setText(self._readout_text(off_scale))
        self.titles[self.entropy_plot].setText(self.tr("entropy H = {0} bits").format(f"{result.entropy:.3f}"))
        self.titles[self.jacobian_plot].setText(
            self.tr("gradient size ‖J‖ = {0}").format(f"{result.jacobian_norm:.3f}"))
        self.scores_weights.setText(self._weights_text())
        self.divide_button.setEnabled(factor > 0)
        self.multiply_button.setEnabled(factor > 0)
        self._update_shift()

    def _weights_text(self) -> str:
        """softmax(scaled scores) = [weights], with enough digits that a small weight is never a bare 0.0000."""
        result = self.model.result
        shown = min(result.n, LEGEND_MAX_KEYS)
        scores = ", ".join(compact_html(float(x)) for x in result.scaled_scores[:shown])
        weights = ", ".join(weight_html(float(w)) for w in result.weights[:shown])
        more = ", …" if result.n > shown else ""
        return f"softmax({scores}{more}) = [{weights}{more}]"

    def _readout_text(self, off_scale: bool) -> str:
        result = self.model.result
        top = int(np.argmax(result.weights))
        label = short_label(self.model.scenario.labels[top])
        text = self.tr("factor <b>× {0}</b> &nbsp; largest weight <b>{1}</b> "
                       '(<span style="color:{2}">{3}</span>)').format(
            factor_text(result.scale), f"{result.max_weight:.5f}", key_hex(top), label)
        if off_scale:
            text += " " + self.tr("(off the axis: shown at its end)")
        return text

    def _on_selection_changed(self, _index: int) -> None:
        self._update_pens()
        self._update_legend()

    # ------------------------------------------------------------ shift invariance

    def _update_shift(self) -> None:
        """The table of x + c, our softmax, the naive one and the model's weights."""
        result = self.model.result
        shift = float(self.shift_slider.value())
        self.shift_value.setText(self.tr("c = {0}").format(typographic_minus(f"{shift:+.0f}") if shift else "0"))
        ours = shifted_softmax(result.scaled_scores, shift)
        naive = naive_softmax(result.scaled_scores, shift)
        labels = self.model.scenario.labels
        rows = shown_rows(np.asarray(result.weights), self.model.selected_key, self._table_rows)
        key_header = self.tr("key")  # lupdate does not look inside f-strings: every tr() stands on its own
        header = f'<th align="left">{key_header}</th>' + "".join(f'<th align="right">{text}</th>' for text in (
            self.tr("x + c"), self.tr("ours"), self.tr("naive"), self.tr("model")))
        body = []
        for index in rows:
            cells = [
                f'<td style="color:{key_hex(index)}"><b>{short_label(labels[index])}</b></td>',
                f'<td align="right">{typographic_minus(f"{result.scaled_scores[index] + shift:.2f}")}</td>',
                f'<td align="right"><b>{weight_html(float(ours[index]))}</b></td>',
                f'<td align="right">{self._naive_cell(naive, index, float(ours[index]))}</td>',
                f'<td align="right">{weight_html(float(result.weights[index]))}</td>',
            ]
            body.append("<tr>" + "".join(cells) + "</tr>")
        if len(rows) < result.n:
            more = self.tr("… and {0} more").format(result.n - len(rows))
            body.append(f'<tr><td colspan="5">{more}</td></tr>')
        self.shift_table.setText(
            f'<table cellspacing="0" cellpadding="{2 if self._narrow else 5}"><tr>{header}</tr>{"".join(body)}</table>')
        self.naive_status.setText(self._naive_status_text(naive, result.scaled_scores, shift))

    def _naive_cell(self, naive, index: int, correct: float) -> str:
        """The naive weight, or the failure it ran into (never a bare "nan")."""
        value = float(naive.weights[index])
        colour = theme().error_hex()
        if not math.isfinite(value):
            text = self.tr("overflow → NaN") if naive.overflow else self.tr("underflow → NaN")
            return f'<span style="color:{colour}"><b>{text}</b></span>'
        shown = weight_html(value)
        if abs(value - correct) > 5e-5:
            return f'<span style="color:{colour}"><b>{shown}</b></span>'
        return shown

    def _naive_status_text(self, naive, scaled_scores: np.ndarray, shift: float) -> str:
        colour = theme().error_hex()
        top = float(np.max(scaled_scores)) + shift
        if naive.overflow:
            text = self.tr("Naive: e<sup>{0}</sup> = ∞, and ∞/∞ = NaN. Ours subtracts {0} first: "
                           "the same weights as at c = 0.").format(typographic_minus(f"{top:.0f}"))
            return f'<span style="color:{colour}">{text}</span>'
        if naive.underflow:
            text = self.tr("Naive: every e<sup>x</sup> underflows to 0 (e<sup>{0}</sup> = 0), and 0/0 = NaN. "
                           "Ours subtracts the max first: the same weights as at c = 0.")
            text = text.format(typographic_minus(f"{top:.0f}"))
            return f'<span style="color:{colour}">{text}</span>'
        if naive.failed:
            text = self.tr("Naive: the sum of e^x is not finite.")
            return f'<span style="color:{colour}">{text}</span>'
        return self.tr("Here the naive e<sup>x</sup> still works (every x + c lies between −745 and 709). "
                       "Try c = 1000.")

    # ------------------------------------------------------------ input

    def _apply_typed_scores(self) -> None:
        """The typed scores become the explorer's scenario: Q = [1], one key per score, factor 1 (undoable)."""
        try:
            rows = parse_number_rows(self.scores_edit.text())
            if len(rows) != 1 or not 1 <= len(rows[0]) <= MAX_KEYS:
                raise ValueError(self.tr("type one row of 1 to {0} scores, such as 2, 1, 0").format(MAX_KEYS))
        except ValueError as error:
            self._show_message(str(error))
            return
        scores = rows[0]
        current = self.model.scenario
        values = [current.values[i % current.n].tolist() for i in range(len(scores))]
        # The title is plain text in the user's language: 分数 20、10、0 (a list in a Chinese sentence takes 、).
        shown = self.tr(", ", "between the numbers of a list in a sentence").join(tooltip_number(x) for x in scores)
        scenario = Scenario(query=np.array([1.0]), keys=np.array([[x] for x in scores]), values=np.array(values),
                            labels=default_labels(len(scores)), scale=1.0,
                            title=self.tr("Scores {0}").format(shown)[:MAX_TITLE])
        try:
            self.model.load_scenario(scenario)
        except ScenarioError as error:
            self._show_message(error_text(error))
            return
        self._clear_message()

    def _show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.show()
        self.hint.emit(text)

    def _clear_message(self, *_args) -> None:
        """A refusal goes at the next edit or when an example opens: it never speaks of what is gone."""
        if self.message_label.isVisible() or self.message_label.text():
            self.message_label.clear()
            self.message_label.hide()

    def _select(self, index: int) -> None:
        if 0 <= index < self.model.scenario.n:
            self.model.select_key(index)

    def _on_line_dragged(self, line: pg.InfiniteLine) -> None:
        if self._gesture is None:
            self._gesture = new_merge_key()
        self._set_factor(factor_from_x(line.value()), self._gesture)

    def _on_line_released(self, _line: pg.InfiniteLine) -> None:
        self.model.finish_gesture(self._gesture)
        self._gesture = None
        self.refresh()  # the line snaps to the factor the model holds

    def _multiply_factor(self, multiplier: float) -> None:
        factor = self.model.result.scale * multiplier
        self._set_factor(float(f"{factor:.12g}"))  # 0.1 × 10 is 1.0000000000000002 otherwise

    def _set_factor(self, factor: float, merge_key: int | None = None) -> None:
        try:
            self.model.set_scale(factor, merge_key)
        except ScenarioError as error:
            self.message_label.setText(error_text(error))
            self.message_label.show()
            self.hint.emit(error_text(error))
            self.refresh()
            return
        if self.message_label.isVisible():
            self.message_label.clear()
            self.message_label.hide()

    def _on_mouse_moved(self, plot: pg.PlotWidget, scene_pos) -> None:
        """Status-bar hint: the numbers at the factor under the mouse, or how to drag the line."""
        view = plot.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(scene_pos):
            text = ""
        else:
            x = view.mapSceneToView(scene_pos).x()
            line = self.factor_lines[(self.weights_plot, self.entropy_plot, self.jacobian_plot).index(plot)]
            pixel = view.viewPixelSize()[0]
            if abs(x - line.value()) < 8 * pixel:
                text = self.tr("Drag the line to set the scale factor (one undo step per drag)")
            else:
                factor = factor_from_x(x)
                row = 0 if factor == 0 else 1 + int(np.argmin(np.abs(self._grid_x - math.log10(factor))))
                if row >= self._entropy.size:
                    text = ""
                else:
                    text = self.tr("At × {0}: largest weight {1}, entropy {2} bits, ‖J‖ {3}").format(
                        factor_text(factor), f"{np.max(self._weights[row]):.4f}",
                        f"{self._entropy[row]:.3f}", f"{self._jacobian[row]:.3f}")
        if text != self._hint_text:
            self._hint_text = text
            self.hint.emit(text)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched in self._described:
            if event.type() == QEvent.Type.Enter:
                self.hint.emit(watched.toolTip())
            elif event.type() == QEvent.Type.Leave:
                self.hint.emit("")
        return super().eventFilter(watched, event)

    def leaveEvent(self, event) -> None:
        """Nothing is under the mouse any more."""
        super().leaveEvent(event)
        if self._hint_text:
            self._hint_text = ""
            self.hint.emit("")
