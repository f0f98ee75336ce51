"""Labels, titles, tokens and file names from a file show as text everywhere: never as markup, never as an image.

A label like `<img src=PATH>` that Qt took for rich text would make Qt open PATH. PATH is first a FIFO watched by
a child process (it counts every open), so a leak is counted without reading anything; only when no place
opened it does the same round run again with `<img src=/dev/zero>`, which a leak would read until memory runs out.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QEvent, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QHelpEvent, QMouseEvent, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget

from attention_explorer.app import create_window
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.theme import theme
from tests.helpers import budget, tiny_bert
from tests.ui.labs.panel_wait import wait_idle

RTL_MARK = "RTL\u200fmark"
FIXED = ["<b>bold</b>", "&amp;", "</table>", RTL_MARK]
SLOW_S = 1.0  # no single hover or tooltip may take longer (a loaded /dev/zero never ends)

_WATCHER = r"""
import errno, os, sys, time
fifo, count = sys.argv[1:]
while True:
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # succeeds only while somebody has it open to read
    except OSError as error:
        if error.errno != errno.ENXIO:
            raise
        time.sleep(0.001)
        continue
    os.close(fd)  # the reader gets end-of-file at once and goes on
    with open(count, "a") as out:
        out.write("x")
"""


class Probe:
    """A FIFO whose every opening is counted by a child process (Qt may hold the GIL while it reads)."""

    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, "p")
        os.mkfifo(self.path)
        self._count = os.path.join(folder, "count")
        self._process = subprocess.Popen([sys.executable, "-c", _WATCHER, self.path, self._count])

    def opened(self) -> int:
        """How often the FIFO was opened so far."""
        time.sleep(0.01)  # the watcher polls every millisecond
        try:
            return len(Path(self._count).read_text())
        except FileNotFoundError:
            return 0

    def close(self) -> None:
        self._process.kill()
        self._process.wait()


@pytest.fixture
def probe():
    folder = tempfile.mkdtemp(dir="/tmp")  # short: the path goes into 64-character labels
    watched = Probe(folder)
    yield watched
    watched.close()


def rendered(text: str, text_format: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """What a label, tooltip or message box in `text_format` shows of `text`, markup applied."""
    rich = text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text))
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text.replace("<img", "<i"))  # the document here must not load what the widget would
    return document.toPlainText()


def visible_mnemonic_text(text: str) -> str:
    """A button's or menu entry's text as drawn: "&x" marks a shortcut, "&&" is one "&"."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def label_shows(label: QLabel) -> str:
    label.grab()  # lays the text out and paints it: where an image would be loaded
    return rendered(label.text(), label.textFormat())


def status(window) -> str:
    return label_shows(window.findChild(QLabel, "statusHint"))


def tooltip_at(widget: QWidget, pos: QPoint) -> str:
    """Ask `widget` for its tooltip at `pos` as the mouse resting there does; what the tooltip shows."""
    tip_label = _tip_label()
    if tip_label is not None:
        tip_label.setText("")
    QApplication.sendEvent(widget, QHelpEvent(QEvent.Type.ToolTip, pos, widget.mapToGlobal(pos)))
    tip_label = _tip_label()
    assert tip_label is not None and tip_label.text(), "no tooltip"
    return label_shows(tip_label)


def _tip_label() -> QLabel | None:
    return next((w for w in QApplication.topLevelWidgets() if w.objectName() == "qtooltip_label"), None)


def mouse_move(widget: QWidget, pos: QPointF) -> None:
    event = QMouseEvent(QEvent.Type.MouseMove, pos, QPointF(widget.mapToGlobal(pos)), Qt.MouseButton.NoButton,
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, event)


