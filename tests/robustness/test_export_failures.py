"""File ▸ Export onto a full or read-only disk: an error that names the file and the reason, never "Exported".

A full disk is write(2) failing with ENOSPC, a read-only disk is open(2) failing with EROFS (the tests run as
root, whom a read-only folder does not stop); both at the lowest level the export writes through.
"""

from __future__ import annotations

import errno
import os

import pytest
from PySide6.QtGui import QImage

ERRORS = {
    "full": (errno.ENOSPC, "the disk is full"),
    "read-only": (errno.EROFS, "the disk is read-only"),
}


def _fail(monkeypatch, kind: str, folder) -> None:
    code, _ = ERRORS[kind]
    if kind == "full":
        def write(handle, data):
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(os, "write", write)
    else:
        real_open = os.open

        def open_(path, flags, *args, **kwargs):
            if os.fspath(path).startswith(str(folder)) and flags & (os.O_WRONLY | os.O_RDWR):
                raise OSError(code, os.strerror(code), os.fspath(path))
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", open_)


def _export(window, monkeypatch, path, action: str) -> None:
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(path))
    window.actions_by_name[action].trigger()


@pytest.mark.parametrize("kind", ERRORS)
@pytest.mark.parametrize("action, name", [("export_weights_png", "exp.png"), ("export_canvas_svg", "exp.svg"),
                                          ("export_window_png", "exp.png")])
def test_an_export_onto_a_bad_disk_says_it_failed_and_why(window, tmp_path, monkeypatch, kind, action, name):
    folder = tmp_path / "figures"
    folder.mkdir()
    target = folder / name
    with monkeypatch.context() as patch:
        _fail(patch, kind, folder)
        _export(window, patch, target, action)
    assert window.shown_errors, "no error shown"
    title, text = window.shown_errors[-1]
    assert title == "Cannot export"
    assert text == f"{name} was not exported: {ERRORS[kind][1]}"
    assert "Exported" not in window._hint_label.text()
    assert list(folder.iterdir()) == [], "nothing, not even a temporary file, is left"


def test_a_failed_export_keeps_the_previous_picture(window, tmp_path, monkeypatch):
    target = tmp_path / "exp.png"
    _export(window, monkeypatch, target, "export_weights_png")
    assert window._hint_label.text() == "Exported exp.png" and not window.shown_errors
    before = target.read_bytes()
    assert before[:8] == b"\x89PNG\r\n\x1a\n" and QImage(str(target)).width() >= 800
    window.model.set_vector("query", 0, [2.0, -1.0])
    with monkeypatch.context() as patch:
        _fail(patch, "full", tmp_path)
        _export(window, patch, target, "export_weights_png")
    assert window.shown_errors[-1][1] == "exp.png was not exported: the disk is full"
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_disk_that_keeps_only_part_of_the_file_is_caught(window, tmp_path, monkeypatch):
    """A file system that says it wrote every byte and kept half (a full network disk may): the size is checked."""
    target = tmp_path / "exp.png"
    real_write = os.write
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", lambda handle, data: real_write(handle, bytes(data[: len(data) // 2]))
                      and len(data))
        _export(window, patch, target, "export_weights_png")
    text = window.shown_errors[-1][1]
    assert text.startswith("exp.png was not exported: only ") and text.endswith(" bytes reached the disk")
    assert not target.exists()


def test_an_export_onto_a_device_never_replaces_it(window, tmp_path, monkeypatch):
    """A name that links to /dev/full: refused by name, the device is neither written nor replaced by a file."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    link = tmp_path / "exp.png"
    link.symlink_to("/dev/full")
    _export(window, monkeypatch, link, "export_weights_png")
    assert window.shown_errors[-1][1] == ("exp.png was not exported: is not a regular file (a device, pipe or "
                                          "socket): choose another name")
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


def test_the_failure_is_said_in_chinese(make_window, tmp_path, monkeypatch):
    window = make_window(language="zh_CN", record_errors=True, discard_changes=True)
    with monkeypatch.context() as patch:
        _fail(patch, "full", tmp_path)
        _export(window, patch, tmp_path / "exp.png", "export_weights_png")
    title, text = window.errors[-1]
    assert "exp.png" in text and "磁盘已满" in text
    assert "export" not in (title + text).lower() and "disk" not in text
