"""The tokenizer's own process: reads tokenizer.json and answers requests, one JSON line in, one JSON line out.

Started by tokenizer_process.py as `python -c BOOT this_file`, it imports nothing but the standard library and the
`tokenizers` package, not this program's package. A tokenizer.json is data, but the `tokenizers` library runs its
regular expressions, and a hostile or broken one can backtrack for minutes, or panic in Rust (a panic reaches
Python as pyo3's PanicException, a BaseException). Here it can only take this process with it: the app waits for
an answer a bounded time and then ends the process.

Requests: {"op": "load", "path": …} first, then {"op": "encode", "text": …}, {"op": "decode_each", "ids": […]},
{"op": "id_to_token", "ids": […]}. Answers: {"ok": …}, or {"error": kind, "message": …} with kind "failed" (the
library's own error), "panic", "import" (no tokenizers package) or "request" (a request it does not know).
The process ends when its standard input closes (the app ended it, or the app itself ended).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _message(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:300] or type(error).__name__


def _failure(error: BaseException) -> dict:
    """A Rust panic, or the library's own error (a bare Exception for a malformed file)."""
    kind = "panic" if type(error).__name__ == "PanicException" else "failed"
    return {"error": kind, "message": _message(error)}


class _Worker:
    def __init__(self) -> None:
        self.tokenizer: Any = None

    def answer(self, request: dict) -> dict:
        op = request.get("op")
        if op == "load":
            try:
                from tokenizers import Tokenizer
            except ImportError as error:
                return {"error": "import", "message": _message(error)}
            tokenizer = Tokenizer.from_file(str(request["path"]))
            tokenizer.no_padding()  # MiniLM's tokenizer.json pads every input to 128 tokens
            tokenizer.no_truncation()  # an over-long sentence is refused with a message instead of silently cut
            self.tokenizer = tokenizer
            return {"ok": {"vocab_size": tokenizer.get_vocab_size(with_added_tokens=True)}}
        if self.tokenizer is None:
            return {"error": "request", "message": "no tokenizer loaded"}
        if op == "encode":
            encoding = self.tokenizer.encode(str(request["text"]))
            return {"ok": {"ids": list(encoding.ids), "tokens": list(encoding.tokens),
                           "type_ids": list(encoding.type_ids), "attention_mask": list(encoding.attention_mask)}}
        if op == "decode_each":
            return {"ok": [self.tokenizer.decode([int(i)], skip_special_tokens=False) for i in request["ids"]]}
        if op == "id_to_token":
            return {"ok": [self.tokenizer.id_to_token(int(i)) for i in request["ids"]]}
        return {"error": "request", "message": f"unknown request {op!r}"}


# The app ends a request after seconds. But the library holds the interpreter while it runs, so nothing in here can
# watch the clock: if the app itself is killed while a pattern runs away, this process would read that its input
# closed only when the pattern ends. The system ends it after this much CPU time instead; a worker uses a fraction
# of a second in a day of ordinary sentences.
CPU_SECONDS = 300


def limit_cpu_time(seconds: int) -> None:
    """Have the system end this process after `seconds` of CPU time (SIGXCPU), where it can (not on Windows)."""
    try:
        import resource

        _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        limit = seconds if hard == resource.RLIM_INFINITY else min(seconds, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))
    except (ImportError, ValueError, OSError):
        pass


def serve(source=None, sink=None) -> None:
    """Answer requests from `source` (standard input) on `sink` (standard output) until the input ends."""
    source = source if source is not None else sys.stdin.buffer
    sink = sink if sink is not None else sys.stdout.buffer
    worker = _Worker()
    for line in source:
        try:
            request = json.loads(line)
            answer = worker.answer(request) if isinstance(request, dict) else {"error": "request",
                                                                               "message": "not an object"}
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as error:  # PanicException is a BaseException alone
            answer = _failure(error)
        sink.write(json.dumps(answer).encode("ascii") + b"\n")
        sink.flush()


if __name__ == "__main__":
    limit_cpu_time(CPU_SECONDS)
    serve()
