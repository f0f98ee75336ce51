"""The Pins panel: what changed between each pin and now (scale, scores, weights, entropy, output, θ), signed.

The numbers come from core.scenes.query.pins.compare_pins; the table model formats only the cells on screen, so a
drag with
many keys costs one comparison per move, and nothing while the panel is hidden.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.scenes.query.pins import PinComparison, compare_pins
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.style.numbers import signed_difference, table_value, tooltip_number
from attention_explorer.ui.style.pin_style import pin_colour, pin_name
from attention_explorer.ui.style.safe_text import mnemonic_free
from attention_explorer.ui.style.theme import theme

_ANGLE = "angles"
UPDATE_MS = 50  # the table's numbers follow a drag at 20 per second: reading them faster is impossible anyway


class PinComparisonModel(QAbstractTableModel):
    """Rows: the compared numbers; columns: the quantity, now, then for each pin its value and now − pin."""

    def __init__(self, model: ExplorerModel, parent=None) -> None:
        super().__init__(parent)
        self.model = model
        self.comparison: PinComparison | None = None
        self._bold = QFont()
        self._bold.setBold(True)

    def update(self) -> None:
        """Compare again; reset the table only when its shape changed, else announce new numbers."""
        pins = self.model.pins
        new = compare_pins(self.model.scenario, self.model.result, pins) if pins else None
        old = self.comparison
        same_shape = (old is not None and new is not None and old.rows == new.rows and old.labels == new.labels
                      and old.pinned.shape == new.pinned.shape)
        if same_shape:
            self.comparison = new
            self.dataChanged.emit(self.index(0, 1), self.index(self.rowCount() - 1, self.columnCount() - 1))
            return
        self.beginResetModel()
        self.comparison = new
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if self.comparison is None or (parent is not None and parent.isValid()) else len(self.comparison.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        if self.comparison is None or (parent is not None and parent.isValid()):
            return 0
        return 2 + 2 * self.comparison.pinned.shape[0]

    def _row_name(self, row: int) -> str:
        quantity, index = self.comparison.rows[row]
        label = self.comparison.labels[index] if quantity in ("scores", "weights", _ANGLE) else ""
        names = {"scale": self.tr("scale factor"), "scores": self.tr("q·k {0}"), "weights": self.tr("weight {0}"),
                 "entropy": self.tr("entropy (bits)"), "output": self.tr("output {0}"), _ANGLE: self.tr("θ {0}")}
        return names[quantity].format(index + 1 if quantity == "output" else label)

    def _cell(self, row: int, column: int) -> tuple[str, float]:
        """The text of a number cell and the number it shows."""
        comparison = self.comparison
        quantity = comparison.rows[row][0]
        decimals, unit = (1, "°") if quantity == _ANGLE else (3, "")
        if column == 1:
            value = float(comparison.now[row])
            return table_value(value, decimals, unit), value
        pin, is_delta = divmod(column - 2, 2)
        if is_delta:
            value = float(comparison.deltas[pin, row])
            return signed_difference(value, decimals, unit), value
        value = float(comparison.pinned[pin, row])
        return table_value(value, decimals, unit), value

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if self.comparison is None or not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._row_name(row) if column == 0 else self._cell(row, column)[0]
        if role == Qt.ItemDataRole.ToolTipRole and column > 0:
            value = self._cell(row, column)[1]
            return tooltip_number(value) if math.isfinite(value) else self.tr("not defined here")
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and column > 1 and (column - 2) % 2 == 1:
            text = self._cell(row, column)[0]
            return self._bold if any(digit in text for digit in "123456789") else None  # what changed stands out
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or self.comparison is None:
            return None
        pins = self.model.pins
        if role == Qt.ItemDataRole.DisplayRole:
            if section == 0:
                return ""
            if section == 1:
                return self.tr("now")
            pin = pins[(section - 2) // 2]
            return pin_name(pin) if (section - 2) % 2 == 0 else self.tr("now − {0}").format(pin_name(pin))
        if role == Qt.ItemDataRole.ForegroundRole and section >= 2:
            return pin_colour(pins[(section - 2) // 2])
        return None


class PinsTable(QWidget):
    """A short explanation, a Remove button per pin, and the comparison table."""

    def __init__(self, model: ExplorerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pinsTable")
        self.model = model
        self.intro = QLabel(self)
        self.intro.setObjectName("pinsIntro")
        self.intro.setWordWrap(True)
        self.buttons_row = QHBoxLayout()
        self.buttons_row.setContentsMargins(0, 0, 0, 0)
        self.buttons_row.addStretch(1)
        self.remove_buttons: list[QPushButton] = []
        self.comparison = PinComparisonModel(model, self)
        self.table = QTableView(self)
        self.table.setObjectName("pinsComparison")
        self.table.setModel(self.comparison)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Columns sized by the rows on screen only: measuring up to 1000 rows (Qt's default) on every drag move
        # would cost more than the whole comparison with many keys.
        header.setResizeContentsPrecision(0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.intro)
        layout.addLayout(self.buttons_row)
        layout.addWidget(self.table, 1)
        self._shown_pins: tuple | None = None
        self._numbers_at = 0.0
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.setInterval(UPDATE_MS)
        self._throttle.timeout.connect(self._update_numbers)
        model.changed.connect(self.refresh)
        theme().changed.connect(self._apply_theme)
        self.retranslate()
        self._apply_theme()

    def _apply_theme(self) -> None:
        font = QFont(self.font())
        font.setPointSizeF(theme().font_pt())
        for widget in (self.intro, self.table):
            widget.setFont(font)
        self._shown_pins = None
        self.refresh()

    def retranslate(self) -> None:
        """The texts in the current language (again on LanguageChange)."""
        self.intro.setText(self.tr("What changed since each pin: the numbers now, the pinned ones, and now − pin. "
                                   "P pins the scene (up to three)."))
        self._shown_pins = None
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._shown_pins = None  # nothing was compared while hidden: all of it now
        self.refresh()

    def refresh(self) -> None:
        """The buttons when the pins changed; the numbers whenever the panel is on screen."""
        pins = self.model.pins
        if pins is not self._shown_pins:
            self._shown_pins = pins
            self._rebuild_buttons(pins)
            self.comparison.update()
            self.comparison.headerDataChanged.emit(Qt.Orientation.Horizontal, 0,
                                                   max(self.comparison.columnCount() - 1, 0))
            self._numbers_at = time.monotonic()
        elif self.isVisible() and not self._throttle.isActive():
            # A drag moves many times a second: the numbers follow at most every UPDATE_MS, the last move included.
            if time.monotonic() - self._numbers_at >= UPDATE_MS / 1000:
                self._update_numbers()
            else:
                self._throttle.start()

    def _update_numbers(self) -> None:
        self._numbers_at = time.monotonic()
        self.comparison.update()

    def update_pending(self) -> bool:
        """Whether the table is still to show the latest edit (at most UPDATE_MS after it)."""
        return self._throttle.isActive()

    def _rebuild_buttons(self, pins) -> None:
        while self.remove_buttons:
            button = self.remove_buttons.pop()
            self.buttons_row.removeWidget(button)
            button.deleteLater()
        for index, pin in enumerate(pins):
            button = QPushButton(mnemonic_free(self.tr("✕ Remove {0}").format(pin_name(pin))), self)
            button.setObjectName(f"removePin{index}")
            button.setToolTip(self.tr("Remove this pin (Ctrl+Z brings it back)"))
            button.clicked.connect(lambda _checked=False, i=index: self._remove(i))
            self.buttons_row.insertWidget(index, button)  # before the stretch that keeps them left
            self.remove_buttons.append(button)

    def _remove(self, index: int) -> None:
        try:
            self.model.remove_pin(index)
        except ScenarioError as error:  # a pin removed meanwhile (undo): say so instead of failing
            self.intro.setText(error_text(error))
