"""Get a model: the download against a local server in the Hub's URL layout, honest and lying.

Whatever the server sends, nothing is written outside the cache, and only a complete model whose every file
matches the listing (size, and SHA-256 or git blob id) is ever listed. HF_HOME sits six folders deep in the test's
temporary folder, so a path climbing out of it with ../ still lands where the test can see it.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("huggingface_hub", reason="downloads need the 'hub' extra")

from attention_explorer.core.pretrained import download
from attention_explorer.core.pretrained.checkpoint import find_cached_checkpoints, load_checkpoint
from attention_explorer.core.pretrained.download import (
    DownloadCancelled,
    DownloadError,
    ProgressMeter,
    cached_snapshot,
    download_model,
    size_text,
)
from tests.helpers.hub_server import COMMIT, WEIGHTS, closed_port_url, git_blob_id, start_hub, stop_hub
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import
REPO = "sentence-transformers/all-MiniLM-L6-v2"
REPOSITORY = "models--sentence-transformers--all-MiniLM-L6-v2"
CLIMB = "../../../../"  # from blobs/, snapshots/ or .locks/models--…/: out of the cache and of HF_HOME


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty HF_HOME deep inside tmp_path (its cache is home / "hub")."""
    home = tmp_path / "jail" / "a" / "b" / "c" / "d" / "hf-home"
    monkeypatch.setenv("HF_HOME", str(home))
    for name in ("HF_HUB_CACHE", "HF_HUB_OFFLINE", "HF_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def hub(tiny_bert_dir, home, monkeypatch):
    """The local Hub, with HF_ENDPOINT pointing at it."""
    hub, server = start_hub(tiny_bert_dir)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    yield hub
    stop_hub(hub, server)


def outside(tmp_path: Path, home: Path) -> list[str]:
    """Everything under tmp_path that is neither HF_HOME's contents nor one of the folders leading to it."""
    leading = {home, *home.parents}
    found = []
    for root, folders, files in os.walk(tmp_path):
        for name in folders + files:
            path = Path(root) / name
            if path not in leading and home not in path.parents:
                found.append(str(path.relative_to(tmp_path)))
    return sorted(found)


def assert_nothing_kept(tmp_path: Path, home: Path) -> None:
    """Nothing outside the cache, nothing listed, no folder, link or temporary file left in the cache."""
    cache = home / "hub"
    assert outside(tmp_path, home) == []
    assert find_cached_checkpoints(cache) == []
    assert cached_snapshot(REPO, cache) is None
    assert not cache.exists() or sorted(os.listdir(cache)) == []


def fails(message_part: str) -> str:
    """The one-line DownloadError of a download from the local Hub."""
    with pytest.raises(DownloadError) as caught:
        download_model(REPO)
    text = str(caught.value)
    assert "\n" not in text and "\r" not in text and len(text) < 300, text
    assert message_part in text, text
    return text


def run_until_cancelled(hub, after: threading.Event) -> float:
    """Start a download in a thread, cancel it once `after` is set; how long the cancel took to take effect."""
    stop = threading.Event()
    outcome = []

    def run():
        try:
            download_model(REPO, cancelled=stop.is_set)
        except BaseException as error:  # the test looks at what it was
            outcome.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    assert after.wait(10)
    time.sleep(0.3)
    stop.set()
    start = time.monotonic()
    worker.join(10)
    took = time.monotonic() - start
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], DownloadCancelled), outcome
    return took


# ---------------------------------------------------------------- an honest Hub


