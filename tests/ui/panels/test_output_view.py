"""The output view: the output's numbers, the V's and the output as points (d_v = 2) or component bars."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from attention_explorer.core.files.presets import load_preset
from attention_explorer.ui.panels.output_layout import convex_hull
from attention_explorer.ui.panels.output_view import OutputView
from attention_explorer.ui.panels.steps_view import StepsView
from attention_explorer.ui.panels.weights_chart import WeightsChart
from tests.ui.widget_helpers import show_widget

LIBRARY_OUTPUT = [0.49180, 0.50820]  # 0.5065·[0.8, 0.2] + 0.1863·[0.3, 0.7] + 0.3072·[0.1, 0.9]


@pytest.fixture
def make_view(qtbot):
    """A shown OutputView at a realistic dock size."""

    def make(model, width=480, height=400):
        return show_widget(qtbot, OutputView(model), (width, height))

    return make


def marker_position(view):
    return np.array(view.output_position())


def click_at(view, x, y):
    widget_point = view.plot.mapFromScene(view.view_box.mapViewToScene(QPointF(x, y)))
    QTest.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     widget_point)


def test_library_output_numbers_and_marker(library_model, make_view):
    view = make_view(library_model)
    assert view.mode == "plane"
    assert "[0.492, 0.508]" in view.readout.text()
    assert np.allclose(marker_position(view), library_model.result.output)
    assert np.allclose(marker_position(view), LIBRARY_OUTPUT, atol=5e-5)
    x, y = view.value_points.getData()
    assert np.allclose(np.column_stack([x, y]), [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]])


def test_heavier_values_get_bigger_points(library_model, make_view):
    view = make_view(library_model)
    library_model.select_key(1)  # keep the selection's extra size off K1 and K3
    sizes = [point.size() for point in view.value_points.points()]
    assert sizes[0] > sizes[2]  # weight 0.506 > 0.307


def test_hull_is_the_convex_hull_of_the_values(model, make_view):
    view = make_view(model)  # drag-2d: V = [1, 0.2], [0.1, 1], [0.6, −0.6]: a triangle
    polygon = view.hull.polygon()
    corners = {(round(polygon.at(i).x(), 6), round(polygon.at(i).y(), 6)) for i in range(polygon.size())}
    assert corners == {(1.0, 0.2), (0.1, 1.0), (0.6, -0.6)}
    # An interior point is not a corner.
    hull = convex_hull(np.array([[0, 0], [2, 0], [0, 2], [0.5, 0.5]]))
    assert {tuple(p) for p in hull} == {(0.0, 0.0), (2.0, 0.0), (0.0, 2.0)}


def test_marker_follows_an_edit(model, make_view):
    view = make_view(model)
    model.set_plane_position("key", 1, 3.0, 3.0)  # K2 far along Q's side: the output moves towards V2
    assert np.allclose(marker_position(view), model.result.output)
    model.set_vector("value", 0, [2.0, 2.0])
    assert np.allclose(marker_position(view), model.result.output)
    assert f"{model.result.output[0]:.3f}" in view.readout.text()


def test_selected_value_is_outlined_and_clicking_a_value_selects(library_model, make_view):
    view = make_view(library_model)

    def outline_widths():
        return [point.pen().widthF() for point in view.value_points.points()]

    widths = outline_widths()
    assert widths[0] > widths[1] and widths[0] > widths[2]
    click_at(view, 0.3, 0.7)  # V of K2
    assert library_model.selected_key == 1
    widths = outline_widths()
    assert widths[1] > widths[0]


def test_d_v_change_switches_to_component_bars_and_back(library_model, make_view):
    view = make_view(library_model)
    library_model.set_d_v(3)  # new components are zeros: output [0.492, 0.508, 0]
    assert view.mode == "bars"
    assert not view.value_points.isVisible() and view.component_bars.isVisible()
    bar_heights = np.asarray(view.component_bars.opts["height"])
    assert np.allclose(bar_heights, library_model.result.output)
    assert np.allclose(bar_heights, LIBRARY_OUTPUT + [0.0], atol=5e-5)
    assert [text.toPlainText() for text in view.component_texts] == ["0.492", "0.508", "0.000"]
    assert "[0.492, 0.508, 0.000]" in view.readout.text()
    library_model.set_d_v(2)
    assert view.mode == "plane" and view.value_points.isVisible() and not view.component_bars.isVisible()
    assert np.allclose(marker_position(view), LIBRARY_OUTPUT, atol=5e-5)


def test_one_dimensional_values_use_bars_and_dots_select(library_model, make_view):
    view = make_view(library_model)
    library_model.set_d_v(1)  # V = [0.8], [0.3], [0.1]: output 0.5065·0.8 + 0.1863·0.3 + 0.3072·0.1 = 0.492
    assert view.mode == "bars"
    assert np.allclose(view.component_bars.opts["height"], [0.49180], atol=5e-5)
    x, y = view.component_dots.getData()
    assert np.allclose(sorted(y), [0.1, 0.3, 0.8])
    index_of_k3 = int(np.argmin(np.abs(y - 0.1)))
    click_at(view, x[index_of_k3], y[index_of_k3])
    assert library_model.selected_key == 2


def test_every_panel_updates_after_an_edit(library_model, qtbot):
    panels = [StepsView(library_model), WeightsChart(library_model), OutputView(library_model)]
    for panel in panels:
        qtbot.addWidget(panel)
        panel.resize(480, 400)
        panel.show()
    steps, chart, output = panels
    library_model.set_vector("query", 0, [0, 1, 0, 1])  # Q now matches K2: scores [0, 2, 0]
    expected = np.array([1.0, np.e, 1.0]) / (2 + np.e)  # scaled [0, 1, 0]
    assert f"/ {2 + np.e:.3f} = {expected[1]:.3f}" in steps.plain_text()
    assert np.allclose(chart.bars.opts["height"], expected)
    assert np.allclose(marker_position(output), expected @ np.array([[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]))


def test_saturation_large_output_is_the_first_value(model, make_view):
    view = make_view(model)
    model.load_scenario(load_preset("saturation-large"))
    # Nearly all weight on K1 (0.99995): the output is V1 = [0.8, 0.2] to 3 decimals.
    assert "[0.800, 0.200]" in view.readout.text()


def star_scene_rect(view):
    """The output star's square on screen (scene coordinates), its white rim included."""
    from PySide6.QtCore import QRectF

    x, y = marker_position(view)
    centre = view.view_box.mapViewToScene(QPointF(float(x), float(y)))
    half = view.output_marker.points()[0].size() / 2 + 1
    return QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)


