"""Real transformer panel on the tiny test BERT: open it, type a sentence, pick layer, head and query, send to the
explorer; driven through the real widgets (clicks, typing, key presses) offscreen."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.ui.labs.transformer.lab import CELL_TEXT_MAX_TOKENS, TransformerLab
from tests.helpers.tiny_bert import ISSUE_CONFIGS, MALFORMED_CONFIGS, tiny_bert_dir
from tests.ui.labs.panel_wait import wait_idle

assert tiny_bert_dir  # a fixture: pytest finds it through this import


@pytest.fixture
def make_panel(qtbot, monkeypatch, tmp_path):
    """A shown panel at a realistic dock size, with an empty Hugging Face cache and a scripted folder dialog."""
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))

    def make(model, folder=None, width=560, height=460):
        panel = TransformerLab(model)
        qtbot.addWidget(panel)
        panel.ask_model_folder = lambda: "" if folder is None else str(folder)
        panel.resize(width, height)
        panel.show()
        qtbot.waitExposed(panel)
        return panel

    return make


@pytest.fixture
def opened(make_panel, model, tiny_bert_dir):
    """A panel that has opened the tiny model through its "Open model…" button."""
    panel = make_panel(model, tiny_bert_dir)
    QTest.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)
    wait_idle(panel)  # the model loads off the UI thread
    assert panel.loaded is not None
    return panel


def reference(folder, text, layer, head):
    return load_checkpoint(folder).analyse(text).head(layer, head)


def type_sentence(panel, text):
    """Type into the line edit and press Enter; Chinese arrives as an input method's commit, as it does for users."""
    panel.sentence_edit.clear()
    panel.sentence_edit.setFocus()
    if text.isascii():
        QTest.keyClicks(panel.sentence_edit, text)
    else:
        event = QInputMethodEvent()
        event.setCommitString(text)
        QApplication.sendEvent(panel.sentence_edit, event)
    assert panel.sentence_edit.text() == text
    QTest.keyClick(panel.sentence_edit, Qt.Key.Key_Return)
    wait_idle(panel)  # the forward pass runs off the UI thread


def cell_texts(heatmap):
    """The cell numbers row by row."""
    flat = [text.toPlainText() for text in heatmap.cell_texts]
    return [flat[i : i + heatmap.n] for i in range(0, len(flat), heatmap.n)]


def click_view(plot, view_box, x, y):
    point = plot.mapFromScene(view_box.mapViewToScene(QPointF(x, y)))
    QTest.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_open_model_shows_the_sizes_and_the_default_sentence(opened, tiny_bert_dir):
    panel = opened
    assert "2 layers × 4 heads, d_k = 8" in panel.status_label.text()
    assert "5 tokens" in panel.status_label.text()
    assert (panel.layer_spin.minimum(), panel.layer_spin.maximum()) == (0, 1)
    assert (panel.head_spin.minimum(), panel.head_spin.maximum()) == (0, 3)
    assert [panel.query_combo.itemText(i) for i in range(panel.query_combo.count())] == [
        "0: [CLS]", "1: i", "2: love", "3: beijing", "4: [SEP]"]
    assert panel.models_combo.currentText() == tiny_bert_dir.name
    ticks = panel.weights_map.getPlotItem().getAxis("left")._tickLevels[0]
    assert [label for _, label in ticks] == ["[CLS]", "i", "love", "beijing", "[SEP]"]


def test_typed_sentence_heatmap_and_cell_numbers_show_the_attention(opened, tiny_bert_dir):
    panel = opened
    type_sentence(panel, "我爱北京")
    expected = reference(tiny_bert_dir, "我爱北京", 0, 0)
    assert panel.analysis.tokens == ("[CLS]", "我", "爱", "北", "京", "[SEP]")
    np.testing.assert_allclose(panel.weights_map.image.image, expected.weights, atol=1e-12)
    np.testing.assert_allclose(panel.weights_map.image.image.sum(axis=1), 1.0, atol=1e-12)
    texts = cell_texts(panel.weights_map)
    assert len(texts) == 6 and all(len(row) == 6 for row in texts)
    assert texts[2][3] == f"{expected.weights[2, 3]:.2f}" or texts[2][3] == f"{expected.weights[2, 3]:.2f}"[1:]
    assert all(text.isVisible() for text in panel.weights_map.cell_texts)
    # the scaled scores tab: q·k/√8 from the q's and k's themselves
    q, k = expected.queries, expected.keys
    np.testing.assert_allclose(panel.scores_map.image.image, q @ k.T / math.sqrt(8), atol=1e-12)


