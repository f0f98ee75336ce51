"""`ae.show` from Python: the window opens, a handle's edit is a user's edit (drawn, undoable, modified), a
screenshot is written at the size asked for, closing asks nothing; IPython's Qt loop; `ae.show_model`."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

import attention_explorer as ae
from attention_explorer import api
from attention_explorer.core.limits import ScenarioError
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import

QUERY = [1.0, 0.0]
KEYS = np.array([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]])
VALUES = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
LABELS = ["cat", "dog", "mat"]


def weights_of(query, keys, scale=None):
    """softmax(K·q · scale) from the definition (scale None: 1/√d_k)."""
    scores = np.asarray(keys, float) @ np.asarray(query, float)
    scores *= 1 / np.sqrt(len(query)) if scale is None else scale
    exps = np.exp(scores - scores.max())
    return exps / exps.sum()


@pytest.fixture(scope="module")
def shown(qapp):
    """One window for the module, opened as a script opens it."""
    from attention_explorer.ui.i18n.switcher import language_switcher

    language_switcher().set_language("en")
    handle = ae.show(QUERY, KEYS, VALUES, labels=LABELS)
    yield handle
    handle.close()
    QApplication.processEvents()


def drawn_weights(handle) -> np.ndarray:
    return np.asarray(handle.main_window.weights_chart.bars.opts["height"], dtype=float)


def drawn_tips(handle) -> np.ndarray:
    canvas = handle.main_window.canvas
    return np.array([tuple(canvas.arrow_of(i).handle.pos()) for i in range(handle.result.n)])


def test_show_opens_a_window_on_the_vectors_and_draws_their_numbers(shown):
    window = shown.main_window
    assert window.isVisible() and window.objectName() == "mainWindow" and not shown.closed
    assert np.allclose(drawn_weights(shown), weights_of(QUERY, KEYS))
    assert np.allclose(drawn_tips(shown), KEYS)
    assert shown.labels == tuple(LABELS) and window.canvas.arrow_of(2).label.toPlainText() == "mat"
    assert not window.document.modified and window.model.undo_stack.count() == 0
    assert shown in api._windows  # kept open even when the script drops its handle
    assert "3 keys, d_k = 2" in repr(shown)


def test_set_keys_is_an_undoable_edit_the_chart_and_the_canvas_draw(shown):
    model = shown.main_window.model
    steps = model.undo_stack.count()
    longer = KEYS * 3
    shown.set_keys(longer)
    assert np.allclose(drawn_weights(shown), weights_of(QUERY, longer))
    assert np.allclose(drawn_weights(shown), shown.result.weights)
    assert np.allclose(drawn_tips(shown), longer)
    assert model.undo_stack.count() == steps + 1 and model.undo_stack.text(steps) == "Edit K"
    assert shown.main_window.document.modified and shown.main_window.windowTitle().startswith("Untitled scenario*")
    model.undo_stack.undo()
    assert np.allclose(drawn_weights(shown), weights_of(QUERY, KEYS)) and np.array_equal(shown.keys, KEYS)
    model.undo_stack.redo()
    assert np.allclose(drawn_weights(shown), weights_of(QUERY, longer))


def test_update_changes_the_number_of_keys_and_set_scale_the_factor(shown):
    keys, values = [[1, 0], [0, 1], [1, 1], [-1, 0]], [[1, 0], [0, 1], [1, 1], [0, 0]]
    shown.update(keys=keys, values=values)
    assert shown.labels == ("K1", "K2", "K3", "K4")
    assert np.allclose(drawn_weights(shown), weights_of(QUERY, keys))
    shown.set_labels(["a", "b", "c", "d"])
    stack = shown.main_window.model.undo_stack
    assert stack.text(stack.index() - 1) == "Rename the keys"
    assert shown.main_window.canvas.arrow_of(3).label.toPlainText() == "d"
    shown.set_scale(4)
    assert shown.scale == 4.0 and np.allclose(drawn_weights(shown), weights_of(QUERY, keys, 4.0))
    shown.set_query([0, 2])
    assert np.allclose(drawn_weights(shown), weights_of([0, 2], keys, 4.0))
    shown.set_scale(None)
    shown.update(query=[1, 0, 0], keys=np.eye(3), values=np.eye(3), labels=["x", "y", "z"])  # a new d_k
    assert shown.result.d_k == 3 and np.allclose(drawn_weights(shown), weights_of([1, 0, 0], np.eye(3)))


def test_bad_input_through_the_handle_gets_the_windows_message_and_changes_nothing(shown):
    model = shown.main_window.model
    before, steps = model.scenario, model.undo_stack.count()
    n, d_k = before.n, before.d_k
    for edit, message in (
            (lambda: shown.set_keys(np.zeros((n, d_k + 1))),
             f"keys: expected rows of {d_k} numbers (d_k = {d_k}), got {d_k + 1}"),
            (lambda: shown.set_keys(np.zeros((n + 1, d_k))), f"values: expected {n + 1} rows, one per key"),
            (lambda: shown.set_query([np.nan] * d_k), "query[0]: NaN is not allowed (every number must be finite)"),
            (lambda: shown.set_values([[1], [2, 3]] + [[0]] * (n - 2)),
             "values: expected numbers in equal-length rows"),
            (lambda: shown.set_labels(["only one"]), f"labels: expected {n} labels, one per key, got 1"),
            (lambda: shown.set_scale("big"), "scale: expected a number, got a string")):
        with pytest.raises(ScenarioError) as caught:
            edit()
        assert str(caught.value) == message
    assert model.scenario is before and model.undo_stack.count() == steps


def test_anything_with_array_goes_into_the_window(shown):
    """What numpy reads through __array__ (a torch tensor: tests/test_api.py) is read by the handle too."""
    n, d_k = shown.result.n, shown.result.d_k
    expected = np.arange(n * d_k, dtype=float).reshape(n, d_k) * 0.25

    class Tensorish:
        def __array__(self, dtype=None, copy=None):
            return expected.astype(np.float32) if dtype is None else expected.astype(dtype)

    shown.set_keys(Tensorish())
    assert np.array_equal(shown.keys, expected)
    assert np.allclose(drawn_weights(shown), weights_of(shown.query, expected))


def test_screenshot_writes_a_png_at_the_size_asked_and_gives_the_window_its_size_back(shown, tmp_path):
    window = shown.main_window
    size_before = window.size()
    path = shown.screenshot(tmp_path / "fig.png", size=(1280, 720))
    image = QImage(str(path))
    assert (image.width(), image.height()) == (1280, 720)
    assert window.size() == size_before
    colours = {image.pixel(x, y) for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(colours) > 30  # a drawn window, not a blank picture
    plain = shown.screenshot(str(tmp_path / "plain.png"))
    assert QImage(str(plain)).size() == window.grab().size()
    for name, size, message in (("fig.jpg", None, "only PNG is written"), ("a.png", (319, 240), "out of range"),
                                ("a.png", (8001, 720), "out of range"), ("a.png", "1280x720", "expected (width")):
        with pytest.raises(ValueError, match=message.replace("(", r"\(")):
            shown.screenshot(tmp_path / name, size=size)
    assert not (tmp_path / "a.png").exists()


def test_language_and_theme_are_switched_as_the_view_menu_does(shown, tmp_path):
    from attention_explorer.ui.style.theme import theme

    window = shown.main_window
    try:
        shown.set_language("zh_CN")
        assert window.steps_view.parentWidget().windowTitle() == "四个步骤"
        shown.set_theme("contrast")
        assert theme().mode == "contrast" and window.actions_by_name["theme_contrast"].isChecked()
        path = shown.screenshot(tmp_path / "zh.png", size=(1280, 720))
        assert QImage(str(path)).size().toTuple() == (1280, 720)
    finally:
        shown.set_language("en")
        shown.set_theme("light")
    assert window.steps_view.parentWidget().windowTitle() == "The four steps"
    for switch, value in ((shown.set_language, "fr"), (shown.set_theme, "neon")):
        with pytest.raises(ValueError, match="expected one of"):
            switch(value)


def test_close_asks_nothing_and_the_handle_then_refuses(qapp, _no_modal_dialogs):
    handle = ae.show([1], [[1], [2]], [[1], [2]])
    handle.set_keys([[3], [4]])  # unsaved changes: closing by hand would ask
    assert handle.main_window.document.modified
    handle.close()
    QApplication.processEvents()
    assert handle.closed and handle not in api._windows and _no_modal_dialogs == []
    with pytest.raises(RuntimeError, match="closed"):
        handle.set_keys([[1], [2]])
    handle.close()  # a second close does nothing
    assert repr(handle) == "<attention_explorer.Window (closed)>"


def test_in_ipython_show_switches_qt_events_on_and_run_returns_at_once(shown, monkeypatch):
    calls = []

    class Shell:
        active_eventloop = None

        def enable_gui(self, name):
            calls.append(name)
            self.active_eventloop = name

    shell = Shell()
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    api.application()
    assert calls == ["qt"]
    api.application()  # already on: not again
    assert calls == ["qt"]
    ae.run()  # the prompt runs Qt's events: returns at once (offscreen it would too)
    assert not shown.closed


def test_show_model_opens_the_real_transformer_page_with_the_model_and_sentence(qapp, tiny_bert_dir, monkeypatch,
                                                                              tmp_path):
    from attention_explorer.ui.labs.registry import TRANSFORMER, page_index

    handle = ae.show_model(tiny_bert_dir, text="i love beijing", layer=1, head=2)
    try:
        window = handle.main_window
        panel = window.transformer_lab
        assert window.central_tabs.currentIndex() == page_index(TRANSFORMER)
        assert panel.analysis.tokens == ("[CLS]", "i", "love", "beijing", "[SEP]")
        assert (panel.layer, panel.head) == (1, 2) and panel.sentence_edit.text() == "i love beijing"
        expected = panel.analysis.head(1, 2).weights
        assert np.allclose(panel.weights_map.image.image, expected)  # the map drawn
    finally:
        handle.close()
    with pytest.raises(ValueError, match="head: expected a whole number from 0 to 3, got 4"):
        ae.show_model(tiny_bert_dir, text="i love beijing", head=4)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="attention-explorer download sentence-transformers/all-MiniLM-L6-v2"):
        ae.show_model("all-MiniLM-L6-v2", text="hello")
    with pytest.raises(FileNotFoundError, match="no such model folder"):
        ae.show_model(tmp_path / "missing" / "..." / "x y", text="hello")
