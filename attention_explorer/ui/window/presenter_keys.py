"""The presenter's own keys while presenting (F5) or in a lecture: ? keys, S spotlight, Home restart, Esc leave.

? lists the keys, S held is a spotlight on the pointer, Home restarts the lecture, Esc on its end screen leaves the
presentation.

F1 is left free for a help guide; S and ? are bound to nothing else in the window (ui/window/actions.py).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent

from attention_explorer.ui.widgets.presenter_covers import CoverNote, Spotlight

SPOTLIGHT_KEY = Qt.Key.Key_S
KEYS_LIST_KEY = Qt.Key.Key_Question
_translate = QCoreApplication.translate  # lupdate: -tr-function-alias translate+=_translate


def presenter_key_rows() -> tuple[tuple[str, str], ...]:
    """(key, what it does) for the keys overlay; the keys as printed on the keyboard, their meaning translated."""
    meaning = {
        "Page Down  →": _translate("PresenterKeys", "Next: the answer, the next step, the next scene"),
        "Page Up  ←": _translate("PresenterKeys", "Back a step or a scene"),
        "Home": _translate("PresenterKeys", "The lecture from its first scene"),
        "B": _translate("PresenterKeys", "Black screen; any key brings the window back"),
        "S": _translate("PresenterKeys", "Hold for a spotlight: a bright circle on the mouse pointer"),
        "Ctrl+=  Ctrl+−": _translate("PresenterKeys", "Larger, smaller"),
        "F5": _translate("PresenterKeys", "Presentation on or off"),
        "Esc": _translate("PresenterKeys", "Leave: a turn, the steps, then the presentation"),
        "?": _translate("PresenterKeys", "This list"),
    }
    return tuple(meaning.items())


class PresenterKeys:
    """Mixed into MainWindow with KeyDispatch: the covers are built the first time their key is pressed."""

    _keys_list: CoverNote | None = None
    _spotlight: Spotlight | None = None

    def presenter_tools_on(self) -> bool:
        """The presenter's keys work while presenting or while a lecture runs."""
        return self.presenting or self.lessons.lecture_active

    @property
    def keys_list_shown(self) -> bool:
        """True while the list of keys covers the window."""
        return self._keys_list is not None and self._keys_list.isVisible()

    @property
    def spotlight_shown(self) -> bool:
        """True while S is held and the spotlight is on."""
        return self._spotlight is not None and self._spotlight.isVisible()

    def show_keys_list(self) -> None:
        """? : the presentation keys over the window; any key closes the list."""
        if self._keys_list is None:
            self._keys_list = CoverNote(self, "presenterKeys")
        self._keys_list.set_texts(_translate("PresenterKeys", "Presentation keys"),
                                  _translate("PresenterKeys", "Any key closes this list."), presenter_key_rows())
        self._keys_list.cover()

    def presenter_key_pressed(self, event: QKeyEvent) -> bool:
        """Run a presenter key; True when the key was one (the window does nothing else with it)."""
        if self.keys_list_shown:
            self._keys_list.hide()  # any key closes the list, and does nothing else
            return True
        if not self.presenter_tools_on():
            return False
        key = event.key()
        modifiers = event.modifiers() & ~(Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier)
        if modifiers != Qt.KeyboardModifier.NoModifier:
            return False
        if key == KEYS_LIST_KEY:
            self.show_keys_list()
            return True
        if key == SPOTLIGHT_KEY and not (event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            if not event.isAutoRepeat():
                if self._spotlight is None:
                    self._spotlight = Spotlight(self)
                self._spotlight.switch_on()
            return True
        lessons = self.lessons
        if key == Qt.Key.Key_Home and lessons.lecture_active:
            lessons.restart_lecture()
            return True
        if key == Qt.Key.Key_Escape and lessons.lecture_at_end:
            lessons.end_lecture()
            self.leave_presentation()
            return True
        return False

    def presenter_key_released(self, event: QKeyEvent) -> bool:
        """S let go: the spotlight goes."""
        if event.key() == SPOTLIGHT_KEY and not event.isAutoRepeat() and self.spotlight_shown:
            self._spotlight.switch_off()
            return True
        return False
