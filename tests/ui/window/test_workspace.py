"""One workspace document: an edit in any lab is a step of the window's History, marks the window modified, is
autosaved and recovered, is asked about on closing, and Ctrl+S writes the lab's scene in its own kind.

Every edit is made as a user makes it (typing a sentence and Enter, typing a number into a spin box and Enter, a
cell of a table); every check reads what the window shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from attention_explorer.core.files import workspace as workspace_file
from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.files.workspace import RECOVERY_FORMAT
from attention_explorer.core.scenes.kinds import (
    CROSS_KIND,
    MULTIHEAD_KIND,
    POSITIONS_KIND,
    SEQUENCE_KIND,
    TRAINING_KIND,
)
from attention_explorer.ui.labs.registry import page_index
from tests.ui.widget_helpers import type_text
from tests.ui.window.test_history import handle_centre, mouse_drag


@pytest.fixture
def window(make_window):
    """The real window at a projector's size; errors recorded (the unsaved-changes question is the test's own)."""
    return make_window(record_errors=True)


def history_lines(window) -> list[str]:
    """The lines the History list shows, top to bottom."""
    model = window.history.model()
    QApplication.processEvents()
    return [model.data(model.index(row, 0), Qt.ItemDataRole.DisplayRole) for row in range(model.rowCount())]


def type_and_enter(field, text: str) -> None:
    """Click into a line edit or spin box, replace its text by typing `text`, press Enter."""
    field.setFocus()
    QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    type_text(field, text)
    QTest.keyClick(field, Qt.Key.Key_Return)
    QApplication.processEvents()


def type_into_table_cell(table, row: int, column: int, text: str) -> None:
    """Make a table's cell current, type a number over it as in a spreadsheet, press Enter."""
    table.setFocus()
    table.setCurrentIndex(table.model().index(row, column))
    QTest.keyClicks(table, text[0])  # typing starts the cell's editor
    line = QApplication.focusWidget()
    assert isinstance(line, QLineEdit)
    type_text(line, text[1:])
    QTest.keyClick(line, Qt.Key.Key_Return)
    QApplication.processEvents()


