"""Crash recovery: one recovery file per window under its own lock, every edit autosaved within a second.

Windows that die are played by child processes killed with SIGKILL, so their locks are really stale; a live
window is one in this process, whose lock is held.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query import file as fileformat
from attention_explorer.core.scenes.query import file as scenario_file
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.document import Document
from attention_explorer.state.explorer import ExplorerModel
from tests.helpers import budget

ROOT = Path(__file__).resolve().parents[2]

# A window's document that writes its recovery file and then dies without any clean-up.
DYING_DOCUMENT = """
import os, signal, sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.state.document import Document
app = QApplication([])
model = ExplorerModel()
document = Document(model, QSettings(sys.argv[2], QSettings.Format.IniFormat), Path(sys.argv[1]))
model.set_vector("query", 0, [float(sys.argv[3]), 0.5])
document.write_recovery()
print("written", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""

# The real window: one key press (the first edit since it opened), then it waits to be killed.
EDITING_WINDOW = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from attention_explorer.app import create_window
app = QApplication([])
window = create_window(settings=QSettings(sys.argv[2], QSettings.Format.IniFormat))
window.document.data_dir = Path(sys.argv[1])
window.show()
QTest.qWaitForWindowExposed(window)
window.activateWindow()
window.canvas.setFocus()
def edit():
    QTest.keyClick(window.canvas, Qt.Key.Key_Right)  # rotates the selected key
    print("edited", json.dumps(window.model.scenario.keys.tolist()), flush=True)
QTimer.singleShot(0, edit)
app.exec()
"""


def _child(script: str, *args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE, text=True, env=env)


def _first_line(child: subprocess.Popen, timeout: float = 60.0) -> str:
    """The child's first line of output (empty if it ended or said nothing in time)."""
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            return ""
    return child.stdout.readline()


def _dead_window(data_dir: Path, settings: Path, query: float) -> None:
    """A window that autosaved a query of (query, 0.5) and was killed."""
    child = _child(DYING_DOCUMENT, str(data_dir), str(settings), str(query))
    assert _first_line(child) == "written\n"
    assert child.wait(60) == -signal.SIGKILL


def _holds(path: Path, scenario: Scenario) -> bool:
    """True when the file at `path` loads as `scenario` (a missing or half-made file is not yet that)."""
    try:
        return fileformat.load(path) == scenario
    except scenario_file.ScenarioError:
        return False


def _has_keys(path: Path, keys: np.ndarray) -> bool:
    """True when the file at `path` loads as a scenario with these keys (a half-written file is not yet that)."""
    try:
        return np.array_equal(fileformat.load(path).keys, keys)
    except (scenario_file.ScenarioError, OSError):
        return False


def _recovery_files(data_dir: Path) -> list[Path]:
    return sorted(data_dir.glob("recovery-*.json"))


def test_two_windows_keep_separate_recovery_files_and_locks(qapp, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    first_model, second_model = ExplorerModel(), ExplorerModel(load_preset("library"))
    first = Document(first_model, settings, tmp_path)
    second = Document(second_model, settings, tmp_path)
    first_model.set_vector("query", 0, [1.0, 2.0])
    second_model.set_vector("query", 0, [0.0, 0.0, 0.0, 1.0])
    first.write_recovery()
    second.write_recovery()
    assert first.recovery_path != second.recovery_path and first.lock_path != second.lock_path
    assert fileformat.load(first.recovery_path) == first_model.scenario
    assert fileformat.load(second.recovery_path) == second_model.scenario
    # Each is live: neither offers the other's file.
    assert first.stale_recoveries() == [] and second.stale_recoveries() == []
    # A clean quit removes only its own files: the other window's recovery and lock stay.
    second.end_session()
    assert _recovery_files(tmp_path) == [first.recovery_path]
    assert sorted(tmp_path.glob("*.lock")) == [first.lock_path]
    first.end_session()
    assert _recovery_files(tmp_path) == [] and list(tmp_path.glob("*.lock")) == []


def test_dead_windows_are_offered_newest_first_and_a_live_one_never(window, tmp_path, monkeypatch):
    data_dir = window.document.data_dir
    settings = tmp_path / "child.ini"
    live_model = ExplorerModel()
    live = Document(live_model, QSettings(str(settings), QSettings.Format.IniFormat), data_dir)
    live_model.set_vector("query", 0, [-3.0, 0.5])
    live.write_recovery()
    _dead_window(data_dir, settings, 0.25)
    _dead_window(data_dir, settings, 0.75)
    older, newer = (path for path in _recovery_files(data_dir) if path != live.recovery_path
                    and fileformat.load(path).query[0] in (0.25, 0.75))
    if fileformat.load(older).query[0] == 0.75:
        older, newer = newer, older
    now = time.time()
    os.utime(older, (now - 3600, now - 3600))  # the 0.25 window died an hour before the 0.75 one
    asked: list[tuple[str, float]] = []

    def question(_parent, title, text, *_args, **_kwargs):
        asked.append((text, window.model.scenario.query[0]))
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    offered: list[float] = []
    real_ask = window.ask_restore_recovery
    monkeypatch.setattr(window, "ask_restore_recovery", lambda recovery, *args: offered.append(
        float(recovery.scenario.query[0])) or real_ask(recovery, *args))
    window.offer_recovery()
    assert offered == [0.75, 0.25], "newest first, and never the live window's -3.0"
    assert len(asked) == 2 and all("2 windows did not close normally" in text for text, _ in asked)
    assert "1 of 2" in asked[0][0] and "2 of 2" in asked[1][0]
    # Both declined: discarded with their locks; the live window's file and lock are untouched.
    assert _recovery_files(data_dir) == [live.recovery_path]
    assert sorted(data_dir.glob("*.lock")) == [live.lock_path]
    assert fileformat.load(live.recovery_path) == live_model.scenario
    live.end_session()


def test_restoring_the_newest_keeps_the_older_one_for_the_next_start(window, tmp_path, monkeypatch):
    data_dir = window.document.data_dir
    _dead_window(data_dir, tmp_path / "child.ini", 0.25)
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes)
    window.offer_recovery()
    assert window.model.scenario.query[0] == 0.25
    assert window.windowTitle().startswith("Drag") and "*" in window.windowTitle()
    assert window.document.path is None, "a restored scenario is not silently saved over some file"
    # The restored work now lives in this window's own recovery file; the dead window's copy is gone.
    assert _recovery_files(data_dir) == [window.document.recovery_path]
    assert fileformat.load(window.document.recovery_path) == window.model.scenario


def test_the_first_edit_after_opening_and_after_saving_is_autosaved_within_a_second(window, qtbot, tmp_path):
    lecture = tmp_path / "lecture.json"
    anykind.save(load_preset("drag-2d"), lecture)
    assert window.open_file(str(lecture), ask=False)
    recovery = window.document.recovery_path
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
    edited = window.model.scenario
    qtbot.waitUntil(lambda: _holds(recovery, edited), timeout=1000)
    qtbot.keyClick(window.canvas, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert fileformat.load(lecture) == edited and "*" not in window.windowTitle()
    # Saved: nothing left to recover, so the copy goes; the next single edit brings it back.
    qtbot.waitUntil(lambda: not recovery.exists(), timeout=1000)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Left)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Left)
    edited = window.model.scenario
    qtbot.waitUntil(lambda: _holds(recovery, edited), timeout=1000)


