"""Adding key–value pairs up to exactly 512 in the Vectors panel; the 513th is refused with its message."""

from __future__ import annotations

from PySide6.QtCore import Qt

from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.ui.panels.vector_editor import VectorEditor
from tests.ui.widget_helpers import show_widget


def test_the_add_button_goes_up_to_512_pairs_and_refuses_the_513th(qtbot, model):
    model.load_scenario(Scenario(query=[1.0, 0.0], keys=[[1.0, 0.0]] * 510, values=[[1.0]] * 510))
    editor = show_widget(qtbot, VectorEditor(model), (420, 600))
    for n in (511, 512):
        qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
        assert model.scenario.n == n
        assert model.scenario.labels[-1] == f"K{n}"
    assert editor.message_label.isHidden()
    steps = model.undo_stack.count()
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    assert model.scenario.n == 512  # nothing changed
    assert model.undo_stack.count() == steps
    assert editor.message_label.isVisible()
    assert editor.message_label.text() == "at most 512 key–value pairs are allowed"
    # 512 pairs of which the last two are zero keys: weights e/(510e + 2) and 1/(510e + 2), by hand.
    e = 2.718281828459045 ** (1 / 2**0.5)
    assert abs(model.result.weights[0] - e / (510 * e + 2)) < 1e-15
    assert abs(model.result.weights[-1] - 1 / (510 * e + 2)) < 1e-15
