"""The real-transformer page before a model is open: what it does, how to get a model, one button to open one."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QLabel

from attention_explorer.ui.labs.transformer.lab import TransformerLab
from tests.helpers.tiny_bert import tiny_bert_dir
from tests.ui.labs.panel_wait import wait_idle

assert tiny_bert_dir  # a fixture: pytest finds it through this import


@pytest.fixture
def empty_panel(qtbot, monkeypatch, tmp_path):
    """A shown panel with no model and an empty Hugging Face cache; its folder dialog is scripted."""
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))

    def make(model, folder=None):
        panel = TransformerLab(model)
        qtbot.addWidget(panel)
        asked = []
        panel.ask_model_folder = lambda: asked.append(True) or ("" if folder is None else str(folder))
        panel.resize(900, 560)
        panel.show()
        qtbot.waitExposed(panel)
        return panel, asked

    return make


def _visible_texts(panel) -> list[str]:
    return [label.text() for label in panel.findChildren(QLabel) if label.isVisible() and label.text()]


def _visible_buttons(panel) -> list[QAbstractButton]:
    return [button for button in panel.findChildren(QAbstractButton) if button.isVisible()]


def test_without_a_model_the_page_says_what_it_does_and_shows_one_button_instead_of_an_empty_plot(
        empty_panel, model):
    panel, _asked = empty_panel(model)
    texts = _visible_texts(panel)
    assert not any("&quot;" in text or "&amp;" in text for text in texts)
    assert "No model open" in texts
    assert any("runs a real BERT-family model" in text for text in texts)
    assert any("config.json, model.safetensors and tokenizer.json" in text and "Hugging Face cache" in text
               for text in texts)
    assert [button.text() for button in _visible_buttons(panel)] == ["Open model folder…"]
    assert not panel.weights_map.isVisible() and not panel.tabs.isVisible()


def test_missing_packages_show_the_install_command_with_real_quotes(empty_panel, model, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "tokenizers", None)
    panel, _asked = empty_panel(model)
    assert panel.install_label.isVisible()
    assert panel.install_label.textFormat() == Qt.TextFormat.PlainText
    assert 'pip install "attention-explorer[model]"' in _visible_texts(panel)
    assert not any("&quot;" in text for text in _visible_texts(panel))


def test_the_button_opens_the_model_folder_and_then_the_heatmap_replaces_the_empty_state(
        empty_panel, model, tiny_bert_dir):
    panel, asked = empty_panel(model, tiny_bert_dir)
    QTest.mouseClick(panel.empty_open_button, Qt.MouseButton.LeftButton)
    assert asked == [True]  # the open-model path asked for a folder
    wait_idle(panel)
    assert panel.loaded is not None
    assert not panel.empty_state.isVisible() and "No model open" not in _visible_texts(panel)
    assert panel.weights_map.isVisible() and panel.tabs.isVisible()
    assert panel.open_button.isVisible()  # to open another model


def test_a_cancelled_dialog_keeps_the_empty_state(empty_panel, model):
    panel, asked = empty_panel(model)
    QTest.mouseClick(panel.empty_open_button, Qt.MouseButton.LeftButton)
    assert asked == [True] and panel.loaded is None
    assert panel.empty_state.isVisible() and not panel.weights_map.isVisible()


def test_file_open_model_in_the_window_leaves_the_empty_state(make_window, tiny_bert_dir, monkeypatch):
    window = make_window()
    panel = window.transformer_lab
    monkeypatch.setattr(panel, "ask_model_folder", lambda: str(tiny_bert_dir))
    window.open_model_dialog()
    wait_idle(panel)
    assert panel.loaded is not None and panel.weights_map.isVisible() and not panel.empty_state.isVisible()
