"""`attention-explorer [FILE | --preset NAME]`: the window, or with --screenshot a PNG of it.

Qt is imported only here, inside the functions, so `compute` and `presets` run on a machine without it.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attention_explorer.cli.parser import Parser, UsageError, add_look_arguments, fail, split_size
from attention_explorer.core.files.openfile import load_file
from attention_explorer.core.files.presets import DEFAULT_PRESET, load_preset, preset_names
from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.scene import Scenario

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QMainWindow

    from attention_explorer.core.scenes.cross.scene import CrossScenario
    from attention_explorer.core.scenes.sequence.scene import SequenceScenario
    from attention_explorer.core.teaching.lecture import Lecture


def _gui_parser() -> Parser:
    parser = Parser(
        prog="attention-explorer",
        description="See scaled dot-product attention. Subcommands: compute, presets, model, download, models, record, "
                    "train (see COMMAND --help).",
    )
    parser.add_argument("file", nargs="?", help="scenario file (.json) to open")
    parser.add_argument("--preset", help="open a built-in example (see: attention-explorer presets)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    parser.add_argument("--size", default="1600x1000", help="window size for --screenshot, WIDTHxHEIGHT")
    add_look_arguments(parser)
    return parser


def _parse_size(text: str) -> tuple[int, int]:
    width, height = split_size(text, "attention-explorer")
    if not (320 <= width <= 8000 and 240 <= height <= 8000):
        raise UsageError(f"attention-explorer: --size: {width}x{height} is out of range (320x240 to 8000x8000)")
    return width, height


def source_file(source: str | os.PathLike[str] | None) -> str | None:
    """The file a source names, or None for a preset name (a file of that name wins) and the default."""
    if source is None:
        return None
    text = os.fspath(source)
    return None if text in preset_names() and not Path(text).exists() else text


def load_source(source: str | os.PathLike[str] | None) -> Scenario | SequenceScenario | CrossScenario | Lecture:
    """A scenario of any kind or a lecture script from a file path, or a preset by name (None: the default)."""
    path = source_file(source)
    if path is not None:
        return load_file(path)
    return load_preset(DEFAULT_PRESET if source is None else os.fspath(source))


def ensure_qt_platform() -> None:
    """Without a display Qt would abort: fall back to offscreen rendering."""
    if sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"


def create_window(source: str | os.PathLike[str] | None = None, settings: QSettings | None = None, *,
                  loaded: Scenario | SequenceScenario | CrossScenario | Lecture | None = None) -> QMainWindow:
    """The main window on a scenario path or preset name (None: default), not yet shown.

    A file is opened as File ▸ Open does: its name in the title, Save writes to it, and it joins Open Recent.
    `loaded`: what `source` holds, when the caller has read it already (a 31 MB file is not read twice).
    """
    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.window.main_window import MainWindow

    if loaded is None:
        loaded = load_source(source)
    # A sequence, multi-head or cross file opens in its lab, a lecture at its first scene; the explorer starts on
    # its default example.
    from attention_explorer.ui.i18n.preset_labels import translated_labels

    path = source_file(source)
    first = loaded if isinstance(loaded, Scenario) else load_preset(DEFAULT_PRESET)
    if path is None or first is not loaded:  # an example, not a file: its key names in the window's language
        first = translated_labels(first)
    window = MainWindow(ExplorerModel(first), settings=settings)
    if path is not None:
        window.open_loaded(path, loaded, ask=False)
    elif not isinstance(loaded, Scenario):
        window.open_sequence(loaded)
    return window


def run_gui(argv: Sequence[str]) -> int:
    """The window (until it closes), or with --screenshot a PNG of it; the exit status."""
    args = _gui_parser().parse_args(argv)
    if args.file is not None and args.preset is not None:
        raise UsageError("attention-explorer: give a FILE or --preset NAME, not both")
    if args.screenshot is not None and not args.screenshot.strip():
        # An empty name must not fall through to the interactive window (offscreen, it would never return).
        raise UsageError("attention-explorer: --screenshot: the file name is empty")
    size = _parse_size(args.size)
    source = args.preset if args.preset is not None else args.file
    resume_collector = pause_collector()
    collect_nothing_at_exit()
    try:
        return _start(args, source, size, resume_collector)
    finally:
        resume_collector()


@functools.cache  # registered once, however many windows a process opens
def collect_nothing_at_exit() -> None:
    """When the interpreter exits, spare the collector its last pass over every object (the OS frees them)."""
    # That pass took ~100 ms of closing the window (measured: 1076 → 971 ms for a --screenshot run). Nothing of
    # ours waits for it: settings are synced and recovery files removed when the window closes, not when
    # objects die. Frozen objects are never collected again, so this runs only once the exit has begun.
    atexit.register(gc.freeze)


def pause_collector() -> Callable[[], None]:
    """Switch Python's cyclic garbage collector off; the function returned puts it back as it was."""
    # Start-up makes some 110,000 objects the collector tracks, nearly all alive as long as the window (a few
    # hundred end in cycles); its passes over them were ~60 ms of a ~1 s start (interleaved start-ups,
    # measured). It resumes once the window has painted.
    pending = [gc.isenabled()]  # the state to put back, until it has been
    gc.disable()

    def resume() -> None:
        if pending and pending.pop():
            gc.enable()

    return resume


