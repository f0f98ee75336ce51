"""Dark and high-contrast themes: the texts of the steps view, the weights chart and the output view stand out from
what they are drawn on (WCAG 2 contrast ratio, computed here from the two colours)."""

from __future__ import annotations

import re

import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QTextCursor
from PySide6.QtWidgets import QApplication, QGraphicsItem, QWidget

from attention_explorer.ui.style.theme import KEY_HEX, theme
from attention_explorer.ui.widgets.axes import AXIS_NAMES

BODY_TEXT = 4.5  # WCAG AA for body text
# WCAG AA for large text (≥ 14 pt bold): the key labels in their colour cells are bold at the number size (15 pt).
LARGE_BOLD_TEXT = 3.0
DARK_MODES = ("dark", "contrast")


def luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance (sRGB channels linearised)."""

    def linear(channel: int) -> float:
        value = channel / 255.0
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.red()) + 0.7152 * linear(colour.green()) + 0.0722 * linear(colour.blue())


def contrast(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio, 1 … 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_contrast_formula_matches_known_pairs():
    assert contrast(QColor("#000000"), QColor("#FFFFFF")) == pytest.approx(21.0)
    assert contrast(QColor("#777777"), QColor("#FFFFFF")) == pytest.approx(4.48, abs=0.01)  # the classic AA miss
    assert contrast(QColor("#1E1F22"), QColor("#1E1F22")) == pytest.approx(1.0)


@pytest.fixture(scope="module")
def window(make_module_window):
    """One window for the module (seven keys: every key colour), back in the light theme afterwards."""
    # Closing at module teardown would ask about the added pairs, after conftest's dialog answers are gone.
    win = make_module_window(discard_changes=True)
    win.preset_actions["library"].trigger()
    for _ in range(len(KEY_HEX) - win.model.scenario.n):
        win.model.add_pair()
    QApplication.processEvents()
    return win


@pytest.fixture(scope="module", params=DARK_MODES)  # one switch per theme: switches are slow
def dark_window(request, window):
    theme().set_mode(request.param)
    QApplication.processEvents()
    yield window
    theme().set_mode("light")


def _text_runs(browser):
    """(text, colour, background) of every run of text in a QTextBrowser's document, as it is painted."""
    base = browser.viewport().palette().color(QPalette.ColorRole.Base)
    default_text = browser.viewport().palette().color(QPalette.ColorRole.Text)
    block = browser.document().begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        cell_background = None
        if table is not None:
            brush = table.cellAt(block.position()).format().background()
            if brush.style() != Qt.BrushStyle.NoBrush:
                cell_background = brush.color()
        for piece in block:
            fragment = piece.fragment()
            if not fragment.text().strip():
                continue
            char_format = fragment.charFormat()
            foreground, background = char_format.foreground(), char_format.background()
            colour = foreground.color() if foreground.style() != Qt.BrushStyle.NoBrush else default_text
            if background.style() != Qt.BrushStyle.NoBrush:
                behind = background.color()
            else:
                behind = cell_background if cell_background is not None else base
            yield fragment.text(), colour, behind
        block = block.next()


def test_steps_view_text_contrasts_with_its_background(dark_window):
    steps = dark_window.findChild(QWidget, "stepsView")
    base = steps.browser.viewport().palette().color(QPalette.ColorRole.Base)
    assert luminance(base) < 0.05  # the page really is dark: the test measures the dark theme
    key_cells = {QColor(hex_colour).name() for hex_colour in KEY_HEX}
    for selected in range(len(KEY_HEX)):  # the selected row's tint in every key colour
        dark_window.model.select_key(selected)
        steps.bring_up_to_date()
        runs = list(_text_runs(steps.browser))
        assert any("Q·K" in text for text, _, _ in runs)
        for text, colour, behind in runs:
            wanted = LARGE_BOLD_TEXT if behind.name() in key_cells else BODY_TEXT
            assert contrast(colour, behind) >= wanted, (text, colour.name(), behind.name())
    dark_window.model.select_key(0)


def test_weights_chart_value_texts_contrast_with_the_plot(dark_window):
    chart = dark_window.findChild(QWidget, "weightsChart")
    background = chart.plot.backgroundBrush().color()
    assert luminance(background) < 0.05
    assert len(chart.value_texts) == len(KEY_HEX)
    for text in chart.value_texts:
        colour = text.textItem.defaultTextColor()
        assert contrast(colour, background) >= BODY_TEXT, (text.textItem.toPlainText(), colour.name())


