"""`attention-explorer FILE` reads the file once: the check before Qt starts hands its scenario to the window."""

from __future__ import annotations

from PySide6.QtGui import QImage

from attention_explorer.cli import gui
from attention_explorer.core.files import anykind as fileformat
from attention_explorer.core.files.presets import load_preset


def test_a_file_given_on_the_command_line_is_read_once_and_shown(qapp, tmp_path, monkeypatch):
    path = tmp_path / "mine.json"
    scenario = load_preset("library")
    fileformat.save(scenario, path)
    reads = []
    real_load_file = gui.load_file
    monkeypatch.setattr(gui, "load_file", lambda name: reads.append(name) or real_load_file(name))
    shot = tmp_path / "shot.png"
    assert gui.run_gui([str(path), "--screenshot", str(shot), "--size", "1280x720"]) == 0
    assert reads == [str(path)]  # a 31 MB file was read twice: 0.3 s of the time to the first frame
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1280, 720)
