"""Shared set-up of the robustness tests: the real window, and checks of what its panels show."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QGraphicsView,
    QLabel,
    QTextEdit,
)

from attention_explorer.core.maths.attention import attend

NOT_A_NUMBER = re.compile(r"(?i)(?<![a-z])(nan|inf)(?![a-z])")
# What a refusal may quote back (the user's own text in “…”) or name, without that being a number shown.
QUOTED = re.compile(r"“[^”]*”|\b(?:NaN|infinity) is not allowed")


@pytest.fixture
def window(make_window):
    """The real main window at 1280×720 on the default example, shown; dialogs answered, errors recorded."""
    win = make_window(record_errors=True, discard_changes=True, activate=True, focus_canvas=True, instant_drags=True)
    win.shown_errors = win.errors
    return win


def shown_texts(window) -> list[tuple[str, str]]:
    """Every visible text of the window: labels, rich-text views, spin boxes, table cells, plot text items."""
    texts = []
    for label in window.findChildren(QLabel):
        if label.isVisibleTo(window):
            texts.append((label.objectName() or "QLabel", label.text()))
    for view in window.findChildren(QTextEdit):
        if view.isVisibleTo(window):
            texts.append((view.objectName() or "QTextEdit", view.toPlainText()))
    for spin in window.findChildren(QAbstractSpinBox):
        if spin.isVisibleTo(window):
            texts.append((spin.objectName() or "spin", spin.text()))
    table = window.editor.table.model()
    for row in range(table.rowCount()):
        for column in range(table.columnCount()):
            texts.append((f"cell {row},{column}", str(table.data(table.index(row, column)) or "")))
    for graphics in window.findChildren(QGraphicsView):
        if graphics.isVisibleTo(window) and graphics.scene() is not None:
            for item in graphics.scene().items():
                if isinstance(item, pg.TextItem) and item.isVisible():
                    texts.append((f"{graphics.objectName()} text", item.textItem.toPlainText()))
    for button in window.findChildren(QAbstractButton):
        if button.isVisibleTo(window):
            texts.append((button.objectName() or "button", button.text()))
    return texts


def assert_shows_no_nan_or_inf(window) -> None:
    bad = [(where, text) for where, text in shown_texts(window) if NOT_A_NUMBER.search(QUOTED.sub("", text))]
    assert not bad, f"panels show nan/inf: {bad[:5]}"


def assert_panels_agree_with_the_core(window) -> None:
    scenario = window.model.scenario
    core = attend(scenario.query, scenario.keys, scenario.values, scenario.effective_scale)
    np.testing.assert_allclose(window.weights_chart.bars.opts["height"], core.weights, rtol=0, atol=1e-12)
    steps = window.steps_view.plain_text()
    for index in {int(np.argmax(core.weights)), window.model.selected_key}:
        assert f"{core.weights[index]:.3f}" in steps, (index, core.weights[index])
    output = window.output_view
    if output.mode == "plane":
        np.testing.assert_allclose(output.output_position(), core.output, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_allclose(output.component_bars.opts["height"], core.output, rtol=1e-12, atol=1e-12)
    shown = f"{core.output[0]:.3f}"
    assert (shown if shown != "-0.000" else "0.000") in output.readout.text()
    assert window.canvas._keys[window.model.selected_key].label.textItem.toPlainText() == \
        scenario.labels[window.model.selected_key]


@pytest.fixture
def panels():
    """The checks of what the window shows, for the tests here."""
    return SimpleNamespace(texts=shown_texts, no_nan_or_inf=assert_shows_no_nan_or_inf,
                           agree_with_the_core=assert_panels_agree_with_the_core)
