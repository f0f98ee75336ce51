"""The cached axes draw their grid as filled 1-px rectangles: the same pixels as pyqtgraph's lines, two levels."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPicture
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsItem, QWidget

from attention_explorer.ui.widgets.axes import cache_axes
from attention_explorer.ui.widgets.lab_plots import still_plot
from tests.ui.widget_helpers import show_widget


def _specs(axis: pg.AxisItem) -> tuple:
    picture = QPicture()
    painter = QPainter(picture)
    painter.setFont(axis.style["tickFont"] or painter.font())
    specs = axis.generateDrawSpecs(painter)
    painter.end()
    return specs


def _pixels(draw, specs: tuple, bounds: QRectF) -> np.ndarray:
    """The specs drawn on white, the axis's bounds (grid included) filling the image."""
    size = (int(bounds.width()) + 2, int(bounds.height()) + 2)
    image = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.translate(1 - bounds.left(), 1 - bounds.top())
    draw(painter, *specs)
    painter.end()
    return np.frombuffer(image.constBits(), np.uint8).reshape(size[1], size[0], 4).copy()


@pytest.fixture
def plot(qtbot):
    widget = pg.PlotWidget(enableMenu=False)
    widget.showGrid(x=True, y=True, alpha=0.25)
    cache_axes(widget)
    widget.setXRange(-2.37, 2.11, padding=0)  # fractional tick positions, in pixels too
    widget.setYRange(-1.93, 2.61, padding=0)
    return show_widget(qtbot, widget, (517, 433))


@pytest.mark.parametrize("name", ["left", "bottom"])
def test_the_grid_is_drawn_with_the_same_pixels_as_pyqtgraphs_lines(plot, name):
    axis = plot.getPlotItem().getAxis(name)
    specs = _specs(axis)
    bounds = axis.boundingRect()
    assert bounds.width() > 300 and bounds.height() > 300  # the grid's lines span the plot
    ours = _pixels(axis.drawPicture, specs, bounds)
    theirs = _pixels(lambda painter, *rest: pg.AxisItem.drawPicture(axis, painter, *rest), specs, bounds)
    drawn = (theirs[..., :3] != 255).any(axis=2)
    assert drawn.sum() > 2000  # the grid spans the plot: something real was compared
    np.testing.assert_array_equal(ours, theirs)


def test_two_levels_of_grid_lines_are_drawn_not_three(plot):
    _axis, ticks, _texts = _specs(plot.getPlotItem().getAxis("bottom"))
    alphas = {pen.color().alpha() for pen, _start, _end in ticks}
    assert len(alphas) == 2, alphas


def _left_axis_pixels(plot: pg.PlotWidget) -> np.ndarray:
    axis = plot.getPlotItem().getAxis("left")
    area = plot.mapFromScene(axis.sceneBoundingRect()).boundingRect() & plot.rect()
    image = plot.grab(area).toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4).copy()


def test_a_small_plot_that_grows_shows_each_tick_label_once_where_it_is_now(qtbot):
    # The variance lab's weight chart, as its page was first laid out (the heights it passed through): Qt had
    # scrolled the axis's cached pixmap rather than repainting it, and "0" showed three times.
    parent = QWidget()
    plot, _title = still_plot(parent, "weights", 80)
    plot.getPlotItem().getAxis("left").setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")]])
    plot.getPlotItem().hideAxis("bottom")
    plot.setYRange(-0.03, 1.05, padding=0)
    show_widget(qtbot, parent, (139, 144))
    for size in ((139, 144), (139, 137), (311, 171), (311, 186)):
        parent.resize(*size)
        plot.resize(*size)
        QTest.qWait(30)  # painted on screen at this size
    shown = _left_axis_pixels(plot)
    plot.getPlotItem().getAxis("left").setCacheMode(QGraphicsItem.CacheMode.NoCache)
    drawn_now = _left_axis_pixels(plot)
    assert (drawn_now[..., :3] < 100).all(axis=2).sum() > 30  # the tick labels are there to compare
    np.testing.assert_array_equal(shown, drawn_now)