def test_output_view_texts_contrast_with_what_is_behind_them(dark_window):
    view = dark_window.findChild(QWidget, "outputView")
    assert view.mode == "plane"
    background = view.plot.backgroundBrush().color()
    assert luminance(background) < 0.05
    for text in [view.output_label, *view.value_labels]:
        colour = text.textItem.defaultTextColor()
        assert contrast(colour, background) >= BODY_TEXT, (text.textItem.toPlainText(), colour.name())
    panel = view.readout.palette().color(QPalette.ColorRole.Window)
    colours = re.findall(r"color:(#[0-9A-Fa-f]{6})", view.readout.text())
    assert colours
    for colour in colours:
        assert contrast(QColor(colour), panel) >= BODY_TEXT, colour


def test_light_theme_keeps_its_colours(window):
    theme().set_mode("light")
    QApplication.processEvents()
    steps = window.findChild(QWidget, "stepsView")
    assert "color:#202020" in steps.html()
    chart = window.findChild(QWidget, "weightsChart")
    assert chart.plot.backgroundBrush().color().name() == "#ffffff"
    view = window.findChild(QWidget, "outputView")
    assert 'color:#7b2d8e' in view.readout.text()


def test_every_plot_keeps_its_axes_as_a_cached_pixmap(window):
    plots = window.findChildren(pg.PlotWidget)
    assert len(plots) >= 3  # the canvas, the weights chart, the output view
    for plot in plots:
        for name in AXIS_NAMES:
            axis = plot.getPlotItem().getAxis(name)
            assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache, (plot.objectName(), name)


def test_cached_axes_are_redrawn_in_the_themes_colours(dark_window):
    # The window was painted in the light theme first: a stale cached axis would keep dark tick labels here.
    chart = dark_window.findChild(QWidget, "weightsChart")
    background = chart.plot.backgroundBrush().color()
    axis = chart.plot.getPlotItem().getAxis("left")
    area = chart.plot.mapFromScene(axis.mapRectToScene(axis.rect())).boundingRect()  # ticks and labels, no grid
    image = chart.plot.grab(area).toImage()
    pixels = (image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height()))
    best = max(contrast(pixel, background) for pixel in pixels)
    assert best >= BODY_TEXT


def test_zooming_far_in_keeps_the_axis_titles_and_a_right_click_opens_no_menu(window, qtbot):
    """The axes carry no units, so no SI prefix (×1e-06) joins their titles; pyqtgraph's own menu stays shut."""
    canvas = window.canvas
    bottom = canvas.plot.getPlotItem().getAxis("bottom")
    title = bottom.label.toPlainText()
    canvas.view.setRange(xRange=(0.0, 2e-7), yRange=(0.0, 2e-7), padding=0)
    QApplication.processEvents()
    assert bottom.label.toPlainText() == title and title.strip() and "e-0" not in title
    canvas.fit()
    for plot in window.findChildren(pg.PlotWidget):
        if plot.isVisible():
            qtbot.mouseClick(plot.viewport(), Qt.MouseButton.RightButton, pos=plot.viewport().rect().center())
            assert QApplication.activePopupWidget() is None, plot.objectName()


def test_the_labs_colour_bars_read_on_a_dark_plot(dark_window, monkeypatch):
    """A heatmap's colour bar has an axis of its own: its numbers follow the theme like the plot's axes."""
    from attention_explorer.ui.labs.registry import page_index

    # the program's own default text colour (ui/application.py), which a bar left alone would draw in
    monkeypatch.setitem(pg.CONFIG_OPTIONS, "foreground", "#202020")
    dark_window.show_page(page_index("self-attention"))
    QApplication.processEvents()
    bars = [item for plot in dark_window.self_attention_lab.findChildren(pg.PlotWidget)
            for item in plot.getPlotItem().scene().items() if isinstance(item, pg.ColorBarItem)]
    assert bars, "the self-attention lab's maps have colour bars"
    background = theme().background()
    for bar in bars:
        assert contrast(bar.axis.textPen().color(), QColor(background)) >= BODY_TEXT
    dark_window.show_page(0)
