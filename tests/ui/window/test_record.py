"""File ▸ Record…: the dialog driven by clicks and keys records a drag and a turn; the file is read back with Pillow."""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from PIL import Image, ImageChops
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from attention_explorer.core.files import animation
from attention_explorer.core.maths.geometry import plane_angle_deg
from attention_explorer.ui.window.recording import RecordDialog, RecordSettings

LEFT = Qt.MouseButton.LeftButton
NO_MODIFIER = Qt.KeyboardModifier.NoModifier


@pytest.fixture(scope="module")
def window(make_module_window):
    win = make_module_window("drag-2d", size=(1280, 720), discard_changes=True)
    win.canvas.plot.scene().minDragTime = 0
    return win


def frames_of(path) -> list[Image.Image]:
    with Image.open(path) as image:
        frames = []
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(image.convert("RGB"))
        return frames


def differ(first: Image.Image, second: Image.Image) -> bool:
    return ImageChops.difference(first, second).getbbox() is not None


def open_dialog(window) -> RecordDialog:
    window.actions_by_name["record"].trigger()
    dialog = window.recorder.dialog
    assert isinstance(dialog, RecordDialog) and dialog.isVisible()
    dialog.activateWindow()  # as the window manager does: the keys typed go to the dialog
    QApplication.processEvents()
    return dialog


def type_number(box, number: int) -> None:
    """Select the spin box's text and type `number` as a user would."""
    box.setFocus()
    QTest.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(box, str(number))


def fill(dialog, path, width=160, height=90, fps=10) -> None:
    type_number(dialog.width_box, width)
    type_number(dialog.height_box, height)
    type_number(dialog.fps, fps)
    dialog.path.selectAll()
    QTest.keyClicks(dialog.path, str(path))
    QTest.keyClick(dialog.path, Qt.Key.Key_Tab)  # editing finished


def canvas_point(canvas, x: float, y: float):
    return canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))


def test_the_limits_are_accepted_at_the_edge_and_refused_one_past(window):
    dialog = open_dialog(window)
    for box, limit in ((dialog.width_box, animation.MAX_WIDTH), (dialog.height_box, animation.MAX_HEIGHT),
                       (dialog.fps, animation.MAX_FPS), (dialog.seconds, animation.MAX_SECONDS)):
        box.setEnabled(True)
        type_number(box, limit)
        assert box.value() == limit
        type_number(box, limit + 1)  # the last digit is refused as it is typed
        assert box.value() != limit + 1 and box.text().removesuffix(box.suffix()) == str(limit + 1)[:-1]
    for box, limit in ((dialog.width_box, animation.MIN_SIDE), (dialog.fps, animation.MIN_FPS)):
        box.setValue(limit)
        box.setFocus()
        QTest.keyClick(box, Qt.Key.Key_Down)  # one below the least: refused
        assert box.value() == limit
    dialog.reject()


def test_mp4_is_offered_with_imageio_ffmpeg_and_greyed_with_the_reason_without_it(window, monkeypatch, tmp_path):
    if animation.mp4_available():
        dialog = open_dialog(window)
        item = dialog.format.model().item(3)
        assert item.isEnabled() and item.text().startswith("MP4")
        dialog.reject()
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # import imageio_ffmpeg now raises ImportError
    dialog = open_dialog(window)
    item = dialog.format.model().item(3)
    assert not item.isEnabled()
    assert "imageio-ffmpeg" in item.toolTip() and "[video]" in item.toolTip()
    dialog.path.setFocus()
    dialog.path.selectAll()
    QTest.keyClicks(dialog.path, str(tmp_path / "clip.mp4"))
    QTest.keyClick(dialog.path, Qt.Key.Key_Tab)
    assert dialog.chosen_format == "gif"  # a .mp4 name does not choose the greyed format
    QTest.mouseClick(dialog.record_button, LEFT)
    assert dialog.isVisible() and not window.recorder.recording
    assert dialog.problem.isVisible() and dialog.problem.text() == "clip.mp4 is not a file of the format chosen."
    dialog.reject()


