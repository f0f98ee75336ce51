"""ExplorerModel: one `changed` per edit, exact undo/redo, merged drags, refused edits change nothing."""

import gc
import weakref

import pytest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query import scene as sc
from attention_explorer.state.explorer import ExplorerModel, new_merge_key


class Recorder:
    """Counts `changed` and records `selection_changed` of one model."""

    def __init__(self, model: ExplorerModel) -> None:
        self.changes = 0
        self.selections: list[int] = []
        model.changed.connect(self._changed)
        model.selection_changed.connect(self.selections.append)

    def _changed(self) -> None:
        self.changes += 1


_FOUR_KEYS = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -2.0]]

# Each edit with the scenario it must produce, built independently with the pure core edits.
EDITS = [
    ("set_component key", lambda m: m.set_component("key", 1, 0, 0.25),
     lambda s: sc.with_component(s, "key", 1, 0, 0.25)),
    ("set_component query", lambda m: m.set_component("query", 9, 1, -2.0),
     lambda s: sc.with_component(s, "query", 0, 1, -2.0)),
    ("set_component value", lambda m: m.set_component("value", 2, 1, 0.5),
     lambda s: sc.with_component(s, "value", 2, 1, 0.5)),
    ("set_vector", lambda m: m.set_vector("key", 0, [3.0, 4.0]), lambda s: sc.with_vector(s, "key", 0, [3.0, 4.0])),
    ("set_plane_position", lambda m: m.set_plane_position("query", 0, -1.0, 2.0),
     lambda s: sc.with_vector(s, "query", 0, [-1.0, 2.0])),
    ("add_pair", lambda m: m.add_pair(), lambda s: sc.with_pair_added(s)),
    ("remove_pair", lambda m: m.remove_pair(1), lambda s: sc.with_pair_removed(s, 1)),
    ("set_d_k default", lambda m: m.set_d_k(4), lambda s: sc.with_d_k(s, 4, "random", 0)),
    ("set_d_k zeros", lambda m: m.set_d_k(4, fill="zeros"), lambda s: sc.with_d_k(s, 4)),
    ("set_d_k random", lambda m: m.set_d_k(5, fill="random", seed=2), lambda s: sc.with_d_k(s, 5, "random", 2)),
    ("set_d_v", lambda m: m.set_d_v(1), lambda s: sc.with_d_v(s, 1)),
    ("set_scale factor", lambda m: m.set_scale(1.0), lambda s: sc.with_scale(s, 1.0)),
    ("set_label", lambda m: m.set_label(0, "北京"), lambda s: sc.with_label(s, 0, "北京")),
    ("set_title", lambda m: m.set_title("我爱北京"), lambda s: sc.with_title(s, "我爱北京")),
    ("load_scenario", lambda m: m.load_scenario(load_preset("library")), lambda s: load_preset("library")),
    # A script's edit (ae.show's handle): whole arrays at once; four keys where there were fewer get default names.
    ("set_arrays", lambda m: m.set_arrays(keys=_FOUR_KEYS, values=[[1], [2], [3], [4]]),
     lambda s: sc.Scenario(query=s.query, keys=_FOUR_KEYS, values=[[1], [2], [3], [4]],
                           labels=("K1", "K2", "K3", "K4"), title=s.title, description=s.description, scale=s.scale)),
    ("set_arrays labels", lambda m: m.set_arrays(labels=["甲", "乙", "丙"]),
     lambda s: sc.Scenario(query=s.query, keys=s.keys, values=s.values, labels=("甲", "乙", "丙"), title=s.title,
                           description=s.description, scale=s.scale)),
]


@pytest.mark.parametrize(("name", "edit", "expected"), EDITS, ids=[e[0] for e in EDITS])
def test_each_edit_emits_changed_once_and_undoes_exactly(model, name, edit, expected):
    """One signal per edit; the result is recomputed; undo and redo restore the exact scenarios."""
    before = model.scenario
    after = expected(before)
    recorder = Recorder(model)
    edit(model)
    assert recorder.changes == 1
    assert model.scenario == after
    assert model.result.weights.tolist() == after.compute().weights.tolist()
    assert model.undo_stack.count() == 1
    model.undo_stack.undo()
    assert recorder.changes == 2
    assert model.scenario == before
    assert model.result.output.tolist() == before.compute().output.tolist()
    model.undo_stack.redo()
    assert recorder.changes == 3
    assert model.scenario == after


def test_set_scale_back_to_automatic(library_model):
    """A manual factor, then None: the factor becomes 1/√d_k again, in two undo steps."""
    library_model.set_scale(1.0)
    assert library_model.result.scale == 1.0
    library_model.set_scale(None)
    assert library_model.scenario.scale is None and library_model.result.scale == 0.5
    library_model.undo_stack.undo()
    assert library_model.result.scale == 1.0


