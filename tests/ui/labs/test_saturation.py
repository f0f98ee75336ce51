"""Saturation lab: curves against the factor, the draggable factor line, ×10 / ÷10, and the shift check."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import MAX_SCALE
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.labs.saturation.lab import ZERO_X, SaturationLab
from attention_explorer.ui.style.theme import key_color, theme

SMALL_AT_1 = [0.66524, 0.24473, 0.09003]  # softmax([2, 1, 0]) by hand: [e², e, 1] / 11.107


def hand_softmax(x):
    e = [math.exp(v - max(x)) for v in x]
    return [v / sum(e) for v in e]


@pytest.fixture
def lab(qtbot):
    """The lab on saturation-small (scores 2, 1, 0 at factor 1), shown at a realistic size."""
    theme().set_zoom(1.0)
    theme().set_mode("light")
    model = ExplorerModel(load_preset("saturation-small"))
    panel = SaturationLab(model)
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.weights_plot.scene().minDragTime = 0
    return panel, model


def curve_at(curve, x):
    """The curve's y at x (x must be a grid point)."""
    xs, ys = curve.getData()
    index = int(np.argmin(np.abs(xs - x)))
    assert xs[index] == pytest.approx(x, abs=1e-12)
    return float(ys[index])


def plain(label) -> str:
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText().replace("\u00a0", " ")


def widget_point(lab, x, y):
    return lab.weights_plot.mapFromScene(lab.weights_view.mapViewToScene(QPointF(x, y)))


def drag_line(lab, x_from, x_to, y=0.5, steps=5):
    """A real mouse drag on the weights plot's viewport: press on the line, move, release."""
    viewport = lab.weights_plot.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point(lab, x_from, y))
    for step in range(1, steps + 1):
        x = x_from + (x_to - x_from) * step / steps
        pos = QPointF(widget_point(lab, x, y))
        event = QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(viewport, event)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       widget_point(lab, x_to, y))


def test_curves_are_the_weights_at_each_factor_in_key_colours(lab):
    panel, model = lab
    assert panel.objectName() == "saturationLab"
    assert len(panel.curves) == 3
    assert [curve.opts["pen"].color().name() for curve in panel.curves] == [key_color(i).name() for i in range(3)]
    assert [curve_at(c, 0.0) for c in panel.curves] == pytest.approx(SMALL_AT_1, abs=5e-6)  # factor 1
    for exponent in (-2.0, -1.0, 0.5, 1.0):  # factors 0.01, 0.1, 3.16, 10
        expected = hand_softmax([2 * 10**exponent, 10**exponent, 0.0])
        assert [curve_at(c, exponent) for c in panel.curves] == pytest.approx(expected, abs=1e-9)
    # Factor 0 is drawn apart, at 1/N.
    xs, ys = panel.zero_dot.getData()
    assert xs[0] == ZERO_X and ys[0] == pytest.approx(1 / 3)
    # The dots on the line are the model's weights at its factor.
    xs, ys = panel.current_dots.getData()
    assert np.allclose(xs, 0.0) and np.allclose(ys, model.result.weights)
    assert "0.66524" in plain(panel.readout)


def test_entropy_and_jacobian_curves_agree_with_the_model_at_the_current_factor(lab):
    panel, model = lab
    for factor in (0.1, 1.0, 10.0, 0.5):
        model.set_scale(factor)
        x = math.log10(factor)
        xs, entropy = panel.entropy_curve.getData()
        _, jacobian = panel.jacobian_curve.getData()
        assert float(np.interp(x, xs, entropy)) == pytest.approx(model.result.entropy, abs=2e-3)
        assert float(np.interp(x, xs, jacobian)) == pytest.approx(model.result.jacobian_norm, abs=2e-3)
        if factor != 0.5:  # on the grid: exact
            assert curve_at(panel.entropy_curve, x) == pytest.approx(model.result.entropy, abs=1e-12)
            assert curve_at(panel.jacobian_curve, x) == pytest.approx(model.result.jacobian_norm, abs=1e-12)
        assert panel.entropy_dot.getData()[1][0] == pytest.approx(model.result.entropy)
        assert panel.factor_line.value() == pytest.approx(x)
    assert f"{model.result.entropy:.3f}" in panel.titles[panel.entropy_plot].text()


