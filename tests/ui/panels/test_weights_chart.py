"""The weights chart: one bar per key at its weight, the unscaled overlay, entropy, selection by click."""

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtTest import QTest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.state.explorer import ExplorerModel
from attention_explorer.ui.panels.weights_chart import OVERLAY_WIDTH, VALUE_TEXT_MAX_KEYS, WeightsChart
from attention_explorer.ui.style.theme import key_color

LIBRARY_WEIGHTS = [0.50648, 0.18632, 0.30720]  # softmax([1, 0, 0.5]) by hand: [e, 1, e^0.5] / 5.367


@pytest.fixture
def make_chart(qtbot):
    """A shown WeightsChart at a realistic dock size."""

    def make(model, width=480, height=400):
        chart = WeightsChart(model)
        qtbot.addWidget(chart)
        chart.resize(width, height)
        chart.show()
        qtbot.waitExposed(chart)
        return chart

    return make


def heights(bar_item):
    return np.asarray(bar_item.opts["height"], dtype=float)


def value_texts(chart):
    return [text.toPlainText() for text in chart.value_texts]


def click_bar(chart, index, height):
    """Click the plot where bar `index` is drawn (halfway up a bar of `height`)."""
    scene_point = chart.view_box.mapViewToScene(QPointF(index, height / 2))
    widget_point = chart.plot.mapFromScene(scene_point)
    QTest.mouseClick(chart.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point)


def test_library_bars_are_the_weights_in_key_colours(library_model, make_chart):
    chart = make_chart(library_model)
    assert np.allclose(heights(chart.bars), library_model.result.weights)
    assert np.allclose(heights(chart.bars), LIBRARY_WEIGHTS, atol=5e-6)
    assert [brush.color().name() for brush in chart.bars.opts["brushes"]] == [
        key_color(i).name() for i in range(3)
    ]
    assert value_texts(chart) == ["0.506", "0.186", "0.307"]
    # Each value sits on top of its column: over its bar, or over the dashed outline where that is taller.
    unscaled = [0.66524, 0.09003, 0.24473]
    for i, text in enumerate(chart.value_texts):
        assert text.pos().x() == pytest.approx(i)
        assert text.pos().y() == pytest.approx(max(LIBRARY_WEIGHTS[i], unscaled[i]), abs=0.03)
    ticks = chart.plot.getPlotItem().getAxis("bottom")._tickLevels[0]
    assert [label for _, label in ticks] == ["K1", "K2", "K3"]


def test_unscaled_overlay_is_softmax_of_raw_scores(library_model, make_chart):
    chart = make_chart(library_model)
    # Raw scores [2, 0, 1] at factor 1: [e², 1, e] / (e² + 1 + e) = [0.665, 0.090, 0.245].
    assert np.allclose(heights(chart.overlay), [0.66524, 0.09003, 0.24473], atol=5e-5)
    assert "without scaling" in chart.caption.text() or "without scaling" in chart.caption.toolTip()


def test_saturation_small_overlay_equals_bars(model, make_chart):
    chart = make_chart(model)
    model.load_scenario(load_preset("saturation-small"))
    expected = [0.66524, 0.24473, 0.09003]  # softmax([2, 1, 0]) by hand
    assert np.allclose(heights(chart.bars), expected, atol=5e-5)
    assert np.allclose(heights(chart.overlay), expected, atol=5e-5)
    assert value_texts(chart) == ["0.665", "0.245", "0.090"]
    assert "factor is 1" in chart.caption.toolTip()


def test_saturation_large_is_nearly_one_hot(model, make_chart):
    chart = make_chart(model)
    model.load_scenario(load_preset("saturation-large"))
    # softmax([20, 10, 0]): 1 / (1 + e^−10 + e^−20) = 0.9999546.
    assert heights(chart.bars)[0] == pytest.approx(0.9999546, abs=1e-7)
    assert value_texts(chart) == ["1.000", "0.000", "0.000"]
    stats = chart.stats_label.text()
    assert "<b>1.000</b>" in stats and "K1" in stats
    # Entropy of [0.99995, 4.54e−5, 2.06e−9] is about 0.0007 bits.
    assert "<b>0.001</b>" in stats


