"""The tokenizer in a process of its own (issue 34): a pattern that panics or backtracks for seconds costs one
message, within a time limit, and the model goes on working; the process ends with the model."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attention_explorer.core.pretrained import tokenizer_process, tokenizer_worker
from attention_explorer.core.pretrained.checkpoint import CheckpointError, load_checkpoint
from tests.helpers import budget
from tests.helpers.tiny_bert import (
    BACKTRACKING_TEXT,
    CONFIG,
    SLOW_TEXT,
    random_tensors,
    tiny_bert_dir,
    with_backtracking_tokenizer,
    write_model,
)

assert tiny_bert_dir  # a fixture: pytest finds it through this import


@pytest.fixture
def backtracking(tiny_bert_dir, tmp_path):
    return with_backtracking_tokenizer(tiny_bert_dir, tmp_path / "backtracking")


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_panicking_pattern_is_one_message_and_the_model_goes_on(backtracking):
    model = load_checkpoint(backtracking)  # loading runs no pattern
    started = time.monotonic()
    with pytest.raises(CheckpointError) as caught:
        model.analyse(BACKTRACKING_TEXT)
    message = str(caught.value)
    assert message.startswith(f"{backtracking / 'tokenizer.json'}: the tokenizer failed on this text (")
    assert "retry-limit" in message and "\n" not in message
    assert time.monotonic() - started < budget.seconds(2.0)
    assert model.analyse("the cat").tokens[0] == "[CLS]"  # a fresh process answers


def test_a_tokenizer_that_runs_too_long_is_stopped(backtracking, monkeypatch):
    monkeypatch.setattr(tokenizer_process, "REQUEST_SECONDS", 0.5)
    model = load_checkpoint(backtracking)
    pid = model.tokenizer._process.pid
    started = time.monotonic()
    with pytest.raises(CheckpointError, match=r"tokenizer\.json: the tokenizer took more than 0\.5 s on this text and "
                                              r"was stopped$"):
        model.analyse(SLOW_TEXT)  # seconds of backtracking, never reaching the library's retry limit
    assert time.monotonic() - started < 0.5 + budget.seconds(1.0)
    assert _gone(pid) and not model.tokenizer.running
    assert model.analyse("a dog").tokens[0] == "[CLS]"  # started again


def test_a_tokenizer_process_that_dies_is_named_and_started_again(tiny_bert_dir):
    model = load_checkpoint(tiny_bert_dir)
    process = model.tokenizer._process
    process.kill()
    process.wait()
    with pytest.raises(CheckpointError, match=r"tokenizer\.json: the tokenizer's process ended unexpectedly \(exit "
                                              r"status -?\d+\)$"):
        model.analyse("the cat")
    assert model.analyse("the cat").tokens == ("[CLS]", "the", "cat", "[SEP]")


def test_the_process_ends_with_the_model(tiny_bert_dir):
    model = load_checkpoint(tiny_bert_dir)
    process = model.tokenizer._process
    assert model.analyse("a dog").n == 4 and process.poll() is None
    del model
    gc.collect()
    assert process.wait(timeout=5) is not None


def test_a_tokenizer_that_does_not_belong_to_the_model_ends_its_process(tmp_path, monkeypatch):
    started = []
    real = tokenizer_process.TokenizerProcess.__init__

    def record(self, path):
        real(self, path)
        started.append(self._process)

    monkeypatch.setattr(tokenizer_process.TokenizerProcess, "__init__", record)
    tensors = random_tensors()
    tensors["embeddings.word_embeddings.weight"] = tensors["embeddings.word_embeddings.weight"][:20]
    folder = write_model(tmp_path / "small-vocabulary", tensors, {**CONFIG, "vocab_size": 20})
    with pytest.raises(CheckpointError, match=r"tokenizer\.json: 27 tokens, but the model has only 20"):
        load_checkpoint(folder)
    assert len(started) == 1 and started[0].wait(timeout=5) is not None


def test_encodings_are_those_of_the_tokenizers_library(tiny_bert_dir):
    from tokenizers import Tokenizer

    theirs = Tokenizer.from_file(str(tiny_bert_dir / "tokenizer.json"))
    theirs.no_padding()
    ours = load_checkpoint(tiny_bert_dir).tokenizer
    for text in ["I love Beijing", "我爱北京天安门", "", "a\u2028b\nc", "the cats sat on a mat, the dog sat."]:
        encoding = theirs.encode(text)
        mine = ours.encode(text)
        assert (mine.ids, mine.tokens, mine.type_ids, mine.attention_mask) == (
            encoding.ids, encoding.tokens, encoding.type_ids, encoding.attention_mask)
    assert ours.vocab_size == theirs.get_vocab_size(with_added_tokens=True)
    assert ours.id_to_token(2) == "[CLS]" and ours.id_to_token(10**6) is None
    assert ours.decode_each([2, 5, 3]) == [theirs.decode([i], skip_special_tokens=False) for i in (2, 5, 3)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_process_has_a_cpu_time_limit(tiny_bert_dir):
    """A worker left running a runaway pattern by an app that was killed ends by itself."""
    model = load_checkpoint(tiny_bert_dir)
    limits = Path(f"/proc/{model.tokenizer._process.pid}/limits").read_text()
    line = next(line for line in limits.splitlines() if line.startswith("Max cpu time"))
    assert line.split()[3] == str(tokenizer_worker.CPU_SECONDS)


@pytest.mark.skipif(sys.platform == "win32", reason="no CPU time limit on Windows")
def test_the_cpu_time_limit_ends_a_runaway():
    code = ("import runpy, sys; worker = runpy.run_path(sys.argv[1]); worker['limit_cpu_time'](1)\n"
            "while True: pass")
    done = subprocess.run([sys.executable, "-c", code, str(tokenizer_process.WORKER)], timeout=60)
    assert done.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
