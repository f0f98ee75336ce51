"""Saving that fails half-way keeps the previous file, byte for byte; the recovery copy never lands on a user's file.

tests/core/test_scenario_file.py checks the core's save() when the rename fails. Here the failures happen behind
File ▸ Save in the real window, at each point of the write (the data, the flush to disk, the rename), and the
checks are what a user would find: the old file unchanged, no stray temporary file, an error shown, the
document still marked as modified.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, QStandardPaths
from PySide6.QtWidgets import QApplication, QLabel

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query import file as scenario_file
from attention_explorer.state import document as document_module
from attention_explorer.state.document import Document, app_data_dir


def _disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _half_written_files(monkeypatch) -> None:
    """write(2) on a disk that fills up: half of the first block lands, then ENOSPC."""
    real = os.write

    def half(handle, data):
        real(handle, bytes(data[: len(data) // 2]))
        _disk_full()

    monkeypatch.setattr(os, "write", half)


FAILURES = {
    "the write stops half-way": _half_written_files,
    "the flush to disk fails": lambda monkeypatch: monkeypatch.setattr(os, "fsync", _disk_full),
    "the rename fails": lambda monkeypatch: monkeypatch.setattr(os, "replace", _disk_full),
}


@pytest.mark.parametrize("failure", FAILURES)
def test_a_save_that_fails_keeps_the_previous_file_byte_for_byte(window, tmp_path, monkeypatch, failure):
    folder = tmp_path / "lectures"
    folder.mkdir()
    target = folder / "lecture.json"
    anykind.save(load_preset("library"), target)
    original = target.read_bytes()
    assert window.open_file(str(target), ask=False)
    window.model.set_vector("query", 0, [0.5, 0.5, 0.5, 0.5])
    with monkeypatch.context() as patch:
        FAILURES[failure](patch)
        assert not window.save()
    assert target.read_bytes() == original, "the previous file was damaged"
    assert sorted(p.name for p in folder.iterdir()) == ["lecture.json"], "a temporary file is left"
    assert window.shown_errors and "lecture.json" in window.shown_errors[-1][1]
    assert window.document.modified and "*" in window.windowTitle()
    # Once the disk is fine again the same Save works and writes the edited scenario.
    assert window.save()
    assert scenario_file.load(target) == window.model.scenario
    assert not window.document.modified


def test_autosave_goes_to_the_app_data_folder_and_never_over_the_users_file(window, tmp_path):
    folder = tmp_path / "my lectures"
    folder.mkdir()
    mine = folder / "recovery.json"  # even a user's file with the recovery file's very name
    anykind.save(load_preset("library"), mine)
    original = mine.read_bytes()
    assert window.open_file(str(mine), ask=False)
    window.model.set_vector("query", 0, [2.0, 0.0, 0.0, 1.0])
    window.document.write_recovery()
    assert mine.read_bytes() == original
    recovery = window.document.recovery_path
    assert recovery.exists() and recovery.resolve() != mine.resolve()
    assert recovery.parent == window.document.data_dir and folder not in recovery.parents
    assert scenario_file.load(recovery) == window.model.scenario
    assert sorted(p.name for p in folder.iterdir()) == ["recovery.json"]


def test_the_default_recovery_folder_is_the_applications_own(qapp, model):
    """Without a data_dir the recovery file goes to Qt's per-user application data folder."""
    from PySide6.QtCore import QSettings

    document = Document(model, QSettings())
    expected = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    assert document.data_dir == app_data_dir() == expected
    assert document.recovery_path.parent == expected


def test_a_failing_autosave_does_not_interrupt_and_keeps_nothing_half_written(window, monkeypatch):
    window.model.set_vector("query", 0, [1.0, 2.0])
    monkeypatch.setattr(os, "fsync", _disk_full)
    window.document.write_recovery()  # must not raise in the middle of a lecture
    assert not window.document.recovery_path.exists()
    assert window.shown_errors == [], "no dialog: the status bar says it (below)"
    # Only the window's own lock, which says its (missing) recovery file belongs to a live process.
    assert list(window.document.data_dir.iterdir()) == [window.document.lock_path]


