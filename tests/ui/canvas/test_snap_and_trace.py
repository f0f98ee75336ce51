"""Shift-snap lands on the nearest 15° (halves away from zero), and the rotation trace of K2 / K3 at known directions.

Expected angles and weights are worked out here from the vectors alone, never from the canvas or the trace.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.maths.geometry import snap_direction
from attention_explorer.state.animation import RotationAnimator
from attention_explorer.ui.canvas.vector_canvas import VectorCanvas
from attention_explorer.ui.panels.rotation_trace import RotationTrace
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import show_widget

SHIFT = Qt.KeyboardModifier.ShiftModifier
LEFT = Qt.MouseButton.LeftButton


def direction_of(x: float, y: float) -> float:
    return math.degrees(math.atan2(y, x))


# ---------------------------------------------------------------- the rule itself


@pytest.mark.parametrize("degrees, expected", [
    (59.0, 60.0), (52.0, 45.0), (-8.0, -15.0), (8.0, 15.0), (-52.0, -45.0), (97.0, 90.0), (-172.0, -165.0),
    (7.5, 15.0), (-7.5, -15.0), (22.5, 30.0), (37.5, 45.0), (-37.5, -45.0), (52.5, 60.0), (172.5, 180.0),
])
def test_snap_goes_to_the_nearest_15_degrees_and_halves_away_from_zero(degrees, expected):
    x, y = snap_direction(1.3 * math.cos(math.radians(degrees)), 1.3 * math.sin(math.radians(degrees)))
    assert math.hypot(x, y) == pytest.approx(1.3, rel=1e-12)
    assert math.cos(math.radians(direction_of(x, y) - expected)) == pytest.approx(1.0, abs=1e-12)


@given(st.floats(-179.0, 179.0), st.floats(0.01, 100.0))
def test_snap_is_never_more_than_half_a_step_away_and_keeps_the_length(degrees, length):
    x, y = snap_direction(length * math.cos(math.radians(degrees)), length * math.sin(math.radians(degrees)))
    assert math.hypot(x, y) == pytest.approx(length, rel=1e-9)
    turned = (direction_of(x, y) - degrees + 180.0) % 360.0 - 180.0
    assert abs(turned) <= 7.5 + 1e-6
    assert direction_of(x, y) / 15.0 == pytest.approx(round(direction_of(x, y) / 15.0), abs=1e-9)


# ---------------------------------------------------------------- Shift-dragging on the canvas


def view_pixel(canvas: VectorCanvas, x: float, y: float) -> QPointF:
    return QPointF(canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y))))


def shift_drag(canvas: VectorCanvas, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press on `start` (a tip) with Shift, move there in 4 steps, release: as a user drags."""
    viewport = canvas.plot.viewport()
    QTest.mousePress(viewport, LEFT, SHIFT, view_pixel(canvas, *start).toPoint())
    for step in range(1, 5):
        t = step / 4
        pos = view_pixel(canvas, start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
        QApplication.sendEvent(viewport, QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)),
                                                     Qt.MouseButton.NoButton, LEFT, SHIFT))
    QTest.mouseRelease(viewport, LEFT, SHIFT, view_pixel(canvas, *end).toPoint())


def readout(canvas: VectorCanvas) -> str:
    document = QTextDocument()
    document.setHtml(canvas.readout.text())
    return document.toPlainText().replace("\u00a0", " ")


@pytest.fixture(scope="module")
def shared_canvas(qapp):
    """One canvas for the Shift drags (each drag starts from the tip where the last one left K1)."""
    from attention_explorer.state.explorer import ExplorerModel

    theme().set_zoom(1.0)
    theme().set_mode("light")
    canvas = VectorCanvas(ExplorerModel())
    canvas.resize(800, 600)
    canvas.show()
    QTest.qWaitForWindowExposed(canvas)
    canvas.plot.scene().minDragTime = 0
    canvas.fit()
    QApplication.processEvents()
    yield canvas
    canvas.close()
    canvas.deleteLater()


