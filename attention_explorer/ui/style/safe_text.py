"""Text from a file (labels, titles, tokens, descriptions, file names) shown as itself, never as markup.

A QLabel, a tooltip and a QMessageBox decide "rich text?" with Qt.mightBeRichText: a label "<b>x</b>" from a
file would turn bold, and "<img src=/dev/zero>" would make Qt read that path until memory runs out. Every
widget that shows a user string goes through this module, and no other code builds HTML from one.
"""

from __future__ import annotations

from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

# What html.escape(text, quote=True) replaces; the html module would load its 100 kB entity table at start-up.
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def escaped(text: str) -> str:
    """`text` for a place inside rich text (HTML, or an HTML attribute): every character shows as itself."""
    return text.translate(_ESCAPES)


def plain_label(label: QLabel) -> QLabel:
    """`label` set to show its text as plain text, whatever it looks like; returned for chaining."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def literal(text: str) -> str:
    """`text` for a place that guesses the format (a tooltip, a message box): it shows as itself there.

    QToolTip and QMessageBox have no plain-text switch one can rely on: they show rich text whenever
    Qt.mightBeRichText says so. A text it would take for markup is escaped and made rich on purpose, with its
    spaces and line breaks kept; any other text is returned unchanged (Qt shows it as plain text already).
    """
    if not QtGui.Qt.mightBeRichText(text):
        return text
    return f"<p style='white-space:pre-wrap'>{escaped(text)}</p>"


def mnemonic_free(text: str) -> str:
    """`text` for a button, a menu entry or a tab: an "&" shows as "&", not as a shortcut mark."""
    return text.replace("&", "&&")


def window_title(text: str) -> str:
    """`text` for setWindowTitle: "[*]" shows as itself, not as the "modified" placeholder."""
    return text.replace("[*]", "[*][*]")
