"""`attention-explorer record`: a full turn of a key as GIF, WebP, APNG or MP4, or a lecture as one PNG per step.

Rendered offscreen by the program, frame by frame: the same file on every machine, however fast it is.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from attention_explorer.cli.parser import Parser, UsageError, add_look_arguments, fail, split_size
from attention_explorer.core.files import animation
from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset
from attention_explorer.core.limits import ScenarioError

PROG = "attention-explorer record"
DEFAULT_FPS = 20
DEFAULT_SECONDS = 4  # the window's own turn: 120 steps of 3° every 33 ms
DEFAULT_TURN_SIZE = "960x540"
DEFAULT_LECTURE_SIZE = "1280x720"  # the projector's
LAYOUT = (1280, 720)  # the window is laid out at least this large, then drawn at the chosen size
MAX_LECTURE_PICTURES = 2000  # a guard: a script of at most 200 scenes has far fewer steps


def _parser() -> Parser:
    parser = Parser(prog=PROG, description="Record a full turn of a key (with everything following it) as an "
                                           "animation, or a lecture script as one PNG per scene and step.")
    parser.add_argument("file", nargs="?", help="scenario file (.json) to open")
    parser.add_argument("--preset", help="a built-in example (see: attention-explorer presets)")
    parser.add_argument("--turn", metavar="KEY", help="the key to turn through 360° (its label, e.g. K2, or number)")
    parser.add_argument("--lecture", metavar="FILE", help="a lecture script: one PNG per scene and step into --out")
    parser.add_argument("--out", required=True, help="the animation (.gif, .webp, .png for APNG, .mp4), or with "
                                                     "--lecture a folder")
    parser.add_argument("--size", help=f"frame size, WIDTHxHEIGHT ({DEFAULT_TURN_SIZE}; {DEFAULT_LECTURE_SIZE} "
                                       "for --lecture)")
    parser.add_argument("--fps", type=int, help=f"frames a second, {animation.MIN_FPS}–{animation.MAX_FPS} "
                                                f"(default {DEFAULT_FPS})")
    parser.add_argument("--seconds", type=int, help=f"length of the turn, {animation.MIN_SECONDS}–"
                                                    f"{animation.MAX_SECONDS} (default {DEFAULT_SECONDS})")
    add_look_arguments(parser)
    return parser


def _size(text: str) -> tuple[int, int]:
    width, height = split_size(text, PROG)
    try:
        animation.check_size(width, height)
    except ScenarioError:
        raise UsageError(f"{PROG}: --size: {width}x{height} is out of range ({animation.MIN_SIDE}x"
                         f"{animation.MIN_SIDE} to {animation.MAX_WIDTH}x{animation.MAX_HEIGHT})") from None
    return width, height


def _in_range(name: str, value: int | None, low: int, high: int, default: int) -> int:
    if value is None:
        return default
    if not low <= value <= high:
        raise UsageError(f"{PROG}: --{name}: {value} is out of range ({low} to {high})")
    return value


def _check_arguments(args) -> None:
    """Every combination that cannot run: one line, before anything is read or drawn."""
    if (args.turn is None) == (args.lecture is None):
        raise UsageError(f"{PROG}: give --turn KEY or --lecture FILE" + ("" if args.turn is None else ", not both"))
    if args.file is not None and args.preset is not None:
        raise UsageError(f"{PROG}: give a FILE or --preset NAME, not both")
    if not args.out.strip():
        raise UsageError(f"{PROG}: --out: the name is empty")
    if args.lecture is not None:
        for name in ("file", "preset", "fps", "seconds"):
            if getattr(args, name) is not None:
                option = "FILE" if name == "file" else f"--{name}"
                raise UsageError(f"{PROG}: {option} is for --turn, not --lecture")
        if Path(args.out).exists() and not Path(args.out).is_dir():
            raise UsageError(f"{PROG}: --out: {args.out} is a file, not a folder")
        return
    fmt = animation.format_of(args.out)
    if fmt is None:
        raise UsageError(f"{PROG}: --out: {args.out}: expected a .gif, .webp, .png (APNG) or .mp4 file")
    if fmt == "mp4" and not animation.mp4_available():
        raise UsageError(f"{PROG}: --out: MP4 needs imageio-ffmpeg, the optional extra 'video' "
                         "(pip install 'attention-explorer[video]')")


def run_record(argv: Sequence[str]) -> int:
    """Parse, check and record; the exit status."""
    args = _parser().parse_args(argv)
    _check_arguments(args)
    lecture = args.lecture is not None
    size = _size(args.size or (DEFAULT_LECTURE_SIZE if lecture else DEFAULT_TURN_SIZE))
    fps = _in_range("fps", args.fps, animation.MIN_FPS, animation.MAX_FPS, DEFAULT_FPS)
    seconds = _in_range("seconds", args.seconds, animation.MIN_SECONDS, animation.MAX_SECONDS, DEFAULT_SECONDS)
    source = args.lecture if lecture else (args.preset if args.preset is not None else args.file)
    try:
        if args.preset is not None:
            loaded = load_preset(args.preset)
        elif source is not None:
            loaded = load_file(source)
        else:
            loaded = load_preset(DEFAULT_PRESET)
    except ScenarioError as error:
        return fail(f"{PROG}: {source}: {error}")
    from attention_explorer.core.scenes.query.scene import Scenario
    from attention_explorer.core.teaching.lecture import Lecture

    if lecture and not isinstance(loaded, Lecture):
        raise UsageError(f"{PROG}: --lecture: {source} is not a lecture script")
    if not lecture and not isinstance(loaded, Scenario):
        raise UsageError(f"{PROG}: --turn: {source} has no query and keys to turn (open it in the window)")
    key = None if lecture else _key_index(args.turn, loaded.labels, loaded.n, required=False)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from attention_explorer.cli.gui import without_offscreen_notices

    with without_offscreen_notices(), _window(source, loaded, args.lang, args.theme, size) as window:
        if not lecture and key is None:  # an example's key as the window names it in --lang (键1…)
            key = _key_index(args.turn, window.model.scenario.labels, loaded.n, required=True, named=loaded.labels)
        try:
            if lecture:
                count = _record_lecture(window, Path(args.out), size)
            else:
                count = _record_turn(window, key, Path(args.out), size, fps, fps * seconds)
        except (OSError, ScenarioError) as error:
            from attention_explorer.ui.i18n.switcher import error_text

            return fail(f"{PROG}: {args.out}: {error_text(error)}")
    noun = ("picture" if lecture else "frame") + ("" if count == 1 else "s")
    print(f"{args.out}: {count} {noun}")
    return 0


def _key_index(turn: str, labels: Sequence[str], count: int, required: bool,
               named: Sequence[str] = ()) -> int | None:
    """The key --turn names: its label (in the file, or as the window shows it), else its number from 1; None when
    not found and not `required` (the window's names are looked at next)."""
    if turn in labels:
        return list(labels).index(turn)
    if turn.isdigit() and 1 <= int(turn) <= count:
        return int(turn) - 1
    if not required:
        return None
    raise UsageError(f"{PROG}: --turn: no key {turn!r} (the keys: {', '.join(named or labels)}, or 1 to {count})")


@contextlib.contextmanager
def _window(source: str | None, loaded, language: str | None, theme_mode: str | None,
            size: tuple[int, int]) -> Iterator:
    """The window on `loaded`, shown offscreen with throwaway settings, laid out at least 1280×720 in size's shape."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from attention_explorer.cli.gui import create_window
    from attention_explorer.ui.application import configure_application

    app = QApplication.instance() or QApplication([sys.argv[0]])
    scale = max(1.0, LAYOUT[0] / size[0], LAYOUT[1] / size[1])
    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("language", language or "en")
        settings.setValue("theme", theme_mode or "light")
        configure_application(app, language or "en")
        window = create_window(source, settings=settings, loaded=loaded)
        window.resize(round(size[0] * scale), round(size[1] * scale))
        window.show()
        _settle(app)
        try:
            yield window
        finally:
            window.hide()
            window.deleteLater()
            app.processEvents()


def _settle(app) -> None:
    """Let layouts and deferred redraws catch up before a frame is drawn."""
    for _ in range(2):
        app.processEvents()


def _lay_out(app) -> None:
    """Carry out the layout changes an edit asked for, and nothing else: the window itself is never painted, only
    its frames (processEvents painted the whole window offscreen once more for each frame, ~40% of the time)."""
    from PySide6.QtCore import QEvent

    app.sendPostedEvents(None, QEvent.Type.LayoutRequest)


def _record_turn(window, key: int, out: Path, size: tuple[int, int], fps: int, count: int) -> int:
    """`count` frames of a full turn of `key`, the first at 0°, the last one step before 360° (so it loops)."""
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.widgets.recording import add_frame, render_frame, write_animation

    app = QApplication.instance()
    window.model.select_key(key)
    frames = animation.Frames(*size)
    window.animator.start(360.0 / count, timed=False)
    _settle(app)
    for _ in range(count):
        add_frame(frames, render_frame(window, *size))
        window.animator.advance()
        _lay_out(app)
    window.animator.stop()
    return write_animation(out, frames, animation.format_of(out), fps)


def _record_lecture(window, out: Path, size: tuple[int, int]) -> int:
    """One PNG per Page Down, from the first scene to the last step of the last: sceneNN-MM.png."""
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.widgets.export_file import png_bytes, write_export
    from attention_explorer.ui.widgets.recording import render_frame

    app = QApplication.instance()
    out.mkdir(parents=True, exist_ok=True)
    runner = window.lessons.runner
    written, scene, within = 0, -1, 0
    while not runner.at_end and written < MAX_LECTURE_PICTURES:
        within = within + 1 if runner.index == scene else 1
        scene = runner.index
        write_export(out / f"scene{scene + 1:02d}-{within:02d}.png", png_bytes(render_frame(window, *size)))
        written += 1
        runner.next()
        _settle(app)  # a scene may open a lab, load an example, show a question: all of the event loop's work
    return written
