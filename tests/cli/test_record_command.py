"""`attention-explorer record`: a turn as a GIF in a fresh offscreen process, a lecture as PNGs, bad arguments."""

from __future__ import annotations

import itertools
import json
import sys

import pytest
from PIL import Image, ImageChops

from attention_explorer.cli import main
from attention_explorer.cli import record as record_command
from attention_explorer.core.files import animation
from tests.cli.test_cli import assert_refused, run_cli


def test_a_turn_of_k2_is_a_gif_of_fps_times_seconds_frames_that_all_differ(tmp_path):
    fps, seconds = 5, 2
    process = run_cli("record", "--preset", "library", "--turn", "K2", "--out", "turn.gif", "--size", "160x90",
                      "--fps", str(fps), "--seconds", str(seconds), "--lang", "zh_CN", cwd=tmp_path,
                      env={"QT_QPA_PLATFORM": "offscreen"}, timeout=120)
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    assert process.stdout.decode() == f"turn.gif: {fps * seconds} frames\n"
    with Image.open(tmp_path / "turn.gif") as image:
        assert image.size == (160, 90) and image.n_frames == fps * seconds
        frames, durations = [], []
        for index in range(image.n_frames):
            image.seek(index)
            frames.append(image.convert("RGB"))
            durations.append(image.info["duration"])
    assert durations == [1000 / fps] * len(frames)
    assert all(ImageChops.difference(a, b).getbbox() for a, b in itertools.pairwise(frames))
    assert ImageChops.difference(frames[0], frames[-1]).getbbox()  # the last frame is not the first again


def test_a_lecture_is_one_png_per_scene_and_step(qapp, tmp_path, capsys):
    scenes = [{"preset": "library", "steps": 2}, {"preset": "orthogonal"}, {"preset": "library", "steps": 4}]
    (tmp_path / "talk.json").write_text(json.dumps({"kind": "lecture", "scenes": scenes}), encoding="utf-8")
    status = main(["record", "--lecture", str(tmp_path / "talk.json"), "--out", str(tmp_path / "slides"),
                   "--size", "160x90"])
    # Page Down reveals the steps a scene holds back (from `steps` to all four), then moves on.
    expected = [f"scene{number:02d}-{within:02d}.png" for number, scene in enumerate(scenes, 1)
                for within in range(1, 4 - scene.get("steps", 4) + 2)]
    assert status == 0 and capsys.readouterr().out == f"{tmp_path / 'slides'}: {len(expected)} pictures\n"
    assert sorted(path.name for path in (tmp_path / "slides").iterdir()) == expected == [
        "scene01-01.png", "scene01-02.png", "scene01-03.png", "scene02-01.png", "scene03-01.png"]
    with Image.open(tmp_path / "slides" / "scene01-01.png") as first, \
            Image.open(tmp_path / "slides" / "scene01-03.png") as last:
        assert first.size == (160, 90) and ImageChops.difference(first.convert("RGB"), last.convert("RGB")).getbbox()


def test_turn_takes_a_key_by_the_name_the_window_gives_it_in_chinese(qapp, tmp_path, capsys):
    from attention_explorer.ui.i18n.switcher import language_switcher

    try:
        status = main(["record", "--preset", "code-review", "--turn", "调用链", "--lang", "zh_CN", "--out",
                       str(tmp_path / "one.gif"), "--size", "32x32", "--fps", "1", "--seconds", "1"])
    finally:
        language_switcher().set_language("en")
    assert status == 0 and capsys.readouterr().out == f"{tmp_path / 'one.gif'}: 1 frame\n"
    with Image.open(tmp_path / "one.gif") as image:
        assert image.size == (32, 32) and image.n_frames == 1


@pytest.mark.parametrize(("args", "message"), [
    ([], "give --turn KEY or --lecture FILE"),
    (["--turn", "K2", "--lecture", "talk.json"], "give --turn KEY or --lecture FILE, not both"),
    (["--turn", "K9"], "--turn: no key 'K9' (the keys: K1, K2, K3, or 1 to 3)"),
    (["--turn", "K2", "--out", "turn.avi"], "--out: turn.avi: expected a .gif, .webp, .png (APNG) or .mp4 file"),
    (["--turn", "K2", "--size", f"{animation.MAX_WIDTH + 1}x90"],
     "--size: 1921x90 is out of range (32x32 to 1920x1080)"),
    (["--turn", "K2", "--size", f"160x{animation.MIN_SIDE - 1}"], "--size: 160x31 is out of range"),
    (["--turn", "K2", "--fps", str(animation.MAX_FPS + 1)], "--fps: 51 is out of range (1 to 50)"),
    (["--turn", "K2", "--fps", str(animation.MIN_FPS - 1)], "--fps: 0 is out of range (1 to 50)"),
    (["--turn", "K2", "--seconds", str(animation.MAX_SECONDS + 1)], "--seconds: 61 is out of range (1 to 60)"),
    (["--lecture", "talk.json", "--fps", "5"], "--fps is for --turn, not --lecture"),
])
def test_bad_arguments_are_one_line_and_status_2(cli_in_process, tmp_path, args, message):
    out = ["--out", "turn.gif"] if "--out" not in args else []
    preset = ["--preset", "library"] if "--turn" in args and "--lecture" not in args else []
    process = cli_in_process("record", *preset, *args, *out, cwd=tmp_path)
    assert_refused(process, f"attention-explorer record: {message}")
    assert list(tmp_path.iterdir()) == []


def test_a_lab_example_has_no_key_to_turn(cli_in_process, tmp_path):
    process = cli_in_process("record", "--preset", "translation", "--turn", "1", "--out", "t.gif", cwd=tmp_path)
    assert_refused(process, "--turn: translation has no query and keys to turn")


def test_mp4_without_imageio_ffmpeg_says_which_extra_to_install(cli_in_process, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    process = cli_in_process("record", "--preset", "library", "--turn", "K2", "--out", "t.mp4", cwd=tmp_path)
    assert_refused(process, "MP4 needs imageio-ffmpeg", "attention-explorer[video]")


def test_the_limits_themselves_are_accepted():
    assert record_command._size(f"{animation.MAX_WIDTH}x{animation.MAX_HEIGHT}") == (1920, 1080)
    assert record_command._size(f"{animation.MIN_SIDE}x{animation.MIN_SIDE}") == (32, 32)
    for name, low, high in (("fps", animation.MIN_FPS, animation.MAX_FPS),
                            ("seconds", animation.MIN_SECONDS, animation.MAX_SECONDS)):
        assert record_command._in_range(name, low, low, high, 7) == low
        assert record_command._in_range(name, high, low, high, 7) == high
