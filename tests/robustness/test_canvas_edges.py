"""Edge cases dragged on the canvas of the whole window: every panel, not only the canvas, must cope.

tests/ui/test_vector_canvas.py already checks the canvas alone (K onto the origin: its readout says θ undefined;
far beyond the limit: clamped, with a note). Here the same drags happen in the assembled window, and every panel
is checked against numbers worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.limits import MAX_ABS


def _point(window, x: float, y: float) -> QPointF:
    canvas = window.canvas
    return QPointF(canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y))))


def drag(window, start: tuple[float, float], end: tuple[float, float], steps: int = 4) -> None:
    """Press on a tip, move there in straight steps with real mouse events, release."""
    viewport = window.canvas.plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     _point(window, *start).toPoint())
    for step in range(1, steps + 1):
        t = step / steps
        position = _point(window, start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)
        event = QMouseEvent(QEvent.Type.MouseMove, position, QPointF(viewport.mapToGlobal(position)),
                            Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, event)
        QApplication.processEvents()
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       _point(window, *end).toPoint())
    QApplication.processEvents()


def plain(html: str) -> str:
    document = QTextDocument()
    document.setHtml(html)
    return document.toPlainText().replace("\u00a0", " ")


def test_a_key_dragged_onto_the_origin(window, panels):
    """K2 = 0: θ undefined on the canvas and in the steps; its score is 0 and the weights are still right."""
    model = window.model
    query, keys = np.array(model.scenario.query), np.array(model.scenario.keys)
    drag(window, tuple(keys[1]), (0.0, 0.0))
    np.testing.assert_array_equal(model.scenario.keys[1], [0.0, 0.0])
    # By hand: scores K·Q / √2 with K2 = 0; the weights are their softmax.
    keys[1] = 0.0
    scaled = keys @ query / math.sqrt(2)
    weights = np.exp(scaled) / np.exp(scaled).sum()
    np.testing.assert_allclose(window.weights_chart.bars.opts["height"], weights, rtol=1e-12)
    assert "θ undefined" in plain(window.canvas.readout.text())
    assert not window.canvas.arc.isVisible()
    steps = window.steps_view.plain_text()
    assert "θ undefined" in steps and "K is the zero vector" in steps
    assert f"{weights[1]:.3f}" in steps
    panels.no_nan_or_inf(window)
    panels.agree_with_the_core(window)


def test_the_query_dragged_onto_the_origin_gives_uniform_weights(window, panels):
    """Q = 0: every score is 0, so every weight is 1/3 and the output is the plain mean of the V's."""
    model = window.model
    drag(window, tuple(model.scenario.query), (0.0, 0.0))
    np.testing.assert_array_equal(model.scenario.query, [0.0, 0.0])
    np.testing.assert_allclose(window.weights_chart.bars.opts["height"], [1 / 3] * 3, rtol=1e-12)
    assert window.steps_view.plain_text().count("= 0.333") >= 3
    assert "1.585" in window.weights_chart.stats_label.text()  # entropy log2(3): the most uncertain
    mean = np.mean(model.scenario.values, axis=0)
    np.testing.assert_allclose(window.output_view.output_position(), mean, rtol=1e-12)
    assert "θ undefined" in plain(window.canvas.readout.text())
    panels.no_nan_or_inf(window)
    panels.agree_with_the_core(window)


def test_a_drag_far_beyond_the_limit_is_clamped_and_every_panel_copes(window, panels):
    """Zoomed out to ±3 million, K1 dragged to (3e6, 2.9e6) stops at (1e6, 1e6): a note says so, no panel
    shows inf or nan, and the softmax (scores of about 2e12) takes the stable form and gives K1 all the weight."""
    model = window.model
    window.canvas.view.setRange(xRange=(-3.2e6, 3.2e6), yRange=(-3.2e6, 3.2e6), padding=0)
    QApplication.processEvents()
    model.select_key(0)  # its handle on top where every tip meets at this zoom
    drag(window, tuple(model.scenario.keys[0]), (3.0e6, 2.9e6), steps=3)
    np.testing.assert_array_equal(model.scenario.keys[0], [MAX_ABS, MAX_ABS])
    assert "1000000" in window.canvas.message.text()
    assert model.result.exp_shifted
    assert "Stable form" in window.steps_view.plain_text()
    np.testing.assert_allclose(window.weights_chart.bars.opts["height"], [1.0, 0.0, 0.0], atol=1e-300)
    stats = plain(window.weights_chart.stats_label.text())
    assert "Entropy 0.000 bits" in stats  # one-hot: exactly 0, not "−0.000"
    panels.no_nan_or_inf(window)
    panels.agree_with_the_core(window)


@pytest.mark.parametrize("d_k", [1, 3])
def test_origin_drags_in_other_dimensions(window, panels, d_k):
    """d_k = 1 (a line) and d_k = 3 (components 0 and 1 shown): dragging K1 onto the origin keeps every panel sane."""
    model = window.model
    model.set_d_k(d_k)
    QApplication.processEvents()
    window.canvas.fit()
    QApplication.processEvents()
    key = model.scenario.keys[0]
    drag(window, (float(key[0]), float(key[1]) if d_k > 1 else 0.0), (0.0, 0.0))
    np.testing.assert_array_equal(model.scenario.keys[0][: min(d_k, 2)], 0.0)
    panels.no_nan_or_inf(window)
    panels.agree_with_the_core(window)
