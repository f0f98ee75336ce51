"""Cheap items: the same rectangles as pyqtgraph's own items after every kind of change, and drawn where moved."""

import math

import numpy as np
import pyqtgraph as pg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QImage
from PySide6.QtWidgets import QApplication, QGraphicsTextItem

from attention_explorer.ui.widgets.fast_items import (
    CachedBars,
    CachedScatter,
    FewPointsCurve,
    QuickText,
    moves_quietly,
)
from tests.ui.widget_helpers import show_widget


def _rect(rect: QRectF) -> tuple[float, ...]:
    return rect.x(), rect.y(), rect.width(), rect.height()


def _plot(qtbot) -> pg.PlotWidget:
    widget = pg.PlotWidget()
    widget.getViewBox().disableAutoRange()
    widget.setRange(xRange=(-1, 4), yRange=(-1, 2), padding=0.0)
    return show_widget(qtbot, widget, (400, 300))


@pytest.fixture
def plot(qtbot) -> pg.PlotWidget:
    return _plot(qtbot)


def _pair(plot: pg.PlotWidget, cached_type, plain_type, **options):
    cached, plain = cached_type(**options), plain_type(**options)
    plot.addItem(cached)
    plot.addItem(plain)
    QApplication.processEvents()
    return cached, plain


def _assert_same(cached, plain) -> None:
    cached.boundingRect()  # fill the cache first: the second call must not return an outdated rectangle
    assert _rect(cached.boundingRect()) == pytest.approx(_rect(plain.boundingRect()))


def test_bars_follow_new_heights_pens_and_zoom(plot):
    options = {"x": np.arange(3.0), "height": np.array([0.2, 0.5, 0.3]), "width": 0.6, "pen": pg.mkPen(width=3)}
    cached, plain = _pair(plot, CachedBars, pg.BarGraphItem, **options)
    _assert_same(cached, plain)
    for item in (cached, plain):
        item.setOpts(height=np.array([0.9, 0.1, 1.4]))
    _assert_same(cached, plain)
    for item in (cached, plain):
        item.setOpts(pen=pg.mkPen(width=9))  # a cosmetic pen: its width is padding in pixels
    _assert_same(cached, plain)
    before = _rect(cached.boundingRect())
    plot.setRange(xRange=(-10, 40), yRange=(-10, 20), padding=0.0)  # a pixel is ten times as much
    QApplication.processEvents()
    _assert_same(cached, plain)
    assert _rect(cached.boundingRect()) != pytest.approx(before)
    plot.resize(200, 150)
    QApplication.processEvents()
    _assert_same(cached, plain)


def test_scatter_follows_new_points_sizes_and_zoom(plot):
    cached, plain = _pair(plot, CachedScatter, pg.ScatterPlotItem, pxMode=True)
    for item in (cached, plain):
        item.setData(x=[0.0, 1.0], y=[0.0, 1.5], size=10, symbol="o")
    _assert_same(cached, plain)
    for item in (cached, plain):
        item.setSize(40)  # the same symbol drawn bigger: pyqtgraph may ask for no geometry change
    _assert_same(cached, plain)
    for item in (cached, plain):
        item.setSize(10)
    _assert_same(cached, plain)
    for item in (cached, plain):
        item.setPen(pg.mkPen(width=8))
    _assert_same(cached, plain)
    plot.setRange(xRange=(-5, 5), yRange=(-5, 5), padding=0.0)
    QApplication.processEvents()
    _assert_same(cached, plain)


def test_scatter_clicks_still_reach_their_slot(plot, qtbot):
    cached = CachedScatter(pxMode=True)
    plot.addItem(cached)
    cached.setData(x=[1.0], y=[1.0], size=20, data=[7])
    clicked = []
    cached.sigClicked.connect(lambda _item, points, _ev: clicked.extend(p.data() for p in points))
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    QApplication.processEvents()
    where = plot.mapFromScene(plot.getViewBox().mapViewToScene(QPointF(1.0, 1.0)))
    QTest.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert clicked == [7]


finite = st.floats(-1e6, 1e6, allow_nan=False)
values = st.one_of(finite, st.sampled_from([math.nan, math.inf, -math.inf]))


@settings(max_examples=60, deadline=None)
@given(xs=st.lists(values, min_size=1, max_size=70), width=st.sampled_from([0.0, 1.0, 0.05]),
       cosmetic=st.booleans())
def test_a_few_points_have_the_extent_pyqtgraph_finds(qapp, xs, width, cosmetic):
    data = np.array(xs)
    ys = data[::-1].copy()
    pen = pg.mkPen(width=width)
    pen.setCosmetic(cosmetic)
    fast, plain = FewPointsCurve(data, ys, pen=pen), pg.PlotCurveItem(data, ys, pen=pen)
    for ax in (0, 1):
        expected = plain.dataBounds(ax)
        if expected[0] is not None and math.isnan(expected[0]):
            expected = (None, None)  # all NaN: pyqtgraph gives NaN bounds, which draw nothing; so does (None, None)
        got = fast.dataBounds(ax)
        assert got == pytest.approx(expected) if expected[0] is not None else got == (None, None)
    if plain.dataBounds(0)[0] is not None and not math.isnan(plain.dataBounds(0)[0]):
        assert _rect(fast.boundingRect()) == pytest.approx(_rect(plain.boundingRect()))


