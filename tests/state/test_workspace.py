"""The workspace without a window: the labs' edits on the explorer's one undo stack, each page's saved state, the
history's bounds counting and rebuilding the labs' steps too."""

from __future__ import annotations

import pytest

from attention_explorer.core.scenes.sequence.scene import replace_sequence
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.state.workspace import Workspace
from attention_explorer.ui.labs.positions.state import PositionalModel
from attention_explorer.ui.labs.self_attention.state import SequenceModel


@pytest.fixture
def pages(qapp):
    model = ExplorerModel()
    workspace = Workspace(model)
    sequence, positions = SequenceModel(), PositionalModel()
    workspace.add_lab("sequence", sequence, page=3)
    workspace.add_lab("positions", positions, page=7)
    yield model, workspace, sequence, positions
    workspace.detach()


def test_each_page_is_modified_on_its_own_whatever_the_others_steps(pages):
    model, workspace, sequence, _positions = pages
    stack = model.undo_stack
    model.set_vector("query", 0, [1.0, 1.0])
    sequence.set_tokens_text("a b c")
    assert workspace.modified_kinds() == ["scenario", "sequence"] and stack.count() == 2
    stack.setClean()  # the explorer's scenario saved here (what Document.save does)
    assert workspace.modified_kinds() == ["sequence"]
    stack.undo()  # the lab's step: the explorer's scenario is still the saved one, the lab's its first
    assert sequence.sequence.tokens == ("我", "爱", "北京") and workspace.modified_kinds() == []
    stack.undo()  # the explorer's step: its scenario is no longer the saved one
    assert workspace.modified_kinds() == ["scenario"]
    stack.redo()
    stack.redo()
    assert workspace.modified_kinds() == ["sequence"] and sequence.sequence.tokens == ("a", "b", "c")


def test_a_new_step_above_the_saved_state_keeps_it_when_only_lab_steps_led_there(pages):
    model, workspace, sequence, positions = pages
    stack = model.undo_stack
    model.set_vector("query", 0, [1.0, 1.0])
    positions.set_d(16)
    stack.setClean()  # saved after the positions step
    stack.undo()  # back before it: the explorer's scenario is unchanged
    assert not workspace.modified("scenario")
    sequence.set_tokens_text("x y")  # cuts the positions step off (Qt would forget the saved state)
    assert not workspace.modified("scenario") and workspace.modified_kinds() == ["sequence"]
    stack.undo()
    assert workspace.modified_kinds() == []


def test_a_lab_edit_opened_or_saved_is_its_pages_saved_state(pages, tmp_path):
    model, workspace, sequence, positions = pages
    positions.set_m(9)
    assert workspace.modified_kinds() == ["positions"]
    path = workspace.save("positions", tmp_path / "positions.json")
    assert workspace.path("positions") == path and workspace.modified_kinds() == []
    positions.set_n(4)
    model.undo_stack.undo()
    assert workspace.modified_kinds() == []
    model.undo_stack.undo()  # before the save
    assert workspace.modified_kinds() == ["positions"] and positions.m == 5
    sequence.set_tokens_text("a b")
    sequence.load_sequence(replace_sequence(sequence.sequence, title="opened"))  # a file or an example
    assert "sequence" not in workspace.modified_kinds() and workspace.path("sequence") is None


def test_the_history_bound_counts_and_keeps_the_labs_steps(pages):
    model, _workspace, sequence, _positions = pages
    model.history_limit_steps = 8
    for number in range(12):
        sequence.set_d_model(4 + number)  # each step keeps its own X and W's
        model.set_vector("query", 0, [float(number), 1.0])
    assert model.dropped_steps > 0 and model.undo_stack.count() <= 10
    assert model.history_bytes >= sequence.sequence.embeddings.nbytes
    while model.undo_stack.canUndo():
        model.undo_stack.undo()
    # The oldest kept step of each page put back; every lab step still applies after the rebuild.
    assert 4 <= sequence.sequence.d_model < 15
    while model.undo_stack.canRedo():
        model.undo_stack.redo()
    assert sequence.sequence.d_model == 15 and list(model.scenario.query) == [11.0, 1.0]
