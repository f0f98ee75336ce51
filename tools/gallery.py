"""Render every scene of the built-in lecture, every example and every lab page to PNGs, and one contact sheet.

    PYTHONPATH=$PWD python tools/gallery.py [--out DIR] [--only lecture|examples|labs ...]
        [--layout desk|presentation ...] [--lang en|zh_CN ...] [--zoom 1 1.5] [--theme light|contrast ...]
        [--every-step]

Everything at 1280×720, offscreen, in one process and one window (reused, so a run of a few hundred shots takes
minutes, not hours). Each shot is DIR/<kind>-<name>-<layout>-<lang>-z<zoom>-<theme>.png; DIR/contact-sheet.png
puts them all on one page, a thumbnail and its caption each. Look at the sheet first, then at what it flags.
With --every-step the lecture is walked as a clicker walks it (Page Down: each answer, each step, each scene, the
end screen), one shot per press. Under a real X server (DISPLAY set, QT_QPA_PLATFORM=xcb) it shoots real windows.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
from pathlib import Path

# An offscreen screen the size of the hall's projector (Qt's own offscreen screen is 800×800: presentation would
# shrink the window to it).
_SCREEN = Path(tempfile.gettempdir()) / "attention-explorer-gallery-screen.json"
if "QT_QPA_PLATFORM" not in os.environ:
    _SCREEN.write_text('{"screens": [{"name": "hall", "x": 0, "y": 0, "width": 1280, "height": 720, '
                       '"logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}')
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_SCREEN}"

SIZE = (1280, 720)
THUMB_W = 320
CAPTION_H = 34
COLUMNS = 6


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/gallery", help="folder for the PNGs (default /tmp/gallery)")
    parser.add_argument("--only", nargs="+", choices=("lecture", "examples", "labs"),
                        default=["lecture", "examples", "labs"], help="which kinds of page")
    parser.add_argument("--layout", nargs="+", choices=("desk", "presentation"), default=["desk", "presentation"])
    parser.add_argument("--lang", nargs="+", choices=("en", "zh_CN"), default=["en", "zh_CN"])
    parser.add_argument("--zoom", nargs="+", type=float, default=[1.0, 1.5])
    parser.add_argument("--theme", nargs="+", choices=("light", "dark", "contrast"), default=["light", "contrast"])
    parser.add_argument("--every-step", action="store_true",
                        help="the lecture shot after every Page Down (answers and steps), not once per scene")
    return parser.parse_args(argv)


def _settle(app) -> None:
    from PySide6.QtCore import QEvent

    for _ in range(3):
        app.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        app.processEvents()
        # What the event loop would delete by now (a question's cover, a dock group's old tab bar): no loop runs.
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class Gallery:
    """One window, walked through every page in every look asked for."""

    def __init__(self, app, out: Path) -> None:
        from PySide6.QtCore import QSettings

        from attention_explorer.app import create_window

        self.app = app
        self.out = out
        self._folder = tempfile.TemporaryDirectory()
        settings = QSettings(os.path.join(self._folder.name, "settings.ini"), QSettings.Format.IniFormat)
        self.window = create_window(None, settings=settings)
        self.window.ask_unsaved_changes = _discard
        self.window.show_error = lambda title, text: print(f"  error: {title}: {text}", file=sys.stderr)
        self.window.resize(*SIZE)
        self.window.show()
        _settle(app)
        self.shots: list[tuple[Path, str]] = []
        self.every_step = False

    def look(self, layout: str, language: str, zoom: float, mode: str) -> None:
        """Set the window's layout, language, zoom and theme."""
        from attention_explorer.ui.i18n.switcher import language_switcher
        from attention_explorer.ui.style.theme import theme

        window = self.window
        if window.presenting:
            window.leave_presentation()
        language_switcher().set_language(language)
        theme().set_mode(mode)
        theme().set_zoom(zoom)
        window.resize(*SIZE)
        _settle(self.app)
        if layout == "presentation":
            window.enter_presentation()
            window.resize(*SIZE)  # the projector's whole screen (F11): presentation fitted it to the free area
        _settle(self.app)

    def shoot(self, name: str, caption: str) -> None:
        _settle(self.app)
        path = self.out / f"{name}.png"
        self.window.grab().save(str(path))
        self.shots.append((path, caption))
        print(f"  {path.name}")

    def lecture(self, suffix: str) -> None:
        """Every scene of the built-in lecture, as Page Down reaches it (its first step; every step with
        --every-step)."""
        from attention_explorer.core.teaching.lecture import load_built_in

        lessons = self.window.lessons
        lessons.end_lecture()
        lecture = load_built_in()
        lessons.start_lecture(lecture)
        runner = lessons.runner
        if not self.every_step:
            for index in range(len(lecture.scenes)):
                runner.enter(index)
                self.shoot(f"lecture-{index + 1:02d}-{suffix}", f"scene {index + 1} {suffix}")
        else:
            press, scene = 0, 0
            for _ in range(20 * len(lecture.scenes)):  # a guard: each scene has a few steps at most
                if runner.at_end:
                    break
                press = press + 1 if runner.index == scene else 1
                scene = runner.index
                self.shoot(f"lecture-{scene + 1:02d}.{press}-{suffix}", f"scene {scene + 1}.{press} {suffix}")
                runner.next()
            self.shoot(f"lecture-end-{suffix}", f"end screen {suffix}")
        lessons.end_lecture()

    def examples(self, suffix: str) -> None:
        from attention_explorer.core.files.presets import preset_names

        for name in preset_names():
            self.window.open_preset(name)
            self.shoot(f"example-{name}-{suffix}", f"{name} {suffix}")

    def labs(self, suffix: str) -> None:
        tabs = self.window.central_tabs
        for index in range(tabs.count()):
            if not tabs.isTabVisible(index):
                continue
            self.window.show_page(index)
            self.shoot(f"page-{index + 1}-{suffix}", f"page {index + 1} {suffix}")
        self.window.show_page(0)

    def close(self) -> None:
        from attention_explorer.ui.i18n.switcher import language_switcher
        from attention_explorer.ui.style.theme import theme

        self.window.document.end_session()
        self.window.close()
        theme().set_zoom(1.0)
        theme().set_mode("light")
        language_switcher().set_language("en")
        self._folder.cleanup()


