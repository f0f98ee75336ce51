"""The button beside the middle's tabs that lists every page: at 1280×720 only two or three of the eight tabs fit."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QToolButton


def page_list_button(menu: QMenu) -> QToolButton:
    """A button opening `menu` (View ▸ Labs, the current page checked); its text is set by the window's retranslate."""
    button = QToolButton()
    button.setObjectName("pageListButton")
    button.setMenu(menu)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    button.setAutoRaise(True)
    button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    return button
