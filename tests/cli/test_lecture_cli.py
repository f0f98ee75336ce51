"""`attention-explorer TALK.json` with a lecture script: a bad one is one line and status 2, before any window."""

from __future__ import annotations


def test_a_bad_lecture_script_is_one_line_and_status_2(cli_in_process, tmp_path):
    (tmp_path / "talk.json").write_text('{"kind": "lecture", "scenes": [{"steps": 9}]}', encoding="utf-8")
    process = cli_in_process("talk.json", "--screenshot", "out.png", cwd=tmp_path)
    assert process.returncode == 2 and process.stdout == b""
    assert process.stderr.decode() == (
        "attention-explorer: talk.json: scenes[0].steps: expected a whole number from 1 to 4, got 9\n")
    assert not (tmp_path / "out.png").exists()


def test_a_lecture_opening_a_lab_example_renders_its_screenshot(tmp_path):
    """The cross-attention and multi-head examples open in their labs, not the explorer (was: exit 1, a traceback)."""
    from tests.cli.test_cli import run_cli

    (tmp_path / "talk.json").write_text(
        '{"kind": "lecture", "scenes": [{"preset": "translation"}, {"preset": "multi-head"}, {"preset": "library"}]}',
        encoding="utf-8")
    process = run_cli("talk.json", "--screenshot", "out.png", "--size", "800x600", cwd=tmp_path)
    assert process.returncode == 0 and b"Traceback" not in process.stderr, process.stderr.decode()[-2000:]
    assert (tmp_path / "out.png").stat().st_size > 0
