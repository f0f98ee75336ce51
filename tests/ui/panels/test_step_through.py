"""Step-through as the hall sees it: what the steps panel, the weights chart, the output and the banner draw."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.canvas.test_vector_canvas import drag


@pytest.fixture
def window(make_window):
    return make_window(activate=True, instant_drags=True)


def at_step(window, revealed: int) -> None:
    """Step-through on, `revealed` steps shown (through the model: the key tests press the keys)."""
    window.model.set_step_through(True)
    for _ in range(revealed - 1):
        window.model.reveal_next_step()
    QApplication.processEvents()


def press(window, key) -> None:
    """A real key press on the active window, as a clicker sends it."""
    window.activateWindow()
    QApplication.processEvents()
    QTest.keyClick(window, key)
    QApplication.processEvents()


def steps_text(window) -> str:
    return window.steps_view.plain_text().replace("\u00a0", " ")


def heading_y(document, step: int) -> float:
    """Where step `step`'s heading ("3 · Softmax") is laid out in the steps panel's document."""
    block = document.begin()
    while not block.text().replace("\u00a0", " ").startswith(f"{step} · "):
        block = block.next()
        assert block.isValid(), step
    return document.documentLayout().blockBoundingRect(block).y()


def weights_shown(window) -> list[str]:
    return [f"{w:.3f}" for w in window.model.result.weights]


def value_texts(window) -> list[str]:
    return [text.textItem.toPlainText() for text in window.weights_chart.value_texts]


def test_the_weights_appear_in_the_steps_panel_only_at_step_3(window):
    assert all(w in steps_text(window) for w in weights_shown(window))  # off: everything shows
    at_step(window, 2)
    text = steps_text(window)
    assert not any(w in text for w in weights_shown(window))
    assert f"{window.model.result.scaled_scores[0]:.3f}" in text  # step 2's numbers are there
    window.model.reveal_next_step()
    assert all(w in steps_text(window) for w in weights_shown(window))
    output = window.model.result.output
    assert f"[{output[0]:.3f}, {output[1]:.3f}]" not in steps_text(window)  # step 4 still hidden
    window.model.reveal_next_step()
    assert f"[{output[0]:.3f}, {output[1]:.3f}]" in steps_text(window)


def test_a_hidden_step_keeps_its_size(window):
    """The layout does not jump: every heading sits where it sits with all steps shown."""
    def heading_positions() -> list[float]:
        document = window.steps_view.document()
        return [heading_y(document, n) for n in (2, 3, 4)] + [document.size().height()]
    shown = heading_positions()
    for revealed in (1, 2, 3):
        at_step(window, revealed)
        assert heading_positions() == shown, revealed
        assert (window.model.result.output[0] != 0) and f"{window.model.result.output[0]:.3f}" not in steps_text(window)
        window.model.set_step_through(False)


def test_the_weights_chart_is_an_empty_frame_with_question_marks_before_step_3(window):
    at_step(window, 2)
    chart = window.weights_chart
    assert np.all(chart.bars.opts["height"] == 0.0)
    assert np.all(chart.overlay.opts["height"] == 0.0)
    assert value_texts(window) == ["?"] * window.model.result.n
    assert "?" in chart.stats_label.text() and f"{window.model.result.max_weight:.3f}" not in chart.stats_label.text()
    window.model.reveal_next_step()
    assert np.allclose(chart.bars.opts["height"], window.model.result.weights)
    assert value_texts(window) == weights_shown(window)


def test_the_output_view_shows_the_star_and_numbers_only_at_step_4(window):
    at_step(window, 3)
    view = window.output_view
    before = view.grab().toImage()
    assert "?" in view.readout.text() and f"{window.model.result.output[0]:.3f}" not in view.readout.text()
    assert not view.output_marker.isVisible()
    window.model.reveal_next_step()
    assert view.grab().toImage() != before
    assert f"{window.model.result.output[0]:.3f}" in view.readout.text()
    assert view.output_marker.isVisible()


def test_the_banner_says_which_step_and_which_keys(window):
    assert not window.step_banner.isVisible()
    at_step(window, 2)
    assert window.step_banner.isVisible()
    # The banner breaks, where it must, only between its parts (after a comma or at " · ").
    assert window.step_banner.text().replace(",\n", ", ").replace("\n", " · ") == (
        "Step 2 of 4 — Scaling · → next, ← back, Esc leaves step-through")
    window.model.reveal_next_step()
    assert window.step_banner.text().startswith("Step 3 of 4 — Softmax")
    window.model.set_step_through(False)
    assert not window.step_banner.isVisible()


def test_a_drag_in_step_through_updates_step_1_and_keeps_step_3_hidden(window):
    at_step(window, 2)
    before = f"{window.model.result.scores[0]:.3f}"
    x, y = window.canvas.tip_of("key", 0)
    drag(window.canvas, (x, y), (x - 0.4, y + 0.3))
    after = f"{window.model.result.scores[0]:.3f}"
    assert after != before
    text = steps_text(window)
    assert f"= {after}" in text and f"= {before}" not in text
    assert not any(w in text for w in weights_shown(window))
    assert value_texts(window) == ["?"] * window.model.result.n
    assert np.all(window.weights_chart.bars.opts["height"] == 0.0)


def test_clicker_keys_step_and_esc_leaves(window):
    window.model.set_step_through(True)
    selected_key = window.model.scenario.keys[0].copy()
    press(window, Qt.Key.Key_PageDown)
    press(window, Qt.Key.Key_Right)
    assert window.model.revealed_steps == 3
    assert window.step_banner.text().startswith("Step 3 of 4")
    assert np.array_equal(window.model.scenario.keys[0], selected_key)  # → stepped, it did not rotate the key
    press(window, Qt.Key.Key_PageUp)
    press(window, Qt.Key.Key_Left)
    assert window.model.revealed_steps == 1
    press(window, Qt.Key.Key_Escape)
    assert not window.model.step_through and not window.step_banner.isVisible()
    assert all(w in steps_text(window) for w in weights_shown(window))


def test_clicker_keys_work_with_the_focus_on_the_steps_panel(window):
    window.model.set_step_through(True)
    window.activateWindow()
    window.steps_view.browser.setFocus()
    QApplication.processEvents()
    QTest.keyClick(window.steps_view.browser, Qt.Key.Key_PageDown)
    assert window.model.revealed_steps == 2


def test_b_blanks_the_screen_and_any_key_brings_it_back(window):
    window.model.set_step_through(True)
    press(window, Qt.Key.Key_B)
    blank = window.findChild(object, "blankScreen")
    assert blank is not None and blank.isVisible() and blank.geometry() == window.rect()
    centre = blank.grab().toImage().pixelColor(blank.width() // 2, blank.height() // 2)
    assert centre.name() == "#000000"
    press(window, Qt.Key.Key_PageDown)  # takes the blank away only: the step stays
    assert not blank.isVisible() and window.model.revealed_steps == 1


def test_the_steps_panel_scrolls_to_the_step_just_revealed(make_window):
    window = make_window(size=(1280, 720), activate=True)
    browser = window.steps_view.browser
    at_step(window, 4)
    window.steps_view.document()
    top = heading_y(browser.document(), 4)
    scroll = browser.verticalScrollBar()
    assert scroll.maximum() > 0  # the panel is too short for all four steps at 1280×720
    assert scroll.value() <= top <= scroll.value() + browser.viewport().height()
    press(window, Qt.Key.Key_PageUp)
    press(window, Qt.Key.Key_PageUp)
    press(window, Qt.Key.Key_PageUp)
    window.steps_view.document()
    assert scroll.value() == 0


def test_a_newly_opened_example_shows_the_steps_from_step_1(make_window):
    window = make_window(size=(1280, 720), discard_changes=True)
    browser = window.steps_view.browser
    scroll = browser.verticalScrollBar()
    scroll.setValue(scroll.maximum())
    QApplication.processEvents()
    assert scroll.value() > 0
    window.examples_menu.aboutToShow.emit()
    window.preset_actions["code-review"].trigger()
    window.steps_view.document()
    QApplication.processEvents()
    assert scroll.value() == 0


def test_the_banner_in_chinese(make_window):
    window = make_window(language="zh_CN")
    at_step(window, 2)
    assert window.step_banner.text().replace("，\n", "，").replace("\n", " · ") == (
        "第 2 步，共 4 步 — 缩放 · → 下一步，← 上一步，Esc 退出逐步演示")
    assert all(len(line) > 1 for line in window.step_banner.text().split("\n"))  # never 示 alone
