"""ExplorerModel's pins: add, remove, clear; one `changed` each; undoable, in History, kept by later edits."""

from __future__ import annotations

import pytest

from attention_explorer.core.limits import ScenarioError
from attention_explorer.state.explorer import ExplorerModel


def count_changes(model: ExplorerModel) -> list[int]:
    seen: list[int] = []
    model.changed.connect(lambda: seen.append(len(model.pins)))
    return seen


def test_pins_are_undo_steps_named_in_history_and_survive_edits(model):
    seen = count_changes(model)
    model.add_pin()
    model.set_scale(1.0)
    model.add_pin("no scaling")
    assert seen == [1, 1, 2]
    stack = model.undo_stack
    assert [stack.text(i) for i in range(stack.count())] == ["Pin 1", "Scale × 1", "Pin no scaling"]
    assert [(pin.number, pin.name) for pin in model.pins] == [(1, ""), (2, "no scaling")]
    assert model.pins[0].scenario.scale is None and model.pins[1].scenario.scale == 1.0
    stack.undo()
    assert [pin.number for pin in model.pins] == [1]
    stack.undo()
    stack.undo()
    assert model.pins == ()
    stack.redo()
    stack.redo()
    stack.redo()
    assert [pin.name for pin in model.pins] == ["", "no scaling"]
    model.remove_pin(0)
    assert stack.text(stack.index() - 1) == "Remove pin 1"
    assert [pin.number for pin in model.pins] == [2]
    model.clear_pins()
    assert model.pins == () and stack.text(stack.index() - 1) == "Remove all pins"
    stack.undo()
    assert [pin.number for pin in model.pins] == [2]


def test_a_fourth_pin_and_a_bad_index_change_nothing(model):
    for _ in range(3):
        model.add_pin()
    before, count = model.scenario, model.undo_stack.count()
    seen = count_changes(model)
    with pytest.raises(ScenarioError, match="at most 3 pins"):
        model.add_pin()
    with pytest.raises(ScenarioError, match="out of range"):
        model.remove_pin(3)
    assert model.scenario is before and model.undo_stack.count() == count and seen == []
    model.clear_pins()
    model.clear_pins()  # nothing left: no second step
    assert model.undo_stack.count() == count + 1


def test_the_pinned_result_is_the_one_the_core_computes_for_the_pinned_scene(model):
    model.add_pin()
    model.set_vector("key", 0, [-3.0, 0.5])
    pin = model.pins[0]
    assert pin.result.weights.tolist() == pin.scenario.compute().weights.tolist()
    assert pin.result.weights.tolist() != model.result.weights.tolist()