def test_a_drag_is_recorded_while_the_indicator_shows_and_stops_with_stop(window, qtbot, tmp_path):
    window.show_page(0)
    dialog = open_dialog(window)
    fill(dialog, tmp_path / "drag.gif")
    QTest.mouseClick(dialog.record_button, LEFT)
    recorder = window.recorder
    assert recorder.recording and not dialog.isVisible()
    indicator = recorder.indicator
    assert indicator.label.isVisible() and indicator.label.text().startswith("● Recording")
    assert indicator.stop_button.isVisible()

    canvas = window.canvas
    viewport = canvas.plot.viewport()
    start = window.model.scenario.query.copy()
    QTest.mousePress(viewport, LEFT, NO_MODIFIER, canvas_point(canvas, *start))
    for step in range(1, 5):
        before = len(recorder.frames)
        pos = QPointF(canvas_point(canvas, start[0] - 0.3 * step, start[1] + 0.3 * step))
        QApplication.sendEvent(viewport, QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(viewport.mapToGlobal(pos)),
                                                     Qt.MouseButton.NoButton, LEFT, NO_MODIFIER))
        qtbot.waitUntil(lambda before=before: len(recorder.frames) > before)  # the next timer frame
    QTest.mouseRelease(viewport, LEFT, NO_MODIFIER, pos.toPoint())
    assert not np.allclose(window.model.scenario.query, start)  # the drag moved Q
    seconds = float(indicator.label.text().split()[-2])
    assert seconds == pytest.approx(len(recorder.frames) / 10, abs=0.05)
    count = len(recorder.frames)

    QTest.mouseClick(indicator.stop_button, LEFT)
    assert not recorder.recording and not indicator.isVisible()
    frames = frames_of(tmp_path / "drag.gif")
    assert frames[0].size == (160, 90)
    assert 2 <= len(frames) <= count  # equal neighbours are merged by the GIF writer
    assert differ(frames[0], frames[-1])
    assert window.findChild(QLabel, "statusHint").text().startswith("Recorded drag.gif")


def test_a_full_turn_of_a_chosen_key_gives_fps_times_seconds_frames(window, tmp_path):
    window.show_page(0)
    dialog = open_dialog(window)
    fill(dialog, tmp_path / "turn.gif", fps=5)
    QTest.mouseClick(dialog.turn, LEFT)
    dialog.key.setFocus()
    QTest.keyClick(dialog.key, Qt.Key.Key_End)  # the last key, K3
    type_number(dialog.seconds, 2)
    QTest.mouseClick(dialog.record_button, LEFT)
    recorder = window.recorder
    assert recorder.recording and window.model.selected_key == 2 and window.animator.running
    direction = window.animator.start_direction
    assert recorder.indicator.label.isVisible() and recorder.indicator.label.text() == "● Recording 0.2 s"
    for _ in range(10):  # the animator's timer ticks, without waiting for it
        window.animator.advance()
    assert not recorder.recording and not recorder.indicator.isVisible()
    assert plane_angle_deg(window.model.scenario.keys[2]) == pytest.approx(direction % 360, abs=1e-6)
    frames = frames_of(tmp_path / "turn.gif")
    assert len(frames) == 5 * 2 == recorder.last_count
    assert all(differ(a, b) for a, b in itertools.pairwise(frames))


@pytest.mark.parametrize("fmt", ["webp", "apng", "mp4"])
def test_webp_apng_and_mp4_hold_the_turn(window, tmp_path, fmt):
    if fmt == "mp4" and not animation.mp4_available():
        pytest.skip("MP4 needs imageio-ffmpeg (the 'video' extra)")
    window.show_page(0)
    path = tmp_path / f"turn{animation.SUFFIXES[fmt]}"
    window.recorder.start(RecordSettings("page", 0, str(path), fmt, 160, 90, 3, 1))
    for _ in range(3):
        window.animator.advance()
    assert not window.recorder.recording and window.recorder.last_count == 3
    if fmt == "mp4":
        import imageio_ffmpeg

        frames, _seconds = imageio_ffmpeg.count_frames_and_secs(str(path))
        assert frames == 3
    else:
        with Image.open(path) as image:
            assert image.n_frames == 3 and image.size == (160, 90)