def test_dragging_the_line_sets_the_factor_in_one_undo_step(lab):
    panel, model = lab
    steps_before = model.undo_stack.count()
    target = math.log10(3.0)
    drag_line(panel, 0.0, target)
    assert model.result.scale == pytest.approx(3.0, rel=0.02)  # within a pixel or two of the release point
    assert model.scenario.scale == model.result.scale  # a manual factor now
    assert model.undo_stack.count() == steps_before + 1
    assert panel.factor_line.value() == pytest.approx(math.log10(model.result.scale))
    assert all(line.value() == panel.factor_line.value() for line in panel.factor_lines)
    assert np.allclose(panel.current_dots.getData()[1], model.result.weights)
    model.undo_stack.undo()
    assert model.result.scale == 1.0 and panel.factor_line.value() == pytest.approx(0.0)


def test_dragging_left_of_the_break_sets_factor_zero(lab):
    panel, model = lab
    drag_line(panel, 0.0, ZERO_X)
    assert model.result.scale == 0.0
    assert np.allclose(model.result.weights, 1 / 3)
    assert panel.factor_line.value() == ZERO_X
    assert not panel.multiply_button.isEnabled() and not panel.divide_button.isEnabled()


def test_line_follows_a_factor_set_elsewhere(lab):
    panel, model = lab
    model.set_scale(0.3)
    assert panel.factor_line.value() == pytest.approx(math.log10(0.3))
    model.set_scale(None)  # auto 1/√2
    assert panel.factor_line.value() == pytest.approx(math.log10(1 / math.sqrt(2)))


def test_times_ten_turns_2_1_0_into_20_10_0(lab, qtbot):
    panel, model = lab
    qtbot.mouseClick(panel.multiply_button, Qt.MouseButton.LeftButton)
    assert model.result.scale == 10.0
    assert model.result.scaled_scores.tolist() == [20.0, 10.0, 0.0]
    assert model.result.max_weight == pytest.approx(0.99995, abs=5e-6)
    assert "0.99995" in plain(panel.readout)
    assert panel.factor_line.value() == pytest.approx(1.0)
    qtbot.mouseClick(panel.divide_button, Qt.MouseButton.LeftButton)
    assert model.result.scale == 1.0  # exactly back, not 1.0000000000000002
    assert model.undo_stack.count() == 2


def test_times_ten_beyond_the_limit_shows_the_error_and_keeps_the_factor(lab, qtbot):
    panel, model = lab
    model.set_scale(MAX_SCALE)
    hints = []
    panel.hint.connect(hints.append)
    qtbot.mouseClick(panel.multiply_button, Qt.MouseButton.LeftButton)
    assert model.result.scale == MAX_SCALE
    assert panel.message_label.isVisible() and "scale" in panel.message_label.text()
    assert hints and hints[-1] == panel.message_label.text()
    assert "off the axis" in plain(panel.readout)
    assert panel.factor_line.value() == pytest.approx(1.0)  # drawn at the axis' end


def shift_rows(panel):
    """The shift table as rows of cells: key, x + c, ours, naive, model."""
    lines = [line for line in plain(panel.shift_table).split("\n") if line.strip()]
    cells = [line.strip() for line in lines]
    header = cells[:5]
    assert header == ["key", "x + c", "ours", "naive", "model"]
    body = cells[5:]
    return [body[i:i + 5] for i in range(0, len(body), 5)]


