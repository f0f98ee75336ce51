"""tokenizer.json run in a process of its own, waited for a bounded time: no tokenizer can hang or crash the app.

Why a process: the `tokenizers` library runs the regular expressions a tokenizer.json brings (a pre-tokenizer's
Split, a normaliser's or decoder's Replace) with Oniguruma. A pattern that backtracks catastrophically, such as
`(a+)+$` on "aaa…a!", either runs for as long as the text makes it (every start position may take up to the
library's retry limit), or stops at that limit with a Rust panic, which reaches Python as pyo3's PanicException: a
BaseException that `except Exception` misses, and that kills the thread it happens on. A thread cannot be stopped
from outside, and checking the patterns beforehand cannot tell every slow one from the ordinary ones GPT-2 and
BERT use. A process can be ended: each request gets a time limit, and the process is ended and started afresh
(on the next request) after a timeout, a panic or a crash. The cost is one Python start-up per model (≈ 40 ms)
and a pipe round trip per request (≈ 0.1 ms).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from attention_explorer.core.pretrained.config_fields import CheckpointError

# `python -c BOOT worker.py`: runs the worker file as __main__ without importing this program's package, and
# without the current folder on sys.path (a tokenizers.py lying there must not be imported instead of the library).
BOOT = ("import runpy, sys\n"
        "if not getattr(sys.flags, 'safe_path', False):\n"
        "    del sys.path[0]\n"
        "runpy.run_path(sys.argv[1], run_name='__main__')\n")
WORKER = Path(__file__).with_name("tokenizer_worker.py")
# Starting Python and reading tokenizer.json: the largest real ones (250 000 tokens, 17 MB) take about a second.
LOAD_SECONDS = 30.0
# One request: a real tokenizer takes milliseconds for a page of text.
REQUEST_SECONDS = 5.0


@dataclass(frozen=True)
class Encoded:
    """What `tokenizers.Encoding` gives for one sentence, as plain lists."""

    ids: list[int]
    tokens: list[str]
    type_ids: list[int]
    attention_mask: list[int]


class _Stopped(Exception):
    """The process gave no answer: it took too long ("timeout") or it ended ("exited", with its status)."""

    def __init__(self, reason: str, status: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def _pump(stream: IO[bytes], answers: queue.SimpleQueue) -> None:
    """The reader thread: every line the process writes, then None when it has closed its output."""
    try:
        for line in stream:
            answers.put(line)
    except (OSError, ValueError):
        pass
    answers.put(None)
    try:
        stream.close()
    except OSError:
        pass


def _end(process: subprocess.Popen) -> None:
    """Kill the process (if it still runs) and collect it; closing its input alone would wait on a runaway.

    Its output is closed by the reader thread, which then sees the end of it.
    """
    try:
        process.kill()
    except OSError:
        pass
    try:
        process.stdin.close()
    except OSError:
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _seconds(value: float) -> str:
    return f"{value:g}"


class TokenizerProcess:
    """A tokenizer.json loaded in its own process; encode, decode_each and id_to_token answer within a time limit.

    Every failure is a CheckpointError naming tokenizer.json. The process ends with this object (or at exit).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._answers: queue.SimpleQueue | None = None
        self._finalizer: weakref.finalize | None = None
        with self._lock:
            self.vocab_size: int = self._start()

    # ------------------------------------------------------------ the tokenizers.Tokenizer calls the app makes

    def encode(self, text: str) -> Encoded:
        """The sentence's ids, tokens, token types and attention mask, special tokens added, no padding."""
        answer = self._request({"op": "encode", "text": text}, encoding=True)
        try:
            return Encoded(*(list(answer[key]) for key in ("ids", "tokens", "type_ids", "attention_mask")))
        except (KeyError, TypeError):
            raise self._garbled() from None

    def decode_each(self, ids: list[int]) -> list[str]:
        """Each id decoded on its own (special tokens kept)."""
        answer = self._request({"op": "decode_each", "ids": [int(i) for i in ids]})
        if not isinstance(answer, list) or len(answer) != len(ids):
            raise self._garbled()
        return [str(text) for text in answer]

    def id_to_token(self, token_id: int) -> str | None:
        """The vocabulary's token for an id (None when there is none)."""
        answer = self._request({"op": "id_to_token", "ids": [int(token_id)]})
        if not isinstance(answer, list) or len(answer) != 1:
            raise self._garbled()
        return None if answer[0] is None else str(answer[0])

    def close(self) -> None:
        """End the process now (it is also ended when this object is collected)."""
        with self._lock:
            self._stop()

    @property
    def running(self) -> bool:
        """True while the process is up (it is started again by the next request after a failure)."""
        return self._process is not None and self._process.poll() is None

    # ------------------------------------------------------------ the process

    def _start(self) -> int:
        """Start the process and load tokenizer.json in it; the tokenizer's vocabulary size (added tokens too)."""
        environment = {**os.environ, "RUST_BACKTRACE": "0", "RAYON_NUM_THREADS": "1",
                       "TOKENIZERS_PARALLELISM": "false"}
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", BOOT, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, env=environment,
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
            )
        except (OSError, ValueError) as error:
            raise CheckpointError("{0}: cannot start the tokenizer's process ({1})", self.path,
                                  getattr(error, "strerror", None) or error) from None
        answers: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=_pump, args=(process.stdout, answers), name="tokenizer-output", daemon=True).start()
        self._process, self._answers = process, answers
        self._finalizer = weakref.finalize(self, _end, process)
        try:
            answer = self._ask({"op": "load", "path": str(self.path)}, LOAD_SECONDS)
        except BaseException as stopped:
            self._stop()
            if not isinstance(stopped, _Stopped):
                raise
            if stopped.reason == "timeout":
                raise CheckpointError("{0}: reading the tokenizer took more than {1} s; it was stopped", self.path,
                                      _seconds(LOAD_SECONDS)) from None
            raise CheckpointError("{0}: the tokenizer's process ended while reading it (exit status {1})", self.path,
                                  stopped.status) from None
        if "ok" in answer and isinstance(answer["ok"], dict) and isinstance(answer["ok"].get("vocab_size"), int):
            return answer["ok"]["vocab_size"]
        self._stop()
        if answer.get("error") == "import":
            raise CheckpointError("{0}: the tokenizer's process cannot import tokenizers ({1})", self.path,
                                  str(answer.get("message", ""))[:300])
        raise CheckpointError("{0}: not a tokenizers tokenizer.json ({1})", self.path,
                              str(answer.get("message", "no answer"))[:300])

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # kills and collects the process, once
        self._process, self._answers, self._finalizer = None, None, None

    def _ask(self, request: dict, seconds: float) -> dict:
        """Send one request and wait at most `seconds` for its answer; _Stopped when there is none."""
        process, answers = self._process, self._answers
        try:
            process.stdin.write(json.dumps(request).encode("ascii") + b"\n")
            process.stdin.flush()
        except (OSError, ValueError):
            pass  # it has ended: the reader thread says so
        try:
            line = answers.get(timeout=seconds)
        except queue.Empty:
            raise _Stopped("timeout") from None
        if line is None:
            try:
                status = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                status = None
            raise _Stopped("exited", status)
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise _Stopped("exited", process.poll())
        return answer

    def _request(self, request: dict, encoding: bool = False) -> Any:
        """One request's answer; the process started again first if an earlier failure ended it."""
        with self._lock:
            if self._process is None:
                self._start()
            try:
                answer = self._ask(request, REQUEST_SECONDS)
            except BaseException as stopped:  # Ctrl+C while waiting too: the answer would come to the next request
                self._stop()
                if not isinstance(stopped, _Stopped):
                    raise
                if stopped.reason == "timeout":
                    raise CheckpointError("{0}: the tokenizer took more than {1} s on this text and was stopped",
                                          self.path, _seconds(REQUEST_SECONDS)) from None
                raise CheckpointError("{0}: the tokenizer's process ended unexpectedly (exit status {1})", self.path,
                                      stopped.status) from None
            if "ok" in answer:
                return answer["ok"]
            message = str(answer.get("message", ""))[:300]
            if answer.get("error") == "panic":
                self._stop()  # a panic may leave the library's state half-changed: a fresh process next time
                raise CheckpointError("{0}: the tokenizer failed on this text ({1})", self.path, message)
            if encoding and answer.get("error") == "failed":
                raise CheckpointError("cannot tokenize the text ({0})", message)
            raise CheckpointError("{0}: the tokenizer failed on this text ({1})", self.path, message)

    def _garbled(self) -> CheckpointError:
        with self._lock:
            self._stop()
        return CheckpointError("{0}: the tokenizer's process answered something unexpected", self.path)
