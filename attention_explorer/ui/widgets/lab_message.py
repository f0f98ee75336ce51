"""A lab's one-line message under its controls: a refusal in the theme's error colour, or the last thing done."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from attention_explorer.ui.style.safe_text import escaped
from attention_explorer.ui.style.theme import theme


class LabMessage(QLabel):
    """Shows an error (⚠, escaped) until the next good edit, else a status line (rich text the lab escaped)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.error = ""
        self.status = ""
        self.statuses_shown = True  # presentation: errors only ("Opened …" is the desk's, the hall reads the caption)
        self.redraw()

    def show_statuses(self, shown: bool) -> None:
        """Whether the status line shows (errors always do)."""
        self.statuses_shown = shown
        self.redraw()

    def show_error(self, message: str) -> None:
        """A refused edit: plain text, shown until the next good edit."""
        self.error = message
        self.redraw()

    def clear_error(self) -> None:
        """A good edit: the error goes, the status comes back."""
        if self.error:
            self.error = ""
            self.redraw()

    def set_status(self, message: str) -> None:
        """What was just done (rich text, its untrusted parts escaped by the caller)."""
        self.error, self.status = "", message
        self.redraw()

    def redraw(self) -> None:
        """The text in the current theme's colours."""
        if self.error:
            colour = theme().error_hex()
            self.setText(f'<span style="color:{colour}">⚠ {escaped(self.error)}</span>')
        else:
            self.setText(self.status)
        self.setVisible(bool(self.error or (self.status and self.statuses_shown)))
