"""The vector canvas: Q and every K as arrows from the origin; drag a tip to move it, live, one undo step per drag."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainterPath
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QVBoxLayout,
    QWidget,
)

from attention_explorer.core import geometry
from attention_explorer.core.projection import move_tip_in_plane, plane_basis, plane_tips
from attention_explorer.core.scenario import MAX_ABS, ScenarioError
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.theme import key_color, key_hex, query_color, theme
from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.live_label import LiveLabelHost
from attention_explorer.ui.widgets.safe_text import escaped, plain_label

SNAP_DEGREES = 15.0
HANDLE_PX = 34  # diameter of the grab circle at a tip: easy to hit with a touchpad on a lectern
LABEL_GAP_PX = 14  # labels sit this far beyond a tip, along the arrow
FIT_PAD_PX = 8
MAX_AVOIDED_LABELS = 40  # labels beyond this many are not moved apart (checking costs O(n²))
# Names of tips keep off the arrows' shafts and grab circles while there are at most this many arrows: each name
# tests every shaft and circle, on every drag move.
MAX_AVOIDED_ARROWS = 16
TEXT_MARGIN_PX = 4.0  # QTextDocument's default margin: a TextItem's box is this much wider than its letters
SHAFT_CLEARANCE_PX = 1.5  # letters keep this far from an arrow's line, beyond its half width
STACK_PX = 3  # tips in one square this size are drawn on one point: their labels stack in a column
ORIGIN_SNAP_PX = 6  # a dragged tip this close to the origin becomes the zero vector
ARC_POINTS = 48
_ARC_STEPS = np.linspace(0.0, 1.0, ARC_POINTS)
_UNIT_ANGLES = np.linspace(0.0, 2.0 * math.pi, 181)
_NOTE_STYLE = "QLabel {{ background: {bg}; color: {fg}; border-radius: 6px; padding: 6px 10px; }}"
# The planes the canvas can show when d_k > 2, in the order of its plane menu (components 0 and 1 first:
# the default, and the only plane for d_k <= 2).
PLANE_KINDS = ("components", "query-key", "pca")


def _circle_path() -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(0.0, 0.0), 0.5, 0.5)
    return path


def clamp_to_format(x: float, y: float) -> tuple[float, float, bool]:
    """(x, y) with each component clamped to ±MAX_ABS, and whether anything was clamped."""
    cx = min(MAX_ABS, max(-MAX_ABS, x))
    cy = min(MAX_ABS, max(-MAX_ABS, y))
    return cx, cy, (cx != x or cy != y)


def drag_target(x: float, y: float, start_length: float, start_angle: float, snap: bool, keep_length: bool,
                one_dimensional: bool = False, origin_radius: float = 0.0) -> tuple[float, float]:
    """Where a dragged tip goes for mouse point (x, y): Shift snaps its angle to 15° steps, Ctrl keeps its length.

    Without Ctrl a tip within `origin_radius` of the origin lands exactly on it (a mouse cannot hit 0.0 itself).
    """
    if not keep_length and math.hypot(x, y) <= origin_radius:
        return 0.0, 0.0
    if one_dimensional:
        # One component: the tip slides on the x axis; "keep length" can only flip the sign.
        if keep_length:
            side = x if x != 0 else math.cos(start_angle)
            return math.copysign(start_length, side), 0.0
        return x, 0.0
    if not snap and not keep_length:
        return x, y
    if keep_length:
        if x == 0 and y == 0:  # the mouse on the origin has no direction: keep the one at drag start
            x, y = math.cos(start_angle), math.sin(start_angle)
        x, y = geometry.keep_length(x, y, start_length)
    if snap:
        x, y = geometry.snap_direction(x, y, SNAP_DEGREES)
    # cos(90°) is 6e-17, not 0: a tip snapped onto an axis should show 0.000, never -0.000.
    length = math.hypot(x, y)
    if abs(x) < 1e-12 * length:
        x = 0.0
    if abs(y) < 1e-12 * length:
        y = 0.0
    return x, y


def _number(value: float) -> str:
    """Three decimals, '.' as separator; huge values in scientific notation so the readout stays short."""
    return f"{value:.3f}" if abs(value) < 1e6 else f"{value:.3e}"


class _TipHandle(pg.TargetItem):
    """The grab circle at the tip of one vector; it never moves itself, it asks the canvas (which asks the model)."""

    def __init__(self, canvas: VectorCanvas, role: str, index: int) -> None:
        super().__init__(pos=(0, 0), size=HANDLE_PX, symbol=_circle_path(), movable=True)
        self.canvas = canvas
        self.role = role
        self.index = index
        self.setCursor(Qt.CursorShape.OpenHandCursor)

    def mouseDragEvent(self, ev) -> None:
        if ev.button() != Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        self.canvas._drag_event(self, ev)

    def mouseClickEvent(self, ev) -> None:
        if ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.canvas._select(self.role, self.index)

    def hoverEvent(self, ev) -> None:
        was = self.mouseHovering
        super().hoverEvent(ev)
        if self.mouseHovering != was:
            self.canvas._hovered(self, self.mouseHovering)


class _PlaneCombo(QComboBox):
    """The plane menu: as wide as the plane it shows (not its longest choice), its text elided where it must be
    narrower (it floats between the left axis and the Fit button); the open list shows every choice in full."""

    def sizeHint(self) -> QSize:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        text = QSize(metrics.horizontalAdvance(self.currentText()) + 4, metrics.height())
        return self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, text, self)

    def paintEvent(self, _event) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight,
                                                           field.width() - 2)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


@dataclass
class _Glyph:
    """The items of one vector: a line from the origin, an arrow head, a grab handle and a label."""

    line: pg.PlotCurveItem
    head: pg.ArrowItem
    handle: _TipHandle
    label: pg.TextItem
    color: QColor
    head_len: float = 0.0
    emphasised: bool | None = None  # None: not styled yet
    placed: tuple | None = None  # (x, y, pixel, head_len) the line, head and handle were last put at
    stacked_px: float = 0.0  # how far down (up if < 0) its label was put, under other labels of tips on its point
    half_width: float = 0.0  # half the line's width in pixels: names keep clear of that

    def items(self) -> tuple:
        return self.line, self.head, self.handle, self.label


def _no_hover_search_mid_drag(scene: pg.GraphicsScene) -> None:
    """Let `scene` skip pyqtgraph's search for hovered items while a drag is under way."""
    # pyqtgraph looks for the items under the mouse on every move, mid-drag too, only to send them a hover they
    # may not accept: 0.3 ms of a ~2.3 ms drag move. Its release handler sends a full hover event again.
    send_hover_events = scene.sendHoverEvents

    def send_unless_dragging(event, exitOnly: bool = False) -> None:  # pyqtgraph calls it with exitOnly=
        if not exitOnly and scene.dragButtons and event.buttons():
            return
        send_hover_events(event, exitOnly)

    scene.sendHoverEvents = send_unless_dragging


