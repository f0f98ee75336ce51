"""The main window's one action table: every action's name, text, tip, shortcuts, menu and handler, in menu order."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar

from attention_explorer.ui.i18n.switcher import LANGUAGES
from attention_explorer.ui.labs.registry import PAGES

# The translation context of every text here: the catalogue files them under the window that shows them.
CONTEXT = "MainWindow"
ZOOM_STEP = 1.15
LENGTH_STEP = 1.1
Keys = QKeySequence.StandardKey


@dataclass(frozen=True)
class ActionRow:
    """One action: `text` and `tip` are marked for translation; `handler` is an attribute path on the window."""

    name: str
    menu: str
    text: str
    handler: str
    args: tuple = ()
    tip: str = ""
    shortcuts: tuple = ()
    checkable: bool = False
    group: str = ""  # actions of one group exclude each other (themes, languages)
    plain_key: bool = False  # a plain key (digit, arrow, Space): shown in the menu, dispatched by keys.py
    translated: bool = True  # False for names that read the same in every language (English, 简体中文)


@dataclass(frozen=True)
class MenuRow:
    """A menu (`parent` "" for the menu bar) with a title marked for translation."""

    name: str
    parent: str
    title: str


@dataclass(frozen=True)
class SeparatorRow:
    """A line in a menu."""

    menu: str


Row = ActionRow | MenuRow | SeparatorRow

_PLOTS = {
    ("canvas", "png"): QT_TRANSLATE_NOOP("MainWindow", "Canvas as PNG…"),
    ("canvas", "svg"): QT_TRANSLATE_NOOP("MainWindow", "Canvas as SVG…"),
    ("canvas", "pdf"): QT_TRANSLATE_NOOP("MainWindow", "Canvas as PDF…"),
    ("weights", "png"): QT_TRANSLATE_NOOP("MainWindow", "Weights chart as PNG…"),
    ("weights", "svg"): QT_TRANSLATE_NOOP("MainWindow", "Weights chart as SVG…"),
    ("weights", "pdf"): QT_TRANSLATE_NOOP("MainWindow", "Weights chart as PDF…"),
    ("output", "png"): QT_TRANSLATE_NOOP("MainWindow", "Output view as PNG…"),
    ("output", "svg"): QT_TRANSLATE_NOOP("MainWindow", "Output view as SVG…"),
    ("output", "pdf"): QT_TRANSLATE_NOOP("MainWindow", "Output view as PDF…"),
}
_THEMES = {
    "light": QT_TRANSLATE_NOOP("MainWindow", "Light"),
    "dark": QT_TRANSLATE_NOOP("MainWindow", "Dark"),
    "contrast": QT_TRANSLATE_NOOP("MainWindow", "High contrast (projector)"),
}

ROWS: tuple[Row, ...] = (
    MenuRow("file", "", QT_TRANSLATE_NOOP("MainWindow", "&File")),
    ActionRow("new", "file", QT_TRANSLATE_NOOP("MainWindow", "&New"), "new_scenario", shortcuts=(Keys.New,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Start from the default example")),
    ActionRow("open", "file", QT_TRANSLATE_NOOP("MainWindow", "&Open…"), "open_dialog", shortcuts=(Keys.Open,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Open a scenario file")),
    MenuRow("recent", "file", QT_TRANSLATE_NOOP("MainWindow", "Open &Recent")),
    ActionRow("openModel", "file", QT_TRANSLATE_NOOP("MainWindow", "Open &model…"), "open_model_dialog",
              tip=QT_TRANSLATE_NOOP("MainWindow",
                                    "Open a local BERT-family model folder and look at its real attention")),
    ActionRow("getModel", "file", QT_TRANSLATE_NOOP("MainWindow", "&Get a model…"), "get_model_dialog",
              tip=QT_TRANSLATE_NOOP("MainWindow",
                                    "Download a model from the Hugging Face Hub into its cache, with progress")),
    ActionRow("save", "file", QT_TRANSLATE_NOOP("MainWindow", "&Save"), "save", shortcuts=(Keys.Save,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Save the scenario")),
    ActionRow("saveAs", "file", QT_TRANSLATE_NOOP("MainWindow", "Save &As…"), "save_as", shortcuts=(Keys.SaveAs,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Save the scenario under a new name")),
    SeparatorRow("file"),
    MenuRow("export", "file", QT_TRANSLATE_NOOP("MainWindow", "&Export")),
    *(ActionRow(f"export_{plot}_{fmt}", "export", text, "export_plot_dialog", args=(plot, fmt))
      for (plot, fmt), text in _PLOTS.items()),
    ActionRow("export_page", "export", QT_TRANSLATE_NOOP("MainWindow", "Current &page…"), "export_page_dialog",
              tip=QT_TRANSLATE_NOOP("MainWindow", "The page shown as one picture: PNG, SVG or PDF")),
    ActionRow("export_window_png", "export", QT_TRANSLATE_NOOP("MainWindow", "Whole window as PNG…"),
              "export_window_dialog"),
    MenuRow("copy", "file", QT_TRANSLATE_NOOP("MainWindow", "&Copy as")),
    ActionRow("copy_markdown", "copy", QT_TRANSLATE_NOOP("MainWindow", "Markdown table"), "copy_as",
              args=("markdown",), tip=QT_TRANSLATE_NOOP("MainWindow", "Copy the four steps as a Markdown table")),
    ActionRow("copy_latex", "copy", QT_TRANSLATE_NOOP("MainWindow", "LaTeX"), "copy_as", args=("latex",),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Copy the four steps as a LaTeX table")),
    ActionRow("copy_numpy", "copy", QT_TRANSLATE_NOOP("MainWindow", "NumPy snippet"), "copy_as", args=("numpy",),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Copy a NumPy script that reproduces the four steps")),
    ActionRow("record", "file", QT_TRANSLATE_NOOP("MainWindow", "&Record…"), "record_dialog",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Record the canvas or the window while you drag or a key turns: "
                                                  "GIF, WebP, APNG or MP4")),
    SeparatorRow("file"),
    ActionRow("quit", "file", QT_TRANSLATE_NOOP("MainWindow", "&Quit"), "close", shortcuts=(Keys.Quit,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Close Attention Explorer")),

    MenuRow("edit", "", QT_TRANSLATE_NOOP("MainWindow", "&Edit")),
    # Our own actions rather than QUndoStack.createUndoAction: their texts follow a live language switch.
    # No text here: the window names the step ("Undo Move K2").
    ActionRow("undo", "edit", "", "model.undo_stack.undo", shortcuts=(Keys.Undo,)),
    # Both redo keys spelt out: Keys.Redo is Ctrl+Shift+Z on X11 and Ctrl+Y elsewhere, and a key given twice is
    # ambiguous to Qt, which then runs neither.
    ActionRow("redo", "edit", "", "model.undo_stack.redo", shortcuts=("Ctrl+Shift+Z", "Ctrl+Y")),
    SeparatorRow("edit"),
    ActionRow("addPair", "edit", QT_TRANSLATE_NOOP("MainWindow", "Add key–value pair"), "add_pair"),
    ActionRow("removePair", "edit", QT_TRANSLATE_NOOP("MainWindow", "Remove selected pair"), "remove_pair"),
    SeparatorRow("edit"),
    ActionRow("pin", "edit", QT_TRANSLATE_NOOP("MainWindow", "&Pin this scene"), "pinning.pin_scene",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Keep the current numbers as a ghost beside the live ones "
                                                  "(up to three pins)"),
              shortcuts=("P",), plain_key=True),
    ActionRow("removePins", "edit", QT_TRANSLATE_NOOP("MainWindow", "Remove all pins"), "pinning.remove_pins",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Remove every pin (one undo step)")),

    MenuRow("examples", "", QT_TRANSLATE_NOOP("MainWindow", "E&xamples")),  # the window lists the presets

    MenuRow("keys", "", QT_TRANSLATE_NOOP("MainWindow", "&Keys")),
    ActionRow("nextKey", "keys", QT_TRANSLATE_NOOP("MainWindow", "Select next key"), "select_next_key",
              shortcuts=("Tab",), plain_key=True),
    ActionRow("previousKey", "keys", QT_TRANSLATE_NOOP("MainWindow", "Select previous key"), "select_previous_key",
              shortcuts=("Shift+Tab",), plain_key=True),
    *(ActionRow(f"selectKey{number}", "keys", QT_TRANSLATE_NOOP("MainWindow", "Select key {0}"), "select_key",
                args=(number - 1,), shortcuts=(str(number),), plain_key=True) for number in range(1, 10)),
    SeparatorRow("keys"),
    ActionRow("rotateLeft", "keys", QT_TRANSLATE_NOOP("MainWindow", "Rotate key 5° counter-clockwise"),
              "rotate_selected", args=(5.0,), shortcuts=("Left",), plain_key=True),
    ActionRow("rotateRight", "keys", QT_TRANSLATE_NOOP("MainWindow", "Rotate key 5° clockwise"),
              "rotate_selected", args=(-5.0,), shortcuts=("Right",), plain_key=True),
    ActionRow("rotateLeftFine", "keys", QT_TRANSLATE_NOOP("MainWindow", "Rotate key 1° counter-clockwise"),
              "rotate_selected", args=(1.0,), shortcuts=("Shift+Left",), plain_key=True),
    ActionRow("rotateRightFine", "keys", QT_TRANSLATE_NOOP("MainWindow", "Rotate key 1° clockwise"),
              "rotate_selected", args=(-1.0,), shortcuts=("Shift+Right",), plain_key=True),
    ActionRow("longer", "keys", QT_TRANSLATE_NOOP("MainWindow", "Make key longer"), "stretch_selected",
              args=(LENGTH_STEP,), shortcuts=("+",), plain_key=True),
    ActionRow("shorter", "keys", QT_TRANSLATE_NOOP("MainWindow", "Make key shorter"), "stretch_selected",
              args=(1 / LENGTH_STEP,), shortcuts=("-",), plain_key=True),
    SeparatorRow("keys"),
    ActionRow("playRotation", "keys", QT_TRANSLATE_NOOP("MainWindow", "Play a full turn"), "animator.toggle",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Turn the selected key through 360°"), shortcuts=("Space",),
              plain_key=True),
    ActionRow("stopRotation", "keys", QT_TRANSLATE_NOOP("MainWindow", "Stop the turn"), "animator.stop",
              shortcuts=("Esc",), plain_key=True),

    MenuRow("view", "", QT_TRANSLATE_NOOP("MainWindow", "&View")),
    MenuRow("pages", "view", QT_TRANSLATE_NOOP("MainWindow", "&Labs")),
    # Ctrl+1 … Ctrl+9 for the first nine pages (Ctrl+0 is Normal size; "Ctrl+10" would be Ctrl+1 then 0).
    *(ActionRow(f"page{index + 1}", "pages", title, "show_page", args=(index,),
                shortcuts=(f"Ctrl+{index + 1}",) if index < 9 else (), checkable=True, group="pages")  # checked: shown
      for index, title in enumerate(spec.title for spec in PAGES)),
    MenuRow("panels", "view", QT_TRANSLATE_NOOP("MainWindow", "&Panels")),  # the window lists its docks first
    SeparatorRow("panels"),
    ActionRow("resetLayout", "panels", QT_TRANSLATE_NOOP("MainWindow", "Reset panel layout"), "reset_layout",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Put every panel back where it started")),
    SeparatorRow("view"),
    ActionRow("stepThrough", "view", QT_TRANSLATE_NOOP("MainWindow", "Step through the four steps"),
              "toggle_step_through", tip=QT_TRANSLATE_NOOP("MainWindow", "Reveal the steps one at a time"),
              shortcuts=("Ctrl+T",), checkable=True),
    ActionRow("nextStep", "view", QT_TRANSLATE_NOOP("MainWindow", "Next step"), "lessons.next",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Right arrow or Page Down in step-through mode"),
              shortcuts=("PgDown",), plain_key=True),
    ActionRow("previousStep", "view", QT_TRANSLATE_NOOP("MainWindow", "Previous step"), "lessons.previous",
              tip=QT_TRANSLATE_NOOP("MainWindow", "Left arrow or Page Up in step-through mode"),
              shortcuts=("PgUp",), plain_key=True),
    ActionRow("questionMode", "view", QT_TRANSLATE_NOOP("MainWindow", "&Question mode"), "lessons.toggle_questions",
              tip=QT_TRANSLATE_NOOP("MainWindow", "A question before each hidden step; click to answer"),
              shortcuts=("Ctrl+G",), checkable=True),
    MenuRow("lecture", "view", QT_TRANSLATE_NOOP("MainWindow", "Lectur&e")),
    ActionRow("lectureBuiltIn", "lecture", QT_TRANSLATE_NOOP("MainWindow", "The article's path"),
              "lessons.open_built_in_lecture",
              tip=QT_TRANSLATE_NOOP("MainWindow", "The built-in script, library lookup to self-attention")),
    ActionRow("lectureOpen", "lecture", QT_TRANSLATE_NOOP("MainWindow", "Open lecture script…"),
              "lessons.open_lecture_dialog"),
    ActionRow("lectureEnd", "lecture", QT_TRANSLATE_NOOP("MainWindow", "End the lecture"), "lessons.end_lecture"),
    SeparatorRow("view"),
    ActionRow("fullScreen", "view", QT_TRANSLATE_NOOP("MainWindow", "&Full screen"), "toggle_full_screen",
              shortcuts=("F11",), checkable=True),
    ActionRow("presentation", "view", QT_TRANSLATE_NOOP("MainWindow", "P&resentation"), "toggle_presentation",
              shortcuts=("F5",), checkable=True,
              tip=QT_TRANSLATE_NOOP(
                  "MainWindow", "Canvas large, charts beside it; F5 or Esc returns to the desk layout")),
    ActionRow("zoomIn", "view", QT_TRANSLATE_NOOP("MainWindow", "Zoom in"), "zoom_by", args=(ZOOM_STEP,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Larger text, lines and arrows"), shortcuts=("Ctrl+=", "Ctrl++")),
    ActionRow("zoomOut", "view", QT_TRANSLATE_NOOP("MainWindow", "Zoom out"), "zoom_by", args=(1 / ZOOM_STEP,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "Smaller text, lines and arrows"), shortcuts=("Ctrl+-",)),
    ActionRow("zoomReset", "view", QT_TRANSLATE_NOOP("MainWindow", "Normal size"), "reset_zoom", shortcuts=("Ctrl+0",)),
    MenuRow("theme", "view", QT_TRANSLATE_NOOP("MainWindow", "&Theme")),
    *(ActionRow(f"theme_{mode}", "theme", text, "set_theme", args=(mode,), checkable=True, group="theme")
      for mode, text in _THEMES.items()),
    MenuRow("language", "view", QT_TRANSLATE_NOOP("MainWindow", "&Language")),
    *(ActionRow(f"lang_{code}", "language", name, "set_language", args=(code,), checkable=True, group="language",
                translated=False) for code, name in LANGUAGES.items()),

    MenuRow("help", "", QT_TRANSLATE_NOOP("MainWindow", "&Help")),
    ActionRow("guide", "help", QT_TRANSLATE_NOOP("MainWindow", "&Guide"), "open_guide", shortcuts=(Keys.HelpContents,),
              tip=QT_TRANSLATE_NOOP("MainWindow", "The article's path step by step, a glossary and the keys")),
    ActionRow("about", "help", QT_TRANSLATE_NOOP("MainWindow", "&About Attention Explorer"), "open_guide",
              args=(3,), tip=QT_TRANSLATE_NOOP("MainWindow", "Version and licence")),
)


def expanded_shortcuts(row: ActionRow) -> list[QKeySequence]:
    """Every key sequence `row` could answer to on this platform: all the bindings of a standard key."""
    sequences: list[QKeySequence] = []
    for key in row.shortcuts:
        sequences += QKeySequence.keyBindings(key) if isinstance(key, Keys) else [QKeySequence(key)]
    return sequences


def row_text(row: ActionRow) -> str:
    """The row's text in the current language ("Select key {0}" gets its number from the row's argument)."""
    if not row.translated:
        return row.text
    text = QCoreApplication.translate(CONTEXT, row.text)
    return text.format(row.args[0] + 1) if "{0}" in row.text else text


class ActionTable:
    """The actions and menus of ROWS, built once on a window; `retranslate` sets their texts again."""

    def __init__(self, window: QObject, bar: QMenuBar, rows: tuple[Row, ...] = ROWS, fillers: dict | None = None):
        """Build every row on `window`; `fillers[menu]` adds the window's own entries right after a menu is made."""
        self.rows = rows
        self.actions: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        self.groups: dict[str, QActionGroup] = {}
        fillers = fillers or {}
        for row in rows:
            if isinstance(row, MenuRow):
                parent = self.menus[row.parent] if row.parent else bar
                self.menus[row.name] = parent.addMenu("")
                self.menus[row.name].setObjectName(f"{row.name}Menu")
                if row.name in fillers:
                    fillers[row.name](self.menus[row.name])
            elif isinstance(row, SeparatorRow):
                self.menus[row.menu].addSeparator()
            else:
                self.menus[row.menu].addAction(self._action(window, row))

    def _action(self, window: QObject, row: ActionRow) -> QAction:
        action = QAction(window)
        action.setObjectName(row.name)
        action.setShortcuts([QKeySequence(key) for key in row.shortcuts])
        if row.plain_key:
            # Shown in the menu, but active only through the window's key dispatch so text fields keep their keys.
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        action.setCheckable(row.checkable)
        handler = attrgetter(row.handler)(window)
        action.triggered.connect(lambda _checked=False: handler(*row.args))
        if row.group:
            self.groups.setdefault(row.group, QActionGroup(window)).addAction(action)
        self.actions[row.name] = action
        window.addAction(action)
        return action

    def retranslate(self) -> None:
        """Every action's text, tool tip and status tip and every menu's title in the current language."""
        for row in self.rows:
            if isinstance(row, MenuRow):
                self.menus[row.name].setTitle(QCoreApplication.translate(CONTEXT, row.title))
            elif isinstance(row, ActionRow) and row.text:
                self._retranslate_row(row)

    def retranslate_action(self, name: str) -> None:
        """One action's texts as the table gives them (after the window named it for a while)."""
        self._retranslate_row(next(row for row in self.rows if isinstance(row, ActionRow) and row.name == name))

    def _retranslate_row(self, row: ActionRow) -> None:
        action = self.actions[row.name]
        text = row_text(row)
        tip = QCoreApplication.translate(CONTEXT, row.tip) if row.tip else ""
        action.setText(text)
        action.setToolTip(tip or text.replace("&", "").rstrip("…"))
        action.setStatusTip(tip)