def test_a_long_drag_is_autosaved_about_once_a_second_while_it_goes_on(window, qtbot):
    recovery = window.document.recovery_path
    start = time.monotonic()
    written_during_drag = None
    for step in range(26):  # 50 ms apart: the quiet time never comes
        window.model.set_vector("query", 0, [1.0 + step / 100, 0.5], merge_key=7)
        qtbot.wait(50)
        if written_during_drag is None and recovery.exists():
            written_during_drag = time.monotonic() - start
    assert written_during_drag is not None and written_during_drag < 1.2
    assert fileformat.load(recovery).query[0] > 1.0


def test_a_slow_disk_does_not_stall_the_window(window, qtbot, monkeypatch):
    writing, release = threading.Event(), threading.Event()
    real_fsync = os.fsync

    def slow_fsync(handle):
        writing.set()
        release.wait(5)
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    window.model.set_vector("query", 0, [1.75, 0.5])
    qtbot.waitUntil(writing.is_set, timeout=1000)
    started = time.monotonic()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)  # the disk is still busy with the autosave
    assert time.monotonic() - started < budget.seconds(0.5)
    release.set()
    edited = window.model.scenario
    qtbot.waitUntil(lambda: _holds(window.document.recovery_path, edited), timeout=2000)


def test_an_edit_then_kill_9_is_offered_when_the_window_starts_again(window, tmp_path, monkeypatch):
    data_dir = window.document.data_dir
    child = _child(EDITING_WINDOW, str(data_dir), str(tmp_path / "child.ini"))
    try:
        line = _first_line(child)
        assert line.startswith("edited "), line
        keys = np.array(json.loads(line.removeprefix("edited ")))
        # Killed once its autosave holds the edit, and 1.2 s after the edit at the latest (the time a user might
        # take before the crash: no longer); waiting the whole 1.2 s every time proved nothing more.
        deadline = time.monotonic() + 1.2
        while time.monotonic() < deadline and not any(_has_keys(path, keys) for path in _recovery_files(data_dir)):
            time.sleep(0.02)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    questions: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _parent, _title, text, *args, **kwargs:
                        questions.append(text) or QMessageBox.StandardButton.Yes)
    window.offer_recovery()
    assert len(questions) == 1 and "did not close normally" in questions[0]
    np.testing.assert_array_equal(window.model.scenario.keys, keys)
    assert "*" in window.windowTitle()


