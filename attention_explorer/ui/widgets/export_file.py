"""An exported figure written as bytes held in memory, atomically, and checked on the disk afterwards.

Qt's QImage.save and pyqtgraph's exporters write the file themselves and report a full or read-only disk
poorly or not at all (QImage.save's False was dropped; a full disk could leave 0 bytes). Here the picture is
made in memory first, core/files/safety.py writes it (the old file stays whole when that fails), and the file
on the disk must then have every byte: otherwise the export says it failed, and why.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice
from PySide6.QtGui import QImage

from attention_explorer.core.files.safety import atomic_write


class NothingToWrite(Exception):
    """The picture could not be made (an empty or failed rendering): there is nothing to write."""


def png_bytes(image: QImage) -> bytes:
    """`image` encoded as PNG, in memory (empty when Qt could not encode it)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data()) if ok else b""


def write_export(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a figure's bytes to `path`; raises OSError (full, read-only…), ScenarioError (not all bytes reached
    the disk, or the name is a folder or device) or NothingToWrite (no bytes at all)."""
    if not data:
        raise NothingToWrite(QCoreApplication.translate("Export", "the picture could not be made"))
    atomic_write(path, [data])  # checks the size on the disk after the rename