def test_layer_and_head_spin_boxes_switch_the_matrix(opened, tiny_bert_dir):
    panel = opened
    panel.head_spin.setFocus()
    QTest.keyClick(panel.head_spin, Qt.Key.Key_Up)
    QTest.keyClick(panel.head_spin, Qt.Key.Key_Up)
    panel.layer_spin.setFocus()
    QTest.keyClick(panel.layer_spin, Qt.Key.Key_Up)
    assert (panel.layer, panel.head) == (1, 2)
    expected = reference(tiny_bert_dir, "I love Beijing", 1, 2)
    np.testing.assert_allclose(panel.weights_map.image.image, expected.weights, atol=1e-12)
    assert cell_texts(panel.weights_map)[0][0].lstrip("0") == f"{expected.weights[0, 0]:.2f}".lstrip("0")
    frame = panel.grid.current.rect()
    pitch = 5 * 1.25
    assert frame.center().x() == pytest.approx(2 * pitch + 2.5) and frame.center().y() == pytest.approx(pitch + 2.5)


def test_all_heads_grid_has_one_image_per_head_and_a_click_selects_it(opened, tiny_bert_dir):
    panel = opened
    panel.tabs.setCurrentWidget(panel.grid)
    QApplication.processEvents()
    attentions = load_checkpoint(tiny_bert_dir).analyse("I love Beijing").output.attentions
    assert len(panel.grid.images) == 2 and all(len(row) == 4 for row in panel.grid.images)
    first_images = [image for row in panel.grid.images for image in row]
    for layer in range(2):
        for head in range(4):
            np.testing.assert_allclose(panel.grid.images[layer][head].image, attentions[layer, head], atol=1e-12)
    pitch = 5 * 1.25
    click_view(panel.grid, panel.grid.view_box, 3 * pitch + 2.5, 1 * pitch + 2.5)
    assert (panel.layer, panel.head) == (1, 3)
    assert panel.tabs.currentWidget() is panel.weights_map
    # a new sentence updates the same items in place
    type_sentence(panel, "the cat sat")
    assert [image for row in panel.grid.images for image in row] == first_images
    assert panel.grid.images[0][1].image.shape == (5, 5)


def test_clicking_a_row_picks_the_query_and_send_puts_real_numbers_in_the_explorer(opened, model, tiny_bert_dir):
    panel = opened
    panel.set_head(1, 2)
    click_view(panel.weights_map, panel.weights_map.view_box, 1.5, 2.5)  # row 2 = "love"
    assert panel.query_token == 2 and panel.query_combo.currentText() == "2: love"
    assert panel.weights_map.row_mark.isVisible() and panel.weights_map.row_mark.rect().top() == 2
    assert panel.send_button.text() == "Explore “love” as Q"
    before = model.scenario
    QTest.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)

    expected = reference(tiny_bert_dir, "I love Beijing", 1, 2)
    scenario = model.scenario
    assert scenario.title == "“love” as the query (layer 1, head 2)"
    assert (scenario.d_k, scenario.d_v, scenario.n, scenario.scale) == (8, 8, 5, None)
    assert scenario.labels == ("[CLS]", "i", "love", "beijing", "[SEP]")
    np.testing.assert_allclose(scenario.query, expected.queries[2], atol=1e-12)
    np.testing.assert_allclose(scenario.keys, expected.keys, atol=1e-12)
    np.testing.assert_allclose(scenario.values, expected.values, atol=1e-12)
    # the explorer's own softmax(q·K/√8) is BERT's attention row of "love"
    np.testing.assert_allclose(model.result.weights, expected.weights[2], atol=1e-12)
    assert model.selected_key == 1  # the clicked cell's column: the pair (q of “love”, k of “i”)
    assert "in the explorer: “love” as the query (layer 1, head 2)" in panel.status_label.text()
    assert panel.weights_map.column_mark.isVisible()
    assert panel.weights_map.column_mark.rect().left() == model.selected_key

    model.select_key(4)  # selecting a key elsewhere moves the dashed column
    assert panel.weights_map.column_mark.rect().left() == 4
    click_view(panel.weights_map, panel.weights_map.view_box, 1.5, 2.5)  # and a click here selects it there
    assert model.selected_key == 1 and panel.weights_map.column_mark.rect().left() == 1
    model.undo_stack.undo()
    assert model.scenario is before
    assert not panel.weights_map.column_mark.isVisible() and "in the explorer" not in panel.status_label.text()
    model.undo_stack.redo()
    assert panel.weights_map.column_mark.isVisible()


def test_vectors_table_shows_q_k_v_of_every_token(opened, tiny_bert_dir):
    panel = opened
    panel.tabs.setCurrentWidget(panel.vectors_page)
    expected = reference(tiny_bert_dir, "I love Beijing", 0, 0)
    table = panel.vectors_table
    assert (table.rowCount(), table.columnCount()) == (5, 9)
    assert table.verticalHeaderItem(3).text() == "3: beijing"
    assert table.item(3, 0).text() == f"{np.linalg.norm(expected.queries[3]):.3f}"
    assert table.item(3, 5).text() == f"{expected.queries[3, 4]:.3f}".replace("-", "−")
    QTest.mouseClick(panel.role_buttons.button(2), Qt.MouseButton.LeftButton)  # v
    assert table.item(1, 1).text() == f"{expected.values[1, 0]:.3f}".replace("-", "−")
    assert "v of each token" in panel.vectors_caption.text()


