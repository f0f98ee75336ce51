"""Variance lab, "why √d_k?": the spread of q·k for random vectors, raw and scaled, and how often softmax goes one-hot.

The lab has its own state (d_k, sample count, seed, number of keys); it never edits the explorer's model.
Samples come from core.variance (exact, and cheap at any d_k); they are cached by (d_k, samples, seed), so a
change that only affects the display reuses them.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core.limits import MAX_DIM
from attention_explorer.core.maths.attention import DotProductSample
from attention_explorer.core.maths.variance import (
    D_K_LADDER,
    MAX_EXAMPLE_KEYS,
    ONE_HOT_THRESHOLD,
    dot_product_std,
    example_scores,
    example_vectors,
    example_weights,
    expected_counts,
    histogram_counts,
    histogram_edges,
    moments,
    one_hot_share,
    sample_dot_products_exact,
)
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.style.numbers import square_root_text, typographic_minus
from attention_explorer.ui.style.theme import UNSCALED_HEX, key_color, theme
from attention_explorer.ui.widgets.d_k_stops import D_K_MAX_POSITION, d_k_from_position, position_from_d_k
from attention_explorer.ui.widgets.hover_hints import HoverHints
from attention_explorer.ui.widgets.lab_plots import still_plot, style_axes, titled
from attention_explorer.ui.widgets.slider_ticks import SliderTicks

DEFAULT_D_K = 64
DEFAULT_SAMPLES = 20_000
MIN_SAMPLES = 100
MAX_SAMPLES = 100_000
DEFAULT_KEYS = 8
MIN_KEYS = 2
MAX_SEED = 999_999
ONE_HOT_TRIALS = 2000  # per d_k: the share is known to about ±1 %
CACHE_SIZE = 8  # sample sets kept (d_k, samples, seed): moving back and forth reuses them
BAND = 3.0  # the shaded |x| ≤ 3 band: scores spread within it keep softmax soft (weight ratios under e^6)
SCALED_HEX = "#7B2D8E"
CURVE_HEX = "#D55E00"
CURVE_POINTS = 241
NARROW_WIDTH = 860  # pixels at zoom 1: below it the controls take two rows






def _tint(hex_colour: str, alpha: int) -> QColor:
    colour = QColor(hex_colour)
    colour.setAlpha(alpha)
    return colour


class VarianceLab(QWidget):
    """Histograms of q·k and q·k/√d_k with their normal curves, one query's weights, and the one-hot share."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("varianceLab")
        self.model = model  # part of the panel contract; this lab keeps its own state and never edits it
        self._samples_cache: OrderedDict[tuple[int, int, int], DotProductSample] = OrderedDict()
        self._vectors_for: int | None = None
        self._vectors: tuple[np.ndarray, np.ndarray] | None = None
        self._share_for: tuple[int, int] | None = None
        self._share: tuple[np.ndarray, np.ndarray] = (np.zeros(0), np.zeros(0))
        self._hover = HoverHints(self.hint, self)
        self.titles: dict[pg.PlotWidget, QLabel] = {}
        self.sample: DotProductSample | None = None
        self.raw_weights = np.zeros(0)  # the example query's weights as plotted (display state)
        self.scaled_weights = np.zeros(0)

        # ---- controls
        self.d_k_label = QLabel("d_k", self)
        self.d_k_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.d_k_slider.setObjectName("varianceDKSlider")
        self.d_k_slider.setRange(0, D_K_MAX_POSITION)
        self.d_k_slider.setPageStep(4)  # one octave from 16 up
        self.d_k_spin = QSpinBox(self)
        self.d_k_spin.setObjectName("varianceDKSpin")
        self.d_k_spin.setRange(1, MAX_DIM)
        self.d_k_spin.setKeyboardTracking(False)
        self.d_k_ticks = SliderTicks(self.d_k_slider, [(position_from_d_k(d), str(d)) for d in (1, 16, 256, 4096)])
        self.samples_label = QLabel(self)
        self.samples_spin = QSpinBox(self)
        self.samples_spin.setObjectName("samplesSpin")
        self.samples_spin.setRange(MIN_SAMPLES, MAX_SAMPLES)
        self.samples_spin.setSingleStep(1000)
        self.samples_spin.setKeyboardTracking(False)
        self.seed_label = QLabel(self)
        self.seed_spin = QSpinBox(self)
        self.seed_spin.setObjectName("varianceSeedSpin")
        self.seed_spin.setRange(0, MAX_SEED)
        self.seed_spin.setKeyboardTracking(False)
        self.new_seed_button = QPushButton(self)
        self.new_seed_button.setObjectName("newSeedButton")
        self.keys_label = QLabel(self)
        self.keys_slider = QSlider(Qt.Orientation.Horizontal, self)
        self.keys_slider.setObjectName("keysSlider")
        self.keys_slider.setRange(MIN_KEYS, MAX_EXAMPLE_KEYS)
        self.keys_value = QLabel(self)
        self.keys_value.setObjectName("keysValue")
        self.keys_slider.setMinimumWidth(90)

        # ---- histograms
        self.raw_plot = self._make_plot("rawHistogramPlot")
        self.scaled_plot = self._make_plot("scaledHistogramPlot")
        self.raw_hist = pg.PlotDataItem(stepMode="center", fillLevel=0)
        self.scaled_hist = pg.PlotDataItem(stepMode="center", fillLevel=0)
        self.raw_curve = pg.PlotDataItem()
        self.scaled_curve = pg.PlotDataItem()
        self.raw_band = pg.LinearRegionItem(values=(-BAND, BAND), movable=False)
        self.scaled_band = pg.LinearRegionItem(values=(-BAND, BAND), movable=False)
        for plot, items in ((self.raw_plot, (self.raw_band, self.raw_hist, self.raw_curve)),
                            (self.scaled_plot, (self.scaled_band, self.scaled_hist, self.scaled_curve))):
            for z, item in enumerate(items):
                item.setZValue(z - 10 if item is items[0] else z)
                plot.addItem(item)
            plot.getPlotItem().hideAxis("left")  # counts: the shape and the x spread are what matter
        self.raw_stats = QLabel(self)
        self.raw_stats.setObjectName("rawStats")
        self.scaled_stats = QLabel(self)
        self.scaled_stats.setObjectName("scaledStats")
        for label in (self.raw_stats, self.scaled_stats):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)

        # ---- one query's weights and the one-hot share
        self.raw_bars_plot = self._make_plot("rawWeightsPlot")
        self.scaled_bars_plot = self._make_plot("scaledWeightsPlot")
        self.raw_bars = pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.7)
        self.scaled_bars = pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.7)
        for plot, bars in ((self.raw_bars_plot, self.raw_bars), (self.scaled_bars_plot, self.scaled_bars)):
            plot.addItem(bars)
            plot.getPlotItem().getAxis("left").setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")]])
            plot.getPlotItem().hideAxis("bottom")
        self.share_plot = self._make_plot("oneHotSharePlot")
        self.share_unscaled = pg.PlotDataItem(symbol="o", symbolSize=7)
        self.share_scaled = pg.PlotDataItem(symbol="s", symbolSize=7)
        self.share_marker = pg.InfiniteLine(angle=90, movable=False)
        for item in (self.share_marker, self.share_unscaled, self.share_scaled):
            self.share_plot.addItem(item)
        self.share_legend = pg.LegendItem(offset=(8, 4))
        self.share_legend.setParentItem(self.share_plot.getPlotItem().getViewBox())
        share_item = self.share_plot.getPlotItem()
        share_item.getViewBox().setRange(xRange=(-0.4, 12.7), yRange=(-0.03, 1.05), padding=0.0)
        share_item.getAxis("bottom").setTicks(
            [[(math.log2(d), str(d)) for d in (1, 4, 16, 64, 256, 1024, 4096)],
             [(math.log2(d), "") for d in D_K_LADDER]])
        share_item.getAxis("left").setTicks([[(v, f"{v:.0%}") for v in (0.0, 0.5, 1.0)]])

        self.caption = QLabel(self)
        self.caption.setObjectName("varianceCaption")
        self.caption.setTextFormat(Qt.TextFormat.RichText)
        self.caption.setWordWrap(True)

        self._build_layout()

        with QSignalBlocker(self.d_k_slider), QSignalBlocker(self.d_k_spin):
            self.d_k_slider.setValue(position_from_d_k(DEFAULT_D_K))
            self.d_k_spin.setValue(DEFAULT_D_K)
        with QSignalBlocker(self.samples_spin), QSignalBlocker(self.keys_slider):
            self.samples_spin.setValue(DEFAULT_SAMPLES)
            self.keys_slider.setValue(DEFAULT_KEYS)

        self.d_k_slider.valueChanged.connect(self._d_k_slider_moved)
        self.d_k_spin.valueChanged.connect(self._d_k_typed)
        self.samples_spin.valueChanged.connect(self.refresh)
        self.seed_spin.valueChanged.connect(self.refresh)
        self.keys_slider.valueChanged.connect(self.refresh)
        self.new_seed_button.clicked.connect(self.new_seed)
        theme().changed.connect(self._apply_theme)

        self.retranslate()
        self._apply_theme()

    # ------------------------------------------------------------ construction

    def _titled(self, plot: pg.PlotWidget) -> QWidget:
        """The plot with its title label above it."""
        return titled(self, self.titles[plot], plot)

    def _make_plot(self, name: str) -> pg.PlotWidget:
        plot, title = still_plot(self, name, 80)
        self.titles[plot] = title
        item = plot.getPlotItem()
        for name_ in ("left", "bottom"):
            item.getAxis(name_).enableAutoSIPrefix(False)
        return plot

    def _build_layout(self) -> None:
        controls = QGridLayout()
        controls.setHorizontalSpacing(8)
        controls.setVerticalSpacing(0)
        controls.addWidget(self.d_k_label, 0, 0)
        controls.addWidget(self.d_k_slider, 0, 1)
        controls.addWidget(self.d_k_spin, 0, 2)
        controls.addWidget(self.d_k_ticks, 1, 1)
        controls.setColumnStretch(1, 1)
        self._controls = controls
        self._sampling_row = QHBoxLayout()  # samples and seed: beside d_k when wide, under it when narrow
        self._sampling_row.setSpacing(8)
        for widget in (self.samples_label, self.samples_spin, self.seed_label, self.seed_spin,
                       self.new_seed_button):
            self._sampling_row.addWidget(widget)
        self._sampling_row.addStretch(1)
        self._narrow: bool | None = None

        histograms = QGridLayout()
        histograms.setHorizontalSpacing(10)
        histograms.setVerticalSpacing(0)
        histograms.addWidget(self._titled(self.raw_plot), 0, 0)
        histograms.addWidget(self._titled(self.scaled_plot), 0, 1)
        histograms.addWidget(self.raw_stats, 1, 0)
        histograms.addWidget(self.scaled_stats, 1, 1)
        histograms.setRowStretch(0, 1)

        keys_row = QHBoxLayout()  # N serves both the example bars and the one-hot share
        keys_row.setSpacing(8)
        keys_row.addWidget(self.keys_label)
        keys_row.addWidget(self.keys_slider, 1)
        keys_row.addWidget(self.keys_value)
        keys_row.addStretch(1)
        plots = QHBoxLayout()
        plots.setSpacing(6)
        plots.addWidget(self._titled(self.raw_bars_plot), 1)
        plots.addWidget(self._titled(self.scaled_bars_plot), 1)
        plots.addSpacing(6)
        plots.addWidget(self._titled(self.share_plot), 2)
        bottom = QVBoxLayout()
        bottom.setSpacing(2)
        bottom.addLayout(keys_row)
        bottom.addLayout(plots, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)
        layout.addLayout(controls)
        layout.addLayout(histograms, 5)
        layout.addLayout(bottom, 4)
        layout.addWidget(self.caption)
        self._fit_to_width()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_to_width()

    def _fit_to_width(self) -> None:
        """Narrow docks: samples and seed move under the d_k slider and the numbers shrink a little."""
        narrow = self.width() < NARROW_WIDTH * theme().zoom
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self._controls.removeItem(self._sampling_row)
        if narrow:
            self._controls.addLayout(self._sampling_row, 2, 0, 1, 3)
        else:
            self._controls.addLayout(self._sampling_row, 0, 3)
        stats_font = QFont(self.font())
        stats_font.setPointSizeF(theme().font_pt() * 0.92 if narrow else theme().number_pt())
        for label in (self.raw_stats, self.scaled_stats):
            label.setFont(stats_font)
        if self.sample is not None:
            self.refresh()  # the stats tables' spacing follows the width

    # ------------------------------------------------------------ language, theme, hints

    def retranslate(self) -> None:
        """Every static text in the current language (called again on LanguageChange)."""
        self.samples_label.setText(self.tr("samples"))
        self.seed_label.setText(self.tr("seed"))
        self.new_seed_button.setText(self.tr("New seed"))
        self.keys_label.setText(self.tr("One random query against N keys:"))
        self.raw_plot.getPlotItem().setLabel("bottom", self.tr("q·k"))
        self.scaled_plot.getPlotItem().setLabel("bottom", self.tr("q·k / √d_k"))
        self.share_plot.getPlotItem().setLabel("bottom", self.tr("d_k"))
        self._fill_legend()
        self.caption.setText(self.tr(
            "q and k have d_k independent N(0, 1) components, so q·k adds d_k products of variance 1: its variance "
            "is d_k. Dividing by √d_k brings it back to 1. Shaded: |x| ≤ 3, where softmax stays soft."))
        self._describe(self.d_k_slider, self.tr("Drag to change d_k (log scale); both histograms follow at once"))
        self._describe(self.d_k_spin, self._hover.text(self.d_k_slider))
        self._describe(self.samples_spin, self.tr("How many pairs q, k are drawn (100 – 100,000)"))
        self._describe(self.seed_spin, self.tr("The same seed always draws the same numbers"))
        self._describe(self.new_seed_button, self.tr("Draw a fresh set of random vectors"))
        self._describe(self.keys_slider, self.tr("How many keys the random query is compared with"))
        sampling = self.tr(
            "Exact sampling: given q, q·k is N(0, |q|²), and |q|² is χ² with d_k degrees of freedom; so each "
            "sample is √χ² · z, the same distribution as drawing both vectors, at any d_k in a millisecond")
        for plot in (self.raw_plot, self.scaled_plot):
            self._describe(plot, sampling)
        self._describe(self.share_plot, self.tr(
            "Share of {0} random queries whose largest softmax weight exceeds {1} (near one-hot), per d_k").format(
            ONE_HOT_TRIALS, ONE_HOT_THRESHOLD))
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _describe(self, widget: QWidget, text: str) -> None:
        self._hover.describe(widget, text)

    def _apply_theme(self) -> None:
        """Fonts, pens and plot colours for the current zoom and theme."""
        current = theme()
        number_font = QFont(self.font())
        number_font.setPointSizeF(current.number_pt())
        for widget in (self.d_k_spin, self.samples_spin, self.seed_spin, self.keys_value):
            widget.setFont(number_font)
        bold = QFont(number_font)
        bold.setBold(True)
        self.d_k_label.setFont(bold)
        text_font = QFont(self.font())
        text_font.setPointSizeF(current.font_pt())
        for widget in (self.caption, self.samples_label, self.seed_label, self.new_seed_button, self.keys_label,
                       self.d_k_ticks, *self.titles.values()):
            widget.setFont(text_font)
        metrics = QFontMetrics(number_font)
        self.d_k_spin.setFixedWidth(metrics.horizontalAdvance("00000") + 36)
        self.samples_spin.setFixedWidth(metrics.horizontalAdvance("0000000") + 36)
        self.seed_spin.setFixedWidth(metrics.horizontalAdvance("0000000") + 36)
        tick_font = QFont(self.font())
        tick_font.setPointSizeF(current.font_pt() * 0.9)
        foreground, faint = current.foreground(), current.faint()
        label_style = {"color": foreground.name(), "font-size": f"{current.font_pt():.0f}pt"}
        plots = (self.raw_plot, self.scaled_plot, self.raw_bars_plot, self.scaled_bars_plot, self.share_plot)
        style_axes(plots, foreground, current.background(), tick_font, label_style)
        width = current.line_px()
        self.raw_hist.setPen(pg.mkPen(UNSCALED_HEX, width=1.5))
        self.raw_hist.setBrush(_tint(UNSCALED_HEX, 150))
        self.scaled_hist.setPen(pg.mkPen(SCALED_HEX, width=1.5))
        self.scaled_hist.setBrush(_tint(SCALED_HEX, 110))
        for curve in (self.raw_curve, self.scaled_curve):
            curve.setPen(pg.mkPen(CURVE_HEX, width=width))
        band = QColor(faint)
        band.setAlpha(70)
        for region in (self.raw_band, self.scaled_band):
            region.setBrush(band)
            for line in region.lines:
                line.setPen(pg.mkPen(faint, width=1, style=Qt.PenStyle.DashLine))
        self.share_unscaled.setPen(pg.mkPen(UNSCALED_HEX, width=width))
        self.share_unscaled.setSymbolBrush(QColor(UNSCALED_HEX))
        self.share_unscaled.setSymbolPen(pg.mkPen(UNSCALED_HEX))
        self.share_scaled.setPen(pg.mkPen(SCALED_HEX, width=width))
        self.share_scaled.setSymbolBrush(QColor(SCALED_HEX))
        self.share_scaled.setSymbolPen(pg.mkPen(SCALED_HEX))
        self.share_marker.setPen(pg.mkPen(foreground, width=2, style=Qt.PenStyle.DashLine))
        self.share_legend.setLabelTextColor(foreground)
        self.share_legend.setLabelTextSize(f"{current.font_pt() * 0.9:.0f}pt")
        self._fill_legend()
        self._narrow = None  # re-fit at the new zoom
        self._fit_to_width()
        self.refresh()

    def _fill_legend(self) -> None:
        """Legend entries of the one-hot plot (refilled so a new language or colour takes effect)."""
        self.share_legend.clear()
        self.share_legend.addItem(self.share_unscaled, self.tr("raw q·k"))
        self.share_legend.addItem(self.share_scaled, self.tr("÷ √d_k"))

    # ------------------------------------------------------------ state

    @property
    def d_k(self) -> int:
        """The lab's d_k."""
        return self.d_k_spin.value()

    @property
    def samples(self) -> int:
        """How many dot products are drawn."""
        return self.samples_spin.value()

    @property
    def seed(self) -> int:
        """The lab's seed (same seed, same histograms)."""
        return self.seed_spin.value()

    @property
    def n_keys(self) -> int:
        """Keys of the example query."""
        return self.keys_slider.value()

    def _d_k_slider_moved(self, position: int) -> None:
        with QSignalBlocker(self.d_k_spin):
            self.d_k_spin.setValue(d_k_from_position(position))
        self.refresh()

    def _d_k_typed(self, d_k: int) -> None:
        with QSignalBlocker(self.d_k_slider):
            self.d_k_slider.setValue(position_from_d_k(d_k))
        self.refresh()

    def new_seed(self) -> None:
        """Pick a different random seed."""
        current = self.seed
        seed = current
        while seed == current:
            seed = random.randrange(MAX_SEED + 1)
        self.seed_spin.setValue(seed)

    def _sample(self) -> DotProductSample:
        """The sample set for the current (d_k, samples, seed), drawn once and kept in a small cache."""
        key = (self.d_k, self.samples, self.seed)
        cached = self._samples_cache.get(key)
        if cached is None:
            cached = sample_dot_products_exact(*key)
            self._samples_cache[key] = cached
            while len(self._samples_cache) > CACHE_SIZE:
                self._samples_cache.popitem(last=False)
        else:
            self._samples_cache.move_to_end(key)
        return cached

    # ------------------------------------------------------------ redraw

    def refresh(self) -> None:
        """Redraw every item in place from the lab's state (samples reused when unchanged)."""
        self.sample = self._sample()
        d_k = self.d_k
        self._draw_histogram(self.raw_plot, self.raw_hist, self.raw_curve, self.raw_band, self.sample.raw,
                             dot_product_std(d_k))
        self._draw_histogram(self.scaled_plot, self.scaled_hist, self.scaled_curve, self.scaled_band,
                             self.sample.scaled, 1.0)
        self.titles[self.raw_plot].setText(self.tr("raw q·k &nbsp; {0} N(0, {1})").format(self._swatch(), d_k))
        self.titles[self.scaled_plot].setText(
            self.tr("scaled q·k / √d_k &nbsp; {0} N(0, 1)").format(self._swatch()))
        self.raw_stats.setText(self._stats_table(self.sample.raw, "0", str(d_k), square_root_text(d_k)))
        self.scaled_stats.setText(self._stats_table(self.sample.scaled, "0", "1", "1"))
        self._draw_example()
        self._draw_share()

    @staticmethod
    def _swatch() -> str:
        """A short line in the normal curve's colour, for the titles."""
        return f'<span style="color:{CURVE_HEX}"><b>━━</b></span>'

    def _draw_histogram(self, plot: pg.PlotWidget, histogram: pg.PlotDataItem, curve: pg.PlotDataItem,
                        band: pg.LinearRegionItem, values: np.ndarray, sigma: float) -> None:
        edges = histogram_edges(sigma)
        counts = histogram_counts(values, edges)
        histogram.setData(edges, counts)
        x = np.linspace(edges[0], edges[-1], CURVE_POINTS)
        expected = expected_counts(x, sigma, values.size, float(edges[1] - edges[0]))
        curve.setData(x, expected)
        top = max(float(np.max(counts)), float(np.max(expected))) * 1.08
        plot.getPlotItem().getViewBox().setRange(xRange=(edges[0], edges[-1]), yRange=(0.0, top), padding=0.0)
        band.setVisible(bool(BAND < edges[-1]))

    def _stats_table(self, values: np.ndarray, mean: str, variance: str, std: str) -> str:
        measured = moments(values)
        cell = f'<td align="right" style="padding-left: {6 if self._narrow else 18}px">'
        header = "".join(cell.replace("td", "th", 1) + f"{text}</th>" for text in (
            self.tr("mean"), self.tr("variance"), self.tr("std")))
        row_measured = "".join(f"{cell}<b>{typographic_minus(text)}</b></td>" for text in (
            f"{measured.mean:.3f}", f"{measured.variance:.2f}", f"{measured.std:.3f}"))
        row_theory = "".join(f"{cell}{text}</td>" for text in (mean, variance, std))
        measured_name, theory_name = self.tr("measured"), self.tr("theory")  # tr() outside f-strings, for lupdate
        return (f'<table cellspacing="0" cellpadding="0" style="border-spacing: 0"><tr><th></th>{header}</tr>'
                f'<tr><td>{measured_name}</td>{row_measured}</tr>'
                f'<tr><td>{theory_name}</td>{row_theory}</tr></table>')

    def _draw_example(self) -> None:
        """One random query against N keys: its softmax weights with and without 1/√d_k."""
        if self._vectors_for != self.seed or self._vectors is None:
            self._vectors = example_vectors(self.seed)
            self._vectors_for = self.seed
        n = self.n_keys
        scores = example_scores(*self._vectors, self.d_k, n)
        raw_weights, scaled_weights = example_weights(scores, self.d_k)
        x = np.arange(n, dtype=np.float64)
        brushes = [key_color(i) for i in range(n)]
        width = 0.75 if n <= 16 else 0.9
        for plot, bars, weights in ((self.raw_bars_plot, self.raw_bars, raw_weights),
                                    (self.scaled_bars_plot, self.scaled_bars, scaled_weights)):
            bars.setOpts(x=x, height=weights, width=width, brushes=brushes, pen=pg.mkPen(None))
            plot.getPlotItem().getViewBox().setRange(xRange=(-0.6, n - 0.4), yRange=(-0.03, 1.05), padding=0.0)
        self.raw_weights, self.scaled_weights = raw_weights, scaled_weights
        self.keys_value.setText(self.tr("N = {0}").format(n))
        self.titles[self.raw_bars_plot].setText(self.tr("raw: max {0}").format(f"{np.max(raw_weights):.3f}"))
        self.titles[self.scaled_bars_plot].setText(
            self.tr("÷ √d_k: max {0}").format(f"{np.max(scaled_weights):.3f}"))

    def _draw_share(self) -> None:
        """The share of near one-hot trials against d_k (recomputed only for a new N or seed)."""
        key = (self.n_keys, self.seed)
        if key != self._share_for:
            self._share = one_hot_share(D_K_LADDER, self.n_keys, ONE_HOT_TRIALS, self.seed)
            self._share_for = key
            x = np.log2(np.asarray(D_K_LADDER, dtype=np.float64))
            self.share_unscaled.setData(x, self._share[0])
            self.share_scaled.setData(x, self._share[1])
        self.share_marker.setValue(math.log2(self.d_k))
        self.titles[self.share_plot].setText(
            self.tr("share near one-hot (largest > {0})").format(ONE_HOT_THRESHOLD))
