"""PLACEHOLDER: replaced by the real panel."""

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget


class VectorCanvas(QWidget):
    hint = Signal(str)

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.setObjectName("vectorCanvas")
        self.model = model