def test_a_merged_drag_is_one_undo_step(model):
    """Many set_plane_position calls with one merge key: one undo step back to the start."""
    start = model.scenario
    recorder = Recorder(model)
    drag = new_merge_key()
    positions = [(0.1 * i, -0.05 * i) for i in range(1, 21)]
    for x, y in positions:
        model.set_plane_position("key", 2, x, y, merge_key=drag)
    assert recorder.changes == len(positions)  # every move redraws
    assert model.undo_stack.count() == 1
    assert model.scenario.keys[2].tolist() == [2.0, -1.0]
    model.undo_stack.undo()
    assert model.scenario == start
    model.undo_stack.redo()
    assert model.scenario.keys[2].tolist() == [2.0, -1.0]


def test_two_gestures_are_two_steps_and_unmerged_edits_never_merge(model):
    """A new merge key starts a new step; edits without a key are one step each."""
    first, second = new_merge_key(), new_merge_key()
    model.set_plane_position("query", 0, 1.0, 1.0, merge_key=first)
    model.set_plane_position("query", 0, 1.5, 1.0, merge_key=first)
    model.set_plane_position("query", 0, 2.0, 1.0, merge_key=second)
    assert model.undo_stack.count() == 2
    model.set_component("query", 0, 0, 3.0)
    model.set_component("query", 0, 0, 4.0)
    assert model.undo_stack.count() == 4


def test_a_drag_back_to_the_start_leaves_no_undo_step(model):
    """Grab a key, move it, put it back, release: nothing to undo. Mid-drag the history never changes."""
    start = model.scenario
    drag = new_merge_key()
    index_changes = []
    model.undo_stack.indexChanged.connect(index_changes.append)
    model.set_plane_position("key", 0, 5.0, 5.0, merge_key=drag)
    assert index_changes == [1]  # the drag's one step
    for _sweep in range(3):  # through the start and on, as a lecturer's drag does
        model.set_plane_position("key", 0, *start.keys[0].tolist(), merge_key=drag)
        assert model.scenario == start
        model.set_plane_position("key", 0, 4.0, 4.0, merge_key=drag)
    model.set_plane_position("key", 0, *start.keys[0].tolist(), merge_key=drag)
    assert index_changes == [1] and model.undo_stack.count() == 1
    model.finish_gesture(drag)
    assert model.scenario == start
    assert model.undo_stack.count() == 0 and index_changes == [1, 0]


def test_an_unfinished_drag_back_at_its_start_is_dropped_by_the_next_edit(model):
    """A caller that never finishes its gesture still leaves no step that does nothing."""
    start = model.scenario
    drag = new_merge_key()
    model.set_plane_position("key", 0, 5.0, 5.0, merge_key=drag)
    model.set_plane_position("key", 0, *start.keys[0].tolist(), merge_key=drag)
    model.set_title("after the drag")
    assert model.undo_stack.count() == 1
    model.undo_stack.undo()
    assert model.scenario == start and not model.undo_stack.canUndo()


def test_finishing_a_drag_that_moved_keeps_its_step(model):
    drag = new_merge_key()
    model.set_plane_position("key", 0, 5.0, 5.0, merge_key=drag)
    model.finish_gesture(drag)
    model.finish_gesture(new_merge_key())  # another gesture's release: not this one's business
    assert model.undo_stack.count() == 1 and model.scenario.keys[0].tolist() == [5.0, 5.0]


def test_a_merged_slider_is_one_step(library_model):
    """set_scale with a merge key, as a slider sends it."""
    slide = new_merge_key()
    for factor in (0.6, 0.7, 0.9, 1.3):
        library_model.set_scale(factor, merge_key=slide)
    assert library_model.undo_stack.count() == 1
    library_model.undo_stack.undo()
    assert library_model.scenario.scale is None


def test_plane_position_keeps_the_other_components(library_model):
    """A drag in the plane of components 0 and 1 leaves components 2 and 3 alone."""
    library_model.set_plane_position("key", 1, 0.5, -0.5)
    assert library_model.scenario.keys[1].tolist() == [0.5, -0.5, 0.0, 1.0]
    assert library_model.result.scores[1] == pytest.approx(0.5)


def test_plane_position_on_a_one_dimensional_vector():
    """d_k = 1: only x is used."""
    model = ExplorerModel(sc.Scenario(query=[1.0], keys=[[2.0]], values=[[1.0]]))
    model.set_plane_position("key", 0, 3.0, 99.0)
    assert model.scenario.keys.tolist() == [[3.0]]


INVALID = [
    lambda m: m.set_component("key", 7, 0, 1.0),
    lambda m: m.set_component("key", 0, 5, 1.0),
    lambda m: m.set_component("query", 0, 0, float("nan")),
    lambda m: m.set_component("query", 0, 0, float("inf")),
    lambda m: m.set_component("value", 0, 0, 2e6),
    lambda m: m.set_component("value", 0, 0, "abc"),
    lambda m: m.set_vector("key", 0, [1.0]),
    lambda m: m.set_vector("key", 0, ["a", "b"]),
    lambda m: m.set_vector("ghost", 0, [1.0, 2.0]),
    lambda m: m.set_plane_position("key", 3, 1.0, 1.0),
    lambda m: m.set_plane_position("key", 0, float("nan"), 1.0),
    lambda m: m.set_d_k(0),
    lambda m: m.set_d_v(5000),
    lambda m: m.set_d_k(3, fill="ones"),
    lambda m: m.set_scale(-1.0),
    lambda m: m.set_scale(float("inf")),
    lambda m: m.set_label(0, "x" * 65),
    lambda m: m.set_label(5, "x"),
    lambda m: m.set_title("t" * 201),
    lambda m: m.remove_pair(9),
    lambda m: m.select_key(3),
    lambda m: m.select_key(-1),
]