def test_a_download_lands_in_the_cache_and_is_listed(hub, home, tmp_path, tiny_bert_dir):
    reports = []
    snapshot = download_model(REPO, reports.append)
    cache = home / "hub"
    assert snapshot == cache / REPOSITORY / "snapshots" / COMMIT
    assert [(model.name, model.path) for model in find_cached_checkpoints(cache)] == [(REPO, snapshot)]
    assert cached_snapshot(REPO, cache) == snapshot
    assert (snapshot / WEIGHTS).read_bytes() == (tiny_bert_dir / WEIGHTS).read_bytes()
    assert load_checkpoint(snapshot).config.num_layers == 2
    total = sum(len(data) for data in hub.files.values())
    assert reports[-1].done == reports[-1].total == total
    assert [report.done for report in reports] == sorted(report.done for report in reports)
    # Only the listing and the three files, each once.
    assert hub.requests == [f"GET /api/models/{REPO}/revision/main?blobs=true",
                            *(f"GET /{REPO}/resolve/{COMMIT}/{name}"
                              for name in ("config.json", "tokenizer.json", WEIGHTS))]
    # The Hugging Face cache's own layout: blobs named by their hash, the snapshot's files link to them.
    blobs = {name: (tiny_bert_dir / name).read_bytes() for name in ("config.json", "tokenizer.json", WEIGHTS)}
    expected = {git_blob_id(blobs["config.json"]), git_blob_id(blobs["tokenizer.json"]),
                hashlib.sha256(blobs[WEIGHTS]).hexdigest()}
    assert set(os.listdir(cache / REPOSITORY / "blobs")) == expected
    for name in blobs:
        assert (snapshot / name).is_symlink() and os.readlink(snapshot / name).startswith("../../blobs/")
    assert (cache / REPOSITORY / "refs" / "main").read_text() == COMMIT
    assert sorted(os.listdir(cache)) == [REPOSITORY]  # no temporary folder left behind
    assert outside(tmp_path, home) == []


def test_a_second_download_checks_the_files_already_there_and_fetches_nothing_again(hub, home):
    first = download_model(REPO)
    hub.requests.clear()
    reports = []
    assert download_model(REPO, reports.append) == first
    assert hub.requests == [f"GET /api/models/{REPO}/revision/main?blobs=true"]
    assert reports[-1].done == reports[-1].total


def test_a_damaged_blob_in_the_cache_is_fetched_again(hub, home, tiny_bert_dir):
    snapshot = download_model(REPO)
    weights = (snapshot / WEIGHTS).resolve()
    data = bytearray(weights.read_bytes())
    data[-1] ^= 0xFF
    weights.write_bytes(bytes(data))
    hub.requests.clear()
    assert download_model(REPO) == snapshot
    assert f"GET /{REPO}/resolve/{COMMIT}/{WEIGHTS}" in hub.requests
    assert (snapshot / WEIGHTS).read_bytes() == (tiny_bert_dir / WEIGHTS).read_bytes()


def test_the_listing_names_other_files_which_are_never_fetched(hub, home, tmp_path):
    hub.extra_siblings = [{"rfilename": CLIMB + "outside/config.json", "size": 10, "blobId": "0" * 40},
                          {"rfilename": "/etc/passwd", "size": 10, "blobId": "1" * 40},
                          {"rfilename": "pytorch_model.bin", "size": 10, "blobId": "2" * 40}]
    download_model(REPO)
    assert len(hub.requests) == 4 and not any("outside" in r or "passwd" in r or ".bin" in r for r in hub.requests)
    assert outside(tmp_path, home) == []


def test_a_redirect_to_another_path_fetches_there_but_writes_only_in_the_cache(hub, home, tmp_path):
    hub.redirect[WEIGHTS] = f"/{CLIMB}outside/{WEIGHTS}"  # a CDN is elsewhere; the path names nothing local
    hub.redirect["config.json"] = f"{hub.url}/cdn/{CLIMB}outside/config.json"
    hub.repo_commit = CLIMB + "outside"
    snapshot = download_model(REPO)
    assert any(request.startswith("GET /outside/model.safetensors") for request in hub.requests)
    assert find_cached_checkpoints(home / "hub")[0].path == snapshot
    assert outside(tmp_path, home) == []


# ---------------------------------------------------------------- a lying Hub: refused, nothing kept