def test_in_presentation_the_indicator_floats_in_the_corner_and_stays_out_of_the_frames(window, tmp_path):
    window.show_page(0)
    window.actions_by_name["presentation"].trigger()
    try:
        assert not window.statusBar().isVisible()
        path = tmp_path / "present.png"
        window.recorder.start(RecordSettings("window", None, str(path), "apng", window.width(), window.height(), 5, 1))
        indicator = window.recorder.indicator
        assert indicator.isVisible() and indicator.label.isVisible()
        corner = indicator.mapTo(window, indicator.rect().bottomRight())
        assert window.rect().contains(corner) and corner.x() > window.width() - 20
        assert corner.y() > window.height() - 20
        window.recorder.stop()
        with Image.open(path) as image:
            frame = np.asarray(image.convert("RGB"))
        # The indicator's red (#d00000) is nowhere in the frame's bottom right corner, where it floats.
        corner = frame[-60:, -300:].astype(int)
        assert not ((corner[..., 0] > 180) & (corner[..., 1] < 60) & (corner[..., 2] < 60)).any()
    finally:
        window.actions_by_name["presentation"].trigger()
    assert window.statusBar().isVisible()


class _Clock:
    """A stand-in for the recording's clock: the milliseconds it says have passed."""

    def __init__(self, elapsed: int) -> None:
        self.ms = elapsed

    def elapsed(self) -> int:
        return self.ms


def test_a_frame_that_came_late_stands_for_the_ticks_it_missed_so_the_file_keeps_real_time(window, tmp_path,
                                                                                          monkeypatch):
    window.show_page(0)
    path = tmp_path / "late.gif"
    recorder = window.recorder
    recorder.start(RecordSettings("page", None, str(path), "gif", 160, 90, 10, 1))
    assert len(recorder.frames) == 1
    # A second passed while one frame was drawn (a busy machine); the window's own clock comes back after the test.
    monkeypatch.setattr(recorder, "_clock", _Clock(1000))
    window.model.set_vector("query", 0, window.model.scenario.query * -1)
    recorder.capture()
    assert len(recorder.frames) == 11 and recorder.indicator.label.text() == "● Recording 1.1 s"
    recorder.stop()
    with Image.open(path) as image:
        durations = []
        for index in range(image.n_frames):
            image.seek(index)
            durations.append(image.info["duration"])
    assert sum(durations) == 1100  # 11 frames of 1/10 s: the second frame shows for the whole second it took


def test_a_file_that_cannot_be_written_is_a_clear_message_and_nothing_is_left_behind(window, tmp_path,
                                                                                    _no_modal_dialogs):
    window.show_page(0)
    path = tmp_path / "no such folder" / "turn.gif"
    window.recorder.start(RecordSettings("page", 0, str(path), "gif", 160, 90, 2, 1))
    for _ in range(2):
        window.animator.advance()
    assert not window.recorder.recording and not path.parent.exists()
    assert _no_modal_dialogs[-1][0] == "Cannot record"
    assert _no_modal_dialogs[-1][1] == "turn.gif was not written: the folder does not exist"


def test_file_record_reads_stop_recording_while_one_runs_and_stops_it(window, tmp_path):
    from attention_explorer.ui.i18n.switcher import language_switcher

    window.show_page(0)
    entry = next(action for action in window.action_table.menus["file"].actions() if action.objectName() == "record")
    assert entry.text() == "&Record…"
    dialog = open_dialog(window)
    fill(dialog, tmp_path / "menu.gif")
    QTest.mouseClick(dialog.record_button, LEFT)
    recorder = window.recorder
    assert recorder.recording and entry.text() == "Stop recording"
    language_switcher().set_language("zh_CN")  # the window's texts are set again: the entry keeps saying it
    QApplication.processEvents()
    try:
        assert entry.text() == "停止录制" and recorder.recording
    finally:
        language_switcher().set_language("en")
        QApplication.processEvents()
    assert entry.text() == "Stop recording"
    entry.trigger()  # File ▸ Stop recording
    assert not recorder.recording and not recorder.indicator.isVisible() and recorder.dialog is None
    assert entry.text() == "&Record…" and entry.toolTip().startswith("Record the canvas")
    assert len(frames_of(tmp_path / "menu.gif")) >= 1
    assert window.findChild(QLabel, "statusHint").text().startswith("Recorded menu.gif")
