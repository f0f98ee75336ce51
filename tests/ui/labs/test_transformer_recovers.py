"""The transformer page always comes back usable (issue 34): after a tokenizer whose pattern panics, and after any
error at all in its loading thread, it shows a message, its controls are enabled, and another model opens."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from attention_explorer.core.pretrained import checkpoint, tokenizer_process
from attention_explorer.ui.labs.transformer.lab import TransformerLab
from tests.helpers import budget
from tests.helpers.tiny_bert import BACKTRACKING_TEXT, SLOW_TEXT, tiny_bert_dir, with_backtracking_tokenizer
from tests.ui.labs.panel_wait import wait_idle

assert tiny_bert_dir  # a fixture: pytest finds it through this import
LEFT = Qt.MouseButton.LeftButton


class PanicException(BaseException):
    """What pyo3 raises for a Rust panic: a BaseException, which `except Exception` lets through."""


@pytest.fixture
def panel(qtbot, model, monkeypatch, tmp_path):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))
    panel = TransformerLab(model)
    qtbot.addWidget(panel)
    panel.resize(560, 460)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def open_with_button(panel, folder):
    panel.ask_model_folder = lambda: str(folder)
    QTest.mouseClick(panel.open_button if panel.open_button.isVisible() else panel.empty_open_button, LEFT)
    wait_idle(panel)


def assert_usable(panel):
    assert not panel.busy and not panel.progress_bar.isVisible()
    for widget in (panel.empty_open_button if panel.loaded is None else panel.open_button, panel.models_combo,
                   panel.sentence_edit, panel.show_button):
        assert widget.isEnabled(), widget.objectName() or type(widget).__name__


def test_a_tokenizer_that_panics_leaves_the_page_usable(panel, tiny_bert_dir, tmp_path):
    """The issue's model: "Reading the tokenizer…" stayed, every control disabled, and no model opened again."""
    folder = with_backtracking_tokenizer(tiny_bert_dir, tmp_path / "backtracking")
    panel.sentence_edit.setText(BACKTRACKING_TEXT)
    open_with_button(panel, folder)
    assert "tokenizer.json: the tokenizer failed on this text (Onig: Regex search error" in panel.status_label.text()
    assert_usable(panel)
    assert panel.loaded is not None and panel.analysis is None  # the model opened; the sentence was refused
    panel.sentence_edit.setText("a cat")
    QTest.mouseClick(panel.show_button, LEFT)
    wait_idle(panel)
    assert panel.analysis is not None and "failed" not in panel.status_label.text()
    open_with_button(panel, tiny_bert_dir)  # and another model opens
    assert panel.loaded.folder == tiny_bert_dir and panel.analysis.tokens == ("[CLS]", "a", "cat", "[SEP]")
    assert_usable(panel)


def test_a_tokenizer_that_runs_too_long_is_stopped_and_the_page_says_what_it_waits_for(panel, tiny_bert_dir, tmp_path,
                                                                                      monkeypatch):
    monkeypatch.setattr(tokenizer_process, "REQUEST_SECONDS", 0.5)
    open_with_button(panel, with_backtracking_tokenizer(tiny_bert_dir, tmp_path / "backtracking"))
    shown_before = panel.analysis
    assert shown_before is not None
    shown = []
    panel.progress_bar.valueChanged.connect(lambda _value: shown.append(panel.progress_bar.text()))
    panel.sentence_edit.setText(SLOW_TEXT)
    started = time.monotonic()
    QTest.mouseClick(panel.show_button, LEFT)
    wait_idle(panel)
    assert time.monotonic() - started < 0.5 + budget.seconds(1.5)
    assert "Splitting the sentence into tokens…" in shown
    assert "tokenizer.json: the tokenizer took more than 0.5 s on this text and was stopped" in (
        panel.status_label.text())
    assert panel.analysis is shown_before  # the last good result stays
    assert_usable(panel)


def test_any_error_in_the_loading_thread_is_shown_and_the_page_stays_usable(panel, tiny_bert_dir, monkeypatch):
    def panics(*_args, **_kwargs):
        raise PanicException("Onig: Regex search error")

    monkeypatch.setattr(checkpoint, "load_checkpoint", panics)
    open_with_button(panel, tiny_bert_dir)
    assert "Something went wrong: PanicException: Onig: Regex search error" in panel.status_label.text()
    assert panel.loaded is None
    assert_usable(panel)
    monkeypatch.undo()
    open_with_button(panel, tiny_bert_dir)
    assert panel.loaded is not None and panel.analysis is not None
    assert "went wrong" not in panel.status_label.text()


def test_any_error_in_a_forward_pass_keeps_the_last_result(panel, tiny_bert_dir, monkeypatch):
    open_with_button(panel, tiny_bert_dir)
    shown = panel.analysis

    def panics(*_args, **_kwargs):
        raise PanicException("half a token")

    monkeypatch.setattr(checkpoint.Checkpoint, "analyse", panics)
    panel.sentence_edit.setText("the cat")
    QTest.mouseClick(panel.show_button, LEFT)
    wait_idle(panel)
    assert "Something went wrong: PanicException: half a token" in panel.status_label.text()
    assert panel.analysis is shown and panel.tabs.isEnabled()
    assert_usable(panel)


def test_the_messages_are_explained_in_chinese(panel, tiny_bert_dir, tmp_path, monkeypatch):
    from attention_explorer.ui.i18n.switcher import language_switcher

    folder = with_backtracking_tokenizer(tiny_bert_dir, tmp_path / "backtracking")
    panel.sentence_edit.setText(BACKTRACKING_TEXT)
    assert language_switcher().set_language("zh_CN")
    try:
        open_with_button(panel, folder)
        assert "tokenizer.json：分词器处理这段文字时出错（Onig" in panel.status_label.text()

        def panics(*_args, **_kwargs):
            raise PanicException("boom")

        monkeypatch.setattr(checkpoint.Checkpoint, "analyse", panics)
        QTest.mouseClick(panel.show_button, LEFT)
        wait_idle(panel)
        assert "出了问题：PanicException: boom" in panel.status_label.text()
    finally:
        language_switcher().set_language("en")