def test_an_etag_naming_a_path_outside_the_cache_writes_nothing_there(hub, home, tmp_path):
    hub.etag = CLIMB + "outside/config.json"
    # The ETag names nothing: the blobs are named by the listing's hashes, so the files arrive intact.
    snapshot = download_model(REPO)
    assert snapshot.parent.parent == home / "hub" / REPOSITORY
    assert outside(tmp_path, home) == []


def test_a_listing_commit_with_dot_dot_is_refused(hub, home, tmp_path):
    hub.listing_commit = CLIMB + "outside"
    fails("is not a commit id (40 hexadecimal digits)")
    assert_nothing_kept(tmp_path, home)
    assert len(hub.requests) == 1  # nothing fetched after the listing


@pytest.mark.parametrize("commit", [None, 12, "", "0123456789ABCDEF0123456789ABCDEF01234567", "0" * 41, "main"])
def test_a_listing_commit_that_is_no_commit_id_is_refused(hub, home, tmp_path, commit):
    hub.listing_commit = commit
    fails("commit id")
    assert_nothing_kept(tmp_path, home)


def test_a_404_whose_commit_header_climbs_out_creates_nothing(hub, home, tmp_path):
    hub.missing.add("tokenizer.json")
    hub.missing_commit = CLIMB + "outside"
    with pytest.raises(DownloadError) as caught:
        download_model(REPO)
    assert_nothing_kept(tmp_path, home)
    assert "tokenizer.json: the Hub answered 404 (Not Found)" in str(caught.value)


def test_a_listing_without_the_files_needed_is_refused(hub, home, tmp_path):
    hub.listing_body = json.dumps({"sha": COMMIT, "siblings": [
        {"rfilename": CLIMB + "outside/" + name, "size": 5, "blobId": "0" * 40}
        for name in ("config.json", "tokenizer.json", WEIGHTS)]}).encode()
    fails("the model has no config.json, tokenizer.json, model.safetensors, which this program needs")
    assert_nothing_kept(tmp_path, home)


