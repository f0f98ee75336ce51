"""`compute`, `presets` and error lines never hand the terminal a control character from a file.

compute runs in this process (run_cli_in_process: the same bytes on standard output and error, no interpreter to
start); the window's error line comes from a real process."""

from __future__ import annotations

import json
import unicodedata

from tests.cli.test_cli import LIBRARY, run_cli, run_cli_in_process

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x00\x7f\x9b"  # retitle, clear the screen, NUL, DEL, a C1 CSI
ESCAPED = "\\x1b]0;owned\\x07\\x1b[2J\\x00\\x7f\\x9b"


def controls(text: str) -> list[str]:
    return [char for char in text if unicodedata.category(char) == "Cc" and char != "\n"]


def test_compute_text_escapes_controls_in_title_and_labels(tmp_path):
    document = dict(LIBRARY, title="T" + HOSTILE, labels=["a" + HOSTILE, "b\tc", "K3"])
    (tmp_path / "hostile.json").write_text(json.dumps(document), encoding="utf-8")
    process = run_cli_in_process("compute", "hostile.json", "--format", "text", cwd=tmp_path)
    assert process.returncode == 0 and process.stderr == b""
    text = process.stdout.decode("utf-8")
    assert controls(text) == []
    assert text.splitlines()[0] == "T" + ESCAPED
    assert "a" + ESCAPED in text and "b\\x09c" in text
    json_text = run_cli_in_process("compute", "hostile.json", cwd=tmp_path).stdout.decode("utf-8")
    assert controls(json_text) == [] and json.loads(json_text)["title"] == "T" + HOSTILE


def test_self_attention_text_escapes_controls_in_tokens(tmp_path):
    document = {"kind": "self", "title": HOSTILE, "tokens": ["a" + HOSTILE, "b"], "embeddings": [[1], [2]],
                "w_q": [[1]], "w_k": [[1]], "w_v": [[1]]}
    (tmp_path / "self.json").write_text(json.dumps(document), encoding="utf-8")
    for output_format in ("text", "json"):
        process = run_cli_in_process("compute", "self.json", "--format", output_format, cwd=tmp_path)
        assert process.returncode == 0, process.stderr
        assert controls(process.stdout.decode("utf-8")) == []
    text = run_cli_in_process("compute", "self.json", "--format", "text", cwd=tmp_path).stdout.decode("utf-8")
    assert text.splitlines()[0] == ESCAPED and f"tokens: a{ESCAPED} b" in text


def test_an_error_quoting_the_file_escapes_its_controls(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps(dict(LIBRARY, **{"x" + HOSTILE: 1})), encoding="utf-8")
    process = run_cli_in_process("compute", "bad.json", cwd=tmp_path)
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2 and controls(stderr) == [] and stderr.count("\n") == 1
    assert ESCAPED in stderr


# Right-to-left override, isolates and a mark: a terminal that lays out bidirectional text would reorder what
# follows them ("txt.exe" drawn as "exe.txt"), so they come out escaped like the controls.
BIDI = "\u202etxt.exe\u202c\u2067x\u2069\u200f"
BIDI_ESCAPED = "\\u202etxt.exe\\u202c\\u2067x\\u2069\\u200f"


def bidi_or_controls(text: str) -> list[str]:
    return controls(text) + [char for char in text if unicodedata.bidirectional(char) in (
        "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") or char in "\u200e\u200f\u061c\u2028\u2029"]


def test_compute_escapes_bidi_controls_in_text_and_json(tmp_path):
    document = dict(LIBRARY, title="T" + BIDI, labels=["a" + BIDI, "b\u2028c", "K3"])
    (tmp_path / "bidi.json").write_text(json.dumps(document), encoding="utf-8")
    text = run_cli_in_process("compute", "bidi.json", "--format", "text", cwd=tmp_path).stdout.decode("utf-8")
    assert bidi_or_controls(text) == []
    assert text.splitlines()[0] == "T" + BIDI_ESCAPED and "a" + BIDI_ESCAPED in text and "b\\u2028c" in text
    process = run_cli_in_process("compute", "bidi.json", cwd=tmp_path)
    assert process.returncode == 0 and bidi_or_controls(process.stdout.decode("utf-8")) == []
    assert json.loads(process.stdout)["title"] == "T" + BIDI  # JSON's own escapes: the value reads back the same


def test_every_kinds_report_escapes_bidi_controls(tmp_path):
    from attention_explorer.core.files.presets import preset_path

    for name, token_fields in (("translation", ("target_tokens", "source_tokens")), ("multi-head", ("tokens",)),
                               ("self-attention", ("tokens",))):
        document = json.loads(preset_path(name).read_text(encoding="utf-8"))
        document["title"] = BIDI
        for field in token_fields:
            document[field] = [BIDI] + document[field][1:]
        (tmp_path / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")
        for output_format in ("text", "json"):
            process = run_cli_in_process("compute", f"{name}.json", "--format", output_format, cwd=tmp_path)
            assert process.returncode == 0, process.stderr
            shown = process.stdout.decode("utf-8")
            assert bidi_or_controls(shown) == [], (name, output_format)
            assert BIDI_ESCAPED in shown, (name, output_format)


def test_an_error_line_escapes_bidi_controls_of_the_file_and_its_name(tmp_path):
    (tmp_path / "bad.json").write_text(json.dumps(dict(LIBRARY, **{"x" + BIDI: 1})), encoding="utf-8")
    process = run_cli_in_process("compute", "bad.json", cwd=tmp_path)
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2 and bidi_or_controls(stderr) == [] and BIDI_ESCAPED in stderr
    name = "talk" + BIDI + ".json"
    (tmp_path / name).write_text('{"kind": "lecture", "scenes": [{"steps": 9}]}', encoding="utf-8")
    process = run_cli(name, "--screenshot", "out.png", cwd=tmp_path)
    stderr = process.stderr.decode("utf-8")
    assert process.returncode == 2 and bidi_or_controls(stderr) == [] and stderr.count("\n") == 1
    assert stderr.startswith(f"attention-explorer: talk{BIDI_ESCAPED}.json: scenes[0].steps:")
