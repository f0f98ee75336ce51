"""Dragging a tip on the canvas: press, move, release; Shift snaps, Ctrl keeps the length; one undo step a drag.

The file format's limits clamp a dragged tip.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, SignalInstance

from attention_explorer.core.limits import MAX_ABS, ScenarioError
from attention_explorer.core.maths import geometry
from attention_explorer.core.maths.projection import move_tip_in_plane
from attention_explorer.state.explorer import ExplorerModel, new_merge_key
from attention_explorer.ui.i18n.switcher import error_text

SNAP_DEGREES = 15.0
ORIGIN_SNAP_PX = 6  # a dragged tip this close to the origin becomes the zero vector


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


def no_hover_search_mid_drag(scene: pg.GraphicsScene) -> None:
    """Let `scene` skip pyqtgraph's search for hovered items while a drag is under way."""
    # pyqtgraph looks for the items under the mouse on every move, mid-drag too, only to send them a hover they
    # may not accept: 0.3 ms of a ~2.3 ms drag move. Its release handler sends a full hover event again.
    send_hover_events = scene.sendHoverEvents

    def send_unless_dragging(event, exitOnly: bool = False) -> None:  # pyqtgraph calls it with exitOnly=
        if not exitOnly and scene.dragButtons and event.buttons():
            return
        send_hover_events(event, exitOnly)

    scene.sendHoverEvents = send_unless_dragging


class DragHost(Protocol):
    """What a drag needs of the canvas it runs on."""

    model: ExplorerModel
    view: pg.ViewBox
    hint: SignalInstance  # str: a line for the status bar

    def select_vector(self, role: str, index: int) -> None: ...

    def drawing_basis(self) -> np.ndarray | None: ...

    def tip_of(self, role: str, index: int) -> tuple[float, float]: ...

    def show_drag_notes(self) -> None: ...

    def redraw_arrows(self) -> None: ...

    def drag_ended(self) -> None: ...


class TipDrag:
    """The drag of one tip from press to release, and what it leaves to say (clamped, or an error)."""

    def __init__(self, host: DragHost) -> None:
        self.host = host
        self.key: int | None = None  # merge key of the drag in progress: one undo step
        self.basis: np.ndarray | None = None  # the plane frozen at the press, so it never turns under the mouse
        self.offset = (0.0, 0.0)  # tip minus mouse at the press, so the tip does not jump to the cursor
        self.start = (0.0, 0.0)  # length and angle of the dragged vector in the plane at drag start
        self.clamped = False
        self.error = ""

    @property
    def active(self) -> bool:
        return self.key is not None

    def on_event(self, role: str, index: int, ev) -> None:
        """A pyqtgraph drag event on the handle of Q (role "query") or key `index`."""
        view = self.host.view
        mouse = view.mapSceneToView(ev.scenePos())
        if ev.isStart():
            self.begin(role, index, view.mapSceneToView(ev.buttonDownScenePos()))
        if self.key is None:
            return
        modifiers = ev.modifiers()
        self.move_to(role, index, mouse.x() + self.offset[0], mouse.y() + self.offset[1],
                     bool(modifiers & Qt.KeyboardModifier.ShiftModifier),
                     bool(modifiers & Qt.KeyboardModifier.ControlModifier))
        if ev.isFinish():
            self.host.model.finish_gesture(self.key)
            self.key = None
            if self.basis is not None:  # back to the plane of the scenario as it is now
                self.basis = None
                self.host.redraw_arrows()
            self.host.drag_ended()

    def begin(self, role: str, index: int, press: QPointF) -> None:
        self.basis = None
        self.key = new_merge_key()
        self.host.select_vector(role, index)  # first: in the plane of Q and the selected key, that changes it
        self.basis = self.host.drawing_basis()  # None for components 0 and 1, which never move
        x, y = self.host.tip_of(role, index)
        self.offset = (x - press.x(), y - press.y())
        self.start = (math.hypot(x, y), math.atan2(y, x))
        self.clamped = False
        self.error = ""

    def move_to(self, role: str, index: int, x: float, y: float, snap: bool = False,
                keep_length: bool = False) -> None:
        """Move Q or K_index so its tip goes to (x, y) in the plane, with the drag's modifiers, clamps and merge key."""
        model = self.host.model
        tx, ty = drag_target(x, y, *self.start, snap, keep_length, model.scenario.d_k == 1,
                             ORIGIN_SNAP_PX * self.host.view.viewPixelSize()[0])
        basis = self.host.drawing_basis()
        try:
            if basis is None:
                tx, ty, self.clamped = clamp_to_format(tx, ty)
                model.set_plane_position(role, index, tx, ty, self.key)
            else:
                self._move_in_plane(role, index, basis, tx, ty)
        except ScenarioError as error:  # cannot happen after clamping, but a bad edit must never crash a drag
            self.error = error_text(error)
            self.host.hint.emit(self.error)
        self.host.show_drag_notes()  # the clamp note even when the clamped point did not move

    def _move_in_plane(self, role: str, index: int, basis: np.ndarray, x: float, y: float) -> None:
        """Give Q or K_index the projection (x, y) on `basis`, changing it only within that plane."""
        model = self.host.model
        scenario = model.scenario
        if role == "key" and not 0 <= index < scenario.n:
            return  # the key went away under the drag (undo)
        current = scenario.query if role == "query" else scenario.keys[index]
        vector = move_tip_in_plane(current, basis, x, y)
        clamped = np.clip(vector, -MAX_ABS, MAX_ABS)
        self.clamped = not np.array_equal(clamped, vector)
        model.set_vector(role, index, clamped, self.key)