def ctrl(window, key: Qt.Key) -> None:
    """Ctrl+key where the keyboard focus is (the window's shortcuts)."""
    QTest.keyClick(QApplication.focusWidget() or window, key, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()


@dataclass
class LabCase:
    """One lab: its page, its file's kind, the edit a user makes there and how the lab shows the edited value."""

    page: int
    kind: str
    before: str
    after: str
    step: str  # the History line of the edit

    def edit(self, lab) -> None:
        raise NotImplementedError

    def shown(self, lab) -> str:
        raise NotImplementedError

    def field(self, lab):
        raise NotImplementedError


class SentenceCase(LabCase):
    """Self-attention: a sentence typed into the tokens edit."""

    def field(self, lab):
        return lab.tokens_edit

    def edit(self, lab) -> None:
        type_and_enter(lab.tokens_edit, self.after)

    def shown(self, lab) -> str:
        return lab.tokens_edit.text()


class SpinCase(LabCase):
    """A number typed into one of the lab's spin boxes."""

    def __init__(self, page, kind, before, after, step, spins: str, name: str) -> None:
        super().__init__(page, kind, before, after, step)
        self.spins, self.name = spins, name

    def field(self, lab):
        return getattr(lab, self.spins)[self.name]

    def edit(self, lab) -> None:
        type_and_enter(self.field(lab), self.after)

    def shown(self, lab) -> str:
        return str(self.field(lab).value())


class TargetCase(LabCase):
    """Cross-attention: a target sentence typed into its edit."""

    def field(self, lab):
        return lab.target_edit

    def edit(self, lab) -> None:
        type_and_enter(lab.target_edit, self.after)

    def shown(self, lab) -> str:
        return lab.target_edit.text()


LABS = {
    "self-attention": SentenceCase(page_index("self-attention"), SEQUENCE_KIND, "我 爱 北京", "the cat sat",
                                   "Self-attention: Sentence “the cat sat”"),
    "multi-head": SpinCase(page_index("multi-head"), MULTIHEAD_KIND, "8", "16", "Multi-head: Set d_model = 16",
                           "size_spins", "d_model"),
    "cross-attention": TargetCase(page_index("cross-attention"), CROSS_KIND, "我 爱 北京", "我 爱 你",
                                  "Cross-attention: Target “我 爱 你”"),
    "positions": SpinCase(page_index("positions"), POSITIONS_KIND, "8", "16", "Positions: Set d = 16", "spins", "d"),
    "training": SpinCase(page_index("training"), TRAINING_KIND, "256", "64", "Training: Set d_k = 64", "spins", "d_k"),
}


def open_lab(window, case: LabCase):
    window.show_page(case.page)
    QApplication.processEvents()
    return window.page(case.page)


@pytest.mark.parametrize("name", LABS)
def test_an_edit_in_a_lab_is_a_history_step_marks_the_window_modified_and_undo_shows_its_page(window, name):
    case = LABS[name]
    lab = open_lab(window, case)
    assert case.shown(lab) == case.before and "*" not in window.windowTitle()
    case.edit(lab)
    assert case.shown(lab) == case.after
    assert history_lines(window)[-1] == case.step
    assert window.windowTitle().endswith("* — Attention Explorer")
    assert window.actions_by_name["undo"].text() == f"&Undo {case.step}"
    # Ctrl+Z right where the edit was typed undoes the edit (not the field's own typing), and redo makes it again.
    ctrl(window, Qt.Key.Key_Z)
    assert case.shown(lab) == case.before and "*" not in window.windowTitle()
    ctrl(window, Qt.Key.Key_Y)
    assert case.shown(lab) == case.after and "*" in window.windowTitle()
    # Elsewhere (the Vectors page), Ctrl+Z brings the lab back to the front, showing the old value.
    window.show_page(0)
    window.canvas.setFocus()
    ctrl(window, Qt.Key.Key_Z)
    assert window.central_tabs.currentIndex() == case.page
    assert case.shown(lab) == case.before
    assert "*" not in window.windowTitle() and not window.document.modified


@pytest.mark.parametrize("name", LABS)
def test_a_lab_edit_is_autosaved_and_restored_in_a_new_window_after_a_crash(make_window, qtbot, name):
    case = LABS[name]
    first = make_window()
    lab = open_lab(first, case)
    case.edit(lab)
    edited = lab_scene(first, case)
    recovery = first.document.recovery_path
    qtbot.waitUntil(lambda: recovered(recovery).get(case.kind) == edited, timeout=2000)
    # The first window dies: its lock goes with its process, its recovery file stays.
    data_dir = first.document.data_dir
    first.document._lock.unlock()
    first.document._lock = None
    first.document.data_dir = data_dir.parent / "elsewhere"
    second = make_window()
    second.document.data_dir = data_dir
    second.ask_restore_recovery = lambda *_args: True
    second.offer_recovery()
    assert second.central_tabs.currentIndex() == case.page, "the page that was being edited"
    assert case.shown(second.page(case.page)) == case.after
    assert lab_scene(second, case) == edited
    assert "*" in second.windowTitle() and second.document.workspace.modified(case.kind)
    assert history_lines(second)[-1] == "Restore unsaved work"
    # The restored work is this window's own unsaved work now: closing asks.
    asked = []
    second.ask_unsaved_changes = lambda: asked.append(second.central_tabs.currentIndex()) or \
        QMessageBox.StandardButton.Discard
    assert second.close()
    assert asked == [case.page]


@pytest.mark.parametrize("name", LABS)
def test_closing_asks_about_a_lab_edit_and_cancel_keeps_the_window(window, name):
    case = LABS[name]
    lab = open_lab(window, case)
    case.edit(lab)
    window.show_page(0)  # the question shows the page it is about
    asked = []
    window.ask_unsaved_changes = lambda: asked.append(window.central_tabs.currentIndex()) or \
        QMessageBox.StandardButton.Cancel
    assert not window.close()
    assert asked == [case.page] and window.isVisible()
    window.ask_unsaved_changes = lambda: QMessageBox.StandardButton.Discard
    assert window.close()


@pytest.mark.parametrize("name", LABS)
def test_ctrl_s_writes_the_labs_scene_in_its_kind_and_reopening_shows_the_edit(window, make_window, tmp_path, name):
    case = LABS[name]
    lab = open_lab(window, case)
    case.edit(lab)
    target = tmp_path / f"{name}.json"
    asked_names = []
    window.ask_save_path = lambda _title, suggestion, _filter: asked_names.append(Path(suggestion).name) or \
        str(target)
    ctrl(window, Qt.Key.Key_S)
    assert window.errors == [] and target.exists()
    assert workspace_file.scene_kind(load_file(target)) == case.kind
    assert load_file(target) == lab_scene(window, case)
    assert asked_names and asked_names[0] != "scenario.json", "Save As suggests a name of the lab's kind"
    assert window.windowTitle().startswith(f"{target.name} — ") and "*" not in window.windowTitle()
    assert not window.document.modified
    # A second edit and Ctrl+S go to the same file without asking.
    ctrl(window, Qt.Key.Key_Z)
    assert "*" in window.windowTitle()
    ctrl(window, Qt.Key.Key_Y)
    assert "*" not in window.windowTitle(), "redo back to the saved state"
    # The file opens in the lab of its kind, showing the edit; the explorer's scenario was never written.
    again = make_window(str(target))
    assert again.central_tabs.currentIndex() == case.page
    assert case.shown(again.page(case.page)) == case.after
    assert "*" not in again.windowTitle() and again.windowTitle().startswith(f"{target.name} — ")


def lab_scene(window, case: LabCase):
    return window.document.workspace.scene(case.kind)


def recovered(path: Path) -> dict:
    """The scenes a recovery file holds, by page kind ({} while it is missing or half-written)."""
    try:
        return workspace_file.loads(path.read_bytes()).scenes
    except (OSError, workspace_file.ScenarioError):
        return {}


def test_save_writes_the_page_shown_and_each_page_keeps_its_own_file_and_modified_state(window, tmp_path):
    sentence, scenario = tmp_path / "sentence.json", tmp_path / "vectors.json"
    lab = open_lab(window, LABS["self-attention"])
    LABS["self-attention"].edit(lab)
    window.ask_save_path = lambda *_args: str(sentence)
    ctrl(window, Qt.Key.Key_S)
    window.show_page(0)
    window.canvas.setFocus()
    QTest.keyClick(window.canvas, Qt.Key.Key_Right)  # the explorer's own edit: rotates the selected key
    assert "*" in window.windowTitle() and not window.windowTitle().startswith("sentence.json")
    assert window.document.workspace.modified_kinds() == ["scenario"]
    window.ask_save_path = lambda *_args: str(scenario)
    ctrl(window, Qt.Key.Key_S)
    assert load_file(scenario) == window.model.scenario and load_file(sentence).tokens == ("the", "cat", "sat")
    assert "*" not in window.windowTitle() and window.windowTitle().startswith("vectors.json — ")
    window.show_page(page_index("self-attention"))
    assert window.windowTitle().startswith("sentence.json — ")
    # Undo on the Vectors page's step from the lab: the explorer's scenario is unsaved again, the lab's is not.
    ctrl(window, Qt.Key.Key_Z)
    assert window.central_tabs.currentIndex() == 0 and window.document.workspace.modified_kinds() == ["scenario"]


def test_several_modified_pages_are_autosaved_together_and_all_come_back(make_window, qtbot):
    first = make_window()
    for name in ("self-attention", "positions"):
        case = LABS[name]
        case.edit(open_lab(first, case))
    first.show_page(0)
    first.canvas.setFocus()
    QTest.keyClick(first.canvas, Qt.Key.Key_Right)
    first.show_page(page_index("positions"))
    scenes = {kind: first.document.workspace.scene(kind) for kind in ("scenario", SEQUENCE_KIND, POSITIONS_KIND)}
    recovery = first.document.recovery_path
    qtbot.waitUntil(lambda: recovered(recovery) == scenes, timeout=2000)
    text = recovery.read_text(encoding="utf-8")
    assert f'"format": "{RECOVERY_FORMAT}"' in text and '"page": "positions"' in text
    data_dir = first.document.data_dir
    first.document._lock.unlock()
    first.document._lock = None
    first.document.data_dir = data_dir.parent / "elsewhere"
    second = make_window()
    second.document.data_dir = data_dir
    second.ask_restore_recovery = lambda *_args: True
    second.offer_recovery()
    assert {kind: second.document.workspace.scene(kind) for kind in scenes} == scenes
    assert second.document.workspace.modified_kinds() == ["scenario", SEQUENCE_KIND, POSITIONS_KIND]
    assert second.central_tabs.currentIndex() == page_index("positions")
    asked = []
    second.ask_unsaved_changes = lambda: asked.append(second.current_kind()) or QMessageBox.StandardButton.Discard
    assert second.close()
    assert asked == ["scenario", SEQUENCE_KIND, POSITIONS_KIND], "one question per page with unsaved work"


def test_an_old_recovery_file_is_still_offered_and_restored(make_window, tmp_path):
    """A recovery file of the versions before the workspace: the explorer's scenario file on its own."""
    from attention_explorer.core.files import anykind as fileformat
    window = make_window()
    scenario = load_preset("library")
    (window.document.data_dir / "recovery-12345-abcdef.json").write_text(fileformat.dumps(scenario),
                                                                          encoding="utf-8")
    offered = []
    window.ask_restore_recovery = lambda recovery, *_args: offered.append(recovery.scenario) or True
    window.offer_recovery()
    assert offered == [scenario] and window.model.scenario == scenario
    assert "*" in window.windowTitle() and window.document.path is None


def test_exploring_is_not_editing(window, qtbot, tmp_path):
    for index in range(window.central_tabs.count()):  # every page built and shown
        window.show_page(index)
        QApplication.processEvents()
    self_attention = window.self_attention_lab
    window.show_page(page_index("self-attention"))
    self_attention.sequence_model.set_hover((1, 2))
    self_attention.sequence_model.set_output_hover(0)
    window.page(page_index("multi-head")).multihead.select(1, 2)
    window.model.select_key(1)
    for preset in ("self-attention", "translation", "multi-head", "library"):
        window.preset_actions[preset].trigger()
    assert window.document.workspace.modified_kinds() == []
    assert not window.document.modified and "*" not in window.windowTitle()
    assert len(history_lines(window)) > 1, "opening examples are steps of the history, not edits"


def test_opening_an_example_into_a_lab_with_unsaved_work_asks_about_that_lab_only(window):
    case = LABS["self-attention"]
    case.edit(open_lab(window, case))
    asked = []
    window.ask_unsaved_changes = lambda: asked.append(window.current_kind()) or QMessageBox.StandardButton.Cancel
    window.preset_actions["library"].trigger()  # the explorer's example: the lab's sentence is not at stake
    assert asked == [] and window.model.scenario == load_preset("library")
    window.preset_actions["self-attention"].trigger()
    assert asked == [SEQUENCE_KIND] and case.shown(window.self_attention_lab) == case.after


def test_a_slider_drag_in_the_positions_lab_is_one_step_and_back_to_its_start_none(window):
    lab = open_lab(window, LABS["positions"])
    slider = lab.sliders["m"]
    start, handle = len(history_lines(window)), handle_centre(slider)
    right = handle + QPoint(slider.width() // 4, 0)
    mouse_drag(slider, handle, right)
    moved = lab.positions.m
    assert moved > 5 and history_lines(window)[start:] == [f"Positions: Query at m = {moved}"]
    assert "*" in window.windowTitle()
    mouse_drag(slider, handle_centre(slider), handle)  # and back where it began: no step, nothing unsaved
    assert lab.positions.m == 5
    assert len(history_lines(window)) == start and "*" not in window.windowTitle()


def test_a_typed_cell_of_the_self_attention_lab_is_an_undo_step(window):
    lab = open_lab(window, LABS["self-attention"])
    lab.tabs.setCurrentIndex(1)  # X
    table = lab.edit_tables["embeddings"]
    type_into_table_cell(table, 0, 0, "2.5")
    assert lab.sequence_model.sequence.embeddings[0, 0] == 2.5
    assert history_lines(window)[-1] == "Self-attention: Edit X[1, 1]" and "*" in window.windowTitle()
    ctrl(window, Qt.Key.Key_Z)
    assert lab.sequence_model.sequence.embeddings[0, 0] == 1.0 and "*" not in window.windowTitle()


def test_undo_shows_the_page_a_step_of_the_explorers_scenario_was_made_on(window):
    lab = open_lab(window, LABS["self-attention"])
    before = window.model.scenario
    lab.use_as_query(1)  # a row of the lab's maps: the explorer's scenario changes, made on the lab's page
    window.show_page(page_index("multi-head"))
    ctrl(window, Qt.Key.Key_Z)
    assert window.model.scenario == before and window.central_tabs.currentIndex() == page_index("self-attention")
    ctrl(window, Qt.Key.Key_Y)
    assert window.central_tabs.currentIndex() == page_index("self-attention"), "shown already: it stays"
    window.show_page(1)  # the saturation lab shows the explorer's scenario: an undo of its steps stays there
    ctrl(window, Qt.Key.Key_Z)
    assert window.central_tabs.currentIndex() == 1