def letters_rect(label):
    """A value label's text on screen, without the empty margin TextItem leaves around it."""
    from attention_explorer.ui.panels.output_layout import LABEL_MARGIN

    return label.sceneBoundingRect().adjusted(LABEL_MARGIN, LABEL_MARGIN, -LABEL_MARGIN, -LABEL_MARGIN)


def assert_labels_readable(view):
    """No value label on the star or its name, none on another label's letters, none cut off by the plot's edge."""
    view.plot.grab()  # paint as the user sees it: a TextItem fits its transform to the view when painted
    star = star_scene_rect(view)
    plot = view.view_box.sceneBoundingRect()
    labels = view.value_labels
    assert labels and all(label.isVisible() for label in labels)
    for i, label in enumerate(labels):
        rect = label.sceneBoundingRect()
        assert not rect.intersects(star), (label.toPlainText(), rect, star)
        if view.output_label.isVisible():  # "output" under the star
            assert not rect.intersects(view.output_label.sceneBoundingRect()), label.toPlainText()
        assert plot.contains(letters_rect(label)), (label.toPlainText(), rect, plot)
        for other in labels[i + 1:]:
            assert not letters_rect(label).intersects(letters_rect(other)), (label.toPlainText(), other.toPlainText())


@pytest.mark.parametrize("size", [(230, 330), (480, 400)])  # the first: a dock at 1280×720
def test_value_label_moves_off_the_star_next_to_its_point(model, make_view, size):
    # drag-2d: the output [0.809, 0.113] lies next to V1 = [1, 0.2], where K1's label used to sit (on the star).
    view = make_view(model, *size)
    assert np.allclose(marker_position(view), [0.809, 0.113], atol=5e-4)
    assert_labels_readable(view)
    k1 = view.value_labels[0]
    point = view.view_box.mapViewToScene(QPointF(1.0, 0.2))
    assert k1.sceneBoundingRect().left() > point.x() or k1.sceneBoundingRect().bottom() < point.y()


def test_value_labels_stay_off_the_star_during_a_drag(model, make_view):
    view = make_view(model)
    for angle in np.linspace(0.0, 2 * np.pi, 37):
        model.set_plane_position("key", 1, 2.0 * np.cos(angle), 2.0 * np.sin(angle))  # K2 circles around
        assert_labels_readable(view)


def test_value_label_returns_outwards_when_the_star_leaves(model, make_view):
    view = make_view(model)
    assert_labels_readable(view)
    k1 = view.value_labels[0]
    point = view.view_box.mapViewToScene(QPointF(1.0, 0.2))
    assert k1.sceneBoundingRect().center().x() >= point.x()  # beside V1 but away from the star on its left
    model.set_plane_position("key", 1, 3.0, 1.0)  # K2 matches Q best: the output moves off towards V2
    assert np.linalg.norm(marker_position(view) - [1.0, 0.2]) > 0.5
    assert_labels_readable(view)
    # V1 is the rightmost V: with the star gone its label points outwards again, to the left, inside the plot.
    assert k1.sceneBoundingRect().right() < point.x()