def test_entropy_and_largest_weight_text(library_model, make_chart):
    chart = make_chart(library_model)
    stats = chart.stats_label.text()
    # −Σ w log2 w for [0.5065, 0.1863, 0.3072] = 0.4971 + 0.4517 + 0.5231 = 1.472; max log2 3 = 1.585.
    assert "<b>1.472</b>" in stats
    assert "1.585" in stats
    assert "<b>0.506</b> (K1)" in stats


def test_y_range_stays_fixed_and_mouse_cannot_pan(model, make_chart):
    chart = make_chart(model)
    before = chart.view_box.viewRange()[1]
    model.load_scenario(load_preset("saturation-large"))
    model.set_plane_position("key", 1, 3.0, 3.0)
    assert chart.view_box.viewRange()[1] == pytest.approx(before)
    assert before[0] == pytest.approx(0.0) and 1.0 < before[1] < 1.2
    assert chart.view_box.state["mouseEnabled"] == [False, False]


def test_selected_bar_has_the_thick_outline(library_model, make_chart):
    chart = make_chart(library_model)

    def outlined():
        return [i for i, pen in enumerate(chart.bars.opts["pens"]) if pen.style() != Qt.PenStyle.NoPen]

    assert outlined() == [0]
    library_model.select_key(2)
    assert outlined() == [2]
    assert chart.bars.opts["pens"][2].widthF() >= 2.0


def test_clicking_a_bar_selects_its_key(library_model, make_chart):
    chart = make_chart(library_model)
    click_bar(chart, 2, LIBRARY_WEIGHTS[2])
    assert library_model.selected_key == 2
    click_bar(chart, 1, LIBRARY_WEIGHTS[1])
    assert library_model.selected_key == 1


def test_bars_follow_an_edit(library_model, make_chart):
    chart = make_chart(library_model)
    library_model.set_vector("key", 1, [1, 0, 1, 0])  # K2 now equals K1: scores [2, 2, 1]
    expected = np.array([np.e, np.e, np.exp(0.5)]) / (2 * np.e + np.exp(0.5))
    assert np.allclose(heights(chart.bars), expected)
    assert value_texts(chart) == [f"{w:.3f}" for w in expected]
    library_model.add_pair()  # a fourth key: a fourth bar and value text
    assert len(heights(chart.bars)) == 4
    assert len(chart.value_texts) == 4


def test_many_keys_draw_bars_without_value_texts(model, make_chart):
    chart = make_chart(model)
    rng = np.random.default_rng(3)
    n = 512
    model.load_scenario(Scenario(query=rng.standard_normal(16), keys=rng.standard_normal((n, 16)),
                                 values=rng.standard_normal((n, 2))))
    assert n > VALUE_TEXT_MAX_KEYS and chart.value_texts == []
    assert np.allclose(heights(chart.bars), model.result.weights)
    model.set_plane_position("key", 7, 2.0, 2.0)
    assert np.allclose(heights(chart.bars), model.result.weights)
    click_bar(chart, 300, 0.5)
    assert model.selected_key == 300


def assert_value_texts_clear_of_lines(chart):
    """No value text is crossed by its bar's top, its dashed outline's top, or the outline's sides below them."""
    chart.plot.grab()  # paint as the user sees it: a TextItem fits its transform to the view when painted
    bar_heights, outline_heights = heights(chart.bars), heights(chart.overlay)
    outline_pen = chart.overlay.opts["pen"].widthF()
    for i, text in enumerate(chart.value_texts):
        rect = text.sceneBoundingRect()
        outline_top = chart.view_box.mapViewToScene(QPointF(i - OVERLAY_WIDTH / 2, outline_heights[i]))
        outline_right = chart.view_box.mapViewToScene(QPointF(i + OVERLAY_WIDTH / 2, outline_heights[i]))
        bar_top = chart.view_box.mapViewToScene(QPointF(i, bar_heights[i]))
        overlaps_edge = rect.left() < outline_right.x() and rect.right() > outline_top.x()
        assert overlaps_edge  # the text is over its own column ...
        assert rect.bottom() < outline_top.y() - outline_pen / 2, (i, rect, outline_top)  # ... above the dashes
        assert rect.bottom() < bar_top.y(), (i, rect, bar_top)
        centre = chart.view_box.mapViewToScene(QPointF(i, 0)).x()
        assert rect.center().x() == pytest.approx(centre, abs=1.0)
        # Not cut off by the plot's top either (the empty margin above the letters may be).
        assert rect.top() + 4 >= chart.view_box.sceneBoundingRect().top(), (i, rect)