def test_the_arrow_shaft_follows_set_data(plot):
    fast, plain = _pair(plot, FewPointsCurve, pg.PlotCurveItem, pen=pg.mkPen(width=4))
    fast.setClickable(True, width=12)  # as the arrows: a pixel padding, which follows the zoom
    plain.setClickable(True, width=12)
    for x, y in ((1.0, 1.0), (-0.5, 2.0), (3.0, -1.0)):
        for item in (fast, plain):
            item.setData([0.0, x], [0.0, y])
        _assert_same(fast, plain)
    before = _rect(fast.boundingRect())
    plot.setRange(xRange=(-20, 30), yRange=(-20, 20), padding=0.0)
    QApplication.processEvents()
    _assert_same(fast, plain)
    assert _rect(fast.boundingRect()) != pytest.approx(before)


def _ink_columns(plot: pg.PlotWidget) -> np.ndarray:
    """Which pixel columns of the plot's view hold dark ink (the text), from a grab."""
    image = plot.grab().toImage()
    width, height = image.width(), image.height()
    columns = np.zeros(width, dtype=bool)
    for x in range(0, width, 2):
        for y in range(0, height, 3):
            if image.pixelColor(x, y).lightness() > 200:
                columns[x] = True
                break
    return columns


def test_a_quiet_label_is_drawn_where_it_was_moved_and_tells_python_nothing(plot):
    plot.setBackground("k")
    label = moves_quietly(pg.TextItem("MMMM", color="w"))
    calls = []
    original = label.itemChange
    label.itemChange = lambda change, value: (calls.append(change), original(change, value))[1]
    plot.addItem(label)
    label.setPos(-0.8, 1.0)
    QApplication.processEvents()
    left = _ink_columns(plot)
    calls.clear()
    label.setPos(3.0, 1.0)
    QApplication.processEvents()
    right = _ink_columns(plot)
    assert calls == []
    middle = plot.width() // 2
    assert left[:middle].any() and not left[middle:].any()
    assert right[middle:].any() and not right[:middle].any()


def _pixels(image: QImage) -> bytes:
    converted = image.convertToFormat(QImage.Format.Format_ARGB32)  # alive until its bits are copied
    return bytes(converted.constBits())


def test_quick_text_draws_and_bounds_every_text_as_pyqtgraphs_text_item(plot, qtbot):
    other = _plot(qtbot)
    quick, plain = QuickText(color="k", anchor=(0.5, 1.0)), pg.TextItem(color="k", anchor=(0.5, 1.0))
    for widget, item in ((plot, quick), (other, plain)):
        widget.setBackground("w")
        widget.addItem(item)
        item.setPos(1.5, 0.5)
    big = QFont(quick.textItem.font())
    big.setPointSizeF(19.5)
    big.setBold(True)
    odd = QFont(big)
    odd.setPointSizeF(16.5)  # a font of a fractional height (25.6 px): rounded the same way
    odd.setBold(False)
    steps = [("text", "0.506"), ("text", "-12.345"), ("font", big), ("font", odd), ("text", "θ = 63.4°"),
             ("text", "注意力 0.5"), ("anchor", (0.0, 0.5)), ("text", "<b>K1</b> &amp;"), ("text", "two\nlines"),
             ("text", "a name\u2028from a file\rwith breaks"), ("text", "")]
    drawn = set()
    for kind, value in steps:
        for item in (quick, plain):
            {"text": item.setText, "font": item.setFont, "anchor": item.setAnchor}[kind](value)
        QApplication.processEvents()
        if kind == "text":  # as it was given (the document gives its line breaks back as "\n")
            assert quick.toPlainText() == value
        assert _rect(quick.boundingRect()) == pytest.approx(_rect(plain.boundingRect()))
        assert _rect(quick.textItem.boundingRect()) == pytest.approx(_rect(plain.textItem.boundingRect()))
        ours, theirs = plot.grab().toImage(), other.grab().toImage()
        assert _pixels(ours) == _pixels(theirs), (kind, value)
        drawn.add(_pixels(ours))
    assert len(drawn) == len(steps)  # every step drew something new: the comparison compared texts


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("aW0.-θ注 \t\n\r\u2028\u2029\u202e<>&"), max_size=12))
def test_quick_text_has_the_documents_rectangle_for_any_text(qapp, text):
    quick, document = QuickText(text), QGraphicsTextItem()
    document.setPlainText(text)
    assert quick.toPlainText() == text
    assert _rect(quick.textItem.boundingRect()) == pytest.approx(_rect(document.boundingRect()))


def test_quick_text_is_plain_text_only(qapp):
    text = QuickText("<i>x</i>")
    assert text.toPlainText() == "<i>x</i>"
    with pytest.raises(TypeError):
        text.setHtml("<b>rich</b>")
