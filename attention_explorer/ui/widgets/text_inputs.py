"""The widgets that need plain keys (digits, arrows, +/−, Space, Tab) for themselves, while they have the focus."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QAbstractSpinBox, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit

TEXT_INPUTS = (QLineEdit, QAbstractSpinBox, QComboBox, QTextEdit, QPlainTextEdit, QAbstractItemView)
