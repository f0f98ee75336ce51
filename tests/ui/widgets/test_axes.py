"""The cached axes draw their grid as filled 1-px rectangles: the same pixels as pyqtgraph's lines, two levels."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPicture

from attention_explorer.ui.widgets.axes import cache_axes
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
