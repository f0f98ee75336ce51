"""The vector canvas: Q and every K as arrows from the origin; drag a tip to move it, live, one undo step per drag."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from attention_explorer.core.limits import MAX_ABS
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.canvas import framing, label_layout
from attention_explorer.ui.canvas.angle_item import AngleItem
from attention_explorer.ui.canvas.arrow_item import HANDLE_PX, ArrowItem
from attention_explorer.ui.canvas.drag import TipDrag, no_hover_search_mid_drag
from attention_explorer.ui.canvas.drawing_plane import PLANE_KINDS, DrawingPlane
from attention_explorer.ui.canvas.key_pool import KeyPool
from attention_explorer.ui.canvas.label_layout import ANGLE, MAX_AVOIDED_ARROWS, MAX_AVOIDED_LABELS, QUERY
from attention_explorer.ui.canvas.plane_combo import PlaneCombo, covered_boxes, place_floating
from attention_explorer.ui.canvas.readout import CanvasReadout
from attention_explorer.ui.style.safe_text import escaped, plain_label
from attention_explorer.ui.style.theme import key_color, query_color, theme
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.live_label import LiveLabelHost

_UNIT_ANGLES = np.linspace(0.0, 2.0 * math.pi, 181)
_NOTE_STYLE = "QLabel {{ background: {bg}; color: {fg}; border-radius: 6px; padding: 6px 10px; }}"


class VectorCanvas(CanvasReadout, QWidget):
    """Q and the keys as arrows in the plane of components 0 and 1; drag any tip; θ, cos θ and Q·K beside."""

    hint = Signal(str)
    key_clicked = Signal(int)  # a key's arrow was clicked (not dragged)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("vectorCanvas")
        self.model = model
        self._drag = TipDrag(self)
        self._shown_shape: tuple | None = None  # (n, d_k, title) last drawn: a change means another scenario
        self._styled_selection = -1
        self._auto_fit = True  # refit when the plot is resized, until the user zooms or pans
        self._turn_circle: tuple[np.ndarray, np.ndarray] | None = None  # kept in view during a turn
        self._text_hex = "#202020"
        self._plane = DrawingPlane()  # which plane the vectors are projected on (d_k > 2)
        self._framed_radius = -1.0  # the disc framed last: a longer or shorter vector frames again
        self._axis_texts: tuple | None = None
        self._axis_style: dict = {}
        self._drawn = False
        self._readout_scale = 1.0  # presentation shows the readout larger

        self.plot = pg.PlotWidget(enableMenu=False)
        self.plot.setObjectName("vectorPlot")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setAspectLocked(True)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        cache_axes(self.plot)
        self.plot.disableAutoRange()
        self.plot.setMinimumSize(240, 200)
        self.view = self.plot.getPlotItem().getViewBox()
        self._pool = KeyPool(self.plot, lambda index: self._make_arrow("key", index, key_color(index)))
        no_hover_search_mid_drag(self.plot.scene())
        self.axes = (pg.InfiniteLine(pos=0, angle=0), pg.InfiniteLine(pos=0, angle=90))
        for axis_line in self.axes:
            self.plot.addItem(axis_line)
        self.unit_circle = pg.PlotCurveItem(np.cos(_UNIT_ANGLES), np.sin(_UNIT_ANGLES))
        self.plot.addItem(self.unit_circle)
        self.angle = AngleItem()
        self.angle.add_to(self.plot)
        self.arc, self.arc_label = self.angle.arc, self.angle.label
        self.query = self._make_arrow("query", 0, query_color())
        self.query.set_name("Q")

        self.note = plain_label(QLabel())  # it quotes key labels, which are text, never markup
        self.note.setObjectName("canvasNote")
        self.note.setWordWrap(True)
        self.message = plain_label(QLabel())  # an error may quote a label too
        self.message.setObjectName("canvasMessage")
        self.message.setWordWrap(True)
        self.readout = QLabel()
        self.readout.setObjectName("canvasReadout")
        self.readout.setTextFormat(Qt.TextFormat.RichText)
        self.readout.setWordWrap(True)
        self.readout.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.fit_button = QPushButton()
        self.fit_button.setObjectName("fitButton")
        self.fit_button.clicked.connect(self.fit)
        self.plane_combo = PlaneCombo()
        self.plane_combo.setObjectName("planeCombo")
        for kind in PLANE_KINDS:
            self.plane_combo.addItem("", kind)  # texts are set in retranslate
        self.plane_combo.currentIndexChanged.connect(self._on_plane_chosen)
        self.plane_combo.setVisible(False)

        # The Fit button (and the plane menu left of it, right of the left axis) float at the top of the plot, so
        # the readout below gets the whole width.
        self.fit_button.setParent(self.plot)
        self.plane_combo.setParent(self.plot)
        self.plot.installEventFilter(self)
        # The desk: the notes and the readout under the plot. The hall (set_beside): in a column beside it, of a
        # width fixed per scene, so a note or a readout that wraps never takes height from the plot.
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        self._under = QVBoxLayout()
        self._under.setSpacing(6)
        self._under.addWidget(self.plot, 1)
        layout.addLayout(self._under, 1)
        self.readout.setContentsMargins(8, 0, 8, 4)
        self._readout_host = LiveLabelHost(self.readout, self)  # its numbers change on every drag move
        self.side = QScrollArea()  # what does not fit beside the plot scrolls; the plot keeps its height
        self.side.setObjectName("canvasSide")
        self.side.setWidgetResizable(True)
        self.side.setFrameShape(QScrollArea.Shape.NoFrame)
        self.side.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.side.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Ignored)
        side_inner = QWidget()
        self._beside = QVBoxLayout(side_inner)
        self._beside.setContentsMargins(0, 0, 0, 0)
        self._beside.setSpacing(8)
        self._beside.addStretch(1)
        self.side.setWidget(side_inner)
        self.side.hide()
        layout.addWidget(self.side)
        self._side_shown = False
        self._side_sized_for: tuple = ()
        self._place_texts()

        model.changed.connect(self._on_changed)
        model.selection_changed.connect(self._on_selection_changed)
        self.view.sigTransformChanged.connect(self._on_view_changed)
        self.view.sigResized.connect(self._on_view_resized)
        self.view.sigRangeChangedManually.connect(self._on_range_changed_by_user)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()  # also draws everything from the model
        self._drawn = True

    # ------------------------------------------------------------ building

    def _make_arrow(self, role: str, index: int, color: QColor) -> ArrowItem:
        arrow = ArrowItem(role, index, color, self._arrow_clicked, self._drag_event, self._hovered)
        arrow.add_to(self.plot)
        return arrow

    @property
    def _keys(self) -> list[ArrowItem]:
        """The key arrows; `_keys[i]` is key i's while every key is drawn (see key_pool)."""
        return self._pool.arrows

    def arrow_of(self, index: int) -> ArrowItem | None:
        """The arrow drawing key `index`, None where it is not drawn (many keys)."""
        return self._pool.arrow_of(index)

    def _sync_keys(self) -> None:
        """Point the key arrows at the keys to draw (all, or the selected and the heaviest by the model's weights)."""
        model = self.model
        if self._pool.sync(model.scenario.labels, model.selected_key, model.result.weights):
            self._styled_selection = -1

    def _restyle(self, force: bool = False) -> None:
        selected = self.model.selected_key
        # The selected key lies on top (you just grabbed it); Q above the rest.
        self.query.set_selected(True, 30, self.font(), force)
        self._pool.restyle(selected, self.font(), force)
        self._styled_selection = selected
        arc_pen = pg.mkPen(key_color(selected).darker(115), width=theme().line_px())
        self.arc.setPen(arc_pen)

    def _apply_theme(self) -> None:
        t = theme()
        background, foreground, faint = t.background(), t.foreground(), t.faint()
        light = t.mode == "light"
        self.plot.setBackground(background)
        tick_font = QFont(self.font())
        tick_font.setPointSizeF(t.font_pt())
        for name in ("bottom", "left"):
            axis = self.plot.getAxis(name)
            axis.setStyle(tickFont=tick_font)
            axis.setPen(foreground)  # also the grid's colour (drawn at the grid's alpha)
            axis.setTextPen(foreground)
        axis_colour = QColor(foreground)
        axis_colour.setAlpha(120)
        for axis_line in self.axes:
            axis_line.setPen(pg.mkPen(axis_colour, width=1.5))
        self.unit_circle.setPen(pg.mkPen(faint, width=2, style=Qt.PenStyle.DashLine))
        backing = QColor(background)
        backing.setAlpha(200)
        # A backing in the background colour keeps the angle readable where it crosses an arrow (small angles).
        self.arc_label.fill = pg.mkBrush(backing)
        self.arc_label.setColor(foreground)
        self._text_hex = foreground.name()
        self.note.setStyleSheet(_NOTE_STYLE.format(bg="#FFF3D6", fg="#5A3B00") if light
                                else _NOTE_STYLE.format(bg="#4A3A12", fg="#FFE4A8"))
        self.message.setStyleSheet(_NOTE_STYLE.format(bg="#FBE3E0", fg="#8A1C0F") if light
                                   else _NOTE_STYLE.format(bg="#5A1F1A", fg="#FFD6D0"))
        backing.setAlpha(225)
        self.fit_button.setStyleSheet(
            f"QPushButton {{ background: {_rgba(backing)}; color: {foreground.name()}; border: 1px solid "
            f"{faint.name()}; border-radius: 6px; padding: 4px 14px; }}"
            f" QPushButton:hover {{ border: 2px solid {foreground.name()}; }}")
        self.query.set_colour(query_color())
        self._axis_style = {"font-size": f"{t.font_pt():.0f}pt", "color": foreground.name()}
        self._update_axis_labels(force=True)
        arc_font = QFont(self.font())
        arc_font.setPointSizeF(t.number_pt() * 1.1)
        arc_font.setBold(True)
        self.arc_label.setFont(arc_font)
        for widget, factor in ((self.note, 1.0), (self.message, 1.0), (self.fit_button, 1.0), (self.plane_combo, 1.0)):
            font = QFont(self.font())
            font.setPointSizeF(t.font_pt() * factor)
            widget.setFont(font)
        self._place_fit_button()
        self._sync_keys()
        self._restyle(force=True)
        self._on_changed()
        if self._auto_fit:  # bigger labels (presentation zoom) need more room
            self.fit()

    # ------------------------------------------------------------ redrawing from the model

    def _on_changed(self) -> None:
        scenario = self.model.scenario
        self._sync_keys()
        if self._styled_selection != self.model.selected_key or self._pool.needs_style():
            self._restyle()
        if not self._drag.active:
            self._drag.clamped = False
            self._drag.error = ""
        shape = (scenario.n, scenario.d_k, scenario.title)
        if self._shown_shape is None or scenario.title != self._shown_shape[2]:
            self._choose_plane_at_open()
        if self.plane_combo.isHidden() == (scenario.d_k > 2):  # the plane menu only where there is a choice
            self.plane_combo.setHidden(scenario.d_k <= 2)
            self._place_fit_button()
        self._update_notes(scenario.d_k)
        self._update_axis_labels()
        self.redraw_arrows()
        self._update_readout()
        if self._drag.active:
            return  # a drag on the canvas never refits: the view would jump under the mouse
        if shape != self._shown_shape:
            # A different scenario (opened, or keys/d_k changed): show all of it.
            self._shown_shape = shape
            self.fit()
        elif (self._auto_fit and self._longest() > self._framed_radius * (1 + 1e-9)) or self._tip_out_of_view():
            # Typed, pasted, undone: a longer vector's disc must fit (a shorter one's still does: the view keeps
            # still); an edit the user cannot see (zoomed in) must not go unseen.
            self.fit()

    def _choose_plane_at_open(self) -> None:
        """A newly opened example may hide vectors in components 0 and 1 (see DrawingPlane.open)."""
        if not self._plane.open(self.model.scenario):
            return
        self._drag.basis = None
        self.angle.forget_text()
        self.plane_combo.blockSignals(True)
        self.plane_combo.setCurrentIndex(self.plane_combo.findData(self._plane.kind))
        self.plane_combo.blockSignals(False)
        self._place_fit_button()

    def drag_ended(self) -> None:
        """After a release every tip is in view again (see drag.DragHost): a drag past the edge frames anew."""
        if self._tip_out_of_view():
            self.fit()

    def _on_selection_changed(self, _index: int) -> None:
        if self.model.scenario.n != self._pool.n:
            # Undoing "add pair" clamps the selection before `changed` announces the smaller scenario: draw it all.
            self._on_changed()
            return
        self._sync_keys()  # a key selected elsewhere (the table) is drawn
        self._restyle()
        if self._effective_plane() == "query-key":  # the plane is the selected key's: it changed too
            self._update_notes(self.model.scenario.d_k)
            self._update_axis_labels()
        self.redraw_arrows()
        self._update_readout()
        # In the plane of Q and the selected key another key is another picture (elsewhere nothing moved).
        if not self._drag.active and self._effective_plane() == "query-key" and (
                self._auto_fit or self._tip_out_of_view()):
            self.fit()

    def _tip_out_of_view(self) -> bool:
        """Whether the tip of Q or of some key lies outside the visible range (or within a few pixels of its edge).

        Cheap enough for every model change: the tips are projected once per scenario and compared in one pass.
        """
        qx, qy, kx, ky = self._tips()
        return self._out_of_view(np.append(kx, qx), np.append(ky, qy))

    def frame_turn(self, key: int | None) -> None:
        """Before a full turn of `key`: show the whole circle its tip will trace, so the view never jumps mid-turn.

        Until the turn ends (`frame_turn(None)`), a refit (a resize, say) keeps that circle in view too.
        """
        self._turn_circle = None
        # The turn rotates components 0 and 1, a circle only where those are the axes shown.
        if key is None or self._effective_plane() != "components" or self.model.scenario.d_k < 2:
            return
        _, _, kx, ky = self._tips()
        radius = math.hypot(float(kx[key]), float(ky[key]))
        self._turn_circle = (np.array([radius, -radius, 0.0, 0.0]), np.array([0.0, 0.0, radius, -radius]))
        if self._out_of_view(*self._turn_circle):
            self.fit()

    def _out_of_view(self, xs: np.ndarray, ys: np.ndarray) -> bool:
        """Whether some point (xs[i], ys[i]) lies outside the visible range, by its edge or under the plane menu."""
        (left, right), (bottom, top) = self.view.viewRange()
        if self.view.width() < 60 or self.view.height() < 60:  # fit() used a proportional margin
            return framing.points_out_of_view(xs, ys, (left, right, bottom, top), (0.0, 0.0))
        return framing.points_out_of_view(xs, ys, (left, right, bottom, top), self.view.viewPixelSize(),
                                          self._covered())

    def _covered(self) -> list[framing.Covered]:
        """Where the Fit button and the plane menu float over the view: pixels from its top left."""
        return covered_boxes(self.plot, self.view, (self.fit_button, self.plane_combo))

    def _longest(self) -> float:
        """The length of the longest vector drawn: any rotation of it stays within the disc of this radius."""
        qx, qy, kx, ky = self._tips()
        return float(max(math.hypot(qx, qy), float(np.max(np.hypot(kx, ky), initial=0.0))))

    def _on_view_changed(self, *_args) -> None:
        # Zooming changes how many view units a pixel is: line ends, labels and the arc are placed in pixels.
        self.redraw_arrows()

    def _effective_plane(self) -> str:
        return self._plane.shown(self.model.scenario.d_k)

    def drawing_basis(self) -> np.ndarray | None:
        """The shown plane's basis, frozen while a drag runs; None for components 0 and 1."""
        if self._drag.basis is not None:
            if self._drag.basis.shape[1] == self.model.scenario.d_k:
                return self._drag.basis
            self._drag.basis = None  # d_k changed under the drag (undo, another panel): follow the scenario
        return self._plane.basis(self.model.scenario, self.model.selected_key)

    def _tips(self) -> tuple[float, float, np.ndarray, np.ndarray]:
        """(x, y) of Q and of every K in the plane shown."""
        return self._plane.tips(self.model.scenario, self.drawing_basis())

    def _synced_pool(self) -> KeyPool:
        """The key arrows, pointed at this scenario's keys if they still drew another's (mid-change)."""
        if self._pool.n != self.model.scenario.n:
            self._sync_keys()
        return self._pool

    def redraw_arrows(self) -> None:
        pool = self._synced_pool()
        drawn = pool.in_key_order  # the keys drawn, by index
        qx, qy, kx, ky = self._plane.drawn_tips(self.model.scenario, self.drawing_basis(), pool.indices)
        pixel = self.view.viewPixelSize()[0] or 1.0
        # Names keep off the shafts and grab circles of every arrow, which all stay put while the labels are
        # placed. Pixel coordinates, y downwards, the origin at (0, 0).
        obstacles = None
        if len(drawn) < MAX_AVOIDED_ARROWS:
            shafts = [label_layout.shaft(qx / pixel, -qy / pixel, self.query.half_width)]
            shafts += [label_layout.shaft(x / pixel, -y / pixel, arrow.half_width)
                       for x, y, arrow in zip(kx.tolist(), ky.tolist(), drawn)]
            (left, right), (bottom, top) = self.view.viewRange()
            obstacles = (shafts, HANDLE_PX * theme().zoom / 2 + 1,
                         (left / pixel, -top / pixel, right / pixel, -bottom / pixel))
        # Labels are placed in order of importance; a later one that would overprint an earlier one moves aside.
        placed: list[label_layout.Box] = []
        selected = int(np.searchsorted(pool.indices, self.model.selected_key))  # among the drawn; always one
        on_a_line = self.model.scenario.d_k == 1
        for who, stack, avoid in label_layout.label_order(qx, qy, kx, ky, pixel, selected):
            if who == ANGLE:
                self._place_arc(qx, qy, float(kx[selected]), float(ky[selected]), pixel, placed, obstacles)
            elif who == QUERY:
                self.query.put(qx, qy, pixel, placed, on_a_line, stack, obstacles if avoid else None, 0)
            else:
                drawn[who].put(float(kx[who]), float(ky[who]), pixel, placed, on_a_line, stack,
                               obstacles if avoid else None, who + 1)

    def _place_arc(self, qx: float, qy: float, x: float, y: float, pixel: float, placed: list,
                   obstacles=None) -> None:
        """The arc from Q's tip direction to the selected key's tip at (x, y), and θ by it."""
        result = self.model.result
        selected = self.model.selected_key
        angle = result.angles_deg[selected] if selected < result.n else None
        arc = label_layout.angle_arc(qx, qy, x, y, pixel)
        if angle is None or arc is None:
            self.angle.hide()
            return
        text = f"{angle:.1f}°"
        if self.model.scenario.d_k > 2 and self._effective_plane() != "query-key":
            # The arc spans the drawn (projected) arrows; the number is the true angle in d_k dimensions. In the
            # plane of Q and this key the drawn angle is the true one.
            text = self.tr("{0} ({1}-D)").format(text, self.model.scenario.d_k)
        arrow = self._pool.arrow_of(selected)
        keep_clear = []
        if obstacles is not None:  # the Fit button and the plane menu, in the labels' pixel space
            view_left, view_top = obstacles[2][:2]
            keep_clear = [(view_left + left, view_top + top, right - left, bottom - top)
                          for left, top, right, bottom in self._covered()]
        self.angle.show(text, arc, math.hypot(qx, qy), math.hypot(x, y), pixel, HANDLE_PX * theme().zoom / 2,
                        self.model.scenario.d_k == 1,
                        (self.query.half_width, arrow.half_width if arrow is not None else 0.0), placed, obstacles,
                        keep_clear)

    def _update_notes(self, d_k: int) -> None:
        plane = self._effective_plane()
        pair = self._plane.pair_among(self.model.scenario.n + 1)  # why it opened in this plane, if still true
        if plane == "query-key" and pair is not None:  # chosen at open: say why, briefly
            note = self.tr("Components 0 and 1 would draw {0} and {1} on one point: shown in the plane of Q and {2} "
                           "instead, where their angle is true (d_k = {3}).").format(
                               *(("Q", *self.model.scenario.labels)[i] for i in pair), self._selected_label(), d_k)
        elif plane == "query-key":
            note = self.tr("Showing the plane of Q and {0} (d_k = {1}): their angle and lengths are exact; the other "
                           "keys are projected onto it. Dragging moves a tip only within this plane.").format(
                               self._selected_label(), d_k)
        elif plane == "pca":
            note = self.tr("Showing the best-fitting plane (PCA) of Q and the keys, d_k = {0}; the numbers are exact "
                           "in {0} dimensions. Dragging moves a tip only within this plane.").format(d_k)
        elif d_k > 2:
            note = self.tr("Showing components 0 and 1 of d_k = {0}; dragging changes only those two. "
                           "The numbers are exact in {0} dimensions.").format(d_k)
        elif d_k == 1:
            note = self.tr("d_k = 1: every vector lies on the axis; dragging changes its only component.")
        else:
            note = ""
        if self._pool.hidden:  # many keys: say which are drawn, and why not all
            note = "\n".join(filter(None, (note, self.tr(
                "Drawn: the selected key and the {0} heaviest of {1} keys; {2} more are not drawn (select one in "
                "the table to draw it).").format(len(self._keys) - 1, self._pool.n, self._pool.hidden))))
        if note != self.note.text():
            self.note.setText(note)
        self.note.setVisible(bool(note))
        message = self._drag.error or (self.tr("Clamped: every component must stay within ±{0} (the file format's "
                                               "limit).").format(f"{MAX_ABS:.0f}") if self._drag.clamped else "")
        if message != self.message.text():
            self.message.setText(message)
        self.message.setVisible(bool(message))

    def _selected_label(self) -> str:
        scenario = self.model.scenario
        return scenario.labels[min(self.model.selected_key, scenario.n - 1)]

    def _update_axis_labels(self, force: bool = False) -> None:
        """Name the axes of the plane shown; only touches the axes when a text changed (setLabel relays out)."""
        plane = self._effective_plane()
        if plane == "query-key":
            texts = (self.tr("along Q"), self.tr("⊥ Q in the Q–{0} plane").format(self._selected_label()))
        elif plane == "pca":
            texts = (self.tr("PC 1"), self.tr("PC 2"))
        else:
            texts = (self.tr("component 0"), self.tr("component 1"))
        if texts == self._axis_texts and not force:
            return
        self._axis_texts = texts
        self.plot.setLabel("bottom", escaped(texts[0]), **self._axis_style)
        self.plot.setLabel("left", escaped(texts[1]), **self._axis_style)

    def retranslate(self) -> None:
        """Every text of the canvas in the current language (called again on LanguageChange)."""
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Zoom to show every vector and the unit circle (the wheel zooms too)"))
        names = {"components": self.tr("Components 0 and 1"),
                 "query-key": self.tr("Plane of Q and the selected key (angle exact)"),
                 "pca": self.tr("PCA of Q and the keys")}
        for i in range(self.plane_combo.count()):
            self.plane_combo.setItemText(i, names[self.plane_combo.itemData(i)])
        self.plane_combo.setToolTip(self.tr(
            "The plane the vectors are drawn on (d_k > 2): the first two components; the plane of Q and the "
            "selected key, where their angle and lengths are exact; or the plane closest to Q and all the keys"))
        if self._drawn:  # rebuild the notes, axis names, angle label and readout in the new language
            self._axis_texts = None
            self.angle.forget_text()
            self._place_fit_button()
            self._on_changed()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # ------------------------------------------------------------ view

    def _on_plane_chosen(self, index: int) -> None:
        kind = self.plane_combo.itemData(index)
        if kind == self._plane.kind or kind is None:
            return
        self._plane.kind = kind
        self._plane.hidden_pair = None  # the user's choice now, kept when another example opens
        self._drag.basis = None
        self.angle.forget_text()
        self._place_fit_button()  # the menu is as wide as the plane it names
        self._on_changed()
        self.fit()  # another plane, another picture: show all of it

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._side_shown and event.oldSize().width() != event.size().width():
            self._size_side()  # its cap is a share of the canvas's width

    def eventFilter(self, watched, event) -> bool:
        if watched is self.plot and event.type() == QEvent.Type.Resize:
            self._place_fit_button()
        return super().eventFilter(watched, event)

    def _place_fit_button(self) -> None:
        place_floating(self.plot, self.view, self.fit_button, self.plane_combo)

    def fit(self) -> None:
        """Frame the disc of the longest vector, so any rotation of a tip stays in view: every tip, its name, the
        unit circle (and during a turn its circle) are visible, clear of the Fit button and the plane menu.

        The view stays fitted on resize until a zoom or pan. Keys not drawn (many keys) count for the disc and as
        tips without names: one of them drawn next (heavier after an edit, or selected in the table) is in view.
        """
        pool = self._synced_pool()
        qx, qy, kx, ky = self._tips()
        radius = self._longest()
        on_a_line = self.model.scenario.d_k == 1
        disc_x, disc_y = (np.array([-radius, radius]), np.zeros(2)) if on_a_line else framing.disc_points(radius)
        extra_x, extra_y = self._turn_circle if self._turn_circle is not None else (np.zeros(0), np.zeros(0))
        arrows = [self.query, *pool.in_key_order][:MAX_AVOIDED_LABELS]
        if pool.hidden:  # the named tips first, in the order of `arrows`
            order = np.concatenate((pool.indices, np.setdiff1d(np.arange(kx.size), pool.indices)))
            kx, ky = kx[order], ky[order]
        xs = np.concatenate(([qx], kx, disc_x, [-1.0, 1.0, 0.0, 0.0], extra_x))
        ys = np.concatenate(([qy], ky, disc_y, [0.0, 0.0, -1.0, 1.0], extra_y))
        reach = framing.reaches(xs, ys, [arrow.label.size_px() for arrow in arrows],
                                [arrow.stacked_px for arrow in arrows], HANDLE_PX * theme().zoom / 2, on_a_line,
                                range(1 + kx.size, 1 + kx.size + disc_x.size))
        self._framed_radius = radius
        self._auto_fit = True
        width_px, height_px = self.view.width(), self.view.height()
        if width_px < 60 or height_px < 60:  # not laid out yet: a proportional margin; the first resize fits again
            left, right, bottom, top = xs.min(), xs.max(), ys.min(), ys.max()
            self.view.setRange(QRectF(left, bottom, right - left, top - bottom), padding=0.14)
            return
        left, right, bottom, top = framing.frame_range(xs, ys, reach, width_px, height_px, self._covered())
        if self._side_shown:  # the hall: arrows long enough for the back row, before names clear of the controls
            left, right, bottom, top = framing.keep_reach((left, right, bottom, top), radius, width_px, height_px)
        self.view.setRange(QRectF(left, bottom, right - left, top - bottom), padding=0)

    def _on_view_resized(self, *_args) -> None:
        self._place_fit_button()  # the left axis may have grown or shrunk: the plane menu stays right of it
        if self._auto_fit:
            self.fit()

    def _on_range_changed_by_user(self, *_args) -> None:
        self._auto_fit = False

    # ------------------------------------------------------------ mouse

    def _arrow_clicked(self, role: str, index: int) -> None:
        if role == "key":
            self.key_clicked.emit(index)
        self.select_vector(role, index)

    def select_vector(self, role: str, index: int) -> None:
        if role == "key" and index < self.model.scenario.n:
            self.model.select_key(index)

    def _vector_name(self, role: str, index: int) -> str:
        return "Q" if role == "query" else self.model.scenario.labels[index]

    def _hovered(self, arrow: ArrowItem, hovering: bool) -> None:
        if hovering:
            self.hint.emit(self.tr("Drag {0}'s tip — Shift: snap to 15°, Ctrl: keep length")
                           .format(self._vector_name(arrow.role, arrow.index)))
        else:
            self.hint.emit("")

    def _drag_event(self, arrow: ArrowItem, ev) -> None:
        self._drag.on_event(arrow.role, arrow.index, ev)

    def tip_of(self, role: str, index: int) -> tuple[float, float]:
        """Where the tip of Q or of key `index` is drawn (see drag.DragHost)."""
        position = self._synced_pool().position(index) if role == "key" else None
        if position is not None:  # as drawn (see redraw_arrows)
            qx, qy, kx, ky = self._plane.drawn_tips(self.model.scenario, self.drawing_basis(), self._pool.indices)
            return float(kx[position]), float(ky[position])
        qx, qy, kx, ky = self._tips()
        return (qx, qy) if role == "query" else (float(kx[index]), float(ky[index]))

    def show_drag_notes(self) -> None:
        self._update_notes(self.model.scenario.d_k)


def _rgba(colour: QColor) -> str:
    return f"rgba({colour.red()}, {colour.green()}, {colour.blue()}, {colour.alpha()})"
