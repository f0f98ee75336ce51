"""`attention-explorer TALK.json` with a lecture script: a bad one is one line and status 2, before any window."""

from __future__ import annotations


def test_a_bad_lecture_script_is_one_line_and_status_2(cli_in_process, tmp_path):
    (tmp_path / "talk.json").write_text('{"kind": "lecture", "scenes": [{"steps": 9}]}', encoding="utf-8")
    process = cli_in_process("talk.json", "--screenshot", "out.png", cwd=tmp_path)
    assert process.returncode == 2 and process.stdout == b""
    assert process.stderr.decode() == (
        "attention-explorer: talk.json: scenes[0].steps: expected a whole number from 1 to 4, got 9\n")
    assert not (tmp_path / "out.png").exists()