@pytest.mark.parametrize("mouse_deg, snapped_deg", [(59.0, 60.0), (52.0, 45.0), (-8.0, -15.0), (128.0, 135.0)])
def test_shift_drag_lands_on_the_nearest_15_degrees(shared_canvas, mouse_deg, snapped_deg):
    canvas, model = shared_canvas, shared_canvas.model
    start = tuple(float(v) for v in model.scenario.keys[0])
    end = (1.6 * math.cos(math.radians(mouse_deg)), 1.6 * math.sin(math.radians(mouse_deg)))
    shift_drag(canvas, start, end)
    x, y = model.scenario.keys[0]
    assert direction_of(x, y) == pytest.approx(snapped_deg, abs=1e-9)
    # What the readout says: θ between Q = [1.5, 0.5] (at 18.435°) and K1 at the snapped direction.
    theta = abs(snapped_deg - math.degrees(math.atan2(0.5, 1.5)))
    text = readout(canvas)
    assert f"θ = {theta:.1f}°" in text, text
    assert f"cos θ = {math.cos(math.radians(theta)):.3f}".replace("-", "\u2212") in text.replace("-", "\u2212")


# ---------------------------------------------------------------- the rotation trace


def curve_at(curve, direction_deg: float) -> float:
    """The curve's value at `direction_deg` (it is sampled every degree)."""
    xs, ys = curve.getData()
    position = int(np.argmin(np.abs(np.asarray(xs) - direction_deg)))
    assert abs(xs[position] - direction_deg) < 1e-9
    return float(ys[position])


@pytest.mark.parametrize("selected", [1, 2])
def test_the_trace_of_k2_and_k3_has_cos_one_along_q_and_the_explorers_weight_now(qtbot, model, selected):
    # Q at 30° (length 2); K1 = [1, 0]; K2 at 120° (length 1.5), K3 at 300° (length 0.5); factor 1 by √2.
    q = (2 * math.cos(math.radians(30)), 2 * math.sin(math.radians(30)))
    directions, lengths = {1: 120.0, 2: 300.0}, {1: 1.5, 2: 0.5}
    model.set_vector("query", 0, q)
    for index in (1, 2):
        rad = math.radians(directions[index])
        model.set_vector("key", index, [lengths[index] * math.cos(rad), lengths[index] * math.sin(rad)])
    model.set_vector("key", 0, [1.0, 0.0])
    model.select_key(selected)
    trace = show_widget(qtbot, RotationTrace(model, RotationAnimator(model)), (480, 300))
    assert model.scenario.labels[selected] in trace.caption.text()
    assert curve_at(trace.cos_curve, 30.0) == pytest.approx(1.0, abs=1e-12)
    assert curve_at(trace.cos_curve, 210.0) == pytest.approx(-1.0, abs=1e-12)
    assert curve_at(trace.cos_curve, 120.0) == pytest.approx(0.0, abs=1e-12)
    assert trace.marker.value() == pytest.approx(directions[selected])

    def weight_when_pointing(direction_deg: float) -> float:
        """The selected key's weight with it turned to `direction_deg`, by a plain loop over the three keys."""
        keys = [(1.0, 0.0)] + [(lengths[i] * math.cos(math.radians(directions[i])),
                                lengths[i] * math.sin(math.radians(directions[i]))) for i in (1, 2)]
        rad = math.radians(direction_deg)
        keys[selected] = (lengths[selected] * math.cos(rad), lengths[selected] * math.sin(rad))
        exps = [math.exp((q[0] * kx + q[1] * ky) / math.sqrt(2)) for kx, ky in keys]
        return exps[selected] / sum(exps)

    now = curve_at(trace.weight_curve, directions[selected])
    assert now == pytest.approx(weight_when_pointing(directions[selected]), abs=1e-12)
    assert now == pytest.approx(float(model.result.weights[selected]), abs=1e-12)  # the explorer's weight
    for direction in (30.0, 210.0, 75.0):
        assert curve_at(trace.weight_curve, direction) == pytest.approx(weight_when_pointing(direction), abs=1e-12)