def test_value_text_is_not_crossed_by_the_dashed_outline(model, make_chart):
    chart = make_chart(model)  # drag-2d: K1's weight 0.664, without scaling 0.771: the dashes pass above the bar
    assert heights(chart.overlay)[0] > heights(chart.bars)[0] + 0.05
    assert_value_texts_clear_of_lines(chart)
    model.set_plane_position("key", 1, 3.0, 1.0)  # now K2 has the most weight
    assert_value_texts_clear_of_lines(chart)
    chart.resize(300, 250)  # the lift above the lines is in pixels: it follows the plot's height
    QTest.qWait(10)
    assert_value_texts_clear_of_lines(chart)


def test_value_text_over_a_full_bar_fits_in_a_short_plot(model, make_chart):
    chart = make_chart(model, 230, 340)  # the plot about as tall as in a dock at 1280×720
    model.load_scenario(load_preset("saturation-large"))  # K1's weight and its outline ≈ 1
    assert heights(chart.overlay)[0] == pytest.approx(1.0, abs=1e-4)
    assert chart.value_texts[0].isVisible()
    assert_value_texts_clear_of_lines(chart)
    top = chart.view_box.viewRange()[1][1]
    model.set_plane_position("key", 1, 3.0, 3.0)
    assert chart.view_box.viewRange()[1][1] == top  # the room above is made once, not on every drag move


def test_value_text_is_clear_where_the_outline_matches_the_bar(model, make_chart):
    chart = make_chart(model)
    model.load_scenario(load_preset("saturation-small"))  # factor 1: outline and bar have the same height
    assert_value_texts_clear_of_lines(chart)


def drawn_tick_labels(axis):
    """The tick labels pyqtgraph actually draws on `axis`, with their rectangles in scene coordinates."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        _axis, _ticks, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return {text: axis.mapRectToScene(rect) for rect, _flags, text in texts}


def test_weight_axis_shows_zero(model, make_chart):
    chart = make_chart(model)
    drawn = drawn_tick_labels(chart.plot.getPlotItem().getAxis("left"))
    assert {"0", "0.5", "1"} <= set(drawn)
    # "0" sits at the bars' foot and inside the widget, where the user can see it.
    zero = drawn["0"]
    foot = chart.view_box.mapViewToScene(QPointF(0, 0)).y()
    assert zero.center().y() == pytest.approx(foot, abs=2.0)
    assert chart.plot.sceneRect().contains(zero)


@pytest.mark.parametrize(("preset", "width"), [("drag-2d", 215), ("code-review", 215), ("code-review", 180)])
def test_neighbouring_value_texts_never_touch(make_chart, preset, width):
    # Seen while turning K2 in a 1280×720 window: the two bold and plain "0.428" ran together as "0.4280.428".
    model = ExplorerModel(load_preset(preset))
    chart = make_chart(model, width=width, height=272)
    for selected in range(model.scenario.n):
        model.select_key(selected)  # the selected key's text is bold, so wider
        chart.plot.grab()
        shown = [text for text in chart.value_texts if text.isVisible()]
        for left, right in itertools.pairwise(shown):
            # The letters, not the item's box: QGraphicsTextItem keeps an empty margin around them.
            left_end = left.textItem.mapToScene(QPointF(left.textItem.boundingRect().right() - 4, 0)).x()
            right_start = right.textItem.mapToScene(QPointF(4, 0)).x()
            assert right_start - left_end >= 3, (preset, width, selected)