class VectorCanvas(QWidget):
    """Q and the keys as arrows in the plane of components 0 and 1; drag any tip; θ, cos θ and Q·K beside."""

    hint = Signal(str)

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("vectorCanvas")
        self.model = model
        self._keys: list[_Glyph] = []
        self._drag_key: int | None = None  # merge key of the drag in progress
        self._drag_offset = (0.0, 0.0)  # tip minus mouse at the press, so the tip does not jump to the cursor
        self._drag_start = (0.0, 0.0)  # length and angle of the dragged vector in the plane at drag start
        self._clamped = False
        self._error = ""
        self._shown_shape: tuple | None = None  # (n, d_k, title) last drawn: a change means another scenario
        self._shown_labels: tuple[str, ...] = ()
        self._styled_selection = -1
        self._arc_text = ""
        self._auto_fit = True  # refit when the plot is resized, until the user zooms or pans
        self._turn_circle: tuple[np.ndarray, np.ndarray] | None = None  # kept in view during a turn
        self._text_hex = "#202020"
        # View state: which plane the vectors are projected on (d_k > 2). The basis is recomputed from the
        # scenario at a redraw, kept while a drag runs (so the plane never turns under the mouse), and cached
        # with the projected tips for as long as the scenario object is the same (zoom and pan reuse them).
        self._plane_kind = "components"
        self._drag_basis: np.ndarray | None = None
        self._basis_cache: tuple = (None, None, None)  # (scenario, signature, basis)
        self._projection_cache: tuple = (None, None, None)  # (scenario, basis, (qx, qy, kx, ky))
        self._axis_texts: tuple | None = None
        self._axis_style: dict = {}
        self._drawn = False

        self.plot = pg.PlotWidget()
        self.plot.setObjectName("vectorPlot")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setAspectLocked(True)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        cache_axes(self.plot)
        self.plot.disableAutoRange()
        self.plot.setMinimumSize(240, 200)
        self.view = self.plot.getPlotItem().getViewBox()
        _no_hover_search_mid_drag(self.plot.scene())
        self.axes = (pg.InfiniteLine(pos=0, angle=0), pg.InfiniteLine(pos=0, angle=90))
        for axis_line in self.axes:
            self.plot.addItem(axis_line)
        self.unit_circle = pg.PlotCurveItem(np.cos(_UNIT_ANGLES), np.sin(_UNIT_ANGLES))
        self.plot.addItem(self.unit_circle)
        self.arc = pg.PlotCurveItem()
        self.arc.setZValue(5)
        self.plot.addItem(self.arc)
        self.arc_label = pg.TextItem(anchor=(0.5, 0.5))
        self.arc_label.setZValue(60)  # above the arrows, on a backing (see _apply_theme), so it stays readable
        self.plot.addItem(self.arc_label)
        self.query = self._make_glyph("query", 0, query_color())
        self.query.label.setText("Q")

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
        self.plane_combo = _PlaneCombo()
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.message)
        self.readout.setContentsMargins(8, 0, 8, 4)
        layout.addWidget(LiveLabelHost(self.readout, self))  # its numbers change on every drag move

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

    def _make_glyph(self, role: str, index: int, color: QColor) -> _Glyph:
        line = pg.PlotCurveItem([0.0, 0.0], [0.0, 0.0])
        line.setClickable(True, width=12)
        line.sigClicked.connect(lambda *_: self._select(handle.role, handle.index))
        head = pg.ArrowItem(angle=0, pen=None, brush=color)
        handle = _TipHandle(self, role, index)
        label = pg.TextItem(color=color, anchor=(0, 0.5))
        glyph = _Glyph(line, head, handle, label, color)
        for item in glyph.items():
            self.plot.addItem(item)
        return glyph

    def _sync_key_count(self) -> None:
        """Add or remove per-key items when the number of keys changed; the others are reused."""
        n = self.model.scenario.n
        while len(self._keys) > n:
            for item in self._keys.pop().items():
                self.plot.removeItem(item)
        while len(self._keys) < n:
            index = len(self._keys)
            self._keys.append(self._make_glyph("key", index, key_color(index)))
            self._styled_selection = -1
        self._shown_labels = ()

    def _style_glyph(self, glyph: _Glyph, emphasised: bool, z: float, force: bool = False) -> None:
        if glyph.emphasised == emphasised and not force:
            glyph.handle.setZValue(z + 1)
            return
        glyph.emphasised = emphasised
        t = theme()
        is_query = glyph.handle.role == "query"
        width = t.line_px() * (1.9 if emphasised else 1.0) * (1.2 if is_query else 1.0)
        glyph.head_len = t.arrow_px() * (1.2 if emphasised or is_query else 1.0)
        pen = pg.mkPen(glyph.color, width=width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        glyph.line.setPen(pen)
        glyph.half_width = width / 2
        # headWidth is the half-width; a swept-back base reads as an arrow even when small.
        glyph.head.setStyle(headLen=glyph.head_len, headWidth=glyph.head_len * 0.4, baseAngle=25, pen=None,
                            brush=glyph.color)
        ring, fill, hover_fill = QColor(glyph.color), QColor(glyph.color), QColor(glyph.color)
        ring.setAlpha(170)
        fill.setAlpha(45)
        hover_fill.setAlpha(110)
        glyph.handle.setPen(pg.mkPen(ring, width=2))
        glyph.handle.setBrush(fill)
        glyph.handle.setHoverPen(pg.mkPen(glyph.color, width=3))
        glyph.handle.setHoverBrush(hover_fill)
        if glyph.handle.scale != HANDLE_PX * t.zoom:
            glyph.handle.scale = HANDLE_PX * t.zoom  # TargetItem's name for its size in pixels
            glyph.handle.viewTransformChanged()  # rebuilds its shape at the new size
        font = QFont(self.font())
        font.setPointSizeF(t.number_pt() * (1.25 if emphasised or is_query else 1.05))
        font.setBold(emphasised or is_query)
        glyph.label.setFont(font)
        glyph.label.setColor(glyph.color)
        glyph.line.setZValue(z)
        glyph.head.setZValue(z)
        glyph.label.setZValue(z)
        glyph.handle.setZValue(z + 1)

    def _restyle(self, force: bool = False) -> None:
        selected = self.model.selected_key
        self._style_glyph(self.query, True, 30, force)
        for i, glyph in enumerate(self._keys):
            # The selected key lies on top (you just grabbed it); Q above the rest.
            self._style_glyph(glyph, i == selected, 40 if i == selected else 10 + i * 0.01, force)
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
        self.query.color = query_color()
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
        self._sync_key_count()
        self._restyle(force=True)
        self._on_changed()
        if self._auto_fit:  # bigger labels (presentation zoom) need more room
            self.fit()

    # ------------------------------------------------------------ redrawing from the model

    def _on_changed(self) -> None:
        scenario = self.model.scenario
        if scenario.n != len(self._keys):
            self._sync_key_count()
        if self._styled_selection != self.model.selected_key or any(g.emphasised is None for g in self._keys):
            self._restyle()
        if scenario.labels != self._shown_labels:
            for glyph, label in zip(self._keys, scenario.labels):
                glyph.label.setText(label)
            self._shown_labels = scenario.labels
        if self._drag_key is None:
            self._clamped = False
            self._error = ""
        shape = (scenario.n, scenario.d_k, scenario.title)
        if self.plane_combo.isHidden() == (scenario.d_k > 2):  # the plane menu only where there is a choice
            self.plane_combo.setHidden(scenario.d_k <= 2)
            self._place_fit_button()
        self._update_notes(scenario.d_k)
        self._update_axis_labels()
        self._update_geometry()
        self._update_readout()
        if self._drag_key is not None:
            return  # a drag on the canvas never refits: the view would jump under the mouse
        if shape != self._shown_shape:
            # A different scenario (opened, or keys/d_k changed): show all of it.
            self._shown_shape = shape
            self.fit()
        elif self._tip_out_of_view():
            # Typed, pasted, loaded, undone or a preset: an edit the user cannot see must not go unseen.
            self.fit()

    def _on_selection_changed(self, _index: int) -> None:
        if self.model.scenario.n != len(self._keys):
            # Undoing "add pair" clamps the selection before `changed` announces the smaller scenario: draw it all.
            self._on_changed()
            return
        self._restyle()
        if self._effective_plane() == "query-key":  # the plane is the selected key's: it changed too
            self._update_notes(self.model.scenario.d_k)
            self._update_axis_labels()
        self._update_geometry()
        self._update_readout()
        # In the plane of Q and the selected key another key is another picture (elsewhere nothing moved).
        if self._drag_key is None and self._effective_plane() == "query-key" and (
                self._auto_fit or self._tip_out_of_view()):
            self.fit()

    def _tip_out_of_view(self) -> bool:
        """Whether the tip of Q or of some key lies outside the visible range (or within a few pixels of its edge).

        Cheap enough for every model change: the tips are projected once per scenario and compared in one pass.
        """
        qx, qy, kx, ky = self._plane()
        return self._out_of_view(np.append(kx, qx), np.append(ky, qy))

    def frame_turn(self, key: int | None) -> None:
        """Before a full turn of `key`: show the whole circle its tip will trace, so the view never jumps mid-turn.

        Until the turn ends (`frame_turn(None)`), a refit (a resize, say) keeps that circle in view too.
        """
        self._turn_circle = None
        # The turn rotates components 0 and 1, a circle only where those are the axes shown.
        if key is None or self._effective_plane() != "components" or self.model.scenario.d_k < 2:
            return
        _, _, kx, ky = self._plane()
        radius = math.hypot(float(kx[key]), float(ky[key]))
        self._turn_circle = (np.array([radius, -radius, 0.0, 0.0]), np.array([0.0, 0.0, radius, -radius]))
        if self._out_of_view(*self._turn_circle):
            self.fit()

    def _out_of_view(self, xs: np.ndarray, ys: np.ndarray) -> bool:
        """Whether some point (xs[i], ys[i]) lies outside the visible range or within a few pixels of its edge."""
        (left, right), (bottom, top) = self.view.viewRange()
        inset_x = inset_y = top_strip = 0.0
        if self.view.width() >= 60 and self.view.height() >= 60:  # otherwise fit() used a proportional margin
            # fit() leaves at least FIT_PAD_PX around a tip (and the strip under the plane menu clear): half of
            # that as the threshold, so a fitted view never counts as out of view.
            pixel_x, pixel_y = self.view.viewPixelSize()
            inset_x, inset_y = FIT_PAD_PX / 2 * pixel_x, FIT_PAD_PX / 2 * pixel_y
            if not self.plane_combo.isHidden():
                top_strip = max(self.fit_button.height(), self.plane_combo.height()) * pixel_y
        left, right, bottom, top = left + inset_x, right - inset_x, bottom + inset_y, top - inset_y - top_strip
        return bool(xs.min() < left or xs.max() > right or ys.min() < bottom or ys.max() > top)

    def _on_view_changed(self, *_args) -> None:
        # Zooming changes how many view units a pixel is: line ends, labels and the arc are placed in pixels.
        self._update_geometry()

    def _effective_plane(self) -> str:
        """The plane shown: the chosen one when d_k > 2, otherwise components 0 and 1 (all there is)."""
        return self._plane_kind if self.model.scenario.d_k > 2 else "components"

    def _basis(self) -> np.ndarray | None:
        """The shown plane's orthonormal basis (2×d_k); None for components 0 and 1, drawn and dragged directly."""
        scenario = self.model.scenario
        if self._drag_basis is not None:
            if self._drag_basis.shape[1] == scenario.d_k:
                return self._drag_basis  # frozen at drag start
            self._drag_basis = None  # d_k changed under the drag (undo, another panel): follow the scenario
        kind = self._effective_plane()
        if kind == "components":
            return None
        selected = min(self.model.selected_key, scenario.n - 1)
        signature = (kind, scenario.d_k, selected if kind == "query-key" else -1, scenario.title)
        cached_scenario, cached_signature, cached = self._basis_cache
        if cached_scenario is scenario and cached_signature == signature:
            return cached
        basis = plane_basis(kind, scenario.query, scenario.keys, selected,
                            cached if cached_signature == signature else None)  # the same plane: keep its turn
        self._basis_cache = (scenario, signature, basis)
        return basis

    def _plane(self) -> tuple[float, float, np.ndarray, np.ndarray]:
        """(x, y) of Q and of every K in the plane shown (y is 0 when d_k = 1); one projection per scenario."""
        scenario = self.model.scenario
        basis = self._basis()
        if basis is None:
            return plane_tips(scenario.query, scenario.keys, None)
        cached_scenario, cached_basis, projected = self._projection_cache
        if cached_scenario is scenario and cached_basis is basis:
            return projected
        projected = plane_tips(scenario.query, scenario.keys, basis)
        self._projection_cache = (scenario, basis, projected)
        return projected

    def _update_geometry(self) -> None:
        qx, qy, kx, ky = self._plane()
        pixel = self.view.viewPixelSize()[0] or 1.0
        selected = self.model.selected_key
        # Tips drawn on one point (Q = K1 = K3 in components 0 and 1 of the library example) get their names in
        # one column beside it, each beyond the one before (stacked) and in the order of the keys, so selecting
        # another key never reorders them.
        cell = STACK_PX * pixel
        cells = list(zip(np.round(kx / cell).tolist(), np.round(ky / cell).tolist()))
        q_cell = (round(qx / cell), round(qy / cell))
        distinct = set(cells)
        no_stacks = len(distinct) == len(cells) and q_cell not in distinct
        # Names keep off the shafts and grab circles of every arrow, which all stay put while the labels are
        # placed. Pixel coordinates, y downwards, the origin at (0, 0).
        obstacles = None
        if len(self._keys) < MAX_AVOIDED_ARROWS:
            shafts = [_shaft(qx / pixel, -qy / pixel, self.query.half_width)]
            shafts += [_shaft(x / pixel, -y / pixel, glyph.half_width)
                       for x, y, glyph in zip(kx.tolist(), ky.tolist(), self._keys)]
            (left, right), (bottom, top) = self.view.viewRange()
            obstacles = (shafts, HANDLE_PX * theme().zoom / 2 + 1,
                         (left / pixel, -top / pixel, right / pixel, -bottom / pixel))
        # Labels are placed in order of importance; a later one that would overprint an earlier one moves aside.
        placed: list[tuple[float, float, float, float]] = []
        q_alone = no_stacks or q_cell not in distinct
        self._place(self.query, qx, qy, pixel, placed, obstacles=obstacles if q_alone else None, owner=0)
        if selected >= len(self._keys):
            return
        if no_stacks:  # by importance
            self._place(self._keys[selected], float(kx[selected]), float(ky[selected]), pixel, placed,
                        obstacles=obstacles, owner=selected + 1)
            self._place_arc(qx, qy, kx, ky, pixel, placed)
            for i, glyph in enumerate(self._keys):
                if i != selected:
                    self._place(glyph, float(kx[i]), float(ky[i]), pixel, placed, obstacles=obstacles, owner=i + 1)
            return
        # Q's column and the selected key's come before the angle's number, which then cannot come between them.
        # A name heading a column stays beside its point, where the column goes on.
        first: dict[tuple, int] = {}  # per point: the first key on it
        tips_on = {q_cell: 1}  # per point: how many tips are drawn on it
        for i, point in enumerate(cells):
            first.setdefault(point, i)
            tips_on[point] = tips_on.get(point, 0) + 1
        stacked = [point == q_cell or first[point] != i for i, point in enumerate(cells)]
        early = [point == q_cell or point == cells[selected] for point in cells]
        for i in [i for i, first_pass in enumerate(early) if first_pass]:
            self._place(self._keys[i], float(kx[i]), float(ky[i]), pixel, placed, stacked[i],
                        obstacles if tips_on[cells[i]] == 1 else None, i + 1)
        self._place_arc(qx, qy, kx, ky, pixel, placed)
        for i, glyph in enumerate(self._keys):
            if not early[i]:
                self._place(glyph, float(kx[i]), float(ky[i]), pixel, placed, stacked[i],
                            obstacles if tips_on[cells[i]] == 1 else None, i + 1)

    def _place(self, glyph: _Glyph, x: float, y: float, pixel: float, placed: list, stack: bool = False,
               obstacles: tuple | None = None, owner: int = -1) -> None:
        """Draw one arrow to (x, y) and put its name at its tip; clear of the `obstacles` (shafts, grab circles'
        radius, view) where it can be, the arrow being number `owner` among them (0 for Q)."""
        length = math.hypot(x, y)
        # A drag moves one tip: the other arrows keep their place and are not touched (only their labels may
        # have to make room, below).
        moved = glyph.placed != (x, y, pixel, glyph.head_len)
        glyph.placed = (x, y, pixel, glyph.head_len)
        if moved:
            glyph.head.setPos(x, y)
            glyph.handle.setPos(x, y)
        if length > 0:
            ux, uy = x / length, y / length
            if moved:
                # End the line inside the arrow head: a thick flat line end would stick out of its sharp tip.
                back = min(length, glyph.head_len * 0.6 * pixel)
                glyph.line.setData(np.array([0.0, x - ux * back]), np.array([0.0, y - uy * back]))
                glyph.head.setRotation(180.0 - math.degrees(math.atan2(y, x)))
                glyph.head.setVisible(True)
        else:
            ux, uy = 0.7071, 0.7071
            if moved:
                glyph.line.setData(np.zeros(2), np.zeros(2))
                glyph.head.setVisible(False)
        if self.model.scenario.d_k == 1:
            ux, uy = 0.0, 1.0  # on the axis, labels beyond the tips would sit on the other arrows: put them above
        gap = LABEL_GAP_PX * pixel
        # A stacked label goes on the side away from its tip: above a label over it (an arrow steeper than 30°
        # up, or on a line, where the labels sit above the tips), towards the tip it would cover the handle;
        # otherwise below, away from the angle's number, which goes above near-level arrows.
        direction = (-1 if uy > 0.5 else 1) if stack else 0
        if obstacles:
            _place_name(glyph.label, x, y, ux, uy, length > 0, pixel, placed, *obstacles, owner)
            glyph.stacked_px = 0.0
            return
        shift = _place_label(glyph.label, x + ux * gap, y + uy * gap, ux, uy, pixel, placed, direction)
        # A stack on one point is the same at any zoom, so fit() leaves room for it. (Other moves depend on the
        # zoom: counting them, a fit would crowd the tips, which moves their labels further, and so on.)
        glyph.stacked_px = shift if stack else 0.0

    def _place_arc(self, qx: float, qy: float, kx: np.ndarray, ky: np.ndarray, pixel: float, placed: list) -> None:
        result = self.model.result
        selected = self.model.selected_key
        angle = result.angles_deg[selected] if selected < result.n else None
        x, y = float(kx[selected]), float(ky[selected])
        q_len, k_len = math.hypot(qx, qy), math.hypot(x, y)
        if angle is None or q_len == 0 or k_len == 0:
            self.arc.setVisible(False)
            self.arc_label.setVisible(False)
            return
        start = math.atan2(qy, qx)
        sweep = math.remainder(math.atan2(y, x) - start, 2 * math.pi)  # the short way round, as θ is measured
        radius = min(max(0.4 * min(q_len, k_len), 40 * pixel), 120 * pixel)
        angles = start + sweep * _ARC_STEPS
        self.arc.setData(radius * np.cos(angles), radius * np.sin(angles))
        middle = start + sweep / 2
        ux, uy = math.cos(middle), math.sin(middle)
        text = f"{angle:.1f}°"
        if self.model.scenario.d_k > 2 and self._effective_plane() != "query-key":
            # The arc spans the drawn (projected) arrows; the number is the true angle in d_k dimensions. In the
            # plane of Q and this key the drawn angle is the true one.
            text = self.tr("{0} ({1}-D)").format(text, self.model.scenario.d_k)
        if text != self._arc_text:
            self.arc_label.setText(text)
            self._arc_text = text
        self.arc.setVisible(True)
        self.arc_label.setVisible(True)
        # Centre the number on the bisector just outside the arc; in a narrow angle move it out along the
        # bisector to where the wedge is wide enough for it (but not past the shorter arrow's tip).
        size = self.arc_label.textItem.boundingRect()
        half_w, half_h = size.width() / 2 * pixel, size.height() / 2 * pixel
        outside_arc = radius + 4 * pixel + abs(ux) * half_w + abs(uy) * half_h
        half_sweep = abs(sweep) / 2
        fits = math.hypot(half_w, half_h) / math.sin(half_sweep) if half_sweep > 1e-6 else math.inf
        longest_inside = 0.8 * min(q_len, k_len)
        if fits <= longest_inside or half_sweep > math.radians(20):
            # Inside the wedge where it is wide enough; a wide angle may put the number beyond short arrows.
            distance = max(outside_arc, min(fits, longest_inside))
            _place_label(self.arc_label, distance * ux, distance * uy, 0.0, 0.0, pixel, placed)
            return
        # Too narrow anywhere along the arrows: put the number beside them, on their upper side (lower side
        # on a line, where the labels are above the tips).
        normal_x, normal_y = (-uy, ux) if ux > 0 or (ux == 0 and uy < 0) else (uy, -ux)
        if self.model.scenario.d_k == 1:
            normal_x, normal_y = 0.0, -1.0
        aside = abs(normal_x) * half_w + abs(normal_y) * half_h + 8 * pixel
        # It ends short of the nearer tip: reaching past it, the number sat on the grab circle and took the rows
        # where the labels of tips on one point stack (Q = K1 = K3 in the library example), pushing one far from
        # its tip. An arc thinner than the 8 px aside lies under the gap, so the thinner the arc, the closer to
        # the origin the number may come (continuously: it must not jump while a tip is dragged).
        along_half = abs(ux) * half_w + abs(uy) * half_h
        short_of_tip = min(q_len, k_len) - along_half - HANDLE_PX * theme().zoom / 2 * pixel
        thin = min(1.0, radius * math.sin(half_sweep) / (8 * pixel))
        nearest = along_half + 4 * pixel + thin * (outside_arc - along_half - 4 * pixel)
        distance = max(nearest, min(max(outside_arc, 0.6 * min(q_len, k_len)), short_of_tip))
        # Clear of the arrow on that side too, which leans out from the bisector by half the angle: measured from the
        # bisector alone, the number lay across that arrow (K1's in the drag-2d example, 18°).
        side_x, side_y, side = math.cos(start), math.sin(start), self.query
        if side_x * normal_x + side_y * normal_y < 0:
            side_x, side_y, side = math.cos(start + sweep), math.sin(start + sweep), self._keys[selected]
        across_x, across_y = (-side_y, side_x) if side_x * normal_y - side_y * normal_x >= 0 else (side_y, -side_x)
        reach = abs(across_x) * half_w + abs(across_y) * half_h + (side.half_width + 2) * pixel
        tilt = across_x * normal_x + across_y * normal_y  # cos of half the angle
        if tilt > 0.1:
            aside = max(aside, (reach - distance * (across_x * ux + across_y * uy)) / tilt)
        _place_label(self.arc_label, distance * ux + aside * normal_x, distance * uy + aside * normal_y, 0.0, 0.0,
                     pixel, placed)

    def _update_notes(self, d_k: int) -> None:
        plane = self._effective_plane()
        if plane == "query-key":
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
        if note != self.note.text():
            self.note.setText(note)
        self.note.setVisible(bool(note))
        message = self._error or (self.tr("Clamped: every component must stay within ±{0} (the file format's "
                                          "limit).").format(f"{MAX_ABS:.0f}") if self._clamped else "")
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

    def _update_readout(self) -> None:
        result = self.model.result
        scenario = self.model.scenario
        selected = self.model.selected_key
        pt = theme().number_pt()
        color = key_hex(selected)
        q = f"<b style='color:{self.query.color.name()}'>Q</b>"
        k = f"<b style='color:{color}'>{escaped(scenario.labels[selected]).replace(' ', '&nbsp;')}</b>"
        dot = _number(float(result.scores[selected]))
        q_norm = _number(result.query_norm)
        k_norm = _number(float(result.key_norms[selected]))
        cosine = result.cosines[selected]
        angle = result.angles_deg[selected]
        sep = "&nbsp;&nbsp;&nbsp; "
        norms = f"{_bars(q)}&nbsp;=&nbsp;<b>{q_norm}</b>{sep}{_bars(k)}&nbsp;=&nbsp;<b>{k_norm}</b>"
        score = f"{q}·{k}&nbsp;=&nbsp;<b>{dot}</b>"
        if angle is None or cosine is None:
            undefined = self.tr("θ undefined")
            why = self.tr("a zero vector has no direction")
            rows = (f"<b>{undefined}</b>{sep}{norms}", f"{score}{sep}<i>({why})</i>")
        else:
            product = _number(result.query_norm * float(result.key_norms[selected]) * cosine)
            # Plain spaces only before '=': a line may break there and nowhere inside a number or a product.
            rows = (f"θ&nbsp;=&nbsp;<b>{angle:.1f}°</b>{sep}cos&nbsp;θ&nbsp;=&nbsp;<b>{cosine:.3f}</b>{sep}{norms}",
                    score,
                    f"{_bars(q)}{_bars(k)}&nbsp;cos&nbsp;θ =&nbsp;{q_norm}&nbsp;×&nbsp;{k_norm}&nbsp;×&nbsp;"
                    f"{cosine:.3f} =&nbsp;<b>{product}</b>")
        self.readout.setText(
            f"<div style='font-size:{pt:.1f}pt; color:{self._text_hex}'>" + "<br>".join(rows) + "</div>")

    # ------------------------------------------------------------ language

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
            self._arc_text = ""
            self._place_fit_button()
            self._on_changed()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # ------------------------------------------------------------ view

    def _on_plane_chosen(self, index: int) -> None:
        kind = self.plane_combo.itemData(index)
        if kind == self._plane_kind or kind is None:
            return
        self._plane_kind = kind
        self._drag_basis = None
        self._arc_text = ""
        self._place_fit_button()  # the menu is as wide as the plane it names
        self._on_changed()
        self.fit()  # another plane, another picture: show all of it

    def eventFilter(self, watched, event) -> bool:
        if watched is self.plot and event.type() == QEvent.Type.Resize:
            self._place_fit_button()
        return super().eventFilter(watched, event)

    def _place_fit_button(self) -> None:
        self.fit_button.adjustSize()
        self.fit_button.move(self.plot.width() - self.fit_button.width() - 10, 10)
        self.fit_button.raise_()
        if not self.plane_combo.isHidden():
            # Between the left axis and the Fit button: over the axis it hid the top tick label ("1.5" in the
            # library example). Where that is too narrow for the plane's name, the name is elided.
            axis_right = self.plot.mapFromScene(self.view.sceneBoundingRect().topLeft()).x()
            leftmost = self.plot.viewport().mapTo(self.plot, QPointF(axis_right, 0.0)).x() + 6
            right = self.fit_button.x() - 8
            hint = self.plane_combo.sizeHint()
            width = int(min(hint.width(), max(right - leftmost, 60)))
            self.plane_combo.resize(width, hint.height())
            self.plane_combo.move(right - width, 10 + (self.fit_button.height() - hint.height()) // 2)
            self.plane_combo.raise_()

    def fit(self) -> None:
        """Zoom so every tip, its label, the unit circle (and during a turn its circle) are visible.

        The view stays fitted on resize until a zoom or pan.
        """
        qx, qy, kx, ky = self._plane()
        extra_x, extra_y = self._turn_circle if self._turn_circle is not None else (np.zeros(0), np.zeros(0))
        xs = np.concatenate(([qx], kx, [-1.0, 1.0, 0.0, 0.0], extra_x))
        ys = np.concatenate(([qy], ky, [0.0, 0.0, -1.0, 1.0], extra_y))
        # How far each tip's handle and label reach beyond it, in pixels (they keep their size at any zoom):
        # columns left, right, down, up. The unit circle's four points need nothing.
        reach = np.zeros((xs.size, 4))
        glyphs = [self.query, *self._keys]
        for i, glyph in enumerate(glyphs[:MAX_AVOIDED_LABELS]):
            reach[i] = self._label_reach(glyph, xs[i], ys[i])
        reach += FIT_PAD_PX
        if not self.plane_combo.isHidden():  # keep the strip under the plane menu and the Fit button clear
            reach[:, 3] += max(self.fit_button.height(), self.plane_combo.height())
        width_px, height_px = self.view.width(), self.view.height()
        if width_px < 60 or height_px < 60:  # not laid out yet: a proportional margin; the first resize fits again
            left, right, bottom, top = xs.min(), xs.max(), ys.min(), ys.max()
            self.view.setRange(QRectF(left, bottom, right - left, top - bottom), padding=0.14)
            self._auto_fit = True
            return
        # Margins as wide as the plot leave the vectors no room (a short plot with big labels, presentation zoom):
        # the range would grow without end and every arrow shrink to a dot. Keep 40% of each side for the vectors.
        for low, high, size in ((0, 1, width_px), (2, 3, height_px)):
            margins = reach[:, low].max() + reach[:, high].max()
            if margins > 0.6 * size:
                reach[:, (low, high)] *= 0.6 * size / margins
        scale = max(np.ptp(xs) / width_px, np.ptp(ys) / height_px)  # view units per pixel, without margins
        for _ in range(8):  # margins in pixels grow the range, which shrinks the pixels: settle on a fixed point
            left, right = float(np.min(xs - reach[:, 0] * scale)), float(np.max(xs + reach[:, 1] * scale))
            bottom, top = float(np.min(ys - reach[:, 2] * scale)), float(np.max(ys + reach[:, 3] * scale))
            scale = max((right - left) / width_px, (top - bottom) / height_px)
        self.view.setRange(QRectF(left, bottom, right - left, top - bottom), padding=0)
        self._auto_fit = True

    def _label_reach(self, glyph: _Glyph, x: float, y: float) -> tuple[float, float, float, float]:
        """Pixels the handle and label of a tip at (x, y) reach to its left, right, bottom and top."""
        length = math.hypot(x, y)
        ux, uy = (x / length, y / length) if length > 0 else (0.7071, 0.7071)
        if self.model.scenario.d_k == 1:
            ux, uy = 0.0, 1.0
        size = glyph.label.textItem.boundingRect()
        width, height = size.width(), size.height()
        anchor_x, anchor_y = 0.5 - 0.5 * ux, 0.5 + 0.5 * uy
        centre_x, centre_y = ux * LABEL_GAP_PX, uy * LABEL_GAP_PX
        handle = HANDLE_PX * theme().zoom / 2
        shift = glyph.stacked_px  # under the labels of other tips on its point
        return (max(handle, anchor_x * width - centre_x), max(handle, centre_x + (1 - anchor_x) * width),
                max(handle, (1 - anchor_y) * height - centre_y + shift),
                max(handle, centre_y + anchor_y * height - shift))

    def _on_view_resized(self, *_args) -> None:
        self._place_fit_button()  # the left axis may have grown or shrunk: the plane menu stays right of it
        if self._auto_fit:
            self.fit()

    def _on_range_changed_by_user(self, *_args) -> None:
        self._auto_fit = False

    # ------------------------------------------------------------ mouse

    def _select(self, role: str, index: int) -> None:
        if role == "key" and index < self.model.scenario.n:
            self.model.select_key(index)

    def _vector_name(self, role: str, index: int) -> str:
        return "Q" if role == "query" else self.model.scenario.labels[index]

    def _hovered(self, handle: _TipHandle, hovering: bool) -> None:
        if hovering:
            self.hint.emit(self.tr("Drag {0}'s tip — Shift: snap to 15°, Ctrl: keep length")
                           .format(self._vector_name(handle.role, handle.index)))
        else:
            self.hint.emit("")

    def _drag_event(self, handle: _TipHandle, ev) -> None:
        mouse = self.view.mapSceneToView(ev.scenePos())
        if ev.isStart():
            self._begin_drag(handle, self.view.mapSceneToView(ev.buttonDownScenePos()))
        if self._drag_key is None:
            return
        modifiers = ev.modifiers()
        self.drag_to(handle.role, handle.index, mouse.x() + self._drag_offset[0], mouse.y() + self._drag_offset[1],
                     bool(modifiers & Qt.KeyboardModifier.ShiftModifier),
                     bool(modifiers & Qt.KeyboardModifier.ControlModifier))
        if ev.isFinish():
            self._drag_key = None
            if self._drag_basis is not None:  # back to the plane of the scenario as it is now
                self._drag_basis = None
                self._update_geometry()

    def _begin_drag(self, handle: _TipHandle, press: QPointF) -> None:
        self._drag_basis = None
        self._drag_key = new_merge_key()
        self._select(handle.role, handle.index)  # first: in the plane of Q and the selected key, that changes it
        self._drag_basis = self._basis()  # None for components 0 and 1, which never move
        qx, qy, kx, ky = self._plane()
        x, y = (qx, qy) if handle.role == "query" else (float(kx[handle.index]), float(ky[handle.index]))
        self._drag_offset = (x - press.x(), y - press.y())
        self._drag_start = (math.hypot(x, y), math.atan2(y, x))
        self._clamped = False
        self._error = ""

    def drag_to(self, role: str, index: int, x: float, y: float, snap: bool = False,
                keep_length: bool = False) -> None:
        """Move Q or K_index so its tip goes to (x, y) in the plane, with the drag's modifiers, clamps and merge key."""
        tx, ty = drag_target(x, y, *self._drag_start, snap, keep_length, self.model.scenario.d_k == 1,
                             ORIGIN_SNAP_PX * self.view.viewPixelSize()[0])
        basis = self._basis()
        try:
            if basis is None:
                tx, ty, self._clamped = clamp_to_format(tx, ty)
                self.model.set_plane_position(role, index, tx, ty, self._drag_key)
            else:
                self._move_in_plane(role, index, basis, tx, ty)
        except ScenarioError as error:  # cannot happen after clamping, but a bad edit must never crash a drag
            self._error = error_text(error)
            self.hint.emit(self._error)
        self._update_notes(self.model.scenario.d_k)  # the clamp note even when the clamped point did not move

    def _move_in_plane(self, role: str, index: int, basis: np.ndarray, x: float, y: float) -> None:
        """Give Q or K_index the projection (x, y) on `basis`, changing it only within that plane."""
        scenario = self.model.scenario
        if role == "key" and not 0 <= index < scenario.n:
            return  # the key went away under the drag (undo)
        current = scenario.query if role == "query" else scenario.keys[index]
        vector = move_tip_in_plane(current, basis, x, y)
        clamped = np.clip(vector, -MAX_ABS, MAX_ABS)
        self._clamped = not np.array_equal(clamped, vector)
        self.model.set_vector(role, index, clamped, self._drag_key)


def _place_label(label: pg.TextItem, x: float, y: float, ux: float, uy: float, pixel: float, placed: list,
                 direction: int = 0) -> float:
    """Put `label` at view point (x, y) on the side direction (ux, uy) points to, clear of the `placed` labels.

    A label that must move goes to the nearest free place above or below; only below if `direction` is 1 (a
    label of tips on one point, stacked), only above if it is -1. Returns how many pixels it moved down.
    """
    anchor = (0.5 - 0.5 * ux, 0.5 + 0.5 * uy)
    size = label.textItem.boundingRect()  # in pixels: a TextItem keeps its size whatever the zoom
    width, height = size.width(), size.height()
    left, top = x / pixel - anchor[0] * width, -y / pixel - anchor[1] * height  # pixel space, y downwards
    natural_top = top
    if len(placed) < MAX_AVOIDED_LABELS:  # beyond that the check costs more than crowded labels are worth
        top = _free_top(left, top, width, height, placed, direction)
    _put_label(label, left, top, width, height, (ux, uy), pixel, placed)
    return top - natural_top


_DIAGONAL = math.sqrt(0.5)


def _place_name(label: pg.TextItem, x: float, y: float, ux: float, uy: float, has_direction: bool, pixel: float,
                placed: list, shafts: list, radius: float, view: tuple, owner: int) -> None:
    """Put the name `label` of the tip at view point (x, y) near it, its letters clear of the arrows' `shafts`
    (see `_shaft`; pixels, the origin at (0, 0), y downwards), their grab circles of `radius` pixels (but the
    `owner`'s own) and the `placed` labels.

    Beyond the tip along the arrow (ux, uy), moved up or down clear of the labels, where that crosses no shaft or
    circle, as ever; otherwise the first free place turned 45°, then 90° round the tip (the upper side first),
    inside the `view` (left, top, right, bottom in pixels); a tip without a direction (a zero vector) tries every
    way round. Where none is free, the one of those places crossing the fewest shafts and circles.
    """
    size = label.textItem.boundingRect()  # in pixels: a TextItem keeps its size whatever the zoom
    width, height = size.width(), size.height()
    tip_x, tip_y = x / pixel, -y / pixel
    margin = TEXT_MARGIN_PX

    def crossings(left: float, top: float, first: bool = False) -> int:
        return _obstacle_hits(left + margin, top + margin, left + width - margin, top + height - margin, shafts,
                              radius, owner, first)

    def shown(left: float, top: float) -> bool:
        return view[0] <= left + margin and view[1] <= top + margin and left + width - margin <= view[2] \
            and top + height - margin <= view[3]

    # Beyond the tip first, as names went before they kept off the shafts: free for most names, most of the time.
    beyond_left = tip_x + ux * LABEL_GAP_PX - (0.5 - 0.5 * ux) * width
    beyond_top = tip_y - uy * LABEL_GAP_PX - (0.5 + 0.5 * uy) * height
    cleared_top = beyond_top
    if _hits_label(beyond_left, beyond_top, width, height, placed):
        cleared_top = _free_top(beyond_left, beyond_top, width, height, placed)
    if (cleared_top == beyond_top or shown(beyond_left, cleared_top)) and not crossings(beyond_left, cleared_top,
                                                                                        True):
        _put_label(label, beyond_left, cleared_top, width, height, (ux, uy), pixel, placed)
        return
    places = [(beyond_left, beyond_top, (ux, uy))]
    gap = max(LABEL_GAP_PX, radius - margin + 1)  # clear of its own grab circle, bigger at presentation zoom
    for vx, vy in _directions(ux, uy, has_direction)[1:]:
        left = tip_x + vx * gap - (0.5 - 0.5 * vx) * width
        top = tip_y - vy * gap - (0.5 + 0.5 * vy) * height
        if not shown(left, top):
            continue  # fit() leaves room beyond the tip, not round it: a place there could be cut off
        if not _hits_label(left, top, width, height, placed) and not crossings(left, top, True):
            _put_label(label, left, top, width, height, (vx, vy), pixel, placed)
            return
        places.append((left, top, (vx, vy)))
    # Nowhere free: beyond the tip clear of the labels as before, or a place moved up or down by about a line
    # clear of them (a label moved further is no longer by its tip); the fewest crossings, then the least moved.
    tries = [(beyond_left, cleared_top, 0.0, (ux, uy))]
    for left, top, direction in places:
        for way in (-1, 1):
            moved = _free_top(left, top, width, height, placed, way)
            if abs(moved - top) <= 1.25 * height and shown(left, moved):
                tries.append((left, moved, abs(moved - top), direction))
    _, left, top, direction = min(((crossings(left, top), shift, order), left, top, direction)
                                  for order, (left, top, shift, direction) in enumerate(tries))
    _put_label(label, left, top, width, height, direction, pixel, placed)


def _directions(ux: float, uy: float, has_direction: bool) -> list[tuple[float, float]]:
    """Where a name may go from its tip, in order: along the arrow (ux, uy), turned 45° either way, then 90° (the
    upper side first, the right one if level); and a zero vector's, with no arrow to keep off, every other way."""
    turned_left = (_DIAGONAL * (ux - uy), _DIAGONAL * (ux + uy))
    turned_right = (_DIAGONAL * (ux + uy), _DIAGONAL * (uy - ux))
    if (turned_right[1], turned_right[0]) > (turned_left[1], turned_left[0]):
        turned_left, turned_right = turned_right, turned_left
    square_left, square_right = (-uy, ux), (uy, -ux)
    if (square_right[1], square_right[0]) > (square_left[1], square_left[0]):
        square_left, square_right = square_right, square_left
    directions = [(ux, uy), turned_left, turned_right, square_left, square_right]
    if not has_direction:
        directions += [(-turned_right[0], -turned_right[1]), (-turned_left[0], -turned_left[1]), (-ux, -uy)]
    return directions


def _put_label(label: pg.TextItem, left: float, top: float, width: float, height: float,
               direction: tuple[float, float], pixel: float, placed: list) -> None:
    """Show `label` in the box at (left, top) in pixels, anchored on the side facing its point from `direction`."""
    if len(placed) < MAX_AVOIDED_LABELS:
        placed.append((left, top, width, height))
    anchor = (0.5 - 0.5 * direction[0], 0.5 + 0.5 * direction[1])
    where = ((left + anchor[0] * width) * pixel, -(top + anchor[1] * height) * pixel, anchor)
    if getattr(label, "_placed_at", None) != where:  # most labels stay where they are during a drag
        label._placed_at = where
        label.setPos(where[0], where[1])
        label.setAnchor(anchor)


def _hits_label(left: float, top: float, width: float, height: float, placed: list) -> bool:
    """Whether a width × height box at (left, top) overlaps one of the `placed` boxes (touching is no overlap)."""
    right, bottom = left + width, top + height
    for box_left, box_top, box_width, box_height in placed:
        if left < box_left + box_width and box_left < right and top < box_top + box_height - 0.01 \
                and box_top + 0.01 < bottom:
            return True
    return False


def _shaft(x: float, y: float, half_width: float) -> tuple:
    """An arrow from the origin to (x, y) in pixels as `_obstacle_hits` tests it: the tip, how far letters keep
    from the line's middle, and the bounds of the line so widened (most boxes are clear of those)."""
    half = half_width + SHAFT_CLEARANCE_PX
    return x, y, half, min(0.0, x) - half, max(0.0, x) + half, min(0.0, y) - half, max(0.0, y) + half


def _obstacle_hits(left: float, top: float, right: float, bottom: float, shafts: list, radius: float,
                   owner: int, first: bool = False) -> int:
    """How many of the arrows' `shafts` (see `_shaft`) and their grab circles of `radius` round each tip (but the
    `owner`'s own) the box from (left, top) to (right, bottom) crosses, in pixels; 0 or 1 if `first`."""
    hits = 0
    for i, (x, y, half, low_x, high_x, low_y, high_y) in enumerate(shafts):
        if i != owner and left - radius < x < right + radius and top - radius < y < bottom + radius:
            near_x = left if x < left else right if x > right else x
            near_y = top if y < top else bottom if y > bottom else y
            if (x - near_x) ** 2 + (y - near_y) ** 2 < radius * radius:
                if first:
                    return 1
                hits += 1
        if low_x > right or high_x < left or low_y > bottom or high_y < top:
            continue
        # The line through the origin and (x, y) crosses the box grown by the half width where the box has
        # corners on both sides of it: x * corner_y - y * corner_x takes both signs over the corners.
        grown_top, grown_bottom = top - half, bottom + half
        grown_left, grown_right = left - half, right + half
        if x >= 0.0:
            low, high = x * grown_top, x * grown_bottom
        else:
            low, high = x * grown_bottom, x * grown_top
        if y >= 0.0:
            low, high = low - y * grown_right, high - y * grown_left
        else:
            low, high = low - y * grown_left, high - y * grown_right
        if low < 0.0 < high:
            if first:
                return 1
            hits += 1
    return hits


def _free_top(left: float, top: float, width: float, height: float, placed: list, direction: int = 0) -> float:
    """The top nearest to `top` where a width × height box hits none of the `placed` boxes: moving up or down, only
    down (pixel y grows) if `direction` is 1, only up if it is -1."""
    # Only boxes overlapping this label's columns can be hit, whatever its top: find them once (many keys: O(n²)).
    # Boxes that only touch do not hit (the test shortens each by 0.01 px at both ends): "just above" a box is
    # top - height, and adding height back need not give top again in floating point. Counted as a hit, that
    # place was lost, and a label in a stack on one point could run out of places and overprint the first.
    column = [(box[1], box[1] + box[3], box[1] + 0.01, box[1] + box[3] - 0.01) for box in placed
              if left < box[0] + box[2] and box[0] < left + width]
    candidates, tried = [top], set()
    for _ in range(4 * len(placed) + 2):
        if not candidates:
            break
        candidates.sort(key=lambda t: abs(t - top))
        candidate = candidates.pop(0)
        if candidate in tried:
            continue
        tried.add(candidate)
        bottom = candidate + height
        hit = next(((y0, y1) for y0, y1, inner0, inner1 in column if candidate < inner1 and inner0 < bottom), None)
        if hit is None:
            return candidate
        if direction >= 0:
            candidates.append(hit[1])  # just below it
        if direction <= 0:
            candidates.append(hit[0] - height)  # just above it
    return top


def _rgba(colour: QColor) -> str:
    return f"rgba({colour.red()}, {colour.green()}, {colour.blue()}, {colour.alpha()})"


def _bars(name: str) -> str:
    """∣name∣ with U+2223: it looks like '|' but, unlike '|', is no line-break opportunity."""
    return f"\u2223{name}\u2223"
