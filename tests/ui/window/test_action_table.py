"""Every menu entry and action of the main window: object name, shortcuts, where it sits, its text and tip."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMenu

_HAN = re.compile(r"[\u4e00-\u9fff]")

# The whole menu bar as the user sees it in English: one line per entry, indented by submenu,
# "name [shortcuts] flags | text | tool tip". Separators are "---".
MENUS = """\
&File
  new [Ctrl+N] | &New | Start from the default example
  open [Ctrl+O] | &Open… | Open a scenario file
  - [] | Open &Recent | Open Recent
    - [] | (none yet) | (none yet)
  openModel [] | Open &model… | Open a local BERT-family model folder and look at its real attention
  getModel [] | &Get a model… | Download a model from the Hugging Face Hub into its cache, with progress
  save [Ctrl+S] | &Save | Save the scenario
  saveAs [Ctrl+Shift+S] | Save &As… | Save the scenario under a new name
  ---
  - [] | &Export | Export
    export_canvas_png [] | Canvas as PNG… | Canvas as PNG
    export_canvas_svg [] | Canvas as SVG… | Canvas as SVG
    export_canvas_pdf [] | Canvas as PDF… | Canvas as PDF
    export_weights_png [] | Weights chart as PNG… | Weights chart as PNG
    export_weights_svg [] | Weights chart as SVG… | Weights chart as SVG
    export_weights_pdf [] | Weights chart as PDF… | Weights chart as PDF
    export_output_png [] | Output view as PNG… | Output view as PNG
    export_output_svg [] | Output view as SVG… | Output view as SVG
    export_output_pdf [] | Output view as PDF… | Output view as PDF
    export_page [] | Current &page… | The page shown as one picture: PNG, SVG or PDF
    export_window_png [] | Whole window as PNG… | Whole window as PNG
  - [] | &Copy as | Copy as
    copy_markdown [] | Markdown table | Copy the four steps as a Markdown table
    copy_latex [] | LaTeX | Copy the four steps as a LaTeX table
    copy_numpy [] | NumPy snippet | Copy a NumPy script that reproduces the four steps
  record [] | &Record… | Record the canvas or the window while you drag or a key turns: GIF, WebP, APNG or MP4
  ---
  quit [Exit] | &Quit | Close Attention Explorer
&Edit
  undo [Ctrl+Z] | &Undo | Undo
  redo [Ctrl+Shift+Z, Ctrl+Y] | &Redo | Redo
  ---
  addPair [] | Add key–value pair | Add key–value pair
  removePair [] | Remove selected pair | Remove selected pair
  ---
  pin [P] plain | &Pin this scene | Keep the current numbers as a ghost beside the live ones (up to three pins)
  removePins [] | Remove all pins | Remove every pin (one undo step)
E&xamples
  preset_drag-2d [] | Drag a key around the query | Drag a key around the query
  preset_library [] | Library lookup | Library lookup
  preset_article-step3 [] | The article's step 3: scores 1.0, 0.5, 0.0 | The article's step 3: scores 1.0, 0.5, 0.0
  preset_saturation-small [] | Soft attention: scores 2, 1, 0 | Soft attention: scores 2, 1, 0
  preset_saturation-large [] | Saturated attention: scores 20, 10, 0 | Saturated attention: scores 20, 10, 0
  preset_code-review [] | Code review: where does the reviewer look? | Code review: where does the reviewer look?
  preset_aligned [] | Same direction: cos θ = 1 | Same direction: cos θ = 1
  preset_orthogonal [] | Perpendicular: cos θ = 0 | Perpendicular: cos θ = 0
  preset_opposite [] | Opposite directions: cos θ = −1 | Opposite directions: cos θ = −1
  preset_self-attention [] | Self-attention: 我 爱 北京 | Self-attention: 我 爱 北京
  preset_translation [] | Cross-attention: I love Beijing → 我 爱 北京 | Cross-attention: I love Beijing → 我 爱 北京
  preset_multi-head [] | Multi-head attention: 我 爱 北京, two heads | Multi-head attention: 我 爱 北京, two heads
&Keys
  nextKey [Tab] plain | Select next key | Select next key
  previousKey [Shift+Tab] plain | Select previous key | Select previous key
  selectKey1 [1] plain | Select key 1 | Select key 1
  selectKey2 [2] plain | Select key 2 | Select key 2
  selectKey3 [3] plain | Select key 3 | Select key 3
  selectKey4 [4] plain | Select key 4 | Select key 4
  selectKey5 [5] plain | Select key 5 | Select key 5
  selectKey6 [6] plain | Select key 6 | Select key 6
  selectKey7 [7] plain | Select key 7 | Select key 7
  selectKey8 [8] plain | Select key 8 | Select key 8
  selectKey9 [9] plain | Select key 9 | Select key 9
  ---
  rotateLeft [Left] plain | Rotate key 5° counter-clockwise | Rotate key 5° counter-clockwise
  rotateRight [Right] plain | Rotate key 5° clockwise | Rotate key 5° clockwise
  rotateLeftFine [Shift+Left] plain | Rotate key 1° counter-clockwise | Rotate key 1° counter-clockwise
  rotateRightFine [Shift+Right] plain | Rotate key 1° clockwise | Rotate key 1° clockwise
  longer [+] plain | Make key longer | Make key longer
  shorter [-] plain | Make key shorter | Make key shorter
  ---
  playRotation [Space] plain | Play a full turn | Turn the selected key through 360°
  stopRotation [Esc] plain | Stop the turn | Stop the turn
