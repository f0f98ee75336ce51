"""Frames of a widget rendered by the program at a chosen size (never a screen grab), and the animation written.

A frame is the widget painted into an image through a scaling painter: lines and text are drawn at the frame's
own resolution, not stretched from the screen's pixels, and it works offscreen. A frame of another shape than
the widget is letterboxed on the widget's own background colour.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage, QPainter, QPalette, QRegion
from PySide6.QtWidgets import QWidget

from attention_explorer.core.files.animation import Frames, check_animation, encode
from attention_explorer.ui.widgets.export_file import write_export


def render_frame(widget: QWidget, width: int, height: int) -> QImage:
    """`widget` as it is now, painted into a width × height image (scaled to fit, centred)."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(widget.palette().color(QPalette.ColorRole.Window))
    source_width, source_height = max(1, widget.width()), max(1, widget.height())
    scale = min(width / source_width, height / source_height)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                           | QPainter.RenderHint.SmoothPixmapTransform)
    painter.translate((width - source_width * scale) / 2, (height - source_height * scale) / 2)
    painter.scale(scale, scale)
    widget.render(painter, QPoint(), QRegion(), QWidget.RenderFlag.DrawWindowBackground
                  | QWidget.RenderFlag.DrawChildren)
    painter.end()
    return image


def add_frame(frames: Frames, image: QImage) -> None:
    """Keep `image` (frames' size) as the next frame."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    frames.add(bytes(rgb.constBits()), rgb.bytesPerLine())


def write_animation(path: str | os.PathLike[str], frames: Frames, fmt: str, fps: int) -> int:
    """Encode `frames`, write the file atomically and read it back; the frame count it holds.

    Raises OSError or ScenarioError (a full disk, a name that is a folder, a file that does not read back).
    """
    write_export(path, encode(frames, fmt, fps))
    return check_animation(path, fmt, frames.width, frames.height, len(frames))