@pytest.mark.parametrize("edit", INVALID, ids=range(len(INVALID)))
def test_an_invalid_edit_raises_and_changes_nothing(model, edit):
    """ScenarioError; same scenario, same result object, no signal, no undo entry, same selection."""
    model.select_key(1)
    before, result = model.scenario, model.result
    recorder = Recorder(model)
    with pytest.raises(ScenarioError):
        edit(model)
    assert model.scenario is before and model.result is result
    assert recorder.changes == 0 and recorder.selections == []
    assert model.undo_stack.count() == 0
    assert model.selected_key == 1


def test_the_last_pair_cannot_be_removed():
    """One pair must remain."""
    model = ExplorerModel(sc.Scenario(query=[1.0], keys=[[2.0]], values=[[1.0]]))
    recorder = Recorder(model)
    with pytest.raises(ScenarioError, match="at least one"):
        model.remove_pair(0)
    assert model.scenario.n == 1 and recorder.changes == 0 and model.undo_stack.count() == 0


def test_an_edit_that_changes_nothing_is_not_an_undo_step(model):
    """Setting a number to the value it already has: no signal, no step."""
    recorder = Recorder(model)
    model.set_component("key", 0, 0, float(model.scenario.keys[0, 0]))
    assert recorder.changes == 0 and model.undo_stack.count() == 0


def test_selection_is_not_an_edit(model):
    """select_key emits selection_changed once, not changed, and is not undoable."""
    recorder = Recorder(model)
    model.select_key(2)
    model.select_key(2)
    assert recorder.selections == [2] and recorder.changes == 0
    assert model.selected_key == 2 and model.undo_stack.count() == 0


def test_selection_clamps_when_the_selected_last_pair_is_removed(model):
    """Select K3 of 3, remove it: K2 is selected; undo brings K3 back, the selection stays valid."""
    model.select_key(2)
    recorder = Recorder(model)
    model.remove_pair(2)
    assert model.selected_key == 1 and recorder.selections == [1]
    model.undo_stack.undo()
    assert model.scenario.n == 3 and model.selected_key == 1


def test_selection_follows_its_pair_when_an_earlier_pair_is_removed(model):
    """Select K2, remove K1: the same pair (now at index 0) stays selected."""
    model.select_key(1)
    label = model.scenario.labels[1]
    model.remove_pair(0)
    assert model.selected_key == 0 and model.scenario.labels[0] == label


def test_selection_clamps_when_undo_removes_pairs(model):
    """Add a pair (it gets selected), then undo the add: the selection falls back into range."""
    recorder = Recorder(model)
    model.add_pair()
    assert model.selected_key == 3 and recorder.changes == 1
    model.undo_stack.undo()
    assert model.scenario.n == 3 and model.selected_key == 2
    assert recorder.selections == [3, 2]


def test_loading_a_scenario_selects_the_first_key(model):
    """Open another scenario: selection starts over at K1."""
    model.select_key(2)
    model.load_scenario(load_preset("aligned"))
    assert model.selected_key == 0 and model.scenario.n == 2


def test_undo_texts_name_the_vector(library_model):
    """The Edit menu says what will be undone."""
    library_model.set_component("key", 1, 0, 0.5)
    assert library_model.undo_stack.undoText() == "Edit K2"
    library_model.set_plane_position("query", 0, 1.0, 1.0)
    assert library_model.undo_stack.undoText() == "Move Q"


def test_the_undo_history_does_not_keep_the_model_alive(qapp):
    """No model ↔ command reference cycle: the model dies as soon as its last user lets go.

    With a cycle, the garbage collector could free undo commands before the model's QUndoStack deleted
    them, and the test run crashed in QUndoStack::clear() at exit.
    """
    gc.disable()
    try:
        model = ExplorerModel()
        drag = new_merge_key()
        model.set_plane_position("key", 0, 1.0, 1.0, merge_key=drag)
        model.set_plane_position("key", 0, 2.0, 1.0, merge_key=drag)
        model.add_pair()
        model.undo_stack.undo()
        alive = weakref.ref(model)
        del model
        assert alive() is None
    finally:
        gc.enable()


def test_the_explorer_never_takes_another_kind_of_scenario(model):
    """A cross-attention or multi-head example opens in its lab; handed to the explorer it is refused, unchanged."""
    before, steps = model.scenario, model.undo_stack.count()
    for name in ("translation", "multi-head", "self-attention"):
        with pytest.raises(TypeError):
            model.load_scenario(load_preset(name))
    assert model.scenario is before and model.undo_stack.count() == steps
