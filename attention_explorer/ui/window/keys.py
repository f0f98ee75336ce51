"""The main window's plain keys: digits and Tab select keys, arrows turn, +/− stretch, Space/Esc play, step-through."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from attention_explorer.core.limits import ScenarioError
from attention_explorer.core.maths.geometry import rotate_in_plane, stretch
from attention_explorer.ui.i18n.switcher import error_text
from attention_explorer.ui.widgets.step_banner import BlankScreen
from attention_explorer.ui.widgets.text_inputs import TEXT_INPUTS
from attention_explorer.ui.window.presenter_keys import PresenterKeys
from attention_explorer.ui.window.workspace_pages import history_key_goes_to_window

# A presenter's clicker sends these (Page Down/Up, some → / ←, B for blank); in step-through they step wherever the
# focus is, unless a field is being typed in.
# Both of the window's Redo keys (actions.py), whatever the platform's standard one is.
_REDO_KEYS = (QKeyCombination(Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier, Qt.Key.Key_Z),
              QKeyCombination(Qt.KeyboardModifier.ControlModifier, Qt.Key.Key_Y))
CLICKER_KEYS = (Qt.Key.Key_PageDown, Qt.Key.Key_PageUp, Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_B,
                Qt.Key.Key_Escape)


class KeyDispatch(PresenterKeys):
    """Mixed into MainWindow: the application-wide event filter that runs the plain-key actions."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Plain-key actions (digits, arrows, Space…) unless a text field or table has the focus."""
        # Every event of the application passes here: the isinstance test is several times cheaper than type().
        if not isinstance(event, QKeyEvent):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            # Undo/Redo in a field whose typing was entered already: the field would take the keys for its own
            # undo; kept from it, they undo the window's last step (the field's edit among them).
            return self._history_key(event)
        if event.type() == QEvent.Type.KeyRelease and self.isActiveWindow():
            return self.presenter_key_released(event)  # the spotlight's key let go
        if event.type() != QEvent.Type.KeyPress or not self.isActiveWindow():
            return False
        if self._blank is not None and self._blank.isVisible():
            self._blank.hide()  # any key shows the window again, as in a slide show
            return True
        if self.keys_list_shown:
            return self.presenter_key_pressed(event)  # any key closes the list of keys
        focus = QApplication.focusWidget()
        if focus is not None and (isinstance(focus, TEXT_INPUTS) or not self.isAncestorOf(focus)):
            if not (event.key() == Qt.Key.Key_Escape and self.animator.running) and not self._clicker_key(focus, event):
                return False
        return self.handle_key(event)

    _blank: BlankScreen | None = None

    def _history_key(self, event: QKeyEvent) -> bool:
        """True (the field does not take the key) for Undo or Redo pressed in a field of this window that has nothing
        of its own to undo; the window's shortcut then runs."""
        if not (event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo)
                or event.keyCombination() in _REDO_KEYS):
            return False
        focus = QApplication.focusWidget()
        return focus is not None and self.isAncestorOf(focus) and history_key_goes_to_window(focus)

    def _clicker_key(self, focus: QWidget, event: QKeyEvent) -> bool:
        """True for a step-through key pressed while the focus is on a read-only text (the steps panel) or a table."""
        stepping = self.model.step_through or self.lessons.lecture_active
        if not stepping or event.key() not in CLICKER_KEYS or not self.isAncestorOf(focus):
            return False
        if isinstance(focus, (QTextEdit, QPlainTextEdit)):
            return focus.isReadOnly()
        # A table keeps its arrows for moving between cells; Page Down/Up and B still step and blank.
        return isinstance(focus, QAbstractItemView) and event.key() not in (Qt.Key.Key_Right, Qt.Key.Key_Left)

    def toggle_blank_screen(self) -> None:
        """B in step-through: a black screen over the window, or the window again."""
        if self._blank is None:
            self._blank = BlankScreen(self)
        self._blank.toggle()

    def handle_key(self, event: QKeyEvent) -> bool:
        """Run the plain-key action matching `event`; True when one ran."""
        if event.isAutoRepeat() and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Tab):
            return True
        if self.presenter_key_pressed(event):  # ?, S held, Home, Esc on a lecture's end screen
            return True
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        key = event.key()
        if self.model.step_through and modifiers == Qt.KeyboardModifier.NoModifier:
            if key == Qt.Key.Key_Right:
                self.lessons.next()  # a question or a lecture scene may come first
                return True
            if key == Qt.Key.Key_Left:
                self.lessons.previous()
                return True
            if key == Qt.Key.Key_B:
                self.toggle_blank_screen()
                return True
        if key == Qt.Key.Key_Escape and modifiers == Qt.KeyboardModifier.NoModifier and not self.animator.running:
            # Esc leaves one thing at a time, the innermost first: a turn (the action below), step-through,
            # then the presentation layout.
            if self.model.step_through:
                self.model.set_step_through(False)
                return True
            if self.presenting:
                self.leave_presentation()
                return True
        if key == Qt.Key.Key_Backtab:
            key, modifiers = Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Minus, Qt.Key.Key_Equal):
            modifiers &= ~Qt.KeyboardModifier.ShiftModifier  # '+' needs Shift on many layouts
            if key == Qt.Key.Key_Equal:
                key = Qt.Key.Key_Plus
        pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(key)))
        for action in self.actions_by_name.values():
            if action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut or not action.isEnabled():
                continue
            if action.shortcut().matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                action.trigger()
                return True
        return False

    def select_key(self, index: int, wrap: bool = False) -> None:
        """Select key `index` (from 0); out of range does nothing unless `wrap` goes round."""
        count = self.model.scenario.n
        if wrap:
            index %= count
        if 0 <= index < count:
            self.model.select_key(index)

    def select_next_key(self) -> None:
        """Tab: the next key, after the last the first."""
        self.select_key(self.model.selected_key + 1, wrap=True)

    def select_previous_key(self) -> None:
        """Shift+Tab: the previous key, before the first the last."""
        self.select_key(self.model.selected_key - 1, wrap=True)

    def rotate_selected(self, degrees: float) -> None:
        """Turn the selected key in the plane of components 0 and 1."""
        index = self.model.selected_key
        self._edit_selected(lambda: rotate_in_plane(self.model.scenario.keys[index], degrees))

    def stretch_selected(self, factor: float) -> None:
        """Make the selected key longer (factor > 1) or shorter."""
        index = self.model.selected_key
        self._edit_selected(lambda: stretch(self.model.scenario.keys[index], factor))

    def _edit_selected(self, new_key: Callable[[], object]) -> None:
        try:
            self.model.set_vector("key", self.model.selected_key, new_key())
        except ScenarioError as error:
            self._show_hint(error_text(error))