def _discard():
    from PySide6.QtWidgets import QMessageBox

    return QMessageBox.StandardButton.Discard


def contact_sheet(shots: list[tuple[Path, str]], path: Path) -> None:
    """A grid of thumbnails, each with its caption below, composed with QPainter."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    thumb_h = round(THUMB_W * SIZE[1] / SIZE[0])
    rows = max(1, math.ceil(len(shots) / COLUMNS))
    sheet = QImage(COLUMNS * (THUMB_W + 8) + 8, rows * (thumb_h + CAPTION_H + 8) + 8, QImage.Format.Format_RGB32)
    sheet.fill(QColor("#D8D8D8"))
    painter = QPainter(sheet)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    font = QFont()
    font.setPixelSize(12)
    painter.setFont(font)
    for number, (shot, caption) in enumerate(shots):
        row, column = divmod(number, COLUMNS)
        x, y = 8 + column * (THUMB_W + 8), 8 + row * (thumb_h + CAPTION_H + 8)
        image = QImage(str(shot))
        painter.drawImage(QRect(x, y, THUMB_W, thumb_h), image)
        painter.setPen(QColor("#202020"))
        painter.drawText(QRect(x, y + thumb_h + 2, THUMB_W, CAPTION_H - 2),
                         Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap, caption)
    painter.end()
    sheet.save(str(path))


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from PySide6.QtWidgets import QApplication

    from attention_explorer.ui.application import configure_application

    app = QApplication.instance() or QApplication([sys.argv[0]])
    configure_application(app, "en")
    gallery = Gallery(app, out)
    gallery.every_step = args.every_step
    try:
        for layout in args.layout:
            for language in args.lang:
                for zoom in args.zoom:
                    for mode in args.theme:
                        suffix = f"{layout}-{language}-z{zoom:g}-{mode}"
                        print(suffix)
                        gallery.look(layout, language, zoom, mode)
                        for kind in args.only:
                            getattr(gallery, kind)(suffix)
    finally:
        gallery.close()
    contact_sheet(gallery.shots, out / "contact-sheet.png")
    print(f"{len(gallery.shots)} shots and {out / 'contact-sheet.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
