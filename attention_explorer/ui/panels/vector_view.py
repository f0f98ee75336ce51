"""The vector editor's table view: Tab through the number cells, the name column kept in view, the clipboard keys.

The item model and the cell delegate are in vector_table.py; the panel around the view is vector_editor.py.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QFrame, QTableView, QWidget

_Move = QAbstractItemView.CursorAction


def _clipboard_key(event: QEvent) -> bool:
    """True for Ctrl+V or Ctrl+C (as the platform spells them)."""
    return isinstance(event, QKeyEvent) and (
        event.matches(QKeySequence.StandardKey.Paste) or event.matches(QKeySequence.StandardKey.Copy))


class NameColumn(QTableView):
    """The name column, laid over the table's first column so that it stays in view when the numbers scroll
    sideways (Qt's "frozen column"). A click on a name selects that key; typing there renames it, in the cell
    the user sees; Tab and → leave it for the row's first number cell; Ctrl+V and Ctrl+C act on the name's row."""

    leave_to_numbers = Signal(int)  # the row whose first number cell takes the focus
    paste_requested = Signal(int)  # Ctrl+V on a name: the row
    copy_requested = Signal(int)  # Ctrl+C on a name: the row

    def __init__(self, table: QTableView) -> None:
        super().__init__(table)
        self.setObjectName("vectorNames")
        self.verticalHeader().hide()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.setMouseTracking(True)
        self.setWordWrap(False)
        self.horizontalHeader().setHighlightSections(False)

    def show_only_names(self) -> None:
        """Hide every column but the first (again after the table's shape changed)."""
        model = self.model()
        for column in range(1, model.columnCount() if model is not None else 0):
            self.setColumnHidden(column, True)

    def event(self, event: QEvent) -> bool:
        if _clipboard_key(event) and event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # before any window-wide shortcut
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        current = self.currentIndex()
        if current.isValid() and _clipboard_key(event):
            # The name's own row: never the number cell that happens to be current in the table below.
            if event.matches(QKeySequence.StandardKey.Paste):
                self.paste_requested.emit(current.row())
            else:
                self.copy_requested.emit(current.row())
            event.accept()
            return
        if current.isValid() and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Right):
            self.leave_to_numbers.emit(current.row())
            event.accept()
            return
        super().keyPressEvent(event)
        if self.state() == QAbstractItemView.State.EditingState:
            # The key went to the name's editor (Qt leaves the event ignored): the table below must not take it
            # too, or it opened its own editor on the number cell and the name's closed.
            event.accept()

    def focusNextPrevChild(self, _next: bool) -> bool:
        return False  # Tab is handled above: it goes to the numbers


class VectorTable(QTableView):
    """The table view: Ctrl+V pastes spreadsheet rows, Ctrl+C copies the current row.

    Its name column stays in view (a NameColumn over it); Tab and Shift+Tab walk the number cells only, row
    after row, and wrap; the current cell is never the name cell hidden under that column, so what is typed
    lands in the cell drawn with the focus.
    """

    paste_requested = Signal()
    copy_requested = Signal()
    left = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = NameColumn(self)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.viewport().stackUnder(self.names)
        self.verticalScrollBar().valueChanged.connect(self.names.verticalScrollBar().setValue)
        self.names.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)
        self.horizontalHeader().sectionResized.connect(self._column_resized)
        self.horizontalScrollBar().valueChanged.connect(self._snap_to_column)
        self.names.leave_to_numbers.connect(self._enter_numbers)

    def setModel(self, model) -> None:
        super().setModel(model)
        self.names.setModel(model)
        model.modelReset.connect(self._reset)
        for signal in (model.columnsInserted, model.layoutChanged):
            signal.connect(self._reshaped)
        self._reshaped()

    def _reset(self) -> None:
        self._end_room = 0  # a reset gave every column its default width
        self._reshaped()

    def _reshaped(self, *_args) -> None:
        self.names.show_only_names()
        self.place_names()

    def _column_resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0:
            self.place_names()

    def place_names(self) -> None:
        """Lay the name column over the first column: its width, the header's height, the rows, the scroll."""
        header = self.horizontalHeader()
        self.names.setColumnWidth(0, self.columnWidth(0))
        self.names.horizontalHeader().setFont(header.font())
        self.names.horizontalHeader().setFixedHeight(header.height())
        self.names.verticalHeader().setDefaultSectionSize(self.verticalHeader().defaultSectionSize())
        frame = self.frameWidth()
        self.names.setGeometry(frame, frame, self.columnWidth(0), header.height() + self.viewport().height())
        self.names.verticalScrollBar().setValue(self.verticalScrollBar().value())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_names()

    def updateGeometries(self) -> None:
        bar = self.horizontalScrollBar()
        kept = bar.value()
        self._laying_out = True  # Qt's range first stops short of the last column stop: no snap to it meanwhile
        try:
            super().updateGeometries()
            self._align_scroll_end()
        finally:
            self._laying_out = False
        if bar.value() != kept:
            bar.setValue(min(kept, bar.maximum()))
        self.place_names()

    # Scrolled sideways, a number column always starts right at the names' edge: no sliver of a cut number
    # beside them. The scroll stops at column starts; where the scroll's natural end is no such start, the scroll
    # goes on a few pixels past the last column, which leaves an empty strip at the right, as a table narrower
    # than its view does. (Widening the last column instead drew it up to a column wider than its numbers.)

    _end_room = 0
    _laying_out = False

    def _column_stops(self) -> list[int]:
        """Horizontal scroll positions at which a number column starts just right of the name column."""
        header = self.horizontalHeader()
        return [header.sectionPosition(column) - self.columnWidth(0) for column in range(1, header.count())]

    def _align_scroll_end(self) -> None:
        """Let the scroll reach the first column start at or past its natural end (Qt sets the range again at
        every layout: this follows it)."""
        header = self.horizontalHeader()
        bar = self.horizontalScrollBar()
        end = header.length() - self.viewport().width()  # the scroll's natural end
        if header.count() < 2 or end <= 0:
            self._end_room = 0
            return
        stop = min((at for at in self._column_stops() if at >= end), default=end)
        self._end_room = stop - end
        if bar.maximum() != stop:
            bar.setRange(0, stop)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        if dx and self.horizontalHeader().offset() != self.horizontalScrollBar().value():
            self.horizontalHeader().setOffset(self.horizontalScrollBar().value())  # past the end: the header too

    def _snap_to_column(self, value: int) -> None:
        if self._laying_out:
            return
        bar = self.horizontalScrollBar()
        stops = [at for at in self._column_stops() if at <= bar.maximum()]
        if stops and value not in stops:
            bar.setValue(min(stops, key=lambda at: abs(at - value)))

    def _editable(self, row: int, column: int) -> bool:
        return bool(self.model().flags(self.model().index(row, column)) & Qt.ItemFlag.ItemIsEditable)

    def _number_cell_after(self, row: int, column: int, step: int) -> QModelIndex:
        """The next (step 1) or previous (step −1) editable number cell in reading order, wrapping around."""
        model = self.model()
        columns = model.columnCount() - 1  # number columns 1…columns
        count = model.rowCount() * columns
        position = row * columns + max(column, 1) - 1
        for _ in range(count):
            position = (position + step) % count
            found_row, found_column = divmod(position, columns)
            if self._editable(found_row, found_column + 1):
                return model.index(found_row, found_column + 1)
        return QModelIndex()

    def moveCursor(self, action, modifiers) -> QModelIndex:
        current = self.currentIndex()
        if current.isValid() and action in (_Move.MoveNext, _Move.MovePrevious):
            found = self._number_cell_after(current.row(), current.column(), 1 if action == _Move.MoveNext else -1)
            return found if found.isValid() else current
        if current.isValid() and action == _Move.MoveLeft and current.column() <= 1:
            self._enter_names(current.row())  # a name is reached with ← (never with Tab)
            return current
        moved = super().moveCursor(action, modifiers)
        if moved.isValid() and moved.column() == 0:
            moved = self.model().index(moved.row(), 1)
        return moved

    def _enter_names(self, row: int) -> None:
        self.names.setCurrentIndex(self.model().index(row, 0))
        self.names.setFocus(Qt.FocusReason.OtherFocusReason)

    def _enter_numbers(self, row: int) -> None:
        self.setCurrentIndex(self.model().index(row, 1))
        self.setFocus(Qt.FocusReason.TabFocusReason)

    def edit(self, index, trigger=QAbstractItemView.EditTrigger.AllEditTriggers, event=None):
        # A name is edited where it is drawn, in the name column over the table, not in the cell hidden under it.
        if index.isValid() and index.column() == 0:
            self._enter_names(index.row())
            return self.names.edit(index, trigger, event)
        return super().edit(index, trigger, event)

    def scrollTo(self, index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        bar = self.horizontalScrollBar()
        if index.isValid() and index.column() == 0:  # a name is always in view: scroll up or down only
            kept = bar.value()
            super().scrollTo(index, hint)
            bar.setValue(kept)
            return
        super().scrollTo(index, hint)
        if index.isValid():  # a cell scrolled to the left edge would sit under the names: bring it out
            hidden = self.columnWidth(0) - self.columnViewportPosition(index.column())
            if hidden > 0:
                bar.setValue(bar.value() - hidden)

    def event(self, event: QEvent) -> bool:
        # Take Ctrl+V/Ctrl+C before any window-wide shortcut does.
        if event.type() == QEvent.Type.ShortcutOverride and _clipboard_key(event):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Paste):
            self.paste_requested.emit()
            event.accept()
            return
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    def leaveEvent(self, event) -> None:
        self.left.emit()
        super().leaveEvent(event)