def test_weights_of_the_right_length_but_other_bytes_are_refused(hub, home, tmp_path):
    data = bytearray(hub.files[WEIGHTS])
    data[len(data) // 2] ^= 0x01
    hub.served[WEIGHTS] = bytes(data)
    fails("model.safetensors does not match the listing's SHA-256")
    assert_nothing_kept(tmp_path, home)


def test_a_config_of_other_bytes_is_refused_against_its_git_blob_id(hub, home, tmp_path):
    config = hub.files["config.json"]
    hub.served["config.json"] = config.replace(b'"bert"', b'"BERT"')
    fails("config.json does not match the listing's git blob id")
    assert_nothing_kept(tmp_path, home)


@pytest.mark.parametrize(("lie", "message"), [
    ({"listing_sizes": {WEIGHTS: "abc"}}, 'the listing gives model.safetensors the size "abc"'),
    ({"listing_sizes": {"config.json": -5}}, "the listing gives config.json the size -5"),
    ({"listing_sizes": {"config.json": True}}, "the listing gives config.json the size true"),
    ({"listing_sizes": {"tokenizer.json": 10**30}}, "the listing gives tokenizer.json the size"),
    ({"listing_hashes": {WEIGHTS: CLIMB + "outside"}}, 'gives model.safetensors the hash "../../../../outside"'),
    ({"listing_hashes": {"config.json": "A" * 40}}, "gives config.json the hash"),
    ({"no_lfs": True}, "no SHA-256 for model.safetensors, so it cannot be verified"),
    ({"listing_body": b"<html>busy</html>"}, "the Hub's listing is not usable (not valid JSON)"),
    ({"listing_body": b'{"sha": "' + COMMIT.encode() + b'", "siblings": {"a": 1}}'},
     "the Hub's listing is not usable (it has no list of files)"),
    ({"listing_body": b'[1]'}, "the Hub's listing is not usable (not a JSON object)"),
])
def test_a_listing_that_lies_about_sizes_or_hashes_is_refused(hub, home, tmp_path, lie, message):
    for name, value in lie.items():
        setattr(hub, name, value)
    fails(message)
    assert_nothing_kept(tmp_path, home)
    assert not any("/resolve/" in request for request in hub.requests)


def test_a_file_longer_or_shorter_than_listed_is_refused(hub, home, tmp_path):
    hub.served["tokenizer.json"] = hub.files["tokenizer.json"] + b" " * 10
    fails("tokenizer.json: the Hub sends")
    assert_nothing_kept(tmp_path, home)


@pytest.mark.parametrize("location", ["file:///etc/passwd", "ftp://127.0.0.1/x", "https://[::1", "/loop"])
def test_a_redirect_that_cannot_be_followed_is_refused(hub, home, tmp_path, location):
    hub.redirect[WEIGHTS] = location
    if location == "/loop":
        hub.redirect["loop"] = "/x/resolve/y/loop"
        hub.redirect[WEIGHTS] = "/x/resolve/y/loop"
    fails("model.safetensors")
    assert_nothing_kept(tmp_path, home)


def test_another_family_is_refused_before_its_weights_are_fetched(hub, home, tmp_path):
    config = json.loads(hub.files["config.json"])
    hub.files["config.json"] = json.dumps({**config, "model_type": "roberta"}).encode()
    fails('config.json: model_type "roberta" (BertModel) is not supported; supported: "bert"')
    assert_nothing_kept(tmp_path, home)
    assert not any(WEIGHTS in request for request in hub.requests)


def test_a_500_answers_at_once_without_retrying(hub, home, tmp_path):
    hub.status["config.json"] = 500
    start = time.monotonic()
    fails("config.json: the Hub answered 500")
    assert time.monotonic() - start < 3
    assert_nothing_kept(tmp_path, home)
    assert sum("config.json" in request for request in hub.requests) == 1


def test_a_500_on_the_listing_answers_at_once(hub, home, tmp_path):
    hub.listing_status = 500
    start = time.monotonic()
    fails("the Hub answered 500")
    assert time.monotonic() - start < 3
    assert_nothing_kept(tmp_path, home)
    assert len(hub.requests) == 1


def test_an_invalid_model_id_is_refused_before_anything_is_asked(hub, home, tmp_path):
    for repo in ("../outside", "a/../b", "a/b/c", "a--b/c", "", "a b/c", "a/b\n"):
        with pytest.raises(DownloadError, match="is not a Hub model id"):
            download_model(repo)
    assert hub.requests == []
    assert_nothing_kept(tmp_path, home)


# ---------------------------------------------------------------- slow and stalled servers: cancel at once


def test_cancel_takes_effect_at_once_on_a_server_sending_1_kb_per_second(hub, home, tmp_path):
    hub.rate = 1000
    assert run_until_cancelled(hub, hub.weights_started) < 1.0
    assert_nothing_kept(tmp_path, home)


def test_cancel_takes_effect_at_once_on_a_stalled_server(hub, home, tmp_path):
    hub.stall_weights = True
    assert run_until_cancelled(hub, hub.weights_started) < 1.0
    assert_nothing_kept(tmp_path, home)


def test_a_stalled_server_ends_the_download_with_a_message(hub, home, tmp_path, monkeypatch):
    monkeypatch.setattr(download, "STALL_SECONDS", 0.5)
    hub.stall_weights = True
    start = time.monotonic()
    fails("model.safetensors: the Hub sent nothing for 0.5 s")
    assert time.monotonic() - start < 3
    assert_nothing_kept(tmp_path, home)


def test_a_cancelled_download_leaves_no_model_behind(hub, home, tmp_path):
    hub.weights_gate.clear()
    assert run_until_cancelled(hub, hub.weights_started) < 1.0
    hub.weights_gate.set()
    assert_nothing_kept(tmp_path, home)


def test_a_cancel_keeps_the_model_already_in_the_cache(hub, home, tmp_path):
    snapshot = download_model(REPO)
    blob = (snapshot / WEIGHTS).resolve()
    blob.write_bytes(b"x" * blob.stat().st_size)  # damaged: it is fetched again
    hub.stall_weights = True
    assert run_until_cancelled(hub, hub.weights_started) < 1.0
    assert sorted(os.listdir(home / "hub")) == [REPOSITORY]  # the temporary folder is gone
    assert outside(tmp_path, home) == []


# ---------------------------------------------------------------- what the cache lists


def _snapshot(cache: Path, files: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    snapshot = cache / REPOSITORY / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    for name, data in files.items():
        (snapshot / name).write_bytes(data)
    for name, target in (links or {}).items():
        (snapshot / name).symlink_to(target)
    return snapshot


def test_a_snapshot_with_only_config_json_is_not_on_this_computer(home, tiny_bert_dir):
    cache = home / "hub"
    _snapshot(cache, {"config.json": (tiny_bert_dir / "config.json").read_bytes()})
    assert cached_snapshot(REPO, cache) is None
    assert find_cached_checkpoints(cache) == []


def test_a_snapshot_whose_three_files_are_config_json_is_not_on_this_computer(home, tiny_bert_dir):
    """What a server sending one ETag for every file left behind: three links to config.json's bytes."""
    cache = home / "hub"
    blob = cache / REPOSITORY / "blobs" / ("0" * 40)
    blob.parent.mkdir(parents=True)
    blob.write_bytes((tiny_bert_dir / "config.json").read_bytes())
    _snapshot(cache, {}, {name: f"../../blobs/{blob.name}" for name in ("config.json", "tokenizer.json", WEIGHTS)})
    assert cached_snapshot(REPO, cache) is None
    assert find_cached_checkpoints(cache) == []


def test_a_snapshot_with_cut_off_weights_is_not_on_this_computer(home, tiny_bert_dir):
    cache = home / "hub"
    files = {name: (tiny_bert_dir / name).read_bytes() for name in ("config.json", "tokenizer.json", WEIGHTS)}
    files[WEIGHTS] = files[WEIGHTS][:-100]
    _snapshot(cache, files)
    assert cached_snapshot(REPO, cache) is None
    assert find_cached_checkpoints(cache) == []


def test_a_snapshot_linking_outside_the_cache_is_not_on_this_computer(home, tmp_path, tiny_bert_dir):
    cache = home / "hub"
    files = {name: (tiny_bert_dir / name).read_bytes() for name in ("config.json", "tokenizer.json")}
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / WEIGHTS).write_bytes((tiny_bert_dir / WEIGHTS).read_bytes())
    _snapshot(cache, files, {WEIGHTS: str(tmp_path / "elsewhere" / WEIGHTS)})
    assert cached_snapshot(REPO, cache) is None
    assert find_cached_checkpoints(cache) == []


def test_a_complete_snapshot_is_on_this_computer(home, tiny_bert_dir):
    cache = home / "hub"
    files = {name: (tiny_bert_dir / name).read_bytes() for name in ("config.json", "tokenizer.json", WEIGHTS)}
    snapshot = _snapshot(cache, files)
    assert cached_snapshot(REPO, cache) == snapshot
    assert [model.path for model in find_cached_checkpoints(cache)] == [snapshot]


def test_links_left_outside_by_an_older_download_are_replaced(hub, home, tmp_path):
    cache = home / "hub"
    (tmp_path / "jail" / "outside").mkdir(parents=True)
    decoy = tmp_path / "jail" / "outside" / "config.json"
    decoy.write_text("{}")
    snapshot = cache / REPOSITORY / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").symlink_to(decoy)
    assert download_model(REPO) == snapshot
    assert decoy.read_text() == "{}"  # not written through the link
    assert (snapshot / "config.json").resolve().parent == cache / REPOSITORY / "blobs"


def test_a_repository_folder_leading_outside_the_cache_is_refused(hub, home, tmp_path):
    cache = home / "hub"
    cache.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (cache / REPOSITORY).symlink_to(tmp_path / "elsewhere")
    fails("leads outside it")
    assert os.listdir(tmp_path / "elsewhere") == []
    assert sorted(os.listdir(cache)) == [REPOSITORY]


def test_the_token_goes_to_the_hub_only_never_to_another_host_a_redirect_leads_to(hub, home, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    port = hub.url.rsplit(":", 1)[1]
    hub.redirect[WEIGHTS] = f"http://localhost:{port}/cdn/{WEIGHTS}"  # another origin, the same server
    download_model(REPO)
    sent = dict(hub.authorizations)
    assert sent[f"/api/models/{REPO}/revision/main?blobs=true"] == "Bearer hf_secret"
    assert sent[f"/{REPO}/resolve/{COMMIT}/{WEIGHTS}"] == "Bearer hf_secret"
    assert sent[f"/cdn/{WEIGHTS}"] is None


def test_redirects_never_go_from_https_down_to_http():
    assert download._redirect_target("https://hub.example/a/b", "/c") == "https://hub.example/c"
    assert download._redirect_target("http://hub.example/a", "https://cdn.example/x") == "https://cdn.example/x"
    for location in ("http://cdn.example/x", "file:///etc/passwd", "javascript:alert(1)", "https://[::1"):
        with pytest.raises(download._RefusedRedirect):
            download._redirect_target("https://hub.example/a", location)


def test_not_enough_room_is_said_before_anything_is_fetched(hub, home, tmp_path, monkeypatch):
    monkeypatch.setattr(download.shutil, "disk_usage", lambda path: SimpleNamespace(total=10**9, free=1000))
    fails("not enough free space in")
    assert_nothing_kept(tmp_path, home)
    assert not any("/resolve/" in request for request in hub.requests)


def test_a_temporary_folder_left_by_a_program_that_died_is_removed(hub, home):
    cache = home / "hub"
    old, fresh = cache / ".attention-explorer-download-old", cache / ".attention-explorer-download-fresh"
    for folder in (old, fresh):
        folder.mkdir(parents=True)
        (folder / WEIGHTS).write_bytes(b"half")
    long_ago = time.time() - 7 * 3600
    os.utime(old / WEIGHTS, (long_ago, long_ago))
    os.utime(old, (long_ago, long_ago))
    download_model(REPO)
    assert sorted(os.listdir(cache)) == [fresh.name, REPOSITORY]


@pytest.mark.parametrize("endpoint", ["ftp://hub.example", "huggingface.co", "http://", "http://a b"])
def test_an_endpoint_that_is_no_web_address_is_refused(home, monkeypatch, endpoint):
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    with pytest.raises(DownloadError, match="is not an http or https address"):
        download_model(REPO)


# ---------------------------------------------------------------- no network, and the numbers shown


def test_no_server_gives_one_line_about_the_network(monkeypatch, home):
    url = closed_port_url()
    monkeypatch.setenv("HF_ENDPOINT", url)
    with pytest.raises(DownloadError) as caught:
        download_model(REPO)
    message = str(caught.value)
    assert message.startswith(f"cannot reach {url}: is this computer online? (") and "\n" not in message
    assert find_cached_checkpoints(home / "hub") == []


def test_a_redirect_to_a_host_that_is_down_names_that_host(hub, home, tmp_path):
    down = closed_port_url()
    hub.redirect[WEIGHTS] = f"{down}/cdn/{WEIGHTS}"
    assert fails(f"cannot reach {down}: is this computer online? (").startswith("cannot reach")
    assert_nothing_kept(tmp_path, home)


def test_sizes_and_time_left():
    assert [size_text(n) for n in (812, 41_300, 90_900_000, 1_200_000_000)] == ["812 B", "41.3 KB", "90.9 MB",
                                                                               "1.2 GB"]
    now = iter([0.0, 2.0, 4.0])
    meter = ProgressMeter(1000, clock=lambda: next(now))
    assert meter.add(250, "a").seconds_left == pytest.approx(6.0)  # 250 B in 2 s: 750 B take 6 s more
    last = meter.add(250, "a")
    assert (last.done, last.total, last.seconds_left) == (500, 1000, pytest.approx(4.0))
