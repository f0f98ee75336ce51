"""`attention-explorer download NAME` and `attention-explorer models` against the local Hub, honest and lying.

Status 0 and the folder when a verified model is in the cache, 2 and one line otherwise; nothing outside the
cache; what is printed never hands the terminal a control character or a right-to-left override from the server
or from a folder name.
"""

from __future__ import annotations

import _thread
import json
import os
import shutil
import threading
import unicodedata

import pytest

pytest.importorskip("huggingface_hub", reason="downloads need the 'hub' extra")

from attention_explorer.app import main
from attention_explorer.cli import hub as hub_command
from attention_explorer.core.pretrained.download import size_text
from tests.core.test_download import CLIMB, REPO, REPOSITORY, home, hub, outside
from tests.helpers.hub_server import COMMIT, WEIGHTS
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir and home and hub  # fixtures: pytest finds them through these imports
HOSTILE = "\u202e\x1b]0;owned\x07\x1b[2J\u2066\x9b"


def run(capsys, *args):
    status = main([*args])
    out, err = capsys.readouterr()
    return status, out, err


def unsafe(text: str) -> list[str]:
    """Characters a terminal would act on or that reorder or hide text (newlines between lines are fine)."""
    return [char for char in text if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") and char != "\n"]


def refused(capsys, *args) -> str:
    status, out, err = run(capsys, *args)
    assert status == 2, (status, err)
    assert out == ""
    assert len(err.splitlines()) == 1 and err.startswith("attention-explorer download: "), err
    assert unsafe(err) == []
    return err


def test_download_prints_the_folder_and_models_lists_it(hub, home, tmp_path, capsys, tiny_bert_dir):
    status, out, err = run(capsys, "download", "all-MiniLM-L6-v2")
    snapshot = home / "hub" / REPOSITORY / "snapshots" / COMMIT
    assert (status, out, err) == (0, f"{snapshot}\n", "")
    size = sum((tiny_bert_dir / name).stat().st_size for name in ("config.json", "tokenizer.json", WEIGHTS))
    status, out, err = run(capsys, "models")
    assert (status, err) == (0, "")
    assert out == f"{REPO}\tbert\t{size_text(size)}\t{snapshot}\n"
    assert outside(tmp_path, home) == []


def test_download_takes_any_hub_id_and_the_listed_ids(hub, home, capsys):
    assert run(capsys, "download", "someone/tiny-bert")[0] == 0
    assert run(capsys, "download", "Sentence-Transformers/ALL-MiniLM-L6-v2")[0] == 0
    assert [line.split("\t")[0] for line in run(capsys, "models")[1].splitlines()] == [REPO, "someone/tiny-bert"]
    assert f"GET /api/models/{REPO}/revision/main?blobs=true" in hub.requests


@pytest.mark.parametrize(("lie", "message"), [
    ({"etag": CLIMB + "outside/config.json", "served": {WEIGHTS: b"x"}}, "model.safetensors: the Hub sends 1 bytes"),
    ({"listing_commit": CLIMB + "outside"}, "is not a commit id (40 hexadecimal digits)"),
    ({"missing_commit": CLIMB + "outside", "missing": {"tokenizer.json"}}, "tokenizer.json: the Hub answered 404"),
    ({"listing_sizes": {WEIGHTS: "abc"}}, 'the listing gives model.safetensors the size "abc"'),
    ({"status": {WEIGHTS: 500}}, "model.safetensors: the Hub answered 500 (Internal Server Error)"),
    ({"redirect": {WEIGHTS: "file:///etc/passwd"}}, 'redirected to "file:///etc/passwd", which is refused'),
])
def test_a_lying_hub_gives_status_2_and_nothing_is_kept(hub, home, tmp_path, capsys, lie, message):
    for name, value in lie.items():
        setattr(hub, name, value)
    assert message in refused(capsys, "download", "all-MiniLM-L6-v2")
    assert outside(tmp_path, home) == []
    assert run(capsys, "models")[1] == ""


def test_weights_with_other_bytes_give_status_2(hub, home, tmp_path, capsys):
    data = bytearray(hub.files[WEIGHTS])
    data[100] ^= 0x40
    hub.served[WEIGHTS] = bytes(data)
    assert "model.safetensors does not match the listing's SHA-256" in refused(capsys, "download", "gpt2")
    assert run(capsys, "models")[1] == ""
    assert outside(tmp_path, home) == []


def test_a_model_of_another_family_is_refused(hub, home, capsys):
    hub.files["config.json"] = json.dumps({**json.loads(hub.files["config.json"]), "model_type": "mistral"}).encode()
    assert 'model_type "mistral" (BertModel) is not supported' in refused(capsys, "download", "mistralai/tiny")
    assert not any(WEIGHTS in request for request in hub.requests)


def test_an_unknown_name_is_one_line(home, capsys, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    err = refused(capsys, "download", "no such/model\u202e")
    assert "neither a model of this program" in err and "\\u202e" in err


def test_without_the_hub_a_model_already_here_is_enough(hub, home, capsys, monkeypatch):
    snapshot = home / "hub" / REPOSITORY / "snapshots" / COMMIT
    assert run(capsys, "download", "all-MiniLM-L6-v2")[0] == 0
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    status, out, err = run(capsys, "download", "all-MiniLM-L6-v2")
    assert (status, out) == (0, f"{snapshot}\n")
    assert err == ("attention-explorer download: downloading is switched off on this computer (HF_HUB_OFFLINE is "
                   "set); the copy already on this computer is kept\n")
    assert refused(capsys, "download", "distilgpt2").endswith("(HF_HUB_OFFLINE is set)\n")


def test_server_text_in_a_message_reaches_the_terminal_escaped(hub, home, capsys):
    hub.listing_commit = HOSTILE
    err = refused(capsys, "download", "all-MiniLM-L6-v2")
    assert "\\u202e" in err and "\\u001b" in err


def test_models_escapes_names_and_folders_from_the_cache(home, capsys, tiny_bert_dir):
    snapshot = home / "hub" / f"models--evil{HOSTILE}--x\tname" / "snapshots" / "1"
    shutil.copytree(tiny_bert_dir, snapshot)
    status, out, err = run(capsys, "models")
    assert (status, err) == (0, "")
    assert len(out.splitlines()) == 1
    name, family, _size, folder = out.rstrip("\n").split("\t")  # four fields: the tab in the name is escaped
    assert unsafe(name + family + folder) == []
    assert name == "evil\\u202e\\x1b]0;owned\\x07\\x1b[2J\\u2066\\x9b/x\\x09name" and family == "bert"
    assert folder.endswith("x\\x09name/snapshots/1")


def test_models_on_an_empty_cache_says_how_to_get_one(home, capsys):
    status, out, err = run(capsys, "models")
    assert (status, out) == (0, "")
    assert err == f"attention-explorer models: no model in {home / 'hub'}; get one with: attention-explorer " \
                  "download NAME\n"


def test_a_progress_bar_on_a_terminal(hub, home, capsys, monkeypatch):
    monkeypatch.setattr(hub_command, "_is_terminal", lambda stream: True)
    status, out, err = run(capsys, "download", "all-MiniLM-L6-v2")
    assert status == 0 and out.endswith(f"{COMMIT}\n")
    assert "\r\x1b[Kall-MiniLM-L6-v2 [" in err and "] 100%  89." in err
    assert err.endswith(f"\r\x1b[K{REPO} (bert, {err.split('(bert, ')[1].split(')')[0]}) is on this computer:\n")


def test_the_bar_fits_its_line():
    from attention_explorer.core.pretrained.download import Progress

    bar = hub_command.ProgressBar("bert-base-uncased", None)
    line = bar.line(Progress(41_300_000, 90_900_000, 12.4, WEIGHTS), 80)
    assert line.startswith("bert-base-uncased [") and line.endswith("]  45%  41.3 MB of 90.9 MB · about 12 s left")
    assert len(line) < 80
    assert len(bar.line(Progress(1, 2, 600.0, WEIGHTS), 30)) < 30


def test_ctrl_c_keeps_nothing_and_exits_130(hub, home, tmp_path, capsys):
    hub.stall_weights = True

    def interrupt():
        if hub.weights_started.wait(10):
            _thread.interrupt_main()

    threading.Thread(target=interrupt, daemon=True).start()
    status, out, err = run(capsys, "download", "all-MiniLM-L6-v2")
    assert (status, out) == (130, "")
    assert err == f"attention-explorer download: {REPO}: interrupted; nothing of this download was kept\n"
    assert os.listdir(home / "hub") == []
    assert outside(tmp_path, home) == []