def test_shift_leaves_the_weights_unchanged_and_the_naive_exp_overflows(lab):
    panel, model = lab
    panel.shift_slider.setFocus()
    rows = shift_rows(panel)
    assert [row[2] for row in rows] == ["0.66524", "0.24473", "0.09003"]
    assert [row[3] for row in rows] == ["0.66524", "0.24473", "0.09003"]  # naive works at c = 0
    QTest.keyClick(panel.shift_slider, Qt.Key.Key_End)  # c = 1000
    assert panel.shift_slider.value() == 1000 and plain(panel.shift_value) == "c = +1000"
    rows = shift_rows(panel)
    assert [row[1] for row in rows] == ["1002.00", "1001.00", "1000.00"]
    assert [row[2] for row in rows] == ["0.66524", "0.24473", "0.09003"]  # ours: unchanged
    assert [row[4] for row in rows] == ["0.66524", "0.24473", "0.09003"]  # the model's weights
    assert [row[3] for row in rows] == ["overflow → NaN"] * 3
    status = plain(panel.naive_status)
    assert "∞/∞ = NaN" in status and "1002" in status
    everything = plain(panel.shift_table) + status
    assert "nan" not in everything.replace("NaN", "")  # no raw numpy "nan" anywhere
    QTest.keyClick(panel.shift_slider, Qt.Key.Key_Home)  # c = −1000
    rows = shift_rows(panel)
    assert [row[2] for row in rows] == ["0.66524", "0.24473", "0.09003"]
    assert [row[3] for row in rows] == ["underflow → NaN"] * 3
    assert "0/0 = NaN" in plain(panel.naive_status)
    assert model.undo_stack.count() == 0  # the shift is a what-if: the model is untouched


def test_shift_button_reaches_scores_around_1000_and_back(lab, qtbot):
    panel, _model = lab
    qtbot.mouseClick(panel.shift_far_button, Qt.MouseButton.LeftButton)
    assert panel.shift_slider.value() == 1000
    qtbot.mouseClick(panel.shift_zero_button, Qt.MouseButton.LeftButton)
    assert panel.shift_slider.value() == 0 and plain(panel.shift_value) == "c = 0"


def test_clicking_a_curve_selects_its_key(lab):
    panel, model = lab
    model.set_scale(0.1)  # the line moves out of the way, to x = −1
    x = 0.2  # factor 1.58: K2's curve is well apart from the others here
    y = hand_softmax([2 * 10**x, 10**x, 0.0])[1]
    QTest.mouseClick(panel.weights_plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point(panel, x, y))
    assert model.selected_key == 1
    assert panel.curves[1].opts["pen"].widthF() > panel.curves[0].opts["pen"].widthF()


def test_more_keys_rebuild_curves_and_language_change_resets_texts(lab):
    panel, model = lab
    model.add_pair()
    assert len(panel.curves) == 4
    assert np.allclose([curve_at(c, 0.0) for c in panel.curves], model.result.weights)
    panel.multiply_button.setText("?")
    QApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    assert panel.multiply_button.text() == "× 10"


def test_a_hidden_lab_catches_up_when_shown(lab):
    panel, model = lab
    panel.hide()
    model.set_component("query", 0, 0, 2.0)  # scores become 4, 2, 0
    model.set_scale(0.5)
    panel.show()
    assert [curve_at(c, 0.0) for c in panel.curves] == pytest.approx(hand_softmax([4.0, 2.0, 0.0]), abs=1e-9)
    assert panel.factor_line.value() == pytest.approx(math.log10(0.5))


def test_hints_for_the_buttons_and_the_line(lab):
    panel, _model = lab
    hints = []
    panel.hint.connect(hints.append)
    QApplication.sendEvent(panel.multiply_button, QEvent(QEvent.Type.Enter))
    QApplication.sendEvent(panel.multiply_button, QEvent(QEvent.Type.Leave))
    assert hints == [panel.multiply_button.toolTip(), ""] and "10" in hints[0]
    hints.clear()
    viewport = panel.weights_plot.viewport()
    for x in (0.0, -1.0):  # on the line, then away from it
        pos = QPointF(widget_point(panel, x, 0.5))
        QApplication.sendEvent(viewport, QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)),
                                                     Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                                                     Qt.KeyboardModifier.NoModifier))
    assert hints[0].startswith("Drag the line")
    assert hints[1].startswith("At × 0.100: largest weight 0.3672")  # softmax([0.2, 0.1, 0]) by hand: 0.36717