HOSTILE_START = """
import os, sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMessageBox
from attention_explorer.app import create_window
app = QApplication([])
asked = []
QMessageBox.question = lambda *args, **kwargs: asked.append(args) or QMessageBox.StandardButton.No
window = create_window(settings=QSettings(sys.argv[2], QSettings.Format.IniFormat))
window.document.data_dir = Path(sys.argv[1])
window.show()
window.offer_recovery()
window.model.set_vector("query", 0, [0.5, 0.5])
window.document.write_recovery()
print("started", len(asked), window.document.recovery_path.exists(), flush=True)
"""


def test_fifos_folders_and_device_links_in_the_data_folder_do_not_hang_start_up(tmp_path):
    data_dir = tmp_path / "appdata"
    data_dir.mkdir()
    valid = anykind.dumps(load_preset("library"))
    os.mkfifo(data_dir / "recovery.json")  # where the recovery file used to be
    (data_dir / "session.running").write_text("1", encoding="utf-8")
    os.mkfifo(data_dir / "recovery-fifo.json")
    (data_dir / "recovery-folder.json").mkdir()
    (data_dir / "recovery-zero.json").symlink_to("/dev/zero")
    for name, make in (("fifo", os.mkfifo), ("folder", os.mkdir), ("zero", lambda p: p.symlink_to("/dev/zero"))):
        (data_dir / f"recovery-lock{name}.json").write_text(valid, encoding="utf-8")
        make(data_dir / f"recovery-lock{name}.lock")
    before = sorted(path.name for path in data_dir.iterdir())
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    try:
        done = subprocess.run([sys.executable, "-c", HOSTILE_START, str(data_dir), str(tmp_path / "s.ini")],
                              capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("start-up hung on something in the data folder")
    assert done.returncode == 0, done.stderr
    # Nothing odd was offered (nor read), the window still autosaves, and the odd entries are left alone.
    assert done.stdout == "started 0 True\n", done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    after = sorted(path.name for path in data_dir.iterdir())
    assert [name for name in after if name not in before and name.endswith(".json")], after
    assert set(before) <= set(after)


def test_a_scenario_too_large_to_save_says_so_once_and_keeps_the_last_copy(window, qtbot, monkeypatch, tmp_path):
    recovery = window.document.recovery_path
    window.model.set_vector("query", 0, [1.25, 0.5])
    small = window.model.scenario
    qtbot.waitUntil(lambda: _holds(recovery, small), timeout=1000)
    # The file format's limit made 1 MiB for this test: a scenario over 64 MiB (512 keys of 4096 numbers of 17
    # digits) takes seconds to write out, and what is tested is what the window does past the limit.
    monkeypatch.setattr(anykind, "MAX_FILE_BYTES", 2**20)
    numbers = np.full((32, 1024), 1 / 3)  # about 1.3 MB as a file
    window.model.load_scenario(Scenario(query=np.zeros(1024), keys=numbers, values=-numbers, title="Big"))
    status = window.findChild(type(window._hint_label), "autosaveStatus")
    qtbot.waitUntil(status.isVisible, timeout=20000)
    assert "1 MiB" in status.text() and "last copy" in status.text()
    assert fileformat.load(recovery) == small, "the last copy that fitted is kept"
    assert window.shown_errors == [], "the autosave does not interrupt with a dialog"
    # Save agrees, at once, in one message; nothing is written.
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(tmp_path / "big.json"))
    started = time.monotonic()
    qtbot.keyClick(window.canvas, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert time.monotonic() - started < budget.seconds(1.0)
    assert len(window.shown_errors) == 1 and "1 MiB" in window.shown_errors[0][1]
    assert not (tmp_path / "big.json").exists()
    # Back under the limit, the autosave resumes and the message goes.
    window.model.undo_stack.undo()
    qtbot.waitUntil(lambda: not status.isVisible(), timeout=5000)
    assert fileformat.load(recovery) == small
