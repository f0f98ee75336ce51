"""Training lab, "watch it learn": the same tiny attention model trained twice, scaled by 1/√d_k and unscaled.

Both runs start from the same seed, data and weights (core/training); a TrainingSession steps them off the UI thread
and every step lands here as numbers for the plots: loss (with the threshold), attention entropy, softmax Jacobian
norm, the gradient norms reaching W_Q and W_K, and the probe query's weights over its keys as one heatmap per run.
The verdict under the plots says, with the numbers measured, which run learned faster and from which d_k the
difference appears — and says so when this setting does not support the article's claim. Settings are the
TrainingModel's (undoable, saved); the controls only call its setters.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.training import run as training
from attention_explorer.core.training.model import N_KEYS
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.labs.training.session import TrainingSession
from attention_explorer.ui.labs.training.state import TrainingModel
from attention_explorer.ui.style.theme import key_color, theme
from attention_explorer.ui.widgets.lab_message import LabMessage
from attention_explorer.ui.widgets.lab_plots import still_plot, style_axes, titled

if TYPE_CHECKING:
    from attention_explorer.core.scenes.training.scene import TrainingScene

SCALED_COLOUR, UNSCALED_COLOUR = 4, 3  # Okabe–Ito blue and vermillion (theme.KEY_HEX)
METRICS = ("loss", "entropy", "jacobian_norm", "grad_norm_q", "grad_norm_k")
# The gradient norms at W_Q and W_K are two small plots side by side on one log scale: drawn in one plot, the two
# curves of a run lie almost on each other and the one on top hides the other.
PLOT_NAMES = {"loss": "lossPlot", "entropy": "entropyPlot", "jacobian_norm": "jacobian_normPlot",
              "grad_norm_q": "gradQPlot", "grad_norm_k": "gradKPlot"}
RUNS = (True, False)  # scaled, unscaled


def _number(value: float) -> str:
    """A measured number as people read it: 4 significant digits, 1.2×10⁻⁵ for tiny ones."""
    if value != 0 and abs(value) < 1e-3:
        mantissa, exponent = f"{value:.2e}".split("e")
        return mantissa + "×10" + str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{value:.4g}"


class TrainingLab(QWidget):
    """Two runs side by side, live; Start, Pause, One step, Reset; the verdict with the numbers."""

    hint = Signal(str)

    def __init__(self, parent: QWidget | None = None, training_model: TrainingModel | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trainingLab")
        self.training = training_model if training_model is not None else TrainingModel(parent=self)
        self.session = TrainingSession(self.training.scene, self)
        self._error: ScenarioError | None = None
        self._sweep_progress: tuple[int, int] | None = None
        self._build_controls()
        self._build_plots()
        self._build_layout()
        self.training.changed.connect(self._settings_changed)
        self.session.changed.connect(self.refresh)
        self.session.sweep_progressed.connect(self._sweep_progressed)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ building

    def _build_controls(self) -> None:
        self.intro_label = QLabel(self)
        self.intro_label.setObjectName("trainingIntro")
        self.intro_label.setWordWrap(True)
        self.intro_label.setTextFormat(Qt.TextFormat.RichText)
        self.spins: dict[str, QSpinBox | QDoubleSpinBox] = {}
        self.spin_labels: dict[str, QLabel] = {}
        setters = {"d_k": self.training.set_d_k, "steps": self.training.set_steps, "lr": self.training.set_lr,
                   "seed": self.training.set_seed}
        for name, low, high in (("d_k", training.MIN_D_K, training.MAX_D_K),
                                ("steps", training.MIN_STEPS, training.MAX_STEPS),
                                ("lr", training.MIN_LR, training.MAX_LR), ("seed", 0, training.MAX_SEED)):
            spin: QSpinBox | QDoubleSpinBox
            if name == "lr":
                spin = QDoubleSpinBox(self)
                spin.setDecimals(5)
                spin.setSingleStep(0.0005)
            else:
                spin = QSpinBox(self)
            spin.setObjectName(f"training_{name}Spin")
            spin.setRange(low, high)
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda value, set_value=setters[name]: self._guarded(set_value, value))
            label = QLabel(self)
            label.setBuddy(spin)
            self.spins[name], self.spin_labels[name] = spin, label
        self.start_button = QPushButton(self)
        self.start_button.setObjectName("trainingStart")
        self.start_button.clicked.connect(self._start_or_pause)
        self.step_button = QPushButton(self)
        self.step_button.setObjectName("trainingOneStep")
        self.step_button.clicked.connect(self.session.one_step)
        self.reset_button = QPushButton(self)
        self.reset_button.setObjectName("trainingReset")
        self.reset_button.clicked.connect(lambda: self.session.reset())
        self.progress = QProgressBar(self)
        self.progress.setObjectName("trainingProgress")
        self.progress.setTextVisible(True)
        self.progress.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.message_label = LabMessage(self)
        self.message_label.setObjectName("trainingMessage")
        self.verdict_label = QLabel(self)
        self.verdict_label.setObjectName("trainingVerdict")
        self.verdict_label.setTextFormat(Qt.TextFormat.RichText)
        self.verdict_label.setWordWrap(True)
        self.verdict_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def _build_plots(self) -> None:
        self.plots: dict[str, pg.PlotWidget] = {}
        self.titles: dict[str, QLabel] = {}
        self.curves: dict[tuple[str, bool], pg.PlotDataItem] = {}
        for metric in METRICS:
            plot, title = still_plot(self, PLOT_NAMES[metric], 110)
            self.plots[metric], self.titles[metric] = plot, title
            item = plot.getPlotItem()
            item.showGrid(x=True, y=True, alpha=0.25)
            if metric.startswith("grad_norm"):
                item.setLogMode(y=True)  # its range is set by refresh: one scale for both gradients' plots
            else:
                item.getViewBox().enableAutoRange(axis=pg.ViewBox.YAxis)
            for scaled in RUNS:
                self.curves[(metric, scaled)] = item.plot([], [])
        loss_item = self.plots["loss"].getPlotItem()
        self.threshold_line = pg.InfiniteLine(angle=0, movable=False)
        loss_item.addItem(self.threshold_line)
        self.legend = loss_item.addLegend(offset=(-6, 6))
        self.heatmaps: dict[bool, pg.ImageItem] = {}
        self.probe_plots: dict[bool, pg.PlotWidget] = {}
        self.probe_titles: dict[bool, QLabel] = {}
        colours = pg.colormap.get("viridis")
        for scaled in RUNS:
            plot, title = still_plot(self, "probeScaledPlot" if scaled else "probeUnscaledPlot", 110)
            image = pg.ImageItem(axisOrder="row-major")
            image.setColorMap(colours)
            plot.getPlotItem().addItem(image)
            self.heatmaps[scaled], self.probe_plots[scaled], self.probe_titles[scaled] = image, plot, title

    def _build_layout(self) -> None:
        controls = QHBoxLayout()
        for name in ("d_k", "steps", "lr", "seed"):
            controls.addWidget(self.spin_labels[name])
            controls.addWidget(self.spins[name])
            controls.addSpacing(6)
        for button in (self.start_button, self.step_button, self.reset_button):
            controls.addWidget(button)
        controls.addWidget(self.progress, 1)
        grid = QGridLayout()
        grid.setSpacing(6)
        # Twelve columns: three plots across the first row (four columns each), four across the second (three each).
        places = {"loss": (0, 0, 4), "entropy": (0, 4, 4), "jacobian_norm": (0, 8, 4), "grad_norm_q": (1, 0, 3),
                  "grad_norm_k": (1, 3, 3)}
        for metric, (row, column, span) in places.items():
            grid.addWidget(titled(self, self.titles[metric], self.plots[metric]), row, column, 1, span)
        for column, scaled in ((6, True), (9, False)):
            grid.addWidget(titled(self, self.probe_titles[scaled], self.probe_plots[scaled]), 1, column, 1, 3)
        for index in range(12):
            grid.setColumnStretch(index, 1)
        for index in range(2):
            grid.setRowStretch(index, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        layout.addWidget(self.intro_label)
        layout.addLayout(controls)
        layout.addWidget(self.message_label)
        layout.addLayout(grid, 1)
        layout.addWidget(self.verdict_label)

    # ------------------------------------------------------------ input

    def _guarded(self, edit: Callable[[object], None], value: object) -> bool:
        """Run a model edit; a refused value is said in the lab (and the status bar) and the box shows the model's."""
        try:
            edit(value)
        except ScenarioError as error:
            self._error = error
            message = error_text(error)
            self.message_label.show_error(message)
            self.hint.emit(message)
            self._sync_controls()
            return False
        self._error = None
        self.message_label.clear_error()
        return True

    def _start_or_pause(self) -> None:
        if self.session.running:
            self.session.pause()
        else:
            self.session.start()

    def _settings_changed(self) -> None:
        """New settings (an edit, an undo, a file): both runs start afresh from them."""
        self._sweep_progress = None
        self.session.reset(self.training.scene)

    def _sweep_progressed(self, done: int, total: int) -> None:
        self._sweep_progress = (done, total)
        self._update_progress()

    # ------------------------------------------------------------ public

    def load(self, scene: TrainingScene) -> None:
        """Show a training scene (a file or a lecture's) in the lab, as its page's opened state."""
        self.training.load_scene(scene)

    def idle_hint(self) -> str:
        """What the status bar says on this page."""
        return self.tr("Press Start: both runs learn side by side; change d_k, steps, learning rate or seed and they "
                       "start again.")

    def closeEvent(self, event) -> None:
        self.session.reset()  # stops and waits for the job (one step)
        super().closeEvent(event)

    # ------------------------------------------------------------ drawing

    def _sync_controls(self) -> None:
        scene = self.training.scene
        for name in ("d_k", "steps", "lr", "seed"):
            with QSignalBlocker(self.spins[name]):
                self.spins[name].setValue(getattr(scene, name))

    def refresh(self) -> None:
        """Curves, heatmaps, buttons, progress and verdict from the session."""
        self._sync_controls()
        session = self.session
        steps = session.scene.steps
        done = session.done
        x = np.arange(1, done + 1, dtype=float)
        for scaled in RUNS:
            series = session.series[scaled]
            for name in ("loss", "entropy", "jacobian_norm", "grad_norm_q", "grad_norm_k"):
                self.curves[(name, scaled)].setData(x, series[name][:done])
            heatmap = self.heatmaps[scaled]
            if done:
                heatmap.setImage(session.probe[scaled][:, :done], levels=(0.0, 1.0), autoLevels=False)
                heatmap.setRect(0.5, 0.5, done, N_KEYS)
            else:
                heatmap.clear()
        for plot in (*self.plots.values(), *self.probe_plots.values()):
            plot.getPlotItem().getViewBox().setXRange(0.5, steps + 0.5, padding=0)
        self._range_gradients(done)
        for plot in self.probe_plots.values():
            plot.getPlotItem().getViewBox().setYRange(0.5, N_KEYS + 0.5, padding=0)
        self.threshold_line.setValue(session.threshold)
        self._update_probe_axes()
        self._update_buttons()
        self._update_progress()
        self.verdict_label.setText(self.verdict_text())

    def _range_gradients(self, done: int) -> None:
        """Both gradient plots on one log scale, from the least to the largest norm either run has reached, so
        that the heights at W_Q and at W_K compare side by side."""
        values = np.concatenate([self.session.series[scaled][name][:done] for scaled in RUNS
                                 for name in ("grad_norm_q", "grad_norm_k")])
        values = values[np.isfinite(values) & (values > 0)]
        low, high = (float(np.log10(values.min())), float(np.log10(values.max()))) if values.size else (-1.0, 1.0)
        if high - low < 0.2:  # a flat stretch: a little room above and below
            low, high = low - 0.1, high + 0.1
        for name in ("grad_norm_q", "grad_norm_k"):
            self.plots[name].getPlotItem().getViewBox().setYRange(low, high, padding=0.05)

    def _update_probe_axes(self) -> None:
        target = self.session.probe_target
        ticks = [[(index + 1, f"k{index + 1} ✓" if index == target else f"k{index + 1}") for index in range(N_KEYS)]]
        for plot in self.probe_plots.values():
            plot.getPlotItem().getAxis("left").setTicks(ticks)

    def _update_buttons(self) -> None:
        session = self.session
        self.start_button.setText(self.tr("Pause") if session.running else self.tr("Start"))
        self.start_button.setEnabled(session.running or session.startable)
        self.step_button.setEnabled(not session.running and not session.complete)

    def _update_progress(self) -> None:
        session = self.session
        steps = session.scene.steps
        if session.complete and session.running and self._sweep_progress is not None:
            done, total = self._sweep_progress
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.progress.setFormat(self.tr("Sweep over d_k: {0} of {1}").format(done, total))
            return
        self.progress.setRange(0, steps)
        self.progress.setValue(session.done)
        self.progress.setFormat(self.tr("Step {0} of {1}").format(session.done, steps))

    def verdict_text(self) -> str:
        """What the runs on screen show, in numbers, and whether that supports the article's claim."""
        session = self.session
        done = session.done
        if session.error:
            return self.tr("The run stopped: {0}").format(session.error)
        if done == 0:
            return self.tr("Press <b>Start</b> (or <b>One step</b>): the verdict follows the numbers measured.")
        limit = _number(session.threshold)
        scaled_at, unscaled_at = session.reached_at(True), session.reached_at(False)
        verdict = training.compare(scaled_at, unscaled_at)
        so_far = "" if session.complete else self.tr(" (so far)")
        if verdict == training.SCALED_FASTER and unscaled_at is not None:
            first = self.tr("<b>Scaled learned faster</b>{4}: its loss fell below {0} at step {1}, the unscaled run's "
                            "at step {2}, {3} steps later.").format(limit, scaled_at, unscaled_at,
                                                                    unscaled_at - scaled_at, so_far)
        elif verdict == training.SCALED_FASTER:
            first = self.tr("<b>Scaled learned faster</b>{3}: its loss fell below {0} at step {1}; the unscaled run's "
                            "did not in {2} steps.").format(limit, scaled_at, done, so_far)
        elif verdict == training.UNSCALED_FASTER:
            first = self.tr("<b>Here the unscaled run learned faster</b>{3} (below {0} at step {1}; scaled: {2}): "
                            "this setting does not support the article's claim.").format(
                limit, unscaled_at, scaled_at if scaled_at is not None else self.tr("not"), so_far)
        elif verdict == training.ABOUT_SAME:
            first = self.tr("<b>No clear difference</b>{3}: both runs fell below {0} at about the same step (scaled "
                            "{1}, unscaled {2}); this setting does not show the article's claim.").format(
                limit, scaled_at, unscaled_at, so_far)
        else:
            first = self.tr("<b>Neither run</b> got below {0} in {1} steps{2}: no difference in learning is shown "
                            "yet (more steps or a larger learning rate may show one).").format(limit, done, so_far)
        start = {scaled: session.records[scaled][0] for scaled in RUNS}
        last = {scaled: session.records[scaled][-1] for scaled in RUNS}
        second = self.tr("Loss now: scaled {0}, unscaled {1}. At step 1 the unscaled softmax had {2} bits of entropy "
                         "(scaled {3}, even spread {4}) and a Jacobian norm of {5} (scaled {6}).").format(
            _number(last[True].loss), _number(last[False].loss), f"{start[False].entropy:.2f}",
            f"{start[True].entropy:.2f}", f"{math.log2(N_KEYS):.0f}", _number(start[False].jacobian_norm),
            _number(start[True].jacobian_norm))
        if start[False].grad_norm_q >= start[True].grad_norm_q:
            gradient = self.tr("Its gradient at W_Q was larger, not smaller ({0} against {1}): the factor "
                                    "1/√d_k shrinks the scaled run's too; what vanishes is the softmax's own "
                                    "slope.").format(_number(start[False].grad_norm_q),
                                                     _number(start[True].grad_norm_q))
        else:
            gradient = self.tr("Its gradient at W_Q was {0} against {1} scaled.").format(
                _number(start[False].grad_norm_q), _number(start[True].grad_norm_q))
        second = self.tr("{0} {1}", "two sentences, one after the other").format(second, gradient)
        return "<br>".join((first, second, self._sweep_text()))

    def _sweep_text(self) -> str:
        rows = self.session.sweep_rows
        if rows is None:
            if self.session.running and self._sweep_progress is not None:
                return self.tr("Sweep over d_k under way…")
            if self.session.complete:
                return self.tr("Press <b>Start</b> to run the sweep over d_k (16 … 512) that was paused.")
            return self.tr("The sweep over d_k (16 … 512) runs when both runs reach their last step.")

        def reached(step: int | None) -> str:
            return "—" if step is None else str(step)

        table = " · ".join(f"{row.d_k}: {reached(row.scaled_at)}/{reached(row.unscaled_at)}" for row in rows)
        start = training.clear_from(rows)
        if start is None:
            tail = self.tr("at the largest d_k the scaled run is not clearly faster: the sweep does not support the "
                           "claim at these settings.")
        elif start == rows[0].d_k:
            tail = self.tr("the scaled run is clearly faster at every d_k, from {0} on.").format(start)
        else:
            tail = self.tr("the difference appears from d_k = {0} on.").format(start)
        return self.tr("Sweep, step below the threshold (scaled/unscaled, — never): {0}; {1}").format(table, tail)

    def _apply_theme(self) -> None:
        """Pens, fonts and colours for the current zoom and theme."""
        current = theme()
        font = QFont(self.font())
        font.setPointSizeF(current.font_pt())
        small = QFont(font)
        small.setPointSizeF(current.font_pt() * 0.9)
        for widget in (self.intro_label, *self.titles.values(), *self.probe_titles.values(), self.message_label,
                       *self.spin_labels.values(), *self.spins.values(), self.start_button, self.step_button,
                       self.reset_button, self.progress):
            widget.setFont(font)
        self.verdict_label.setFont(small)
        self.message_label.redraw()
        foreground = current.foreground()
        label_style = {"color": foreground.name(), "font-size": f"{current.font_pt() * 0.9:.0f}pt"}
        style_axes((*self.plots.values(), *self.probe_plots.values()), foreground, current.background(), small,
                   label_style)
        width = current.line_px()
        for (_name, scaled), curve in self.curves.items():
            colour = key_color(SCALED_COLOUR if scaled else UNSCALED_COLOUR)
            curve.setPen(pg.mkPen(colour, width=width * 0.8))
        self.threshold_line.setPen(pg.mkPen(current.faint(), width=max(1.0, width * 0.5),
                                            style=Qt.PenStyle.DashLine))
        self.legend.setLabelTextColor(foreground)
        self.legend.setLabelTextSize(f"{current.font_pt() * 0.85:.0f}pt")
        backdrop = current.background()
        backdrop.setAlpha(200)
        self.legend.setBrush(pg.mkBrush(backdrop))
        self._fill_legend()
        self.refresh()

    def _fill_legend(self) -> None:
        self.legend.clear()
        self.legend.addItem(self.curves[("loss", True)], self.tr("scaled 1/√d_k"))
        self.legend.addItem(self.curves[("loss", False)], self.tr("unscaled"))

    def retranslate(self) -> None:
        """Static texts in the current language."""
        self.intro_label.setText(self.tr(
            "One tiny attention model learns twice, from the same seed, data and weights: a query must find its key "
            "among 8 and return its value. <b>Scaled</b> divides q·k by √d<sub>k</sub>, <b>unscaled</b> does not. "
            "Does the unscaled softmax saturate and learn slower, as the article says?"))
        self.spin_labels["d_k"].setText(self.tr("d_k"))
        self.spin_labels["steps"].setText(self.tr("steps"))
        self.spin_labels["lr"].setText(self.tr("learning rate"))
        self.spin_labels["seed"].setText(self.tr("seed"))
        self.spins["d_k"].setToolTip(self.tr("Width of q and k, {0} to {1}").format(training.MIN_D_K,
                                                                                    training.MAX_D_K))
        lr_tip = self.tr("Adam's learning rate, the same for both runs (Learning rate, Adam: Help ▸ Guide ▸ Glossary, "
                         "F1)")
        self.spins["lr"].setToolTip(lr_tip)
        self.spin_labels["lr"].setToolTip(lr_tip)
        self.titles["loss"].setToolTip(self.tr("½‖o − v‖² against the matching key's value, averaged over the training "
                                               "set (Loss: Help ▸ Guide ▸ Glossary, F1)"))
        self.spins["seed"].setToolTip(self.tr("Another training set, probe and starting weights"))
        self.step_button.setText(self.tr("One step"))
        self.reset_button.setText(self.tr("Reset"))
        self.titles["loss"].setText(self.tr("<b>Loss</b> (dashed: the threshold)"))
        self.titles["entropy"].setText(self.tr("<b>Attention entropy</b> (bits)"))
        self.titles["jacobian_norm"].setText(self.tr("<b>Softmax Jacobian norm</b>"))
        self.titles["grad_norm_q"].setText(self.tr("<b>Gradient norm</b> at W<sub>Q</sub>"))
        self.titles["grad_norm_k"].setText(self.tr("<b>Gradient norm</b> at W<sub>K</sub>"))
        self.probe_titles[True].setText(self.tr("<b>Probe query, scaled</b>: weight on each key"))
        self.probe_titles[False].setText(self.tr("<b>Probe query, unscaled</b>: weight on each key"))
        for plot in (*self.plots.values(), *self.probe_plots.values()):
            plot.getPlotItem().setLabel("bottom", self.tr("step"))
        self._fill_legend()
        if self._error is not None:
            self.message_label.show_error(error_text(self._error))
        self.refresh()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            self.message_label.redraw()
        super().changeEvent(event)
