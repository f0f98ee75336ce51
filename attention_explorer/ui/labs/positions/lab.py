"""Positions lab, "how position enters q·k": sinusoidal encodings added to q and k, against RoPE rotating them.

Two plots of q·k against the offset m − n for one fixed seeded pair q, k, each with a curve per key position n
(RoPE's curves lie on one another, the sinusoidal ones part), and one frequency pair of q and k in the plane, turned
by mθ and nθ. Everything is drawn from a PositionalModel; the sliders and spin boxes only call its setters.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QSlider, QSpinBox, QVBoxLayout, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.positional import MAX_D
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.positions.state import CURVE_STARTS, MAX_OFFSET, MAX_SLIDER, PositionalModel
from attention_explorer.ui.style.numbers import cell_number, grouped_integer
from attention_explorer.ui.style.theme import key_color, query_color, theme
from attention_explorer.ui.widgets.lab_message import LabMessage
from attention_explorer.ui.widgets.lab_plots import still_plot, style_axes, titled

if TYPE_CHECKING:
    from attention_explorer.core.scenes.positions.scene import PositionalScene

D_SPIN_MAX = 128  # the spin box's largest d (the core allows up to MAX_D)
METHOD_PLOTS = ("sinusoidal", "rope")


class PositionalLab(QWidget):
    """q·k against m − n for sinusoidal encodings and for RoPE, and RoPE's rotation of one frequency pair."""

    hint = Signal(str)  # a refused value, for the status bar too

    def __init__(self, parent: QWidget | None = None, positions: PositionalModel | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("positionalLab")
        self.positions = positions if positions is not None else PositionalModel(parent=self)
        self._error: ScenarioError | None = None  # the refusal shown, kept to say it again in another language
        self._build_controls()
        self._build_plots()
        self._build_layout()
        self.positions.changed.connect(self.refresh)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build_controls(self) -> None:
        self.intro_label = QLabel(self)
        self.intro_label.setWordWrap(True)
        self.intro_label.setTextFormat(Qt.TextFormat.RichText)
        self.spin_labels: dict[str, QLabel] = {}
        self.spins: dict[str, QSpinBox] = {}
        setters = {"d": self.positions.set_d, "pair": self.positions.set_pair, "seed": self.positions.set_seed}
        for name, low, high, step in (("d", 2, D_SPIN_MAX, 2), ("pair", 0, D_SPIN_MAX // 2 - 1, 1),
                                      ("seed", 0, 2**31 - 1, 1)):
            spin = QSpinBox(self)
            spin.setObjectName(f"positions_{name}Spin")
            spin.setRange(low, high)
            spin.setSingleStep(step)
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda value, set_value=setters[name]: self._guarded(set_value, value))
            label = QLabel(self)
            label.setBuddy(spin)
            self.spins[name], self.spin_labels[name] = spin, label
        self.sliders: dict[str, QSlider] = {}
        self.slider_labels: dict[str, QLabel] = {}
        for name, set_value in (("m", self.positions.set_m), ("n", self.positions.set_n)):
            slider = QSlider(Qt.Orientation.Horizontal, self)
            slider.setObjectName(f"{name}Slider")
            slider.setRange(0, MAX_SLIDER)
            slider.valueChanged.connect(lambda value, set_value=set_value: self._guarded(set_value, value))
            self.sliders[name] = slider
            self.slider_labels[name] = QLabel(self)
            self.slider_labels[name].setObjectName(f"{name}Value")
        self.readouts = {method: QLabel(self) for method in METHOD_PLOTS}
        for method, label in self.readouts.items():
            label.setObjectName(f"{method}Readout")
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
        self.pair_label = QLabel(self)
        self.pair_label.setObjectName("pairReadout")
        self.pair_label.setTextFormat(Qt.TextFormat.RichText)
        self.pair_label.setWordWrap(True)
        self.source_label = QLabel(self)  # where given q and k came from (a real head), while the lab shows them
        self.source_label.setObjectName("positionsSource")
        self.source_label.setTextFormat(Qt.TextFormat.PlainText)  # a title may come from a file
        self.source_label.setWordWrap(True)
        self.message_label = LabMessage(self)  # a refused value (an odd d), until the next good one
        self.message_label.setObjectName("positionsMessage")

    def _build_plots(self) -> None:
        self.plots: dict[str, pg.PlotWidget] = {}
        self.titles: dict[str, QLabel] = {}
        self.curves: dict[str, list[pg.PlotDataItem]] = {}
        self.markers: dict[str, pg.ScatterPlotItem] = {}
        for method in METHOD_PLOTS:
            plot, title = still_plot(self, f"{method}Plot", 160)
            self.plots[method], self.titles[method] = plot, title
            item = plot.getPlotItem()
            item.showGrid(x=True, y=True, alpha=0.25)
            item.addLegend(offset=(6, 6))
            self.curves[method] = [item.plot([], []) for _ in CURVE_STARTS]
            self.markers[method] = pg.ScatterPlotItem(size=12)
            item.addItem(self.markers[method])
            item.addLine(x=0, pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DashLine))  # m = n
        self.plane, self.plane_title = still_plot(self, "pairPlane", 200)
        self.plane.setAspectLocked(True)
        plane_item = self.plane.getPlotItem()
        plane_item.showGrid(x=True, y=True, alpha=0.25)
        self.plane_lines = {name: plane_item.plot([], []) for name in ("q0", "k0", "q", "k")}
        self.plane_tips = {name: pg.TextItem(anchor=(0.5, 1.1)) for name in ("q", "k")}
        for text in self.plane_tips.values():
            plane_item.addItem(text)

    def _build_layout(self) -> None:
        controls = QHBoxLayout()
        for name in ("d", "pair", "seed"):
            controls.addWidget(self.spin_labels[name])
            controls.addWidget(self.spins[name])
            controls.addSpacing(8)
        sliders = QGridLayout()
        for row, name in enumerate(("m", "n")):
            sliders.addWidget(self.slider_labels[name], row, 0)
            sliders.addWidget(self.sliders[name], row, 1)
        controls.addLayout(sliders, 1)
        plots = QGridLayout()
        for column, method in enumerate(METHOD_PLOTS):
            plots.addWidget(titled(self, self.titles[method], self.plots[method]), 0, column)
            plots.addWidget(self.readouts[method], 1, column)
            plots.setColumnStretch(column, 3)
        plane = QVBoxLayout()
        plane.addWidget(titled(self, self.plane_title, self.plane), 1)
        plane.addWidget(self.pair_label)
        plots.addLayout(plane, 0, 2, 2, 1)
        plots.setColumnStretch(2, 2)
        plots.setRowStretch(0, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.intro_label)
        layout.addLayout(controls)
        layout.addWidget(self.source_label)
        layout.addWidget(self.message_label)
        layout.addLayout(plots, 1)

    # ------------------------------------------------------------ input

    def _guarded(self, edit: Callable[[int], None], value: int) -> bool:
        """Run a model edit; a refused value is said in the lab (and the status bar) and the box shows the model's."""
        try:
            edit(value)
        except ScenarioError as error:
            self._error = error
            message = error_text(error)
            self.message_label.show_error(message)
            self.hint.emit(message)
            self._sync_controls()  # the box typed into shows the value the model kept
            return False
        self._error = None
        self.message_label.clear_error()
        return True

    # ------------------------------------------------------------ drawing

    def load(self, scene: PositionalScene) -> None:
        """Show a positions scene (a file or a lecture's) in the lab, as its page's opened state."""
        self.positions.load_scene(scene)

    def receive(self, scene: PositionalScene) -> None:
        """Show a scene another page hands over (a real head's q and k) as one edit of the lab."""
        self.positions.load_given(scene)

    def idle_hint(self) -> str:
        """What the status bar says on this page."""
        return self.tr("Move m and n: RoPE's q·k stays put while m − n stays the same; the sinusoidal one does not.")

    def _sync_controls(self) -> None:
        model = self.positions
        self.spins["pair"].setMaximum(model.d // 2 - 1)
        for name, value in (("d", model.d), ("pair", model.pair), ("seed", model.seed)):
            with QSignalBlocker(self.spins[name]):
                self.spins[name].setValue(value)
        for name, value in (("m", model.m), ("n", model.n)):
            with QSignalBlocker(self.sliders[name]):
                # a real sentence's positions may lie beyond the sliders' usual reach: it grows to show them
                self.sliders[name].setMaximum(max(MAX_SLIDER, model.m, model.n))
                self.sliders[name].setValue(value)
            self.slider_labels[name].setText(self.tr("{0} = {1}").format(name, value))

    def refresh(self) -> None:
        """Curves, markers, readouts and the plane from the model."""
        model = self.positions
        self._sync_controls()
        offset = model.m - model.n
        for method in METHOD_PLOTS:
            curves = model.curves[method]
            for line, values in zip(self.curves[method], curves.values):
                line.setData(curves.offsets, values, connect="finite")
            self.markers[method].setData([offset], [model.score[method]])
            finite = curves.values[np.isfinite(curves.values)]
            low, high = float(finite.min()), float(finite.max())
            margin = 0.08 * (high - low or 1.0)
            self.plots[method].getPlotItem().getViewBox().setRange(
                xRange=(-MAX_OFFSET, MAX_OFFSET), yRange=(min(low, model.score[method]) - margin,
                                                      max(high, model.score[method]) + margin), padding=0)
        self._update_texts()
        self._update_source()
        self._draw_plane()

    def _update_source(self) -> None:
        """Say where given q and k came from (their scene's title; its description in the tooltip), in place of the
        introduction; hidden for the seeded pair."""
        scene = self.positions.scene
        if scene.given:
            base = grouped_integer(round(scene.base)) if scene.base == round(scene.base) else f"{scene.base:g}"
            name = scene.title or self.tr("q and k given by the scene (d = {0})").format(scene.d)
            self.source_label.setText(self.tr("{0}: q and k before RoPE, base θ = {1}").format(name, base))
            self.source_label.setToolTip(self.tr(
                "{0} RoPE's base θ = {1}: pair i turns by {1}^(−2i/d) per position; d, seed draw random vectors "
                "again.").format(scene.description, base))
        self.source_label.setVisible(scene.given)
        self.intro_label.setVisible(not scene.given)  # the real pair's line takes the place of the general one
    def _draw_plane(self) -> None:
        view = self.positions.pair_view
        for name, vector in (("q0", view.q), ("k0", view.k), ("q", view.q_rotated), ("k", view.k_rotated)):
            self.plane_lines[name].setData([0.0, float(vector[0])], [0.0, float(vector[1])])
        model = self.positions
        for name, vector, place in (("q", view.q_rotated, model.m), ("k", view.k_rotated, model.n)):
            self.plane_tips[name].setText(f"{name}{place}")  # q5: q at position 5
            self.plane_tips[name].setPos(float(vector[0]), float(vector[1]))
            # beyond the tip along the arrow, so that the arrow never runs through its own name
            length = max(float(np.hypot(*vector)), 1e-12)
            self.plane_tips[name].setAnchor((0.5 - 0.6 * float(vector[0]) / length,
                                             0.5 + 0.6 * float(vector[1]) / length))
        reach = max(float(np.hypot(*view.q)), float(np.hypot(*view.k)), 1e-9) * 1.25
        self.plane.getPlotItem().getViewBox().setRange(xRange=(-reach, reach), yRange=(-reach, reach), padding=0)

    def _update_texts(self) -> None:
        model = self.positions
        offset = model.m - model.n
        view = model.pair_view
        number = theme().number_pt()
        readouts = {
            "sinusoidal": self.tr("(q + p<sub>m</sub>)·(k + p<sub>n</sub>) = <b>{0}</b> &nbsp; at m = {1}, n = {2}"),
            "rope": self.tr("R(m)q · R(n)k = <b>{0}</b> &nbsp; at m − n = {3} (m = {1}, n = {2})"),
        }
        for method, label in self.readouts.items():
            text = readouts[method].format(cell_number(model.score[method], 3), model.m, model.n, offset)
            label.setText(f'<span style="font-size:{number:.0f}pt">{text}</span>')
        degrees = math.degrees
        self.plane_title.setText(self.tr("<b>Pair {0} of q and k in the plane</b>: θ<sub>{0}</sub> = {1} rad per "
                                         "position").format(model.pair, f"{view.theta:.4g}"))
        self.pair_label.setText(self.tr(
            "q turned by mθ = {0}°, k by nθ = {1}°. The angle from k to q goes from {2}° to <b>{3}</b>°: it "
            "changes by (m − n)θ = {4}°, so this pair's share of q·k, |q||k| cos = <b>{5}</b>, depends on m − n only."
        ).format(f"{degrees(model.m * view.theta):.1f}", f"{degrees(model.n * view.theta):.1f}",
                 f"{degrees(view.angle_before):.1f}", f"{degrees(view.angle_after):.1f}",
                 f"{degrees(offset * view.theta):.1f}", cell_number(view.dot, 3)))

    def _apply_theme(self) -> None:
        """Pens, fonts and colours for the current zoom and theme."""
        current = theme()
        font = QFont(self.font())
        font.setPointSizeF(current.font_pt())
        for widget in (self.intro_label, *self.titles.values(), self.plane_title, self.pair_label, self.message_label,
                       self.source_label,
                       *self.spin_labels.values(), *self.slider_labels.values(), *self.spins.values()):
            widget.setFont(font)
        self.message_label.redraw()  # the error colour of the theme now chosen
        tick_font = QFont(font)
        tick_font.setPointSizeF(current.font_pt() * 0.9)
        foreground = current.foreground()
        label_style = {"color": foreground.name(), "font-size": f"{current.font_pt():.0f}pt"}
        style_axes((*self.plots.values(), self.plane), foreground, current.background(), tick_font, label_style)
        width = current.line_px()
        for method in METHOD_PLOTS:
            for index, line in enumerate(self.curves[method]):
                # RoPE's curves lie on one another: the dashes of the later ones let the first show through
                style = Qt.PenStyle.SolidLine if index == 0 else (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine)[index % 2]
                line.setPen(pg.mkPen(key_color(index), width=width * (1.6 - 0.3 * index), style=style))
            self.markers[method].setBrush(pg.mkBrush(query_color()))
            self.markers[method].setPen(pg.mkPen(foreground))
            legend = self.plots[method].getPlotItem().legend
            legend.setLabelTextColor(foreground)
            legend.setLabelTextSize(f"{current.font_pt() * 0.9:.0f}pt")
            backdrop = current.background()
            backdrop.setAlpha(200)  # the curves run under the legend: its names stay readable over them
            legend.setBrush(pg.mkBrush(backdrop))
            self._fill_legend(method)
        faint = QColor(current.faint())
        for name, colour in (("q0", faint), ("k0", faint), ("q", query_color()), ("k", key_color(0))):
            style = Qt.PenStyle.DashLine if name.endswith("0") else Qt.PenStyle.SolidLine
            self.plane_lines[name].setPen(pg.mkPen(colour, width=width * (1 if name.endswith("0") else 2),
                                                   style=style))
        for name, colour in (("q", query_color()), ("k", key_color(0))):
            self.plane_tips[name].setColor(colour)
            self.plane_tips[name].setFont(font)
        self.refresh()

    def _fill_legend(self, method: str) -> None:
        """The legend of one plot, refilled: pyqtgraph styles a legend's label only when the entry is added."""
        legend = self.plots[method].getPlotItem().legend
        legend.clear()
        for line, start in zip(self.curves[method], CURVE_STARTS):
            legend.addItem(line, self.tr("n = {0}").format(start))

    def retranslate(self) -> None:
        """Static texts in the current language."""
        self.intro_label.setText(self.tr(
            "<b>Sinusoidal</b> encodings are <i>added</i>: (q + p<sub>m</sub>)·(k + p<sub>n</sub>) has terms in m "
            "and in n on their own, so the same offset m − n gives different q·k at different places. <b>RoPE</b> "
            "<i>rotates</i> every pair of q by mθ<sub>i</sub> and of k by nθ<sub>i</sub>: turning both keeps the "
            "angle between them up to (m − n)θ<sub>i</sub>, so q·k depends on m − n only and its curves coincide."))
        self.spin_labels["d"].setText(self.tr("d"))
        self.spin_labels["pair"].setText(self.tr("frequency pair i"))
        self.spin_labels["seed"].setText(self.tr("seed"))
        self.spins["d"].setToolTip(self.tr("Width of q and k: an even number (sin and cos come in pairs), up to {0} "
                                           "here").format(min(D_SPIN_MAX, MAX_D)))
        self.spins["pair"].setToolTip(self.tr("The pair (q[2i], q[2i+1]) drawn in the plane; θ_i = 10000^(−2i/d)"))
        self.spins["seed"].setToolTip(self.tr("Another fixed pair of random vectors q and k"))
        self.sliders["m"].setToolTip(self.tr("The query's position m"))
        self.sliders["n"].setToolTip(self.tr("The key's position n"))
        self.titles["sinusoidal"].setText(self.tr("<b>Sinusoidal, added</b>: q·k against m − n, one curve per key "
                                                  "position n"))
        self.titles["rope"].setText(self.tr("<b>RoPE, rotated</b>: q·k against m − n, one curve per key position n"))
        for method in METHOD_PLOTS:
            self.plots[method].getPlotItem().setLabel("bottom", self.tr("m − n"))
            self._fill_legend(method)
        if self._error is not None:
            self.message_label.show_error(error_text(self._error))  # the refusal in the language now chosen
        self.refresh()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            self.message_label.redraw()
        super().changeEvent(event)
