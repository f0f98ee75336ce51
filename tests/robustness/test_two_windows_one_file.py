"""Two windows on one file: neither overwrites the other's save without asking, and each says when the file changed.

Window A saves, window B saves: B is asked (Overwrite / Save As… / Cancel) before A's edit is lost, and A, once
activated, says that its file changed on the disk (a bar above the page, once per change) and no longer calls
itself saved. Both windows are real main windows of this process; the activation is the window system's.
"""

from __future__ import annotations

import os
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QPushButton

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.window.disk_changes import CANCEL, OVERWRITE, SAVE_AS


@pytest.fixture
def lecture(tmp_path):
    folder = tmp_path / "lectures"
    folder.mkdir()
    path = folder / "lecture.json"
    anykind.save(load_preset("library"), path)
    return path


@pytest.fixture
def two_windows(make_window, lecture):
    first = make_window(str(lecture), record_errors=True, discard_changes=True)
    second = make_window(str(lecture), record_errors=True, discard_changes=True)
    assert first.document.path == second.document.path == lecture
    return first, second


def _activate(window, qtbot) -> None:
    window.activateWindow()
    window.raise_()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    QApplication.processEvents()


def _bar(window):
    return window.findChild(QFrame, "fileChangedBar")


def _bar_shown(window) -> bool:
    bar = _bar(window)
    return bar is not None and bar.isVisible()


def _answers(window, monkeypatch, *answers):
    """The Overwrite / Save As… / Cancel question answered with `answers` in turn; returns what was asked."""
    asked, queue = [], list(answers)
    monkeypatch.setattr(window, "ask_save_conflict", lambda name: asked.append(name) or queue.pop(0))
    return asked


def test_the_second_save_asks_before_losing_the_first_windows_edit(two_windows, lecture, monkeypatch):
    first, second = two_windows
    first.model.set_vector("query", 0, [2.0, 0.0, 0.0, 1.0])
    assert first.save()
    mine = first.model.scenario
    second.model.set_vector("query", 0, [0.0, 3.0, 0.0, 1.0])
    asked = _answers(second, monkeypatch, CANCEL)
    assert not second.save()
    assert asked == ["lecture.json"]
    assert fileformat.load(lecture) == mine, "the first window's edit is still in the file"
    assert second.document.modified and "*" in second.windowTitle()
    assert second.errors == []

    asked = _answers(second, monkeypatch, OVERWRITE)
    assert second.save()
    assert asked == ["lecture.json"]
    assert fileformat.load(lecture) == second.model.scenario
    assert not second.document.modified
    asked = _answers(second, monkeypatch)
    second.model.set_vector("query", 0, [0.0, 4.0, 0.0, 1.0])
    assert second.save() and asked == [], "its own last write is no change: no question"


def test_save_as_from_the_question_keeps_both_versions(two_windows, lecture, monkeypatch, tmp_path):
    first, second = two_windows
    first.model.set_vector("query", 0, [2.0, 0.0, 0.0, 1.0])
    assert first.save()
    second.model.set_vector("query", 0, [0.0, 3.0, 0.0, 1.0])
    _answers(second, monkeypatch, SAVE_AS)
    other = lecture.parent / "lecture (mine).json"
    monkeypatch.setattr(second, "ask_save_path", lambda *args: str(other))
    assert second.save()
    assert fileformat.load(lecture) == first.model.scenario
    assert fileformat.load(other) == second.model.scenario
    assert second.document.path == other and not second.document.modified


def test_the_window_whose_file_was_overwritten_says_so_once_when_activated(two_windows, lecture, monkeypatch, qtbot):
    first, second = two_windows
    _activate(first, qtbot)
    first.model.set_vector("query", 0, [2.0, 0.0, 0.0, 1.0])
    assert first.save() and "*" not in first.windowTitle()
    _activate(second, qtbot)
    second.model.set_vector("query", 0, [0.0, 3.0, 0.0, 1.0])
    _answers(second, monkeypatch, OVERWRITE)
    assert second.save()
    assert not _bar_shown(second), "its own save is no change"

    _activate(first, qtbot)
    assert _bar_shown(first)
    assert first.findChild(QLabel, "fileChangedMessage").text() == (
        "lecture.json was changed on the disk by another window or program. Reload it, or keep this window's "
        "version (Save asks before overwriting the file).")
    assert "*" in first.windowTitle() and first.document.modified, "the first window no longer says it is saved"

    first.findChild(QPushButton, "fileChangedKeep").click()
    assert not _bar_shown(first)
    _activate(second, qtbot)
    _activate(first, qtbot)
    assert not _bar_shown(first), "the same change is never told twice"

    # A further change is told again; Reload shows the file as it is now, and Undo brings the window's back.
    _activate(second, qtbot)
    second.model.set_vector("query", 0, [0.0, 5.0, 0.0, 1.0])
    assert second.save()
    _activate(first, qtbot)
    assert _bar_shown(first)
    mine = first.model.scenario
    first.findChild(QPushButton, "fileChangedReload").click()
    assert first.model.scenario == fileformat.load(lecture) == second.model.scenario
    assert not _bar_shown(first) and not first.document.modified and "*" not in first.windowTitle()
    first.model.undo_stack.undo()
    assert first.model.scenario == mine


