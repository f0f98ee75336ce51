"""A save killed half-way (kill -9, a power cut) leaves `.<name>.<pid>-<hex>.tmp` beside the user's file; the next
File ▸ Open or File ▸ Save of that file removes it when its writer is gone, and only then.

The dead writer is a child process that has ended; the live one a child that is still sleeping. Their files are
dated long ago, past the grace given to a writer that only looks dead from here (another computer's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from attention_explorer.core.files import anykind
from attention_explorer.core.files import safety as filesafety
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query import file as fileformat

LONG_AGO = time.time() - 10 * filesafety.STALE_AFTER_S


@pytest.fixture
def temporaries(tmp_path):
    """The user's folder: s.json, a dead save's half-written temporary and a live save's, both of s.json."""
    folder = tmp_path / "lectures"
    folder.mkdir()
    target = folder / "s.json"
    anykind.save(load_preset("library"), target)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    files = {}
    for kind, pid in (("dead", ended.pid), ("live", live.pid)):
        path = folder / filesafety.temporary_name("s.json", pid)
        path.write_bytes(target.read_bytes()[:1000])  # cut off mid-write
        os.utime(path, (LONG_AGO, LONG_AGO))
        files[kind] = path
    yield target, files["dead"], files["live"]
    live.kill()
    live.wait()


def test_opening_the_file_removes_a_dead_saves_temporary_file_only(window, monkeypatch, temporaries):
    target, dead, live = temporaries
    monkeypatch.setattr(window, "ask_open_path", lambda: str(target))
    window.actions_by_name["open"].trigger()
    assert window.document.path == target and not window.shown_errors
    assert not dead.exists()
    assert live.exists(), "a save that may still be running is left alone"


def test_saving_the_file_removes_a_dead_saves_temporary_file_only(window, monkeypatch, temporaries):
    target, dead, live = temporaries
    monkeypatch.setattr(window, "ask_save_path", lambda *args: str(target))
    window.model.set_vector("query", 0, [1.0, 2.0])
    window.actions_by_name["saveAs"].trigger()
    assert fileformat.load(target) == window.model.scenario and not window.shown_errors
    assert not dead.exists()
    assert live.exists()
    assert sorted(p.name for p in target.parent.iterdir()) == sorted([target.name, live.name])
