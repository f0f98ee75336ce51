"""`compute`, `presets` and error lines never hand the terminal a control character from a file."""

from __future__ import annotations

import json
import unicodedata

from tests.cli.test_cli import LIBRARY, run_cli

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x00\x7f\x9b"  # retitle, clear the screen, NUL, DEL, a C1 CSI
ESCAPED = "\\x1b]0;owned\\x07\\x1b[2J\\x00\\x7f\\x9b"


def controls(text: str) -> list[str]:
    return [char for char in text if unicodedata.category(char) == "Cc" and char != "\n"]


def test_compute_text_escapes_controls_in_title_and_labels(tmp_path):
    document = dict(LIBRARY, title="T" + HOSTILE, labels=["a" + HOSTILE, "b\tc", "K3"])
    (tmp_path / "hostile.json").write_text(json.dumps(document), encoding="utf-8")
    process = run_cli("compute", "hostile.json", "--format", "text", cwd=tmp_path)
    assert process.returncode == 0 and process.stderr == b""
    text = process.stdout.decode("utf-8")
    assert controls(text) == []
    assert text.splitlines()[0] == "T" + ESCAPED
    assert "a" + ESCAPED in text and "b\\x09c" in text
    json_text = run_cli("compute", "hostile.json", cwd=tmp_path).stdout.decode("utf-8")
    assert controls(json_text) == [] and json.loads(json_text)["title"] == "T" + HOSTILE


def test_self_attention_text_escapes_controls_in_tokens(tmp_path):
    document = {"kind": "self", "title": HOSTILE, "tokens": ["a" + HOSTILE, "b"], "embeddings": [[1], [2]],
                "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}
    (tmp_path / "self.json").write_text(json.dumps(document), encoding="utf-8")
    for output_format in ("text", "json"):
        process = run_cli("compute", "self.json", "--format", output_format, cwd=tmp_path)
        assert process.returncode == 0, process.stderr
        assert controls(process.stdout.decode("utf-8")) == []
    text = run_cli("compute", "self.json", "--format", "text", cwd=tmp_path).stdout.decode("utf-8")
    assert text.splitlines()[0] == ESCAPED and f"tokens: a{ESCAPED} b" in text


def test_an_error_quoting_the_file_escapes_its_controls(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps(dict(LIBRARY, **{"x" + HOSTILE: 1})), encoding="utf-8")
    process = run_cli("compute", "bad.json", cwd=tmp_path)
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2 and controls(stderr) == [] and stderr.count("\n") == 1
    assert ESCAPED in stderr