&View
  - [] | &Labs | Labs
    page1 [Ctrl+1] checkable | Vectors | Vectors
    page2 [Ctrl+2] checkable | Saturation: why scale? | Saturation: why scale?
    page3 [Ctrl+3] checkable | Variance: why √dₖ? | Variance: why √dₖ?
    page4 [Ctrl+4] checkable | Self-attention | Self-attention
    page5 [Ctrl+5] checkable | Real transformer | Real transformer
    page6 [Ctrl+6] checkable | Multi-head attention | Multi-head attention
    page7 [Ctrl+7] checkable | Cross-attention | Cross-attention
    page8 [Ctrl+8] checkable | Positions and q·k | Positions and q·k
    page9 [Ctrl+9] checkable | Spot the bug | Spot the bug
    page10 [] checkable | Training: scaled vs unscaled | Training: scaled vs unscaled
  - [] | &Panels | Panels
    - [] checkable | Vectors | Vectors
    - [] checkable | About this example | About this example
    - [] checkable | History | History
    - [] checkable | d_k and scale | d_k and scale
    - [] checkable | The four steps | The four steps
    - [] checkable | Attention weights | Attention weights
    - [] checkable | Output | Output
    - [] checkable | Rotation trace | Rotation trace
    - [] checkable | Scoring functions | Scoring functions
    - [] checkable | Pins | Pins
    ---
    resetLayout [] | Reset panel layout | Put every panel back where it started
  ---
  stepThrough [Ctrl+T] checkable | Step through the four steps | Reveal the steps one at a time
  nextStep [PgDown] plain | Next step | Right arrow or Page Down in step-through mode
  previousStep [PgUp] plain | Previous step | Left arrow or Page Up in step-through mode
  questionMode [Ctrl+G] checkable | &Question mode | A question before each hidden step; click to answer
  - [] | Lectur&e | Lecture
    lectureBuiltIn [] | The article's path | The built-in script, library lookup to self-attention
    lectureOpen [] | Open lecture script… | Open lecture script
    lectureEnd [] | End the lecture | End the lecture
  ---
  fullScreen [F11] checkable | &Full screen | Full screen
  presentation [F5] checkable | P&resentation | Canvas large, charts beside it; F5 or Esc returns to the desk layout
  zoomIn [Ctrl+=, Ctrl++] | Zoom in | Larger text, lines and arrows
  zoomOut [Ctrl+-] | Zoom out | Smaller text, lines and arrows
  zoomReset [Ctrl+0] | Normal size | Normal size
  - [] | &Theme | Theme
    theme_light [] checkable | Light | Light
    theme_dark [] checkable | Dark | Dark
    theme_contrast [] checkable | High contrast (projector) | High contrast (projector)
  - [] | &Language | Language
    lang_en [] checkable | English | English
    lang_zh_CN [] checkable | 简体中文 | 简体中文
&Help
  guide [F1] | &Guide | The article's path step by step, a glossary and the keys
  about [] | &About Attention Explorer | Version and licence
"""
# Entries that read the same in Chinese: names of languages and of formats, and the examples' own titles
# where they are already Chinese or symbols.
SAME_IN_CHINESE = {"lang_en", "lang_zh_CN", "copy_latex"}


def _entry(action) -> str:
    keys = ", ".join(key.toString(QKeySequence.SequenceFormat.PortableText) for key in action.shortcuts())
    flags = (" plain" if action.shortcutContext() == Qt.ShortcutContext.WidgetShortcut else "") + (
        " checkable" if action.isCheckable() else "")
    return f"{action.objectName() or '-'} [{keys}]{flags} | {action.text()} | {action.toolTip()}"


def _lines(menu: QMenu, depth: int, submenus: dict) -> list[str]:
    lines = []
    for action in menu.actions():
        lines.append("  " * depth + ("---" if action.isSeparator() else _entry(action)))
        if action in submenus:
            lines += _lines(submenus[action], depth + 1, submenus)
    return lines


def menu_tree(window) -> str:
    """The menu bar, one line per entry (see MENUS)."""
    # Not QAction.menu(): PySide's wrapper of its result owns the menu and deletes it when collected.
    submenus = {menu.menuAction(): menu for menu in window.findChildren(QMenu)}
    lines = []
    for action in window.menuBar().actions():
        lines.append(submenus[action].title())
        lines += _lines(submenus[action], 1, submenus)
    return "\n".join(lines) + "\n"


@pytest.fixture
def window(make_window):
    return make_window()


def test_every_menu_entry_has_its_name_shortcut_place_and_text(window):
    assert menu_tree(window) == MENUS


def test_every_action_of_the_window_is_in_a_menu(window):
    in_menus = {line.strip().split(" ")[0] for line in MENUS.splitlines()}
    assert set(window.actions_by_name) <= in_menus
    assert len(window.actions_by_name) == 77


def test_every_action_is_translated_live_and_back(window):
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    chinese = menu_tree(window).splitlines()
    english = MENUS.splitlines()
    # Same entries, names, shortcuts and places; only the texts change.
    assert [line.split(" | ")[0] for line in chinese if " | " in line] == [
        line.split(" | ")[0] for line in english if " | " in line]
    texts = [(line.strip().split(" ")[0], line.split(" | ")[1] if " | " in line else line) for line in chinese
             if line.strip() != "---"]
    untranslated = [(name, text) for name, text in texts
                    if name not in SAME_IN_CHINESE and not name.startswith("preset_") and not _HAN.search(text)]
    assert not untranslated, untranslated
    window.actions_by_name["lang_en"].trigger()
    QApplication.processEvents()
    assert menu_tree(window) == MENUS

