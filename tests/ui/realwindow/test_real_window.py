"""Keys through the real X11 shortcut map (xcb under Xvfb): undo, redo, step-through, presentation, zoom, select."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest
from PySide6.QtCore import Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.window.actions import ROWS, ActionRow, expanded_shortcuts

pytestmark = pytest.mark.skipif(
    not (os.environ.get("QT_QPA_PLATFORM") == "xcb" and os.environ.get("DISPLAY")),
    reason="needs a real X11 window: run with DISPLAY set and QT_QPA_PLATFORM=xcb (.ci/run does, under Xvfb)")

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def warnings():
    """Qt's warnings while the test runs ("Ambiguous shortcut overload" is one)."""
    seen: list[str] = []
    previous = qInstallMessageHandler(lambda kind, _context, text: seen.append(text)
                                      if kind != QtMsgType.QtDebugMsg else None)
    yield seen
    qInstallMessageHandler(previous)


@pytest.fixture
def window(make_window, qtbot):
    assert QGuiApplication.platformName() == "xcb"
    win = make_window(discard_changes=True, activate=True, focus_canvas=True)
    qtbot.waitUntil(win.isActiveWindow, timeout=5000)
    return win


def press(window, qtbot, key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A key press where the user's focus is: QTest offers it to the shortcut map first, as X11 input does."""
    qtbot.keyClick(QApplication.focusWidget() or window, key, modifiers)
    QApplication.processEvents()


def test_no_key_sequence_stands_twice_on_this_platform(window):
    counts = Counter(key.toString(QKeySequence.SequenceFormat.PortableText)
                     for row in ROWS if isinstance(row, ActionRow) for key in expanded_shortcuts(row))
    assert [key for key, count in counts.items() if count > 1] == []


def test_undo_and_both_redo_keys(window, qtbot, warnings):
    start = window.model.scenario.keys[0].copy()
    press(window, qtbot, Qt.Key.Key_Left)  # turn K1 by 5°
    turned = window.model.scenario.keys[0].copy()
    assert not np.allclose(turned, start)
    for redo in ((Qt.Key.Key_Z, CTRL | SHIFT), (Qt.Key.Key_Y, CTRL)):
        press(window, qtbot, Qt.Key.Key_Z, CTRL)
        np.testing.assert_allclose(window.model.scenario.keys[0], start)
        press(window, qtbot, *redo)
        np.testing.assert_allclose(window.model.scenario.keys[0], turned)
    assert not [text for text in warnings if "Ambiguous" in text], warnings


def test_step_through_with_the_clicker_keys(window, qtbot):
    press(window, qtbot, Qt.Key.Key_T, CTRL)
    assert window.model.step_through and window.model.revealed_steps == 1
    press(window, qtbot, Qt.Key.Key_Right)
    press(window, qtbot, Qt.Key.Key_PageDown)
    assert window.model.revealed_steps == 3
    press(window, qtbot, Qt.Key.Key_PageUp)
    press(window, qtbot, Qt.Key.Key_Left)
    assert window.model.revealed_steps == 1
    press(window, qtbot, Qt.Key.Key_T, CTRL)
    assert not window.model.step_through


def test_presentation_f5_and_esc(window, qtbot):
    press(window, qtbot, Qt.Key.Key_F5)
    assert window.presenting and not window.scale_strip.visibleRegion().isEmpty()
    assert window.docks["vectorEditor"].visibleRegion().isEmpty()
    assert window.canvas.width() * window.canvas.height() >= 0.5 * window.width() * window.height()
    press(window, qtbot, Qt.Key.Key_Escape)
    assert not window.presenting and not window.docks["vectorEditor"].visibleRegion().isEmpty()


def test_zoom_keys(window, qtbot):
    press(window, qtbot, Qt.Key.Key_Equal, CTRL)
    assert theme().zoom == pytest.approx(1.15)
    press(window, qtbot, Qt.Key.Key_Minus, CTRL)
    assert theme().zoom == pytest.approx(1.0)


def test_select_keys(window, qtbot):
    press(window, qtbot, Qt.Key.Key_2)
    assert window.model.selected_key == 1
    press(window, qtbot, Qt.Key.Key_1)
    assert window.model.selected_key == 0
    press(window, qtbot, Qt.Key.Key_Tab)
    assert window.model.selected_key == 1


def test_presenter_keys_question_mark_and_a_held_s(window, qtbot):
    press(window, qtbot, Qt.Key.Key_F5)
    press(window, qtbot, Qt.Key.Key_Question, SHIFT)
    assert window.keys_list_shown and not window._keys_list.visibleRegion().isEmpty()
    press(window, qtbot, Qt.Key.Key_Space)  # any key closes the list, and does nothing else
    assert not window.keys_list_shown and not window.animator.running
    target = QApplication.focusWidget() or window
    qtbot.keyPress(target, Qt.Key.Key_S)
    QApplication.processEvents()
    assert window.spotlight_shown
    qtbot.keyRelease(target, Qt.Key.Key_S)
    QApplication.processEvents()
    assert not window.spotlight_shown
    press(window, qtbot, Qt.Key.Key_Escape)
    assert not window.presenting
