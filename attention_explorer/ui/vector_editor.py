"""PLACEHOLDER: replaced by the real panel."""

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget


class VectorEditor(QWidget):
    hint = Signal(str)

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.setObjectName("vectorEditor")
        self.model = model