def _autosave_label(window) -> QLabel:
    return window.findChild(QLabel, "autosaveStatus")


def test_a_full_disk_under_the_autosave_is_said_until_a_copy_is_written_again(window, qtbot, monkeypatch):
    """The data folder's disk fills up in the middle of a lecture: every write(2) of the copy fails with ENOSPC."""
    monkeypatch.setattr(document_module, "AUTOSAVE_RETRY_MS", 200)
    label = _autosave_label(window)
    recovery = window.document.recovery_path
    window.model.set_vector("query", 0, [1.0, 2.0])
    qtbot.waitUntil(lambda: recovery.exists() and scenario_file.load(recovery) == window.model.scenario,
                    timeout=5000)
    protected = window.model.scenario
    assert label.isHidden()

    real_write = os.write
    monkeypatch.setattr(os, "write", _disk_full)  # the lowest level the autosave writes through
    window.model.set_vector("query", 0, [3.0, 2.0])  # the autosave's own timer and thread, as in a lecture
    qtbot.waitUntil(label.isVisible, timeout=5000)
    assert label.text() == "Edits not protected: no recovery copy (the disk is full)"
    assert str(window.document.data_dir) in label.toolTip() and "Save them" in label.toolTip()
    assert window.shown_errors == [], "no dialog in the middle of a lecture"
    assert scenario_file.load(recovery) == protected, "the last copy written is kept"
    assert sorted(p.name for p in window.document.data_dir.iterdir()) == sorted(
        [recovery.name, window.document.lock_path.name]), "no half-written copy is left"
    window.model.set_vector("query", 0, [3.0, 4.0])  # more edits on the full disk: still said, once
    QApplication.processEvents()
    assert label.isVisible()

    monkeypatch.setattr(os, "write", real_write)  # room again: the retry writes without waiting for an edit
    qtbot.waitUntil(label.isHidden, timeout=5000)
    assert scenario_file.load(recovery) == window.model.scenario


def test_a_data_folder_where_not_even_the_lock_can_be_made_is_said_too(window, qtbot, monkeypatch):
    """A window started on a full disk: Qt cannot write the lock file's few bytes, so no copy is ever tried."""
    monkeypatch.setattr(document_module, "AUTOSAVE_RETRY_MS", 200)
    label = _autosave_label(window)
    with monkeypatch.context() as full:
        full.setattr(QLockFile, "tryLock", lambda self, timeout=0: False)
        full.setattr(QLockFile, "error", lambda self: QLockFile.LockError.UnknownError)
        full.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**9, 10**9, 0))
        window.model.set_vector("query", 0, [1.0, 2.0])
        qtbot.waitUntil(label.isVisible, timeout=5000)
        assert "(the disk is full)" in label.text()
        assert not window.document.recovery_path.exists()
    qtbot.waitUntil(label.isHidden, timeout=5000)  # the disk has room again
    assert scenario_file.load(window.document.recovery_path) == window.model.scenario


def test_the_warning_goes_when_nothing_is_left_unsaved(window, qtbot, monkeypatch, tmp_path):
    label = _autosave_label(window)
    monkeypatch.setattr(document_module, "AUTOSAVE_RETRY_MS", 60_000)  # no retry: the save alone clears it
    with monkeypatch.context() as full:
        full.setattr(os, "fsync", _disk_full)
        window.model.set_vector("query", 0, [1.0, 2.0])
        qtbot.waitUntil(label.isVisible, timeout=5000)
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(tmp_path / "kept.json"))
    assert window.save()
    qtbot.waitUntil(label.isHidden, timeout=5000)


def test_the_warning_is_in_chinese_in_a_chinese_window(make_window, qtbot, monkeypatch):
    window = make_window(language="zh_CN", record_errors=True, discard_changes=True)
    label = _autosave_label(window)
    monkeypatch.setattr(os, "write", _disk_full)
    window.model.set_vector("query", 0, [1.0, 2.0])
    qtbot.waitUntil(label.isVisible, timeout=5000)
    assert "磁盘已满" in label.text() and "disk" not in label.text()
