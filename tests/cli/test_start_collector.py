"""Start-up runs without Python's cyclic collector, which is back on once the window has painted."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QLabel

from attention_explorer.cli import gui
from attention_explorer.ui.application import after_first_paint

ROOT = Path(__file__).resolve().parents[2]


def test_the_window_is_built_with_the_collector_off_and_it_is_back_on_after(qapp, tmp_path, monkeypatch):
    during = []
    real_create_window = gui.create_window

    def create_window(*args, **kwargs):
        during.append(gc.isenabled())
        return real_create_window(*args, **kwargs)

    monkeypatch.setattr(gui, "create_window", create_window)
    assert gc.isenabled()
    shot = tmp_path / "shot.png"
    assert gui.run_gui(["--screenshot", str(shot), "--size", "800x600"]) == 0
    assert during == [False]
    assert gc.isenabled()
    assert shot.stat().st_size > 10_000  # the window was drawn


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        gui.pause_collector()()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_callback_comes_after_the_first_paint_and_once(qtbot):
    label = QLabel("Attention")
    qtbot.addWidget(label)
    calls = []
    painted = []
    after_first_paint(label, lambda: calls.append(len(painted)))
    original_paint = label.paintEvent
    label.paintEvent = lambda event: (painted.append(1), original_paint(event))
    qtbot.wait(20)
    assert calls == []  # not shown: never painted
    label.show()
    qtbot.waitUntil(lambda: calls != [])
    label.update()
    qtbot.waitUntil(lambda: len(painted) >= 2)
    qtbot.wait(20)
    assert calls == [1]


def test_the_collector_is_put_back_once_only():
    resume = gui.pause_collector()
    resume()
    assert gc.isenabled()
    gc.disable()  # somebody else's decision, later
    try:
        resume()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_at_exit_the_collector_is_spared_its_last_pass_once_the_exit_has_begun():
    probe = ("import atexit, gc\n"
             "from attention_explorer.cli.gui import collect_nothing_at_exit\n"
             "collect_nothing_at_exit(); collect_nothing_at_exit()\n"
             "print(gc.get_freeze_count())\n"  # nothing frozen while the program runs
             "atexit._run_exitfuncs()\n"
             "print(gc.get_freeze_count() > 10_000)\n")
    process = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.returncode == 0, process.stderr
    assert process.stdout.split() == ["0", "True"]