def test_a_file_only_touched_is_no_change(two_windows, lecture, qtbot):
    first, second = two_windows
    _activate(first, qtbot)
    later = time.time() + 60
    os.utime(lecture, (later, later))  # a backup or sync tool wrote the same bytes again
    _activate(second, qtbot)
    _activate(first, qtbot)
    assert not _bar_shown(first) and not first.document.modified


def test_a_deleted_file_is_said_and_save_writes_it_again(two_windows, lecture, qtbot, monkeypatch):
    first, _second = two_windows
    lecture.unlink()
    _activate(_second, qtbot)
    _activate(first, qtbot)
    assert _bar_shown(first)
    assert "lecture.json is no longer on the disk" in first.findChild(QLabel, "fileChangedMessage").text()
    asked = _answers(first, monkeypatch)
    first.findChild(QPushButton, "fileChangedSave").click()
    assert asked == [] and fileformat.load(lecture) == first.model.scenario
    assert not _bar_shown(first) and not first.document.modified


def test_the_bar_is_in_chinese(make_window, lecture, qtbot):
    first = make_window(str(lecture), language="zh_CN", record_errors=True, discard_changes=True)
    second = make_window(str(lecture), language="zh_CN", record_errors=True, discard_changes=True)
    _activate(first, qtbot)
    second.model.set_vector("query", 0, [0.0, 3.0, 0.0, 1.0])
    second.ask_save_conflict = lambda name: OVERWRITE
    assert second.save()
    _activate(second, qtbot)
    _activate(first, qtbot)
    assert _bar_shown(first)
    texts = [first.findChild(QLabel, "fileChangedMessage").text()] + [
        button.text() for button in _bar(first).findChildren(QPushButton) if button.isVisible()]
    assert all(text and not any("a" <= ch <= "z" for ch in text.replace("lecture.json", "")) for text in texts), texts


@pytest.mark.parametrize("button, expected", [("Overwrite", OVERWRITE), ("Save As…", SAVE_AS), ("Cancel", CANCEL),
                                              ("Escape", CANCEL)])
def test_the_question_itself(make_window, lecture, button, expected):
    """The real message box: its three answers, Save As… the default (Enter keeps both versions), Escape cancels."""
    window = make_window(str(lecture), record_errors=True, discard_changes=True)
    seen = []

    def answer():
        box = QApplication.activeModalWidget()
        try:
            seen.append((box.windowTitle(), box.text(), sorted(b.text().replace("&", "") for b in box.buttons()),
                         box.defaultButton().text()))
            if button == "Escape":
                QTest.keyClick(box, Qt.Key.Key_Escape)
            else:
                next(b for b in box.buttons() if b.text().replace("&", "") == button).click()
        finally:
            if box.isVisible():  # never leave the test waiting on a box nobody answers
                box.done(0)

    QTimer.singleShot(0, answer)
    assert window.ask_save_conflict("lecture.json") == expected
    title, text, buttons, default = seen[0]
    assert title == "File changed on disk" and text.startswith("lecture.json was changed on the disk")
    assert buttons == ["Cancel", "Overwrite", "Save As…"] and default == "Save As…"


def test_a_lab_pages_file_is_checked_too(make_window, tmp_path, monkeypatch):
    """Two windows on one self-attention file: the second save asks before the first window's edit is lost."""
    sentence = tmp_path / "sentence.json"
    anykind.save(load_preset("self-attention"), sentence)
    first = make_window(str(sentence), record_errors=True, discard_changes=True)
    second = make_window(str(sentence), record_errors=True, discard_changes=True)
    for window in (first, second):
        assert window.central_tabs.currentIndex() == page_index("self-attention")
    first.self_attention_lab.sequence_model.set_tokens(["the", "first", "window"])
    assert first.save()
    assert list(anykind.load_any(sentence).tokens) == ["the", "first", "window"]
    second.self_attention_lab.sequence_model.set_tokens(["the", "second", "one"])
    asked = _answers(second, monkeypatch, CANCEL)
    assert not second.save()
    assert asked == ["sentence.json"]
    assert list(anykind.load_any(sentence).tokens) == ["the", "first", "window"], "the first window's edit stays"
    assert "*" in second.windowTitle()
    asked = _answers(second, monkeypatch, OVERWRITE)
    assert second.save() and asked == ["sentence.json"]
    assert list(anykind.load_any(sentence).tokens) == ["the", "second", "one"]
    asked = _answers(second, monkeypatch)
    second.self_attention_lab.sequence_model.set_tokens(["its", "own", "write"])
    assert second.save() and asked == [], "its own last write is no change: no question"