class Timed:
    """Every user action under it must finish within SLOW_S."""

    def __init__(self) -> None:
        self.slowest = 0.0

    def __call__(self, action, *args):
        start = time.perf_counter()
        result = action(*args)
        self.slowest = max(self.slowest, time.perf_counter() - start)
        return result


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    theme().set_zoom(1.0)
    theme().set_mode("light")
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))
    win = create_window(settings=QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    win.document.data_dir = tmp_path / "appdata"
    win.document.data_dir.mkdir()
    monkeypatch.setattr(win, "ask_unsaved_changes", lambda: QMessageBox.StandardButton.Discard)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    return win


def hostile_file(folder: Path, image: str) -> tuple[Path, list[str], str]:
    labels = [f"<img src={image}>", *FIXED]
    title = " ".join(labels)
    path = folder / "<i>bold&amp; x.json"
    path.write_text(json.dumps({
        "title": title, "description": f"{title} <p>{title}</p>",
        "query": [1.0, 0.5], "keys": [[round(math.cos(1.2 * i), 3), round(math.sin(1.2 * i), 3)] for i in range(5)],
        "values": [[0.4 * i, 1.0 - 0.2 * i] for i in range(5)], "labels": labels,
    }), encoding="utf-8")
    return path, labels, title


def check_explorer(window, folder: Path, image: str, timed: Timed, asked) -> None:
    path, labels, title = hostile_file(folder, image)
    assert timed(window.open_file, str(path))
    QApplication.processEvents()
    model = window.model
    assert model.scenario.labels == tuple(labels)

    assert title in window.windowTitle() and path.name in window.windowTitle()
    assert title in label_shows(window.preset_info.text_label)
    # Open Recent: the file name as it is, and its full path as the tooltip
    window._rebuild_recent_menu()
    entry = window.recent_menu.actions()[0]
    assert visible_mnemonic_text(entry.text()) == path.name
    assert rendered(entry.toolTip()) == str(path.resolve())

    # the four steps: hover every key link, and rest on it for its tooltip
    browser = window.steps_view.browser
    document = window.steps_view.document()
    for index, label in enumerate(labels):
        cursor = _anchor_cursor(document, f"key:{index}")
        point = browser.cursorRect(cursor).center()
        timed(QTest.mouseMove, browser.viewport(), point)
        assert status(window).startswith(f"{label}: click to select")
        assert timed(tooltip_at, browser.viewport(), point).startswith(f"{label}: K = ")
        timed(QTest.mouseMove, browser.viewport(), QPoint(2, 2))

    # the canvas: every tip's label, and the hint while the mouse is on it
    canvas = window.canvas
    for index, label in enumerate(labels):
        assert canvas._keys[index].label.textItem.toPlainText() == label
        for x, y in ((-1.8, -1.5), model.scenario.keys[index]):  # off every tip, then onto this one
            timed(mouse_move, canvas.plot.viewport(),
                  QPointF(canvas.plot.mapFromScene(canvas.view.mapViewToScene(QPointF(x, y)))))
        assert status(window).startswith(f"Drag {label}'s tip")
    assert model.scenario.labels[model.selected_key] in label_shows(canvas.readout)

    # the weights chart's bars and the output view's points
    chart = window.weights_chart
    for index, label in enumerate(labels):
        weight = float(model.result.weights[index])
        scene = chart.view_box.mapViewToScene(QPointF(index, weight / 2))
        timed(mouse_move, chart.plot.viewport(), QPointF(chart.plot.mapFromScene(scene)))
        assert status(window).startswith(f"{label}: weight ")
    assert labels[int(model.result.weights.argmax())] in label_shows(chart.stats_label)
    output = window.output_view
    for index, label in enumerate(labels):
        scene = output.view_box.mapViewToScene(QPointF(*model.scenario.values[index]))
        timed(mouse_move, output.plot.viewport(), QPointF(output.plot.mapFromScene(scene)))
        assert status(window).startswith(f"V of {label}: weight ")

    # the rotation trace names the key it turns
    window.docks["rotationTrace"].show()
    for index, label in enumerate(labels):
        model.select_key(index)
        window.rotation_trace.refresh()
        assert label_shows(window.rotation_trace.caption).startswith(f"Turning {label}: its weight")

    # the vector editor: the name cells' tooltips, the Remove button's text and tooltip
    editor = window.editor
    for index, label in enumerate(labels):
        model.select_key(index)
        cell = editor.table_model.index(index + 1, 0)
        point = editor.table.visualRect(cell).center()
        assert timed(tooltip_at, editor.table.viewport(), point).startswith(f"Key K and value V of “{label}”")
        button = editor.remove_button
        shown = label if len(label) <= 10 else label[:9] + "…"
        assert visible_mnemonic_text(button.text()) == f"− Remove {shown}"
        assert timed(tooltip_at, button, button.rect().center()) == f"Remove the selected pair “{label}”"

    # a file that cannot be opened, named like markup: the message names it as it is
    bad = folder / "<i>bold &amp; bad.json"
    bad.write_text("{", encoding="utf-8")
    asked.clear()
    window.open_file(str(bad))
    assert asked and rendered(asked[-1][1]).startswith(bad.name + ": ")
    assert status(window).startswith(bad.name + ": ")


def _anchor_cursor(document: QTextDocument, href: str):
    from PySide6.QtGui import QTextCursor

    block = document.begin()
    while block.isValid():
        iterator = block.begin()
        while not iterator.atEnd():
            fragment = iterator.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(document)
                cursor.setPosition(fragment.position() + 1)
                return cursor
            iterator += 1
        block = block.next()
    raise AssertionError(f"no link {href}")


def check_self_attention(window, folder: Path, image: str, timed: Timed) -> None:
    tokens = [f"<img src={image}>", *FIXED]
    title = " ".join(tokens)
    n = len(tokens)
    path = folder / "self.json"
    path.write_text(json.dumps({
        "kind": "self", "title": title, "tokens": tokens,
        "embeddings": [[1.0 if j == i % 3 else 0.1 * i for j in range(3)] for i in range(n)],
        "w_q": [[1, 0], [0, 1], [0.5, 0.5]], "w_k": [[0, 1], [1, 0], [0.5, 0]], "w_v": [[1, 0], [0, 1], [1, 1]],
    }), encoding="utf-8")
    assert timed(window.open_file, str(path))
    window.show_page(page_index("self-attention"))
    lab = window.self_attention_lab
    QApplication.processEvents()
    assert label_shows(lab.message_label) == f"Opened “{title}”."
    for heatmap in (lab.score_map, lab.weight_map):
        for row in range(n):
            for column in range(n):
                timed(mouse_move, heatmap.viewport(), heatmap.cell_center(row, column))
                assert status(window).startswith(f"q·k of “{tokens[row]}” (query) and “{tokens[column]}” (key)")
                assert label_shows(lab.dot_label).startswith(f"q{tokens[row]} · k{tokens[column]} = ")
    timed(lab.use_as_query, 1)
    assert label_shows(lab.message_label).startswith(f"“{tokens[1]}” is now the query")
    assert window.model.scenario.labels == tuple(tokens)


def check_transformer(window, model_dir: Path, tokens: list[str], timed: Timed) -> None:
    window.show_page(page_index("transformer"))
    panel = window.transformer_lab
    panel.ask_model_folder = lambda: str(model_dir)
    assert timed(panel.open_dialog)
    wait_idle(panel)  # the model loads off the UI thread
    assert timed(panel.set_sentence, " ".join(tokens))
    QApplication.processEvents()
    shown = list(panel.analysis.tokens)
    assert shown[1:-1] == tokens
    heatmap = panel.weights_map
    for row in range(len(shown)):
        for column in range(len(shown)):
            point = heatmap.mapFromScene(heatmap.view_box.mapViewToScene(QPointF(column + 0.5, row + 0.5)))
            timed(mouse_move, heatmap.viewport(), QPointF(point))
            assert status(window).startswith(f"“{shown[row]}” → “{shown[column]}”: weight ")
    for index, token in enumerate(shown):
        panel.set_query_token(index)
        short = token if len(token) <= 12 else token[:11] + "…"
        assert visible_mnemonic_text(panel.send_button.text()) == f"Explore “{short}” as Q"
        assert panel.query_combo.currentText() == f"{index}: {token}"
    panel.set_query_token(1)
    assert timed(panel.send_query_to_explorer)
    assert status(window) == f"In the explorer now: {window.model.scenario.title}"
    assert tokens[0] in label_shows(panel.status_label)


def hostile_model(folder: Path, tokens: list[str]) -> Path:
    """The tiny BERT with `tokens` in its vocabulary (in place of some words), each one token as it is."""
    words = tokens + tiny_bert.WORDS[len(tokens):]
    vocab = {token: index for index, token in enumerate(tiny_bert.SPECIAL + words)}
    original = tiny_bert.VOCAB
    tiny_bert.VOCAB = vocab
    try:
        tiny_bert.write_model(folder)
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.add_special_tokens(tokens)  # matched as they are, before the normaliser could change them
        tokenizer.save(str(folder / "tokenizer.json"))
    finally:
        tiny_bert.VOCAB = original
    return folder


def test_untrusted_text_is_shown_literally_and_never_loads_a_resource(window, probe, tmp_path, _no_modal_dialogs):
    pytest.importorskip("safetensors")
    pytest.importorskip("tokenizers")
    timed = Timed()
    # Round 1: the image is the watched FIFO. Round 2 (only if round 1 opened nothing): /dev/zero itself.
    for round_number, image in enumerate((probe.path, "/dev/zero")):
        folder = tmp_path / f"round{round_number}"
        folder.mkdir()
        memory_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        check_explorer(window, folder, image, timed, _no_modal_dialogs)
        assert probe.opened() == 0, "the explorer's panels loaded an image named in a label"
        check_self_attention(window, folder, image, timed)
        assert probe.opened() == 0, "the self-attention lab loaded an image named in a token"
        tokens = [f"<img src={image}>", *FIXED]
        check_transformer(window, hostile_model(folder / "model", tokens), tokens, timed)
        assert probe.opened() == 0, "the real-transformer page loaded an image named in a token"
        grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - memory_before
        assert grown_kib < 200 * 1024, f"memory grew by {grown_kib} KiB"
        assert timed.slowest < budget.seconds(SLOW_S), f"one action took {timed.slowest:.2f} s"
