"""d_k and scale controls, driven through the real sliders, spin boxes and buttons."""

import itertools
import math

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.panels.scale_controls import (
    D_K_MAX_POSITION,
    D_K_STOPS,
    FACTOR_MAX_POSITION,
    ScaleControls,
    d_k_from_position,
    factor_from_position,
    position_from_d_k,
    position_from_factor,
)


@pytest.fixture
def library(qtbot):
    """Controls on the library example: d_k = 4, automatic scale 1/√4 = 0.5."""
    model = ExplorerModel(load_preset("library"))
    panel = ScaleControls(model)
    qtbot.addWidget(panel)
    panel.resize(420, 360)
    panel.show()
    return panel, model


def test_d_k_slider_mapping_is_integer_log_spaced_and_reaches_every_power_of_two():
    values = [d_k_from_position(p) for p in range(D_K_MAX_POSITION + 1)]
    assert values[0] == 1 and values[-1] == 4096
    assert values == sorted(set(values))  # strictly increasing: every step changes d_k
    assert {2**k for k in range(13)} <= set(values)
    assert all(position_from_d_k(value) == p for p, value in enumerate(values))
    assert D_K_STOPS[position_from_d_k(100)] == 108  # nearest on a log scale (91 and 108 around it)


def test_factor_slider_mapping_reaches_zero_one_and_ten_exactly():
    assert factor_from_position(0) == 0.0
    assert factor_from_position(600) == 1.0
    assert factor_from_position(FACTOR_MAX_POSITION) == 10.0
    assert factor_from_position(1) == pytest.approx(10 ** (1 / 300 - 2))
    assert all(position_from_factor(factor_from_position(p)) == p for p in range(FACTOR_MAX_POSITION + 1))
    assert position_from_factor(1e6) == FACTOR_MAX_POSITION and position_from_factor(1e-9) == 1


def test_initial_state_shows_the_automatic_factor_and_temperature(library):
    panel, _model = library
    assert panel.objectName() == "scaleControls"
    assert panel.auto_radio.isChecked() and not panel.manual_radio.isChecked()
    assert panel.factor_label.text() == "factor × 0.500 = 1/√4"
    assert panel.temperature_label.text() == "T = 1/factor = 2.000"
    assert panel.d_k_spin.value() == 4 and panel.d_k_slider.value() == position_from_d_k(4)
    assert panel.factor_slider.value() == position_from_factor(0.5)


def test_d_k_slider_by_keyboard_applies_each_step(library):
    panel, model = library
    panel.d_k_slider.setFocus()
    QTest.keyClick(panel.d_k_slider, Qt.Key.Key_PageUp)  # one octave: 4 → 8
    assert model.scenario.d_k == 8 and panel.d_k_spin.value() == 8
    assert model.scenario.query[:4].tolist() == [1, 0, 1, 0]  # the old components stay
    assert panel.factor_label.text() == f"factor × {1 / math.sqrt(8):.3f} = 1/√8"
    QTest.keyClick(panel.d_k_slider, Qt.Key.Key_Right)
    assert model.scenario.d_k == 10  # the next stop after 8
    assert model.undo_stack.count() == 2


def test_d_k_slider_drag_applies_live_as_one_undo_step(library):
    panel, model = library
    original = model.scenario
    slider = panel.d_k_slider
    slider.setSliderDown(True)  # the user grabs the handle
    for d_k in (8, 16, 64):
        slider.setValue(position_from_d_k(d_k))
        assert model.scenario.d_k == d_k and panel.d_k_spin.value() == d_k  # live, while dragging
        assert panel.factor_label.text() == f"factor × {1 / np.sqrt(d_k):.3f} = 1/√{d_k}"
    assert model.undo_stack.count() == 1
    slider.setSliderDown(False)  # release
    assert model.scenario.d_k == 64 and model.undo_stack.count() == 1
    assert panel.factor_label.text() == "factor × 0.125 = 1/√64"
    assert panel.temperature_label.text() == "T = 1/factor = 8.000"
    model.undo_stack.undo()
    assert model.scenario == original and panel.d_k_spin.value() == 4
    assert slider.value() == position_from_d_k(4)


def test_shrinking_and_growing_d_k_in_one_drag_keeps_the_components(library):
    panel, model = library
    original = model.scenario  # library: Q = [1, 0, 1, 0], keys with four components each
    slider = panel.d_k_slider
    slider.setSliderDown(True)
    for d_k in (2, 1, 3, 4):
        slider.setValue(position_from_d_k(d_k))
    slider.setSliderDown(False)
    # Back at d_k = 4 the components that were cut off mid-drag are the original ones, not zeros.
    assert model.scenario == original
    assert model.undo_stack.count() == 0  # a drag that ends where it started leaves no undo step


def test_random_fill_passes_the_seed(library):
    panel, model = library
    panel.fill_combo.setCurrentIndex(panel.fill_combo.findData("random"))
    assert panel.seed_spin.isEnabled()
    panel.seed_spin.setValue(7)
    panel.d_k_slider.setFocus()
    QTest.keyClick(panel.d_k_slider, Qt.Key.Key_PageUp)
    extra = np.random.default_rng(7).standard_normal((4, 4))  # Q and 3 keys, 4 new components each
    assert np.array_equal(model.scenario.query[4:], extra[0])
    assert np.array_equal(model.scenario.keys[:, 4:], extra[1:])


