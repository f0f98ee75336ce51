"""Scoring functions side by side: each key's softmax weight under dot, scaled dot, cosine and additive scores.

The same Q and K as the explorer; the core computes every function (core/maths/scoring.py). The switch chooses which
function is highlighted and explained; the explorer's own weights stay the scaled dot product. The plot is built
the first time the panel is shown, and nothing is computed while it is hidden.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPen, QPixmap
from PySide6.QtWidgets import QButtonGroup, QGridLayout, QLabel, QRadioButton, QSizePolicy, QVBoxLayout, QWidget

from attention_explorer.core.maths.scoring import SCORINGS, ScoringComparison, compare_scorings
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.numbers import cell_number
from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.axes import cache_axes

# Okabe–Ito colours: told apart with the common colour-vision deficiencies, and on a black (high-contrast) plot.
SCORING_HEX = {"dot": "#E69F00", "scaled": "#0072B2", "cosine": "#009E73", "additive": "#CC79A7"}
GROUP_WIDTH = 0.84  # the four bars of one key share this much of the unit between two keys
FADED_ALPHA = 70  # the functions not chosen, out of 255
FADED_ALPHA_ON_DARK = 130  # on a dark or black plot a fainter bar would vanish
VALUE_TEXT_MAX_KEYS = 12  # the chosen function's weights written over its bars up to this many keys


class ScoringView(QWidget):
    """A switch between four scoring functions and a grouped bar chart of every function's weights for each key."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("scoringView")
        self.model = model
        self.selected = "scaled"
        self.comparison: ScoringComparison | None = None
        self.plot: pg.PlotWidget | None = None
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.value_texts: list[pg.TextItem] = []
        self.buttons: dict[str, QRadioButton] = {}
        self.group = QButtonGroup(self)
        switch = QGridLayout()
        switch.setContentsMargins(0, 0, 0, 0)
        for index, name in enumerate(SCORINGS):
            button = QRadioButton(self)
            button.setObjectName(f"scoring_{name}")
            swatch = QPixmap(14, 14)
            swatch.fill(QColor(SCORING_HEX[name]))
            button.setIcon(QIcon(swatch))
            button.setChecked(name == self.selected)
            button.toggled.connect(lambda on, n=name: on and self.select(n))
            self.group.addButton(button)
            self.buttons[name] = button
            switch.addWidget(button, index // 2, index % 2)
        self.readout = QLabel(self)
        self.readout.setObjectName("scoringReadout")
        self.about = QLabel(self)
        self.about.setObjectName("scoringAbout")
        for label in (self.readout, self.about):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(6, 4, 6, 4)
        self._layout.addLayout(switch)
        self._layout.addWidget(self.readout)
        self._layout.addWidget(self.about)
        model.changed.connect(self._model_changed)
        theme().changed.connect(self._apply_theme)
        self.retranslate()

    # ------------------------------------------------------------ building (on first show)

    def _build_plot(self) -> None:
        self.plot = pg.PlotWidget(self, enableMenu=False)
        self.plot.setObjectName("scoringPlot")
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.plot.setMinimumHeight(90)
        item = self.plot.getPlotItem()
        item.setMouseEnabled(x=False, y=False)
        item.setMenuEnabled(False)
        item.hideButtons()
        cache_axes(item)
        item.showGrid(y=True, alpha=0.25)
        for name in SCORINGS:
            bars = pg.BarGraphItem(x=[], height=[], width=GROUP_WIDTH / len(SCORINGS))
            self.bars[name] = bars
            item.addItem(bars)
        self._layout.insertWidget(1, self.plot, 1)
        self._apply_theme()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.plot is None:
            self._build_plot()
        self.refresh()

    # ------------------------------------------------------------ input

    def select(self, name: str) -> None:
        """Highlight scoring function `name` ("dot", "scaled", "cosine" or "additive") and explain it."""
        if name not in SCORINGS:
            return
        self.selected = name
        if not self.buttons[name].isChecked():
            self.buttons[name].setChecked(True)
        self.refresh()

    def _model_changed(self) -> None:
        if self.isVisible():
            self.refresh()
        else:
            # Hidden (closed, or a tab behind another): nothing is computed now, and what was is out of date (a key
            # added or removed). Dropped, so that no text is drawn from it; showing the panel computes it anew.
            self.comparison = None

    # ------------------------------------------------------------ drawing

    def refresh(self) -> None:
        """Recompute every function from the model's Q and K (core) and redraw the bars and texts in place."""
        scenario, result = self.model.scenario, self.model.result
        self.comparison = compare_scorings(scenario.query, scenario.keys, result.scale)
        self._update_texts()
        if self.plot is None:
            return
        n = self.comparison.n
        step = GROUP_WIDTH / len(SCORINGS)
        for index, name in enumerate(SCORINGS):
            x = np.arange(n) + (index - (len(SCORINGS) - 1) / 2) * step
            colour = QColor(SCORING_HEX[name])
            chosen = name == self.selected
            if not chosen:
                colour.setAlpha(FADED_ALPHA if theme().mode == "light" else FADED_ALPHA_ON_DARK)
            pen = QPen(theme().foreground(), max(1.5, theme().line_px() * 0.6)) if chosen else QPen(Qt.PenStyle.NoPen)
            pen.setCosmetic(True)
            self.bars[name].setOpts(x=x, height=self.comparison.weights[name], width=step * 0.92,
                                    brush=QBrush(colour), pen=pen)
            self.bars[name].setZValue(2 if chosen else 1)
        self._update_value_texts(step)
        item = self.plot.getPlotItem()
        item.getAxis("bottom").setTicks([[(i, label) for i, label in enumerate(self.model.scenario.labels)]])
        item.getViewBox().setRange(xRange=(-0.6, n - 0.4), yRange=(0.0, 1.12), padding=0.0)

    def _update_value_texts(self, step: float) -> None:
        """The chosen function's weights over its bars (few keys only)."""
        weights = self.comparison.weights[self.selected]
        wanted = weights.shape[0] if weights.shape[0] <= VALUE_TEXT_MAX_KEYS else 0
        while len(self.value_texts) > wanted:
            self.plot.removeItem(self.value_texts.pop())
        while len(self.value_texts) < wanted:
            text = pg.TextItem(anchor=(0.5, 1.0))
            text.setZValue(5)
            self.plot.addItem(text)
            self.value_texts.append(text)
        offset = (SCORINGS.index(self.selected) - (len(SCORINGS) - 1) / 2) * step
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt() * 0.9)
        for index, text in enumerate(self.value_texts):
            text.setText(cell_number(float(weights[index])))
            text.setColor(theme().foreground())
            text.setFont(font)
            text.setPos(index + offset, float(weights[index]))

    def _update_texts(self) -> None:
        name = self.selected
        self.about.setText(self._about()[name])
        if self.comparison is None:  # not computed since the model last changed: the readout waits for the show
            self.readout.clear()
            return
        labels = self.model.scenario.labels
        shown = min(len(labels), VALUE_TEXT_MAX_KEYS)
        pairs = ", ".join(f"{escaped(labels[i])} <b>{cell_number(float(self.comparison.weights[name][i]))}</b>"
                          for i in range(shown))
        if len(labels) > shown:
            pairs += ", …"
        self.readout.setText(self.tr("<b>{0}</b> weights: {1}").format(self._names()[name], pairs))

    # ------------------------------------------------------------ texts, theme

    def _names(self) -> dict[str, str]:
        return {"dot": self.tr("Dot product"), "scaled": self.tr("Scaled dot product"),
                "cosine": self.tr("Cosine similarity"), "additive": self.tr("Additive (Bahdanau)")}

    def _about(self) -> dict[str, str]:
        return {
            "dot": self.tr("q·k: d_k multiplications per key and no weights to learn (Luong et al., 2015); without a "
                           "scale the scores grow with d_k and the softmax saturates."),
            "scaled": self.tr("q·k/√d_k: the same cost plus one multiplication, and the scores keep a variance near 1 "
                              "at any d_k; the Transformer's choice, used by nearly every model since. These are the "
                              "explorer's own weights."),
            "cosine": self.tr("q·k/(|q||k|): two norms more per pair, and the score stays within [−1, 1], so without "
                              "a temperature the weights stay flat; used with a learned temperature, e.g. in Swin "
                              "Transformer V2 and in retrieval."),
            "additive": self.tr("vᵀ tanh(W_q q + W_k k): a small network per pair, about d_a·(2·d_k + 1) "
                                "multiplications and three weight matrices to learn (here seeded, d_a = 8); Bahdanau "
                                "et al. (2015), the first attention for translation."),
        }

    def retranslate(self) -> None:
        """Texts in the current language."""
        for name, text in self._names().items():
            self.buttons[name].setText(text)
        self.setToolTip(self.tr("The same Q and K scored four ways; each function's softmax weights per key"))
        self._update_texts()

    def _apply_theme(self) -> None:
        if self.plot is None:
            return
        self.plot.setBackground(theme().background())
        tick_font = QFont(self.font())
        tick_font.setPointSizeF(theme().font_pt())
        for name in ("left", "bottom"):
            axis = self.plot.getPlotItem().getAxis(name)
            axis.setStyle(tickFont=tick_font)
            axis.setPen(theme().foreground())
            axis.setTextPen(theme().foreground())
        if self.isVisible():  # hidden, the bars are drawn in the new colours when it is shown
            self.refresh()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