def test_long_sentences_have_no_cell_numbers_but_keep_the_matrix(opened):
    panel = opened
    type_sentence(panel, " ".join(["the cat sat on a mat"] * 3))  # 18 words + [CLS], [SEP]
    n = panel.analysis.n
    assert n == 20 > CELL_TEXT_MAX_TOKENS
    assert panel.weights_map.cell_texts == []
    assert panel.weights_map.image.image.shape == (n, n)
    type_sentence(panel, "a dog")
    assert len(panel.weights_map.cell_texts) == 4 * 4


def test_bad_input_shows_a_message_and_changes_nothing(make_panel, model, tiny_bert_dir, tmp_path, qtbot):
    panel = make_panel(model, tmp_path / "nowhere")
    before = model.scenario
    with qtbot.waitSignal(panel.hint) as hint:
        QTest.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)
    assert "no such folder" in hint.args[0]
    assert "no such folder" in panel.status_label.text()
    assert panel.loaded is None and not panel.send_button.isEnabled()

    other = tmp_path / "roberta"
    shutil.copytree(tiny_bert_dir, other)
    (other / "config.json").write_text('{"model_type": "roberta"}', encoding="utf-8")
    assert not panel.open_model(other)
    assert "model_type &quot;roberta&quot; is not supported" in panel.status_label.text()

    assert panel.open_model(tiny_bert_dir)
    type_sentence(panel, "cat " * 45)  # longer than the tiny model's 40 positions
    assert "this model takes at most 40" in panel.status_label.text()
    assert panel.analysis.tokens == ("[CLS]", "i", "love", "beijing", "[SEP]")  # the last good sentence stays
    assert model.scenario is before


def test_models_in_the_hugging_face_cache_are_listed_and_open_when_chosen(qtbot, model, tiny_bert_dir, tmp_path,
                                                                        monkeypatch):
    snapshot = tmp_path / "hf" / "hub" / "models--tiny--bert" / "snapshots" / "0123"
    shutil.copytree(tiny_bert_dir, snapshot)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    panel = TransformerLab(model)
    qtbot.addWidget(panel)
    panel.show()
    combo = panel.models_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["Models on this computer (1)…", "tiny/bert"]
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # a keyboard choice is "activated", as a mouse choice is
    wait_idle(panel)
    assert panel.loaded is not None and panel.loaded.name == "tiny/bert"
    assert panel.analysis.n == 5


def test_missing_packages_say_what_to_install(qtbot, model, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "tokenizers", None)
    panel = TransformerLab(model)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.missing_label.isVisible() and panel.install_label.isVisible()
    assert panel.install_label.text() == 'pip install "attention-explorer[model]"'
    assert "tokenizers" in panel.missing_label.text()
    assert not panel.empty_open_button.isEnabled() and not panel.available
    with qtbot.waitSignal(panel.hint) as hint:
        assert panel.open_dialog() is False
    assert "attention-explorer[model]" in hint.args[0]


def test_language_change_retranslates_static_texts(opened):
    panel = opened
    panel.open_button.setText("x")
    panel.tabs.setTabText(2, "y")
    QApplication.sendEvent(panel, QEvent(QEvent.Type.LanguageChange))
    assert panel.open_button.text() == "Open model…"
    assert panel.tabs.tabText(2) == "All heads"


def test_hovering_a_cell_hints_its_numbers(opened, qtbot, tiny_bert_dir):
    panel = opened
    expected = reference(tiny_bert_dir, "I love Beijing", 0, 0)
    with qtbot.waitSignal(panel.hint) as hint:
        panel.weights_map.cell_hovered.emit(2, 4)
    assert hint.args[0].startswith(f"“love” → “[SEP]”: weight {expected.weights[2, 4]:.4f}")


# ---------------------------------------------------------------- malformed models (issue 11, section 4)


def _malformed_cache(tmp_path, tiny_bert_dir):
    """A Hugging Face cache with the issue's four malformed BERTs and one good one; returns its HF_HOME."""
    hub = tmp_path / "hf" / "hub"
    for number, case in enumerate(ISSUE_CONFIGS):
        snapshot = hub / f"models--broken--m{number}" / "snapshots" / "1"
        shutil.copytree(tiny_bert_dir, snapshot)
        (snapshot / "config.json").write_text(MALFORMED_CONFIGS[case][0], encoding="utf-8")
    shutil.copytree(tiny_bert_dir, hub / "models--tiny--bert" / "snapshots" / "1")
    return tmp_path / "hf"


