"""The attention output: its numbers, and where it sits among the values it averages."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPolygonItem, QLabel, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.panels.output_layout import LABEL_SIDES, LabelLayout, Rect, convex_hull
from attention_explorer.ui.style.numbers import three_decimals, tooltip_vector, typographic_minus
from attention_explorer.ui.style.theme import KEY_HEX, key_color, key_hex, output_color, theme, theme_ink
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.chart_column import chart_column
from attention_explorer.ui.widgets.fast_items import CachedBars, CachedScatter, moves_quietly

# Key labels next to the V points only up to this many keys (they would cover each other beyond it).
LABEL_MAX_KEYS = 16
# In component-bar mode every V_i[c] is a dot only while N × d_v stays below this; else only the selected V's.
DOTS_MAX = 1024
# Values written on the component bars up to this d_v.
BAR_TEXT_MAX = 8
# Components written in the readout before "…".
READOUT_MAX = 8
# Narrower than this (pixels at zoom 1) the texts around the plot switch to a short form, so the plot keeps room.
NARROW_WIDTH = 360
ALPHA_LEVELS = 12
HULL_FILL = QColor(120, 120, 120, 28)
HULL_EDGE = QColor(120, 120, 120, 110)
RANGE_FILL = QColor(150, 150, 150, 55)
STAR_PX = 26.0  # the output star's size at zoom 1


class OutputView(QWidget):
    """output = Σ wᵢVᵢ: for d_v = 2 a point inside the V's hull, otherwise one bar per component."""

    hint = Signal(str)
    key_clicked = Signal(int)  # a V was clicked
    clicked_at = Signal(float, float)  # a left click in the plane, in data coordinates (where will the output land?)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("outputView")
        self.model = model

        self.readout = QLabel(self)
        self.readout.setObjectName("outputReadout")
        self.plot, self.caption, item = chart_column(self, self.readout, "output")
        item.showGrid(x=True, y=True, alpha=0.2)
        cache_axes(item)
        self.view_box = item.getViewBox()
        self.view_box.disableAutoRange()

        # Plane mode (d_v = 2): the hull of the V's, the V's, the output.
        self.hull = QGraphicsPolygonItem()
        hull_pen = QPen(HULL_EDGE, 1.5, Qt.PenStyle.DashLine)
        hull_pen.setCosmetic(True)
        self.hull.setPen(hull_pen)
        self.hull.setBrush(QBrush(HULL_FILL))
        self.value_points = CachedScatter(pxMode=True)
        self.value_points.setZValue(10)
        self.value_points.sigClicked.connect(self._on_points_clicked)
        self.output_marker = moves_quietly(CachedScatter(pxMode=True, symbol="star"))
        self.output_marker.setZValue(20)
        # Its text: retranslate(); its colour: _apply_theme().
        self.output_label = moves_quietly(pg.TextItem(anchor=(0.5, -0.3)))
        self.output_label.setZValue(21)
        self.value_labels: list[pg.TextItem] = []
        self._plane_items = [self.hull, self.value_points, self.output_marker, self.output_label]

        # Component-bar mode (d_v ≠ 2): each output component, the range the V's span in it, the V's as dots.
        self.range_bars = CachedBars(x=np.zeros(0), height=np.zeros(0), width=0.8,
                                          brush=QBrush(RANGE_FILL), pen=QPen(Qt.PenStyle.NoPen))
        self.component_bars = CachedBars(x=np.zeros(0), height=np.zeros(0), width=0.42,
                                              brush=QBrush(output_color()), pen=QPen(Qt.PenStyle.NoPen))
        self.component_bars.setZValue(5)
        self.component_dots = CachedScatter(pxMode=True)
        self.component_dots.setZValue(10)
        self.component_dots.sigClicked.connect(self._on_points_clicked)
        self.component_texts: list[pg.TextItem] = []
        self._bar_items = [self.range_bars, self.component_bars, self.component_dots]

        for plot_item in self._plane_items + self._bar_items:
            self.plot.addItem(plot_item)

        self._mode = ""
        self._shape: tuple[int, int] = (-1, -1)
        self._bounds: tuple[float, float, float, float] | None = None
        self._hovered: tuple[str, int] | None = None
        self._narrow = False
        self._brush_cache: dict[tuple[int, int], QBrush] = {}
        # pyqtgraph caches a symbol image per pen/brush *object*: reusing the same objects keeps a drag from
        # rendering new symbols (and growing the cache) on every move.
        self._plain_pen = pg.mkPen(QColor(255, 255, 255), width=1.5)  # cosmetic: a scaled pen would cover the symbol
        self._emphasis_pen = pg.mkPen(theme().foreground(), width=theme().line_px())
        self._marker_brush = QBrush(output_color())
        self._marker_pen = pg.mkPen("#FFFFFF", width=1.5)
        self._marker_style: tuple | None = None  # (size, brush, pen) the star was last drawn with
        self._shown_points: tuple | None = None  # what value_points / the hull / the labels last showed
        # The V's (a read-only array) the bars' ranges and the dots were last drawn from, with the ranges: an edit
        # of a key keeps the same array (N × d_v is 16 MB at the limits: no pass over it on a drag move).
        self._bars_values: tuple = (None, None, None)
        self._dots_values: np.ndarray | None = None
        self._shown_label_places: tuple | None = None
        # The labels' layout ignoring the star, kept until a point, a size, a label or the scale changes.
        self._label_layout: LabelLayout | None = None  # made when the points, labels or scale change
        self._label_sides_shown: list[int] = []
        self._shown_readout = ""
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.plot.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self.view_box.sigResized.connect(self._place_value_labels)
        model.changed.connect(self.refresh)
        model.selection_changed.connect(self.refresh)
        model.steps_changed.connect(self.refresh)  # step-through: the star and the numbers only from step 4 on
        theme().changed.connect(self._apply_theme)
        self._apply_theme()
        self.retranslate()

    def retranslate(self) -> None:
        """The static text in the current language, then every text built from the model (again on LanguageChange)."""
        self.output_label.setText(self.tr("output"))
        self._update_caption()
        self._shape = (-1, -1)  # the axis label is set when the shape changes
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.PaletteChange:
            self._update_readout()  # its colour is fitted to the palette, which the window sets after a theme switch
        super().changeEvent(event)

    # ------------------------------------------------------------ modes

    @property
    def mode(self) -> str:
        """"plane" when d_v = 2 (V's and output as points), else "bars" (one bar per output component)."""
        return self._mode

    def output_position(self) -> tuple[float, float]:
        """Where the star is drawn, in the plot's coordinates (plane mode): its point mapped through its item."""
        x, y = self.output_marker.getData()
        position = self.output_marker.mapToParent(QPointF(float(x[0]), float(y[0])))
        return position.x(), position.y()

    def _set_mode(self, mode: str) -> None:
        """Show one set of items; called only when d_v switches between 2 and anything else."""
        self._mode = mode
        plane = mode == "plane"
        for plot_item in self._plane_items + self.value_labels:
            plot_item.setVisible(plane)
        for plot_item in self._bar_items:
            plot_item.setVisible(not plane)
        for text in self.component_texts:
            text.setVisible(not plane and not self._narrow)  # narrow: the readout above has the numbers
        item = self.plot.getPlotItem()
        self.view_box.setAspectLocked(plane, ratio=1.0)
        item.showGrid(x=plane, y=True, alpha=0.2)
        if plane:
            item.getAxis("bottom").setTicks(None)
            item.setLabel("bottom", "")
        self._update_caption()
        self._bounds = None
        self._shape = (-1, -1)

    def _update_caption(self) -> None:
        if self._mode == "plane":
            full = self.tr("Dots: the values V in their keys' colours (bigger = more weight). Dashed: their convex "
                           "hull. ★ the output, their weighted average: it never leaves the hull.")
            short = self.tr("★ output: the weighted average of the V's")
        else:
            full = self.tr("Purple bars: the output's components. Grey: the range the V's span in each component; "
                           "dots: the V's themselves (bigger = more weight).")
            short = self.tr("Bars: output; grey: range of the V's")
        self.caption.setText(short if self._narrow else full)
        self.caption.setToolTip(full)

    def resizeEvent(self, event) -> None:
        """Switch the texts around the plot between their full and short forms."""
        super().resizeEvent(event)
        narrow = self.width() < NARROW_WIDTH * theme().zoom
        if narrow != self._narrow:
            self._narrow = narrow
            self._shape = (-1, -1)  # texts and axis label depend on the width
            self.refresh()
            self._update_caption()

    def _apply_theme(self) -> None:
        """Re-apply colours and sizes after a theme or presentation-zoom change."""
        number_font = QFont(self.font())
        number_font.setPointSizeF(theme().number_pt())
        self.readout.setFont(number_font)
        text_font = QFont(self.font())
        text_font.setPointSizeF(theme().font_pt())
        self.caption.setFont(text_font)
        item = self.plot.getPlotItem()
        self.plot.setBackground(theme().background())
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=text_font)
            axis.setPen(theme().foreground())
            axis.setTextPen(theme().foreground())
        label_font = QFont(text_font)
        label_font.setBold(True)
        self.output_label.setFont(label_font)
        self.output_label.setColor(QColor(self._ink(output_color().name())))
        self._emphasis_pen = pg.mkPen(theme().foreground(), width=theme().line_px())
        self._marker_brush = QBrush(output_color())
        self._marker_style = None  # the new brush and pen: draw the star again
        self._shape = (-1, -1)
        self.refresh()

    # ------------------------------------------------------------ updating

    def refresh(self) -> None:
        """Redraw from model.result (items updated in place; rebuilt only when N or d_v change)."""
        scenario = self.model.scenario
        mode = "plane" if scenario.d_v == 2 else "bars"
        if mode != self._mode:
            self._set_mode(mode)
        self._update_readout()
        if mode == "plane":
            self._refresh_plane()
        else:
            self._refresh_bars()

    def _update_readout(self) -> None:
        output = self.model.result.output
        revealed = self.model.step_shown(4)
        shown = ", ".join(typographic_minus(three_decimals(v)) if revealed else "?" for v in output[:READOUT_MAX])
        if output.shape[0] > READOUT_MAX:
            shown += self.tr(", … ({0} components)").format(output.shape[0])
        # On the panel, not the plot: the palette's window colour (ours: on PaletteChange the label's is still old).
        colour = theme_ink(output_color().name(), self.palette().color(QPalette.ColorRole.Window))
        formula = "" if self._narrow else " = Σ w<sub>i</sub>V<sub>i</sub>"
        text = (f'<span style="color:{colour}"><b>{self.tr("output")}</b></span>{formula} = '
                f'<span style="color:{colour}; white-space:nowrap"><b>[{shown}]</b></span>')  # never "[0.809, / 0.113]"
        if text != self._shown_readout:
            self._shown_readout = text
            self.readout.setText(text)
        self.readout.setToolTip(tooltip_vector(output) if revealed else "")

    # pyqtgraph renders one symbol image per distinct (size, pen, brush): sizes are whole pixels and opacities
    # come in ALPHA_LEVELS steps, so a drag reuses cached images instead of rendering one per point per move.

    def _point_sizes(self) -> np.ndarray:
        """The V points' sizes in the plane: by weight, the selected key's a little bigger."""
        sizes = self._weight_sizes(self._known_weights())
        sizes[self.model.selected_key] += 4.0 * theme().zoom
        return sizes

    def _known_weights(self) -> np.ndarray:
        """The weights, or in step-through before the softmax the same for every V (no size gives them away)."""
        weights = self.model.result.weights
        return weights if self.model.step_shown(3) else np.full(weights.shape, 1.0 / weights.shape[0])

    def _weight_sizes(self, weights: np.ndarray, small: float = 9.0, extra: float = 26.0) -> np.ndarray:
        """Marker size in whole pixels: the area grows with the weight, so a heavy V looks heavy."""
        return np.round((small + extra * np.sqrt(np.clip(weights, 0.0, 1.0))) * theme().zoom)

    def _weight_brushes(self, weights: np.ndarray, indices: np.ndarray) -> list[QBrush]:
        """Key colours, more opaque for more weight (from a small cache of brushes)."""
        levels = np.round(np.clip(weights, 0.0, 1.0) * ALPHA_LEVELS).astype(int)
        brushes = []
        for i, level in zip(indices.tolist(), levels.tolist()):
            key = (int(i) % len(KEY_HEX), level)
            brush = self._brush_cache.get(key)
            if brush is None:
                colour = QColor(key_color(key[0]))
                colour.setAlphaF(0.35 + 0.65 * level / ALPHA_LEVELS)
                brush = self._brush_cache[key] = QBrush(colour)
            brushes.append(brush)
        return brushes

    def _pens(self, indices: np.ndarray) -> list[QPen]:
        """A thin white rim for every point, a thick dark one for the selected key's."""
        selected = self.model.selected_key
        plain, emphasis = self._plain_pen, self._emphasis_pen
        return [emphasis if i == selected else plain for i in indices.tolist()]

    def _refresh_plane(self) -> None:
        scenario, result = self.model.scenario, self.model.result
        values = scenario.values
        n = scenario.n
        indices = np.arange(n)
        if self._shape != (n, 2):
            self._shape = (n, 2)
            self._rebuild_value_labels(n)
            self._shown_points = self._shown_label_places = None
        sizes = self._point_sizes()
        selected = self.model.selected_key
        brushes = self._weight_brushes(self._known_weights(), indices)
        # During a drag of a key the V's stay put and the sizes and opacities move in whole steps: most moves
        # change only the output, so the points, the hull and the labels are redrawn only when they change.
        shown = (values.tobytes(), sizes.tobytes(), tuple(map(id, brushes)), selected, id(self._emphasis_pen),
                 scenario.labels)
        if shown != self._shown_points:
            values_moved = self._shown_points is None or self._shown_points[0] != shown[0]
            self._shown_points = shown
            self.value_points.setData(
                x=values[:, 0], y=values[:, 1], size=sizes, symbol="o",
                brush=brushes, pen=self._pens(indices), data=indices,
            )
            if values_moved:
                hull = convex_hull(values)
                self.hull.setPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in hull]))
            for i, label in enumerate(self.value_labels):
                if label.textItem.toPlainText() != scenario.labels[i]:
                    label.setText(scenario.labels[i])
                font = label.textItem.font()
                if font.bold() != (i == selected):
                    font.setBold(i == selected)
                    label.setFont(font)
        output = result.output
        # The star is one point at the item's origin, moved with setPos: a move changes the item's transform
        # only, where setData would rebuild the point and the view's bounds on every drag move.
        marker_style = (STAR_PX * theme().zoom, id(self._marker_brush), id(self._marker_pen))
        if marker_style != self._marker_style:
            self._marker_style = marker_style
            self.output_marker.setData(x=[0.0], y=[0.0], size=marker_style[0], symbol="star",
                                       brush=self._marker_brush, pen=self._marker_pen)
        self.output_marker.setPos(float(output[0]), float(output[1]))
        self.output_label.setPos(float(output[0]), float(output[1]))
        self.output_marker.setVisible(self.model.step_shown(4))
        self.output_label.setVisible(not self._narrow and self.model.step_shown(4))  # narrow: the caption names it
        self._fit_view(values[:, 0], values[:, 1], output)
        self._place_value_labels()

    def _place_value_labels(self) -> None:
        """Each label beside its point, on the side where it covers neither the star nor another label."""
        if self._mode != "plane" or not self.value_labels:
            return
        pixel_width, pixel_height = self.view_box.viewPixelSize()
        if not (pixel_width > 0.0 and pixel_height > 0.0 and np.isfinite(pixel_width + pixel_height)):
            return  # not laid out yet: sigResized places them
        scenario = self.model.scenario
        values = scenario.values
        radii = self._point_radii()
        view = self.view_box.viewRect()
        places = (values.tobytes(), radii.tobytes(), pixel_width, pixel_height, view.getRect(), scenario.labels,
                  self.model.selected_key)
        if places != self._shown_label_places:
            self._shown_label_places = places
            self._label_layout = self._lay_out_labels_without_star(values, radii, pixel_width, pixel_height, view)
            self._label_sides_shown = []  # every label's position depends on the radii and the scale
        # The star moves on every drag move: only a label it covers looks for another side.
        sides = self._label_layout.sides_with_star(self._star_rects(pixel_width, pixel_height))
        self._apply_label_sides(sides, values, radii, pixel_width, pixel_height)

    def _point_radii(self) -> np.ndarray:
        """Each V point's radius in pixels, its rim included (as _refresh_plane draws them)."""
        selected = self.model.selected_key
        radii = self._point_sizes() / 2.0 + 1.0
        radii[selected] += theme().line_px() / 2.0
        return radii

    def _lay_out_labels_without_star(self, values: np.ndarray, radii: np.ndarray, pixel_width: float,
                                     pixel_height: float, view) -> LabelLayout:
        """Each label's rectangle on each side, what it covers there apart from the star, and its best side."""
        n = len(self.value_labels)
        # Pixels with y downwards, relative to the view's origin: only the rectangles' relations matter.
        text_rects = [label.textItem.boundingRect() for label in self.value_labels]
        # viewRect's bottom() is its largest y: the top of the plot on screen.
        plot = (view.left() / pixel_width, -view.bottom() / pixel_height,
                view.right() / pixel_width, -view.top() / pixel_height)
        return LabelLayout(values[:n, 0] / pixel_width, -values[:n, 1] / pixel_height,
                           np.array([rect.width() for rect in text_rects]),
                           np.array([rect.height() for rect in text_rects]), radii[:n], plot)

    def _star_rects(self, pixel_width: float, pixel_height: float) -> list[Rect]:
        """The star's square and, when shown, the "output" text under it, in the labels' pixel frame."""
        output = self.model.result.output
        x, y = float(output[0]) / pixel_width, -float(output[1]) / pixel_height
        half = STAR_PX * theme().zoom / 2.0 + 1.0  # plus its white rim
        rects = [(x - half, y - half, x + half, y + half)]
        if self.output_label.isVisible():
            text = self.output_label.textItem.boundingRect()
            anchor = self.output_label.anchor
            left, top = x - anchor.x() * text.width(), y - anchor.y() * text.height()
            rects.append((left, top, left + text.width(), top + text.height()))
        return rects

    def _apply_label_sides(self, sides: list[int], values: np.ndarray, radii: np.ndarray, pixel_width: float,
                           pixel_height: float) -> None:
        """Move only the labels whose side changed (all of them after the points or the scale changed)."""
        shown = self._label_sides_shown
        for i, (label, side) in enumerate(zip(self.value_labels, sides)):
            if i < len(shown) and shown[i] == side:
                continue
            anchor, dx, dy = LABEL_SIDES[side]
            if (label.anchor.x(), label.anchor.y()) != anchor:
                label.setAnchor(anchor)
            label.setPos(float(values[i, 0]) + dx * radii[i] * pixel_width,
                         float(values[i, 1]) + dy * radii[i] * pixel_height)
        self._label_sides_shown = list(sides)

    def _rebuild_value_labels(self, n: int) -> None:
        wanted = n if n <= LABEL_MAX_KEYS else 0
        while len(self.value_labels) > wanted:
            self.plot.removeItem(self.value_labels.pop())
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        for i in range(wanted):
            if i >= len(self.value_labels):
                label = moves_quietly(pg.TextItem(anchor=(0.0, 0.5)))
                label.setZValue(15)
                self.plot.addItem(label)
                self.value_labels.append(label)
            self.value_labels[i].setColor(self._key_ink(i))
            self.value_labels[i].setFont(font)

    def _ink(self, hex_colour: str) -> str:
        """A text colour that reads on the plot's background in the current theme (unchanged on the light one)."""
        return theme_ink(hex_colour)

    def _key_ink(self, index: int) -> QColor:
        """Key `index`'s label colour: a darker shade on the light theme, else the key colour made readable."""
        if theme().mode == "light":
            return key_color(index).darker(130)
        return QColor(self._ink(key_hex(index)))

    def _fit_view(self, xs: np.ndarray, ys: np.ndarray, output: np.ndarray) -> None:
        """Frame the V's (the output is always inside their hull); only when they move, so drags don't jump."""
        bounds = (float(np.min(xs)), float(np.max(xs)), float(np.min(ys)), float(np.max(ys)))
        if bounds == self._bounds:
            return
        self._bounds = bounds
        x0, x1, y0, y1 = bounds
        span = max(x1 - x0, y1 - y0, 0.5)
        pad = 0.18 * span
        self.view_box.setRange(xRange=(x0 - pad, x1 + pad + 0.1 * span), yRange=(y0 - pad, y1 + pad), padding=0.0)

    def _refresh_bars(self) -> None:
        scenario, result = self.model.scenario, self.model.result
        values = scenario.values
        n, d_v = values.shape
        output = result.output if self.model.step_shown(4) else np.zeros(d_v)
        components = np.arange(d_v, dtype=np.float64)
        shown_values, lowest, highest = self._bars_values
        same_values = shown_values is values
        if not same_values:
            lowest, highest = values.min(axis=0), values.max(axis=0)
            self._bars_values = (values, lowest, highest)
        low = np.minimum(lowest, 0.0)
        high = np.maximum(highest, 0.0)
        if self._shape != (n, d_v):
            self._shape = (n, d_v)
            self._shown_points = self._dots_values = None
            self._rebuild_component_texts(d_v)
            self._set_component_ticks(d_v)
            self.range_bars.setOpts(x=components, y0=lowest, height=highest - lowest)
            self.component_bars.setOpts(x=components, height=output)
        else:
            if not same_values:
                self.range_bars.setOpts(y0=lowest, height=highest - lowest)
            self.component_bars.setOpts(height=output)
        self._update_component_dots(values, self._known_weights())
        for c, text in enumerate(self.component_texts):
            value = float(output[c])
            shown = typographic_minus(three_decimals(value)) if self.model.step_shown(4) else "?"
            if text.textItem.toPlainText() != shown:
                text.setText(shown)
            text.setAnchor((0.5, 1.0) if value >= 0 else (0.5, 0.0))
            text.setPos(c, value)
        self._fit_bars_view(d_v, float(low.min()), float(high.max()))

    def _update_component_dots(self, values: np.ndarray, weights: np.ndarray) -> None:
        """Every V_i[c] as a dot in key i's colour (the selected key's always), sized by its weight."""
        n, d_v = values.shape
        selected = self.model.selected_key
        keys = np.arange(n) if n * d_v <= DOTS_MAX else np.array([selected])
        key_index = np.repeat(keys, d_v)
        component = np.tile(np.arange(d_v, dtype=np.float64), keys.shape[0])
        # A small sideways offset per key keeps equal values from hiding each other.
        offset = 0.0 if keys.shape[0] == 1 else (keys / max(n - 1, 1) - 0.5) * 0.5
        xs = component + np.repeat(offset, d_v) if keys.shape[0] > 1 else component
        ys = values[keys].reshape(-1)
        one = keys.shape[0] == 1  # one key's d_v dots share one size, brush and pen: given once, not d_v times
        dot_keys = keys if one else key_index
        sizes = self._weight_sizes(weights[dot_keys], small=5.0, extra=16.0)
        brushes = self._weight_brushes(weights[dot_keys], dot_keys)
        # As in the plane: most drag moves change no dot's size or opacity, so the dots stay as they are.
        shown = (sizes.tobytes(), tuple(map(id, brushes)), selected, id(self._emphasis_pen))
        if shown == self._shown_points and values is self._dots_values:
            return
        self._shown_points, self._dots_values = shown, values
        pens = self._pens(dot_keys)
        self.component_dots.setData(x=xs, y=ys, size=float(sizes[0]) if one else sizes, symbol="o", data=key_index,
                                    brush=brushes[0] if one else brushes, pen=pens[0] if one else pens)

    def _rebuild_component_texts(self, d_v: int) -> None:
        wanted = d_v if d_v <= BAR_TEXT_MAX else 0
        while len(self.component_texts) > wanted:
            self.plot.removeItem(self.component_texts.pop())
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        font.setBold(True)
        while len(self.component_texts) < wanted:
            text = moves_quietly(pg.TextItem())
            text.setZValue(12)
            self.plot.addItem(text)
            self.component_texts.append(text)
        # On a translucent patch of the background, so a bar or a dot behind the number never hides it.
        patch = QColor(theme().background())
        patch.setAlpha(190)
        ink = QColor(self._ink(output_color().darker(120).name()))
        for text in self.component_texts:
            text.setColor(ink)
            text.fill = pg.mkBrush(patch)
            text.setFont(font)
            text.setVisible(self._mode == "bars" and not self._narrow)

    def _set_component_ticks(self, d_v: int) -> None:
        item = self.plot.getPlotItem()
        step = 1 if d_v <= 16 else int(np.ceil(d_v / 12))
        item.getAxis("bottom").setTicks([[(c, str(c + 1)) for c in range(0, d_v, step)]])
        item.setLabel("bottom", "" if self._narrow else self.tr("component"))

    def _fit_bars_view(self, d_v: int, low: float, high: float) -> None:
        bounds = (float(d_v), low, high, 0.0)
        if bounds == self._bounds:
            return
        self._bounds = bounds
        span = max(high - low, 1e-9)
        self.view_box.setRange(xRange=(-0.6, d_v - 0.4), yRange=(low - 0.08 * span, high + 0.15 * span),
                               padding=0.0)

    # ------------------------------------------------------------ interaction

    def _on_points_clicked(self, _item, points, _event) -> None:
        if not len(points):
            return
        index = int(points[0].data())
        self.key_clicked.emit(index)
        try:
            self.model.select_key(index)
        except ScenarioError as error:
            self.hint.emit(error_text(error))

    def _on_scene_clicked(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._mode == "plane":
            point = self.view_box.mapSceneToView(event.scenePos())
            self.clicked_at.emit(point.x(), point.y())

    def _on_mouse_moved(self, scene_pos: QPointF) -> None:
        scatter = self.value_points if self._mode == "plane" else self.component_dots
        hovered: tuple[str, int] | None = None
        view_pos = self.view_box.mapSceneToView(scene_pos)
        points = scatter.pointsAt(view_pos)
        if len(points):
            hovered = ("key", int(points[0].data()))
        elif (self._mode == "plane" and self.output_marker.isVisible()
              and len(self.output_marker.pointsAt(self.output_marker.mapFromParent(view_pos)))):
            hovered = ("output", 0)
        if hovered == self._hovered:
            return
        self._hovered = hovered
        if hovered is None:
            self.hint.emit("")
        elif hovered[0] == "output":
            output = self.model.result.output
            self.hint.emit(self.tr("output = Σ wᵢVᵢ = [{0}]: the weighted average of the V's").format(
                ", ".join(f"{v:.6f}" for v in output)))
        else:
            i = hovered[1]
            label = self.model.scenario.labels[i]
            weight = f"{self.model.result.weights[i]:.6f}" if self.model.step_shown(3) else "?"
            self.hint.emit(self.tr("V of {0}: weight {1} — click to select").format(label, weight))

    def leaveEvent(self, event) -> None:
        """Nothing is under the mouse any more."""
        super().leaveEvent(event)
        if self._hovered is not None:
            self._hovered = None
            self.hint.emit("")
