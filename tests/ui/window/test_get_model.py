"""File ▸ Get a model…: the dialog downloads from a local server in the Hub's URL layout (HF_ENDPOINT) through
huggingface_hub's real code, off the UI thread; the real-transformer page then lists and opens the model."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

pytest.importorskip("huggingface_hub", reason="Get a model… needs the 'hub' extra")

from attention_explorer.ui.window.get_model import GetModelDialog
from tests.hub_server import closed_port_url, start_hub
from tests.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import


@pytest.fixture(scope="module")
def window(make_module_window):
    return make_module_window(size=(1280, 720), discard_changes=True)


@pytest.fixture
def hub_home(tmp_path, monkeypatch):
    """An empty Hugging Face cache of this test's own."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    return tmp_path / "hf-home" / "hub"


@pytest.fixture
def hub(tiny_bert_dir, hub_home, monkeypatch):
    hub, server = start_hub(tiny_bert_dir)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    yield hub
    hub.weights_gate.set()
    server.shutdown()
    server.server_close()


def open_dialog(window) -> GetModelDialog:
    window.actions_by_name["getModel"].trigger()
    dialog = window.findChild(GetModelDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def choose(dialog, row):
    item = dialog.models.item(row)
    QTest.mouseClick(dialog.models.viewport(), Qt.MouseButton.LeftButton,
                     pos=dialog.models.visualItemRect(item).center())
    assert dialog.models.currentRow() == row


def combo_names(panel):
    return [panel.models_combo.itemText(i) for i in range(1, panel.models_combo.count())]


def test_get_a_model_downloads_it_and_the_page_lists_and_opens_it(window, hub, qtbot):
    dialog = open_dialog(window)
    texts = [dialog.models.item(row).text() for row in range(dialog.models.count())]
    assert [text.split(" · ")[0] for text in texts] == ["all-MiniLM-L6-v2", "bert-base-uncased", "gpt2",
                                                        "distilgpt2"]
    assert texts[0] == "all-MiniLM-L6-v2 · about 91 MB\na small sentence encoder built like BERT: 6 layers × 12 heads"
    assert hub.url in dialog.intro.text()
    assert not hub.requests  # nothing is fetched until Download is pressed
    choose(dialog, 0)
    QTest.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert dialog.running and not dialog.download_button.isEnabled()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    total = sum(len(data) for data in hub.files.values())
    assert dialog.progress.value() == dialog.progress.maximum()
    assert dialog.progress_label.text() == f"{total / 1000:.1f} KB of {total / 1000:.1f} KB"
    assert dialog.message.text().startswith("Downloaded sentence-transformers/all-MiniLM-L6-v2 into ")
    assert dialog.models.item(0).text().startswith("all-MiniLM-L6-v2 · about 91 MB · already on this computer\n")
    panel = window.transformer_panel
    assert window.current_page() is panel
    assert "sentence-transformers/all-MiniLM-L6-v2" in combo_names(panel)
    assert panel.loaded is not None and panel.loaded.name == "sentence-transformers/all-MiniLM-L6-v2"
    assert "2 layers × 4 heads" in panel.status_label.text()
    QTest.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_cancel_mid_way_leaves_no_half_model_listed(window, hub, hub_home, qtbot):
    dialog = open_dialog(window)
    hub.weights_gate.clear()
    choose(dialog, 3)
    QTest.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert hub.weights_started.wait(10)  # config.json and tokenizer.json are in, model.safetensors half-way
    qtbot.waitUntil(lambda: " of " in dialog.progress_label.text() and 0 < dialog.progress.value())
    assert dialog.progress.isVisible() and dialog.cancel_button.isEnabled()
    QTest.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert dialog.progress_label.text() == "Cancelling…"
    hub.weights_gate.set()
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    assert dialog.message.text() == "Cancelled; nothing of it was kept."
    assert not (hub_home / "models--distilbert--distilgpt2").exists()
    panel = window.transformer_panel
    panel.refresh_cached_models()
    assert "distilbert/distilgpt2" not in combo_names(panel)
    assert dialog.download_button.isEnabled() and "already" not in dialog.models.item(3).text()
    dialog.close()


def test_no_network_says_so_in_one_line(window, hub_home, monkeypatch, qtbot):
    url = closed_port_url()
    monkeypatch.setenv("HF_ENDPOINT", url)
    dialog = open_dialog(window)
    choose(dialog, 1)
    QTest.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
    text = dialog.message.text()
    assert text.startswith(f"Cannot download: cannot reach {url}: is this computer online? (")
    assert "\n" not in text and dialog.message.isVisible()
    assert dialog.download_button.isEnabled() and dialog.progress_label.text() == ""
    assert not (hub_home / "models--google-bert--bert-base-uncased").exists()
    dialog.close()