def _start(args, source: str | None, size: tuple[int, int], resume_collector: Callable[[], None]) -> int:
    """The window (or the screenshot) of parsed `args`: the rest of `run_gui`."""
    try:  # before Qt starts: a bad file gets its one line at once
        if args.preset is not None:
            loaded = load_preset(args.preset)
        elif args.file is not None:
            loaded = load_file(args.file)
        else:
            loaded = load_preset(DEFAULT_PRESET)
    except ScenarioError as error:
        return fail(f"attention-explorer: {source}: {error}")
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    else:
        ensure_qt_platform()
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.application import after_first_paint, configure_application

    app = QApplication.instance() or QApplication([sys.argv[0]])
    if args.screenshot is not None:
        with without_offscreen_notices():
            return _screenshot(app, source, loaded, args.lang, size, args.screenshot, args.theme)
    configure_application(app, args.lang)
    window = create_window(source, loaded=loaded)
    if args.theme:
        from attention_explorer.ui.style.theme import theme

        theme().set_mode(args.theme)
    window.show()
    after_first_paint(window, resume_collector)
    QTimer.singleShot(5000, resume_collector)  # a window that never paints (minimised at once) does not keep it off
    window.offer_recovery()
    return app.exec()


def _screenshot(app: QApplication, source: str | None, loaded: Scenario | SequenceScenario | CrossScenario | Lecture,
                language: str | None, size: tuple[int, int], out: str, theme_mode: str | None = None) -> int:
    """Render the window offscreen to a PNG, with throwaway settings so the user's layout is untouched."""
    import tempfile

    from PySide6.QtCore import QSettings

    from attention_explorer.ui.application import configure_application

    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("language", language or "en")
        settings.setValue("theme", theme_mode or "light")
        configure_application(app, language or "en")
        window = create_window(source, settings=settings, loaded=loaded)
        window.resize(*size)
        window.show()
        for _ in range(3):
            app.processEvents()
        image = window.grab()
        saved = image.save(out, "PNG")
        window.hide()
        window.deleteLater()
        app.processEvents()
    if not saved:
        return fail(f"attention-explorer: {out}: cannot write the PNG")
    return 0


# What the offscreen platform says each time a window with size constraints is shown: noise, not a problem.
_OFFSCREEN_NOTICES = frozenset({"This plugin does not support propagateSizeHints()"})


@contextlib.contextmanager
def without_offscreen_notices() -> Iterator[None]:
    """Qt's messages in this block, but for the offscreen plugin's known notice; the old handler is back after."""
    from PySide6.QtCore import qFormatLogMessage, qInstallMessageHandler

    def handler(mode, context, message: str) -> None:
        if message in _OFFSCREEN_NOTICES:
            return
        if previous is not None:
            previous(mode, context, message)
        else:  # what Qt's default handler prints
            print(qFormatLogMessage(mode, context, message), file=sys.stderr)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)  # None puts Qt's default handler back