def test_d_k_spin_box_typed(library):
    panel, model = library
    panel.d_k_spin.setFocus()
    panel.d_k_spin.lineEdit().selectAll()
    QTest.keyClicks(panel.d_k_spin, "4096")
    QTest.keyClick(panel.d_k_spin, Qt.Key.Key_Return)
    assert model.scenario.d_k == 4096 and model.undo_stack.count() == 1
    assert panel.d_k_slider.value() == D_K_MAX_POSITION
    assert panel.factor_label.text() == "factor × 0.0156 = 1/√4096"  # 1/64 = 0.015625
    assert panel.temperature_label.text() == "T = 1/factor = 64.000"


def test_factor_slider_gesture_is_one_undo_step(library):
    panel, model = library
    slider = panel.factor_slider
    slider.setSliderDown(True)
    for position in (520, 560, 600):
        slider.setValue(position)
    assert model.scenario.scale == 1.0  # applied live while dragging
    assert panel.manual_radio.isChecked()
    assert panel.factor_label.text() == "factor × 1.000"
    assert panel.temperature_label.text() == "T = 1/factor = 1.000"
    slider.setSliderDown(False)
    assert model.undo_stack.count() == 1
    model.undo_stack.undo()
    assert model.scenario.scale is None and panel.auto_radio.isChecked()
    assert panel.factor_label.text() == "factor × 0.500 = 1/√4"
    assert slider.value() == position_from_factor(0.5)


def test_two_gestures_are_two_undo_steps(library):
    panel, model = library
    for positions in ((300, 310), (700, 720)):
        panel.factor_slider.setSliderDown(True)
        for position in positions:
            panel.factor_slider.setValue(position)
        panel.factor_slider.setSliderDown(False)
    assert model.undo_stack.count() == 2
    model.undo_stack.undo()
    assert model.scenario.scale == pytest.approx(10 ** (310 / 300 - 2))


def test_factor_slider_home_key_gives_zero_and_infinite_temperature(library):
    panel, model = library
    panel.factor_slider.setFocus()
    QTest.keyClick(panel.factor_slider, Qt.Key.Key_Home)
    assert model.scenario.scale == 0.0
    assert panel.factor_label.text() == "factor × 0.000"
    assert panel.temperature_label.text() == "T = 1/factor = ∞"
    assert "inf" not in panel.temperature_label.text()
    assert model.result.weights.tolist() == pytest.approx([1 / 3] * 3)


def test_no_scaling_and_auto_buttons(library):
    panel, model = library
    QTest.mouseClick(panel.no_scaling_button, Qt.MouseButton.LeftButton)
    assert model.scenario.scale == 1.0 and model.result.scale == 1.0
    assert panel.temperature_label.text() == "T = 1/factor = 1.000"
    assert panel.factor_spin.value() == 1.0 and panel.factor_slider.value() == 600
    assert not panel.no_scaling_button.isEnabled()  # already unscaled
    QTest.mouseClick(panel.auto_radio, Qt.MouseButton.LeftButton)
    assert model.scenario.scale is None
    assert panel.factor_label.text() == "factor × 0.500 = 1/√4"


def test_manual_radio_keeps_the_current_factor(library):
    panel, model = library
    QTest.mouseClick(panel.manual_radio, Qt.MouseButton.LeftButton)
    assert model.scenario.scale == 0.5 and panel.manual_radio.isChecked()
    assert panel.note_label.text() == "Manual; auto would be 1/√4 = 0.500."


def test_typed_factor(library):
    panel, model = library
    panel.factor_spin.setFocus()
    panel.factor_spin.lineEdit().selectAll()
    QTest.keyClicks(panel.factor_spin, "2.5")
    QTest.keyClick(panel.factor_spin, Qt.Key.Key_Return)
    assert model.scenario.scale == 2.5
    assert panel.temperature_label.text() == "T = 1/factor = 0.400"


def test_everything_follows_edits_made_elsewhere_without_feedback(library):
    panel, model = library
    model.set_d_k(16)
    model.set_scale(0.3)
    assert model.undo_stack.count() == 2  # showing the new state pushed no edits of its own
    assert panel.d_k_spin.value() == 16 and panel.d_k_slider.value() == position_from_d_k(16)
    assert panel.manual_radio.isChecked() and panel.factor_slider.value() == position_from_factor(0.3)
    assert panel.factor_label.text() == "factor × 0.300"
    assert panel.temperature_label.text() == "T = 1/factor = 3.333"
    assert panel.note_label.text() == "Manual; auto would be 1/√16 = 0.250."


def test_hovering_a_control_puts_its_hint_in_the_status_bar(library):
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    panel, _model = library
    hints = []
    panel.hint.connect(hints.append)
    QApplication.sendEvent(panel.no_scaling_button, QEvent(QEvent.Type.Enter))
    QApplication.sendEvent(panel.no_scaling_button, QEvent(QEvent.Type.Leave))
    assert hints == [panel.no_scaling_button.toolTip(), ""]
    assert "1" in hints[0]


@pytest.mark.parametrize("width", [240, 300, 330, 368, 600])
def test_slider_tick_labels_keep_both_ends_and_never_touch(qtbot, width):
    controls = ScaleControls(ExplorerModel())
    qtbot.addWidget(controls)
    controls.resize(width, controls.sizeHint().height())
    controls.show()
    qtbot.waitExposed(controls)
    for ticks in (controls.d_k_ticks, controls.factor_ticks):
        shown = ticks.shown_labels()
        texts = [text for _, text in shown]
        # The range's two ends are always labelled (at 330 px the 4096 used to vanish behind "256").
        assert texts[0] == ticks._ticks[0][1] and texts[-1] == ticks._ticks[-1][1], (width, texts)
        metrics = ticks.fontMetrics()
        for (left, text), (next_left, _) in itertools.pairwise(shown):
            assert left + metrics.horizontalAdvance(text) < next_left, (width, texts)
        assert shown[-1][0] + metrics.horizontalAdvance(texts[-1]) <= ticks.width()