def _choose(combo, index):
    """Open the combo's list and click one of its entries, as a user does."""
    combo.showPopup()
    view = combo.view()
    rect = view.visualRect(view.model().index(index, 0))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())


@pytest.fixture
def malformed_window(qtbot, tmp_path, monkeypatch, tiny_bert_dir):
    """A main window whose Hugging Face cache holds the malformed models."""
    from PySide6.QtCore import QSettings

    from attention_explorer.app import create_window

    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(_malformed_cache(tmp_path, tiny_bert_dir)))
    window = create_window(settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    window.document.data_dir = tmp_path / "appdata"
    window.document.data_dir.mkdir()
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.animator.stop()
    window.document.end_session()


def _visit_transformer_page(window):
    tabs = window.central_tabs
    index = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Real transformer")
    QTest.mouseClick(tabs.tabBar(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     tabs.tabBar().tabRect(index).center())
    assert tabs.currentIndex() == index
    return index


def test_a_malformed_model_in_the_cache_shows_its_own_message_and_the_page_stays_usable(malformed_window, qtbot):
    window = malformed_window
    hint = window.findChild(QLabel, "statusHint")
    _visit_transformer_page(window)
    panel = window.current_page()
    assert isinstance(panel, TransformerLab) and panel.isVisible()  # built, not a blank page
    combo = panel.models_combo
    assert [combo.itemText(i) for i in range(1, combo.count())] == [
        "broken/m0", "broken/m1", "broken/m2", "broken/m3", "tiny/bert"]
    for number, case in enumerate(ISSUE_CONFIGS):
        _choose(combo, 1 + number)
        expected = MALFORMED_CONFIGS[case][1]
        qtbot.waitUntil(lambda expected=expected: expected in panel.status_label.text())
        assert f"m{number}" in panel.status_label.text() and expected in hint.text()
        assert panel.loaded is None and combo.currentIndex() == 0  # nothing half-loaded, the list as it was
    _choose(combo, 5)  # the good model still opens
    qtbot.waitUntil(lambda: panel.analysis is not None)
    assert panel.loaded.name == "tiny/bert" and panel.analysis.n == 5
    _choose(combo, 1)  # a bad one after a good one: its message, and the good model stays shown
    qtbot.waitUntil(lambda: "model_type: expected a string" in panel.status_label.text())
    assert panel.loaded.name == "tiny/bert" and combo.currentText() == "tiny/bert" and panel.tabs.isEnabled()
    window.show_page(0)  # another visit rebuilds nothing and raises nothing
    _visit_transformer_page(window)
    assert window.current_page() is panel


def test_a_malformed_model_opened_from_the_file_menu_shows_its_message(malformed_window, qtbot, tmp_path,
                                                                        monkeypatch):
    window = malformed_window
    folders = iter([tmp_path / "hf" / "hub" / "models--broken--m2" / "snapshots" / "1",
                    tmp_path / "hf" / "hub" / "models--tiny--bert" / "snapshots" / "1"])
    window.show_page(_visit_transformer_page(window))
    panel = window.transformer_lab
    monkeypatch.setattr(panel, "ask_model_folder", lambda: str(next(folders)))
    window.actions_by_name["openModel"].trigger()
    wait_idle(panel)
    assert "not a usable number: an integer with 5000 digits" in panel.status_label.text()
    assert panel.loaded is None and panel.open_button.isEnabled() and panel.models_combo.isEnabled()
    window.actions_by_name["openModel"].trigger()
    wait_idle(panel)
    assert panel.loaded is not None and panel.loaded.name == "tiny/bert"
    assert "not a usable number" not in panel.status_label.text()


def test_a_malformed_model_is_explained_in_chinese(malformed_window, qtbot):
    """The model error and the JSON problem inside it are both translated; the path and field stay as they are."""
    from attention_explorer.ui.i18n.switcher import language_switcher

    window = malformed_window
    window.actions_by_name["lang_zh_CN"].trigger()
    try:
        window.show_page(window.pages.index(window.transformer_lab))
        panel = window.transformer_lab
        _choose(panel.models_combo, 3)  # broken/m2: the 5000-digit integer, a JSON problem inside a model error
        qtbot.waitUntil(lambda: "config.json" in panel.status_label.text())
        text = panel.status_label.text()
        assert "一个 5000 位的整数" in text and "not a usable" not in text
        _choose(panel.models_combo, 1)  # broken/m0: model_type a list, the field named, the kind translated
        qtbot.waitUntil(lambda: "model_type" in panel.status_label.text())
        assert "model_type：应为字符串，却是列表" in panel.status_label.text()
    finally:
        language_switcher().set_language("en")
