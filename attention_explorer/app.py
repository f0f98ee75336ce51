"""Command line and QApplication set-up: `attention-explorer` and `python -m attention_explorer`.

`compute` and `presets` never import Qt, so they work on a machine with no display at all.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attention_explorer.core import report, sequence
from attention_explorer.core.fileformat import load_any
from attention_explorer.core.presets import DEFAULT_PRESET, load_preset, preset_names
from attention_explorer.core.scenario import Scenario, ScenarioError
from attention_explorer.core.sequence import SequenceScenario

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMainWindow

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments in one line with status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: {message}")


class _UsageError(Exception):
    pass


def _fail(message: str) -> int:
    print(report.terminal_text(message), file=sys.stderr)  # it may quote a file name or a field from the file
    return EXIT_USAGE


def source_file(source: str | os.PathLike[str] | None) -> str | None:
    """The file a source names, or None for a preset name (a file of that name wins) and the default."""
    if source is None:
        return None
    text = os.fspath(source)
    return None if text in preset_names() and not Path(text).exists() else text


def load_source(source: str | os.PathLike[str] | None) -> Scenario | SequenceScenario:
    """A scenario of either kind from a file path or a preset name (None: the default preset)."""
    path = source_file(source)
    if path is not None:
        return load_any(path)
    return load_preset(DEFAULT_PRESET if source is None else os.fspath(source))


def _compute(argv: Sequence[str]) -> int:
    parser = _Parser(prog="attention-explorer compute",
                     description="Print every number of softmax(QK^T/sqrt(d_k))V for a scenario "
                                 '(a single query, or a whole sequence in a "kind": "self" file).')
    parser.add_argument("file", nargs="?", help="scenario file (.json)")
    parser.add_argument("--preset", help="a built-in example instead of a file")
    parser.add_argument("--format", choices=("json", "text"), default="json")
    args = parser.parse_args(argv)
    if (args.file is None) == (args.preset is None):
        raise _UsageError("attention-explorer compute: give exactly one of FILE or --preset NAME")
    if args.file is not None and not args.file:
        raise _UsageError("attention-explorer compute: FILE is empty: give the path of a scenario file")
    name = args.file if args.file is not None else f"preset {args.preset}"
    try:
        scenario = load_any(args.file) if args.file is not None else load_preset(args.preset)
    except ScenarioError as error:
        return _fail(f"attention-explorer: {name}: {error}")
    if isinstance(scenario, SequenceScenario):
        to_json, to_text = sequence.sequence_report_json, sequence.sequence_report_text
    else:
        to_json, to_text = report.to_json, report.to_text
    result = scenario.compute()
    if args.format == "json":
        print(to_json(scenario, result))
    else:
        print(to_text(scenario, result), end="")
    return 0


def _presets(argv: Sequence[str]) -> int:
    parser = _Parser(prog="attention-explorer presets", description="List the built-in examples.")
    parser.parse_args(argv)
    for name in preset_names():
        print(f"{name}\t{report.terminal_text(load_preset(name).title)}")
    return 0


def _gui_parser() -> _Parser:
    parser = _Parser(
        prog="attention-explorer",
        description="See scaled dot-product attention. Subcommands: compute, presets (see COMMAND --help).",
    )
    parser.add_argument("file", nargs="?", help="scenario file (.json) to open")
    parser.add_argument("--preset", help="open a built-in example (see: attention-explorer presets)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    parser.add_argument("--size", default="1600x1000", help="window size for --screenshot, WIDTHxHEIGHT")
    parser.add_argument("--lang", choices=("en", "zh_CN"), help="user interface language")
    parser.add_argument("--theme", choices=("light", "dark", "contrast"), help="colour theme (contrast: projectors)")
    return parser


def _parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise _UsageError(f"attention-explorer: --size: expected WIDTHxHEIGHT, got {text!r}") from None
    if not (320 <= width <= 8000 and 240 <= height <= 8000):
        raise _UsageError(f"attention-explorer: --size: {width}x{height} is out of range (320x240 to 8000x8000)")
    return width, height


def ensure_qt_platform() -> None:
    """Without a display Qt would abort: fall back to offscreen rendering."""
    if sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"


def create_window(source: str | os.PathLike[str] | None = None, settings: QSettings | None = None) -> QMainWindow:
    """The main window on a scenario path or preset name (None: default), not yet shown.

    A file is opened as File ▸ Open does: its name in the title, Save writes to it, and it joins Open Recent.
    """
    from attention_explorer.state.explorer import ExplorerModel
    from attention_explorer.ui.window.main_window import MainWindow

    loaded = load_source(source)
    # A sequence opens in the self-attention lab; the explorer starts on its default example.
    first = load_preset(DEFAULT_PRESET) if isinstance(loaded, SequenceScenario) else loaded
    window = MainWindow(ExplorerModel(first), settings=settings)
    path = source_file(source)
    if path is not None:
        window.open_loaded(path, loaded, ask=False)
    elif isinstance(loaded, SequenceScenario):
        window.open_sequence(loaded)
    return window


def _gui(argv: Sequence[str]) -> int:
    args = _gui_parser().parse_args(argv)
    if args.file is not None and args.preset is not None:
        raise _UsageError("attention-explorer: give a FILE or --preset NAME, not both")
    if args.screenshot is not None and not args.screenshot.strip():
        # An empty name must not fall through to the interactive window (offscreen, it would never return).
        raise _UsageError("attention-explorer: --screenshot: the file name is empty")
    size = _parse_size(args.size)
    source = args.preset if args.preset is not None else args.file
    try:
        if args.preset is not None:
            load_preset(args.preset)
        elif args.file is not None:
            load_any(args.file)
    except ScenarioError as error:
        return _fail(f"attention-explorer: {source}: {error}")
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    else:
        ensure_qt_platform()
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.window.main_window import configure_application

    app = QApplication.instance() or QApplication([sys.argv[0]])
    if args.screenshot is not None:
        with _without_offscreen_notices():
            return _screenshot(app, source, args.lang, size, args.screenshot, args.theme)
    configure_application(app, args.lang)
    window = create_window(source)
    if args.theme:
        from attention_explorer.ui.style.theme import theme

        theme().set_mode(args.theme)
    window.show()
    window.offer_recovery()
    return app.exec()


def _screenshot(app, source: str | None, language: str | None, size: tuple[int, int], out: str,
                theme_mode: str | None = None) -> int:
    """Render the window offscreen to a PNG, with throwaway settings so the user's layout is untouched."""
    import tempfile

    from PySide6.QtCore import QSettings

    from attention_explorer.ui.window.main_window import configure_application

    with tempfile.TemporaryDirectory() as folder:
        settings = QSettings(os.path.join(folder, "settings.ini"), QSettings.Format.IniFormat)
        settings.setValue("language", language or "en")
        settings.setValue("theme", theme_mode or "light")
        configure_application(app, language or "en")
        window = create_window(source, settings=settings)
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
        return _fail(f"attention-explorer: {out}: cannot write the PNG")
    return 0


# What the offscreen platform says each time a window with size constraints is shown: noise, not a problem.
_OFFSCREEN_NOTICES = frozenset({"This plugin does not support propagateSizeHints()"})


@contextlib.contextmanager
def _without_offscreen_notices() -> Iterator[None]:
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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `attention-explorer` command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in ("compute", "presets"):
            return _print_command(_compute if argv[0] == "compute" else _presets, argv[1:])
        if argv and argv[0] == "model":
            from attention_explorer.cli.model import run_model_command

            return _print_command(run_model_command, argv[1:])
        return _gui(argv)
    except _UsageError as error:
        return _fail(str(error))


def _print_command(command: Callable[[Sequence[str]], int], argv: Sequence[str]) -> int:
    """Run a printing subcommand; a closed pipe (`| head`) or a narrow terminal encoding is no traceback."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")  # e.g. a Latin-1 terminal and a label "北京"
    try:
        status = command(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away; point stdout at nothing so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
