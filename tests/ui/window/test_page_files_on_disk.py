"""Every page with a file of its own is watched: a change made on the disk by someone else is told on the bar above
the pages, naming that page's file, without the window being activated (the QFileSystemWatcher), and Reload
reloads that page only; over edits not saved it asks first."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtWidgets import QFrame, QLabel, QLineEdit, QPushButton

from attention_explorer.core.files import anykind
from attention_explorer.core.files.presets import load_preset
from attention_explorer.state.workspace import EXPLORER
from attention_explorer.ui.labs.registry import KIND_PAGES, PAGES, page_index

LAB_KINDS = [kind for kind in dict.fromkeys(spec.kind for spec in PAGES) if kind != EXPLORER]


@pytest.fixture(scope="module")
def window(make_module_window):
    window = make_module_window("library", record_errors=True, discard_changes=True)
    for kind in LAB_KINDS:
        window.page(page_index(KIND_PAGES[kind]))  # every lab built: each is a page of the document
    return window


def _bar(window) -> QFrame | None:
    bar = window.findChild(QFrame, "fileChangedBar")
    return bar if bar is not None and bar.isVisible() else None


def _message(window) -> str:
    return window.findChild(QLabel, "fileChangedMessage").text()


def _wait_for_bar(window, qtbot) -> None:
    """The watcher tells the change: no activation, nothing but the event loop."""
    qtbot.waitUntil(lambda: _bar(window) is not None, timeout=10000)


def _changed(scene):
    """The same scene with a change another program could make: its title, or its seed where it has none."""
    if hasattr(scene, "title"):
        return dataclasses.replace(scene, title=f"{scene.title} (changed elsewhere)")
    return dataclasses.replace(scene, seed=scene.seed + 1)


def _open_own_file(window, kind, folder):
    path = folder / f"{kind}.json"
    anykind.save(window.document.workspace.scene(kind), path)
    assert window.open_file(str(path))
    assert window.document.page_path(kind) == path and not window.document.workspace.modified(kind)
    return path


@pytest.mark.parametrize("kind", LAB_KINDS)
def test_a_labs_file_changed_on_disk_is_told_and_reload_reloads_that_page_only(window, kind, tmp_path, qtbot):
    path = _open_own_file(window, kind, tmp_path)
    window.show_page(0)  # another page in front: the bar still names the lab's page and its file
    explorer_before = window.model.scenario
    workspace = window.document.workspace
    mine = workspace.scene(kind)
    theirs = _changed(mine)
    anykind.save(theirs, path)  # another program writes the file

    _wait_for_bar(window, qtbot)
    title = window.page_title(kind)
    assert _message(window) == (
        f"{kind}.json, the file of the page “{title}”, was changed on the disk by another window or program. Reload "
        "it, or keep this window's version (Save asks before overwriting the file).")
    assert workspace.modified(kind) and "*" in window.windowTitle()

    window.findChild(QPushButton, "fileChangedReload").click()  # no edits here: nothing to ask
    assert workspace.scene(kind) == anykind.load_any(path) and workspace.scene(kind) != mine
    assert window.model.scenario is explorer_before, "the explorer's page is not reloaded"
    assert _bar(window) is None and not workspace.modified(kind)
    assert window.central_tabs.currentIndex() == page_index(KIND_PAGES[kind])
    window.model.undo_stack.undo()  # Reload is a step like any open
    assert workspace.scene(kind) == mine
    window.model.undo_stack.redo()


def test_reload_over_edits_asks_first_and_cancel_keeps_them(window, tmp_path, qtbot, monkeypatch):
    kind = "sequence"
    path = _open_own_file(window, kind, tmp_path)
    workspace = window.document.workspace
    tokens = window.findChild(QLineEdit, "tokensEdit")
    tokens.setFocus()
    tokens.selectAll()
    tokens.insert("my own edit")
    tokens.editingFinished.emit()  # as Enter does
    edited = workspace.scene(kind)
    assert list(edited.tokens) == ["my", "own", "edit"] and workspace.modified(kind)
    anykind.save(_changed(load_preset("self-attention")), path)
    _wait_for_bar(window, qtbot)

    asked = []
    monkeypatch.setattr(window, "ask_reload_over_edits", lambda name, page: asked.append((name, page)) or False)
    window.findChild(QPushButton, "fileChangedReload").click()
    assert asked == [("sequence.json", window.page_title(kind))]
    assert workspace.scene(kind) is edited and _bar(window) is not None, "cancelled: nothing lost, still told"

    monkeypatch.setattr(window, "ask_reload_over_edits", lambda name, page: asked.append((name, page)) or True)
    window.findChild(QPushButton, "fileChangedReload").click()
    assert len(asked) == 2 and workspace.scene(kind) == anykind.load_any(path) and _bar(window) is None
    window.model.undo_stack.undo()
    assert workspace.scene(kind) == edited, "Undo brings the edits back"


def test_two_pages_changed_are_told_one_after_the_other(window, tmp_path, qtbot):
    scenario = _open_own_file(window, EXPLORER, tmp_path)
    positions = _open_own_file(window, "positions", tmp_path)
    window.show_page(page_index(KIND_PAGES["positions"]))
    anykind.save(_changed(window.model.scenario), scenario)
    anykind.save(_changed(window.document.workspace.scene("positions")), positions)
    _wait_for_bar(window, qtbot)
    qtbot.waitUntil(lambda: window.document.workspace.modified(EXPLORER)
                    and window.document.workspace.modified("positions"), timeout=10000)
    window.check_file_on_disk()
    assert _message(window).startswith("positions.json, the file of the page “Positions and q·k”"), "the page shown"
    window.findChild(QPushButton, "fileChangedKeep").click()
    assert _message(window).startswith("scenario.json was changed on the disk") and _bar(window) is not None
    window.findChild(QPushButton, "fileChangedKeep").click()
    assert _bar(window) is None
    window.check_file_on_disk()
    assert _bar(window) is None, "each change is told once"


def test_a_labs_file_deleted_is_said_and_save_writes_that_page_again(window, tmp_path, qtbot):
    kind = "multihead"
    path = _open_own_file(window, kind, tmp_path)
    mine = window.document.workspace.scene(kind)
    window.show_page(0)
    path.unlink()
    _wait_for_bar(window, qtbot)
    assert _message(window).startswith(f"{kind}.json, the file of the page “{window.page_title(kind)}”, is no "
                                       "longer on the disk")
    window.findChild(QPushButton, "fileChangedSave").click()
    assert anykind.load_any(path) == mine and _bar(window) is None
    assert window.central_tabs.currentIndex() == page_index(KIND_PAGES[kind])


def test_the_bar_names_a_labs_file_in_chinese(make_window, tmp_path, qtbot):
    path = tmp_path / "sentence.json"
    anykind.save(load_preset("self-attention"), path)
    window = make_window(str(path), language="zh_CN", record_errors=True, discard_changes=True)
    anykind.save(_changed(load_preset("self-attention")), path)
    _wait_for_bar(window, qtbot)
    message = _message(window)
    assert message.startswith(f"“{window.page_title('sequence')}”页的文件 sentence.json 在磁盘上已被")
    texts = [message, *(b.text() for b in _bar(window).findChildren(QPushButton) if b.isVisible())]
    assert not any("a" <= ch.lower() <= "z" for text in texts for ch in text.replace("sentence.json", ""))
