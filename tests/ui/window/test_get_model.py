"""File ▸ Get a model…: the dialog downloads from a local server in the Hub's URL layout (HF_ENDPOINT) through
huggingface_hub's real code, off the UI thread; the real-transformer page then lists and opens the model."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

pytest.importorskip("huggingface_hub", reason="Get a model… needs the 'hub' extra")

from attention_explorer.ui.window.get_model import GetModelDialog
from tests.helpers.hub_server import closed_port_url, start_hub, stop_hub
from tests.helpers.tiny_bert import tiny_bert_dir

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
    stop_hub(hub, server)


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
                                                        "distilgpt2", "SmolLM2-135M", "Qwen2.5-0.5B",
                                                        "bert-base-chinese"]
    assert texts[5] == ("Qwen2.5-0.5B · about 995 MB\n"
                        "a Qwen2 decoder that reads Chinese (RoPE, grouped-query attention): 24 layers × 14 heads")
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
    panel = window.transformer_lab
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
    panel = window.transformer_lab
    panel.refresh_cached_models()
    assert "distilbert/distilgpt2" not in combo_names(panel)
    assert dialog.download_button.isEnabled() and "already" not in dialog.models.item(3).text()
    dialog.close()


def test_closing_the_dialog_mid_way_cancels_and_it_goes_at_once(window, hub, hub_home, qtbot):
    hub.stall_weights = True
    dialog = open_dialog(window)
    choose(dialog, 0)
    QTest.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
    assert hub.weights_started.wait(10)
    assert dialog.close()  # never refused: QApplication.quit() gives up when a window refuses to close
    assert not dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.running, timeout=1000)
    assert dialog.message.text() == "Cancelled; nothing of it was kept."
    assert [path.name for path in hub_home.iterdir()] == []


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


def test_weights_that_do_not_match_the_listing_are_refused_in_the_users_language(window, hub, hub_home, qtbot):
    data = bytearray(hub.files["model.safetensors"])
    data[-1] ^= 0x01
    hub.served["model.safetensors"] = bytes(data)
    window.actions_by_name["lang_zh_CN"].trigger()
    try:
        dialog = open_dialog(window)
        choose(dialog, 0)
        QTest.mouseClick(dialog.download_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not dialog.running, timeout=10_000)
        text = dialog.message.text()
        assert "model.safetensors 与文件列表中的 SHA-256 不符" in text and "\n" not in text
        assert "本机已有" not in dialog.models.item(0).text()
        assert [path.name for path in hub_home.iterdir()] == []
        dialog.close()
    finally:
        window.actions_by_name["lang_en"].trigger()


def test_already_on_this_computer_only_for_a_complete_model(window, hub_home, tiny_bert_dir):
    """A snapshot whose three files are all config.json (what a lying server left before) is not a model."""
    snapshot = hub_home / "models--sentence-transformers--all-MiniLM-L6-v2" / "snapshots" / ("0" * 40)
    blob = snapshot.parent.parent / "blobs" / ("1" * 40)
    blob.parent.mkdir(parents=True)
    blob.write_bytes((tiny_bert_dir / "config.json").read_bytes())
    snapshot.mkdir(parents=True)
    for name in ("config.json", "tokenizer.json", "model.safetensors"):
        (snapshot / name).symlink_to(f"../../blobs/{blob.name}")
    dialog = open_dialog(window)
    assert "already" not in dialog.models.item(0).text()
    (snapshot / "model.safetensors").unlink()
    (snapshot / "tokenizer.json").unlink()
    for name in ("model.safetensors", "tokenizer.json"):
        (snapshot / name).write_bytes((tiny_bert_dir / name).read_bytes())
    dialog.close()
    dialog = open_dialog(window)
    assert "already on this computer" in dialog.models.item(0).text()
    dialog.close()


# The whole program, started as `attention-explorer` starts it, with a download stalled half-way through the
# weights; once the file `go` appears it quits, by closing its window (File ▸ Quit does that) or by
# QApplication.quit() (the session ends).
QUIT_WHILE_DOWNLOADING = """
import sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
from attention_explorer.app import main
how, go = sys.argv[1:]
app = QApplication(["attention-explorer"])
def window():
    return next(w for w in app.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible())
def start():
    window().actions_by_name["getModel"].trigger()
    from attention_explorer.ui.window.get_model import GetModelDialog
    assert window().findChild(GetModelDialog).start_download()
def poll():
    if Path(go).exists():
        print("quitting", flush=True)
        window().close() if how == "close" else app.quit()
    else:
        QTimer.singleShot(20, poll)
QTimer.singleShot(0, start)
QTimer.singleShot(0, poll)
sys.exit(main([]))
"""


@pytest.mark.parametrize("how", ["close", "quit"])
def test_quitting_while_a_download_runs_ends_the_program_cleanly(hub, hub_home, tmp_path, how):
    hub.stall_weights = True
    go = tmp_path / "go"
    root = Path(__file__).resolve().parents[3]
    home = tmp_path / "home"  # settings, recent files and recovery files of this run only
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH") or str(root), QT_QPA_PLATFORM="offscreen",
               HOME=str(home), **{name: str(home / name) for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                                                     "XDG_CACHE_HOME", "XDG_STATE_HOME")})
    child = subprocess.Popen([sys.executable, "-c", QUIT_WHILE_DOWNLOADING, how, str(go)], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert hub.weights_started.wait(60), "the download never reached the weights"
        go.touch()
        start = time.monotonic()
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert out == "quitting\n"
    assert child.returncode == 0, err[-2000:]
    assert "QThread" not in err and "Destroyed while thread" not in err, err[-2000:]
    assert time.monotonic() - start < 3
    assert not (hub_home / "models--sentence-transformers--all-MiniLM-L6-v2").exists()
    assert [path.name for path in hub_home.iterdir()] == []  # the temporary folder went too
