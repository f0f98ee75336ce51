"""The Scoring functions panel in a real window: opened from View ▸ Panels, the switch, bars and texts by hand."""

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.ui.panels.scoring_view import FADED_ALPHA, FADED_ALPHA_ON_DARK
from attention_explorer.ui.style.theme import theme


@pytest.fixture(scope="module")
def window(make_module_window):
    """One 1280×720 window on the default example (Q and three keys in 2-D) for the module."""
    return make_module_window(discard_changes=True)


def hand_weights(window, name):
    """Each function's softmax weights worked out with plain Python from the explorer's Q and K."""
    q = [float(x) for x in window.model.scenario.query]
    keys = [[float(x) for x in k] for k in window.model.scenario.keys]
    dots = [sum(a * b for a, b in zip(q, k)) for k in keys]
    if name == "dot":
        scores = dots
    elif name == "scaled":
        scores = [d / math.sqrt(len(q)) for d in dots]
    else:
        norm = math.sqrt(sum(a * a for a in q))
        scores = [d / (norm * math.sqrt(sum(b * b for b in k))) for d, k in zip(dots, keys)]
    exps = [math.exp(s) for s in scores]
    return [e / sum(exps) for e in exps]


def open_panel(window):
    dock = window.docks["scoringView"]
    if dock.isHidden():
        dock.toggleViewAction().trigger()
    QApplication.processEvents()
    return window.scoring_view


def click(button):
    QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))


def test_hidden_at_start_then_a_tab_beside_the_steps_that_fits_720(window):
    """Nothing is computed while hidden; View ▸ Panels shows it in front, beside the four steps, at 1280×720."""
    dock = window.docks["scoringView"]
    assert dock.isHidden() and not dock.is_built()  # built only when first shown
    assert window.scoring_view.comparison is None
    assert dock.toggleViewAction() in window.panels_menu.actions() and dock.windowTitle() == "Scoring functions"
    panel = open_panel(window)
    assert dock in window.tabifiedDockWidgets(window.docks["stepsView"])
    assert not dock.visibleRegion().isEmpty() and window.size().toTuple() == (1280, 720)
    assert panel.plot.isVisible() and panel.about.isVisible()


def test_the_switch_highlights_cosine_and_its_bars_are_the_hand_weights(window):
    """Cosine chosen: its bars full colour with an outline, the others faded; bars, value texts and readout agree."""
    panel = open_panel(window)
    click(panel.buttons["cosine"])
    expected = hand_weights(window, "cosine")
    bars = panel.bars["cosine"]
    assert [round(h, 12) for h in bars.opts["height"]] == [round(w, 12) for w in expected]
    assert bars.opts["brush"].color().alpha() == 255 and bars.opts["pen"].style() != Qt.PenStyle.NoPen
    assert panel.bars["scaled"].opts["brush"].color().alpha() == FADED_ALPHA
    assert [text.toPlainText() for text in panel.value_texts] == [f"{w:.2f}" for w in expected]
    labels = window.model.scenario.labels
    readout = panel.readout.text()
    assert "Cosine similarity" in readout
    for label, weight in zip(labels, expected):
        assert f"{label} <b>{weight:.2f}</b>" in readout
    assert "temperature" in panel.about.text()
    for name in ("dot", "scaled"):
        assert [round(h, 12) for h in panel.bars[name].opts["height"]] == [round(w, 12)
                                                                          for w in hand_weights(window, name)]
    click(panel.buttons["additive"])
    assert "Bahdanau" in panel.about.text() and panel.bars["additive"].opts["brush"].color().alpha() == 255


def test_scaled_bars_follow_an_edit_in_place_and_equal_the_weights_chart(window):
    """A new K1 typed in the model: the same bar items now show the new weights, the explorer's own for "scaled"."""
    panel = open_panel(window)
    click(panel.buttons["scaled"])
    bars = panel.bars["scaled"]
    window.model.set_vector("key", 0, [-1.0, 2.0])
    assert panel.bars["scaled"] is bars
    expected = hand_weights(window, "scaled")
    assert [round(h, 12) for h in bars.opts["height"]] == [round(w, 12) for w in expected]
    assert [round(h, 12) for h in bars.opts["height"]] == [round(float(w), 12) for w in window.model.result.weights]
    window.model.undo_stack.undo()


def test_high_contrast_draws_on_black_with_white_texts(window):
    panel = open_panel(window)
    theme().set_mode("contrast")
    try:
        QApplication.processEvents()
        image = panel.plot.grab().toImage()
        view = panel.plot.getPlotItem().getViewBox()
        empty = panel.plot.mapFromScene(view.mapViewToScene(QPointF(0.5, 1.09)))  # between two groups, above 1
        assert image.pixelColor(empty.x(), empty.y()).name() == "#000000"
        assert all(text.color.name() == "#ffffff" for text in panel.value_texts)
        assert panel.bars["dot"].opts["brush"].color().alpha() == FADED_ALPHA_ON_DARK  # still visible on black
    finally:
        theme().set_mode("light")


def shown_keys(panel) -> list[str]:
    """The key labels the readout names, in order ("<b>Scaled dot product</b> weights: K1 <b>0.51</b>, K2 …")."""
    pairs = panel.readout.text().replace("：", ":").split("</b>", 1)[1].split(":", 1)[1]
    return [pair.strip().split(" <b>")[0] for pair in pairs.split(",")]


@pytest.mark.parametrize("hide_by", ["closing", "another tab in front"])
def test_a_hidden_panel_follows_a_pair_added_and_a_language_switch(make_window, hide_by):
    """Opened, hidden, Edit ▸ Add pair, then a language switch: no stale 3-key texts (was IndexError, a crash)."""
    window = make_window(discard_changes=True)
    panel = open_panel(window)
    assert shown_keys(panel) == ["K1", "K2", "K3"]
    if hide_by == "closing":
        window.docks["scoringView"].toggleViewAction().trigger()  # View ▸ Panels ▸ Scoring functions, off
        QApplication.processEvents()
        assert not panel.isVisible()
    else:
        window.docks["stepsView"].raise_()  # the four steps' tab in front of it
        QApplication.processEvents()
    window.actions_by_name["addPair"].trigger()
    assert window.model.scenario.n == 4
    window.actions_by_name["lang_zh_CN"].trigger()
    QApplication.processEvents()
    if hide_by == "closing":
        window.docks["scoringView"].toggleViewAction().trigger()
    else:
        window.docks["scoringView"].raise_()
    QApplication.processEvents()
    assert panel.isVisible()
    labels = list(window.model.scenario.labels)
    assert len(labels) == 4 and shown_keys(panel) == labels  # the 4-key scene, in Chinese
    assert panel.readout.text().startswith("<b>缩放点积</b>") and len(panel.bars["scaled"].opts["height"]) == 4
    assert [round(float(h), 12) for h in panel.bars["scaled"].opts["height"]] == [
        round(float(w), 12) for w in window.model.result.weights]
