"""The transformer page's "Where attention goes" tab on the tiny BERT: head swatches, hovering a token, a model-view
thumbnail opening its head, hiding the attention sinks, PNG and SVG export; driven through the real widgets."""

from __future__ import annotations

import errno
import os
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.ui.labs.transformer.attention_lines import head_color
from attention_explorer.ui.labs.transformer.attention_views import HEAD_VIEW, MODEL_VIEW
from attention_explorer.ui.labs.transformer.head_view import Hover
from tests.helpers.tiny_bert import tiny_bert_dir

assert tiny_bert_dir  # a fixture: pytest finds it through this import

SENTENCE = "the cat sat on the mat ."
TOKENS = ("[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]")


@pytest.fixture(scope="module")
def window(make_module_window, tiny_bert_dir):
    """One 1280×720 window for the module, its transformer page on the tiny model and SENTENCE."""
    window = make_module_window(size=(1280, 720), discard_changes=True)
    window.show_page(window.pages.index(window.transformer_lab))
    panel = window.transformer_lab
    assert panel.open_model(tiny_bert_dir) and panel.set_sentence(SENTENCE)
    return window


@pytest.fixture
def panel(window, qtbot):
    """The page, with the "Where attention goes" tab chosen by a click on its tab."""
    panel = window.transformer_lab
    bar, views = panel.tabs.tabBar(), panel.attention_views
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(panel.tabs.indexOf(views)).center())
    qtbot.waitUntil(lambda: views.isVisible() and views.width() > 600)
    return panel


@pytest.fixture
def views(panel):
    """The tab, back on layer 0 / head 0, the head view, sinks shown and nothing hovered."""
    panel.set_head(0, 0)
    views = panel.attention_views
    if views.sinks_box.isChecked():
        QTest.mouseClick(views.sinks_box, Qt.MouseButton.LeftButton, pos=QPoint(4, views.sinks_box.height() // 2))
    QTest.mouseClick(views.head_button, Qt.MouseButton.LeftButton)
    assert views.head_view.isVisible()
    QTest.mouseMove(views.head_view, QPoint(2, 2))
    QApplication.processEvents()
    return views


def reference_weights(folder, layer):
    """Every head's weights of one layer, from a fresh load of the checkpoint."""
    return load_checkpoint(folder).analyse(SENTENCE).output.layers[layer].weights


def pixel(view, point: QPointF) -> QColor:
    return view.grab().toImage().pixelColor(round(point.x()), round(point.y()))


def is_background(colour: QColor) -> bool:
    return min(colour.red(), colour.green(), colour.blue()) > 245


def strongest_line(weights, query):
    """The key a query gives most weight to, among those that are not the query itself (its line is horizontal)."""
    row = weights[query].copy()
    row[query] = -1
    return int(np.argmax(row))


def test_the_tab_shows_every_token_in_both_columns(panel, views):
    assert panel.tabs.tabText(panel.tabs.indexOf(views)) == "Where attention goes"
    assert views.head_view.tokens == TOKENS
    assert views.head_view.isVisible() and views.head_view.height() > 300


def test_clicking_a_head_swatch_switches_its_lines_on_and_off(panel, views, tiny_bert_dir):
    head_view = views.head_view
    weights = reference_weights(tiny_bert_dir, 0)
    assert head_view.selected == {0}  # the page's head
    query = 3
    key = strongest_line(weights[2], query)
    start, end = head_view.line_ends(query, key)
    middle = (start + end) / 2
    assert is_background(pixel(head_view, middle)) or 2 not in {h for h, *_ in head_view.visible_lines()}
    QTest.mouseClick(head_view, Qt.MouseButton.LeftButton, pos=head_view.swatch_rect(2).center().toPoint())
    assert head_view.selected == {0, 2}
    lines = {(h, i, j): w for h, i, j, w in head_view.visible_lines()}
    assert lines[(2, query, key)] == pytest.approx(weights[2, query, key])
    QTest.mouseMove(head_view, head_view.token_center(Hover("query", query)).toPoint())
    seen = pixel(head_view, middle)
    ink = head_color(2)
    assert not is_background(seen)
    assert abs(seen.hueF() - ink.hueF()) < 0.08 or weights[0, query, key] > weights[2, query, key]
    QTest.mouseClick(head_view, Qt.MouseButton.LeftButton, pos=head_view.swatch_rect(2).center().toPoint())
    assert head_view.selected == {0}
    assert all(h == 0 for h, *_ in head_view.visible_lines())


def test_hovering_a_token_leaves_only_its_lines_and_writes_its_weights(panel, views, tiny_bert_dir):
    head_view = views.head_view
    weights = reference_weights(tiny_bert_dir, 0)[0]
    hints = []
    panel.hint.connect(hints.append)
    try:
        QTest.mouseMove(head_view, head_view.token_center(Hover("query", 2)).toPoint())
        assert head_view.hover == Hover("query", 2)
        lines = head_view.visible_lines()
        assert lines and {i for _, i, _, _ in lines} == {2}
        assert head_view.shown_numbers() == {j: f"{weights[2, j]:.2f}" for j in range(len(TOKENS))}
        assert hints[-1] == "Where “cat” looks: its attention over every key"
        other = strongest_line(weights, 5)
        start, end = head_view.line_ends(5, other)
        assert is_background(pixel(head_view, (start + end) / 2))  # another token's line is gone
        QTest.mouseMove(head_view, head_view.token_center(Hover("key", 6)).toPoint())
        assert {j for _, _, j, _ in head_view.visible_lines()} == {6}
        assert head_view.shown_numbers()[4] == f"{weights[4, 6]:.2f}"
        QTest.mouseMove(head_view, QPoint(2, head_view.height() - 2))
        assert head_view.hover is None and len(head_view.visible_lines()) > len(TOKENS)
        start, end = head_view.line_ends(5, other)
        assert not is_background(pixel(head_view, (start + end) / 2))
    finally:
        panel.hint.disconnect(hints.append)


def test_clicking_a_model_view_thumbnail_opens_that_layer_and_head(panel, views, tiny_bert_dir):
    QTest.mouseClick(views.model_button, Qt.MouseButton.LeftButton)
    assert views.current_view() is views.model_view and views.model_view.isVisible()
    model_view = views.model_view
    np.testing.assert_allclose(model_view.attentions[1, 3], reference_weights(tiny_bert_dir, 1)[3], atol=1e-12)
    QTest.mouseClick(model_view, Qt.MouseButton.LeftButton, pos=model_view.tile_rect(1, 3).center().toPoint())
    assert (panel.layer, panel.head) == (1, 3)
    assert (panel.layer_spin.value(), panel.head_spin.value()) == (1, 3)
    assert panel.tabs.currentWidget() is panel.weights_map
    np.testing.assert_allclose(panel.weights_map.image.image, reference_weights(tiny_bert_dir, 1)[3], atol=1e-12)
    assert model_view.current == (1, 3)
    panel.tabs.setCurrentWidget(views)
    assert views.head_view.selected == {3} and views.head_view.layer == 1


def test_hiding_the_sinks_renormalises_what_the_head_view_shows(panel, views, tiny_bert_dir):
    head_view = views.head_view
    weights = reference_weights(tiny_bert_dir, 0)[0]
    QTest.mouseClick(views.sinks_box, Qt.MouseButton.LeftButton, pos=QPoint(4, views.sinks_box.height() // 2))
    assert views.sinks_hidden and views.sinks_label.isVisible()
    assert views.sinks_label.text().startswith("Hidden: [CLS], ., [SEP] (")
    QTest.mouseMove(head_view, head_view.token_center(Hover("query", 3)).toPoint())
    kept = [j for j, token in enumerate(TOKENS) if token not in ("[CLS]", "[SEP]", ".")]
    total = sum(weights[3, j] for j in kept)
    expected = {j: f"{weights[3, j] / total:.2f}" for j in kept}
    assert head_view.shown_numbers() == expected
    assert {j for _, _, j, _ in head_view.visible_lines()} <= set(kept)
    start, end = head_view.line_ends(3, 0)
    assert is_background(pixel(head_view, start + (end - start) * 0.6))  # no line to [CLS] any more
    QTest.mouseClick(views.model_button, Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(views.model_view.attentions[0, 0, 3, kept], [weights[3, j] / total for j in kept])
    np.testing.assert_allclose(views.model_view.attentions[..., 0], 0.0)
    QTest.mouseClick(views.sinks_box, Qt.MouseButton.LeftButton, pos=QPoint(4, views.sinks_box.height() // 2))
    np.testing.assert_allclose(views.model_view.attentions[0, 0], weights, atol=1e-12)
    assert not views.sinks_label.isVisible()


@pytest.mark.parametrize("view", [HEAD_VIEW, MODEL_VIEW])
def test_export_writes_a_png_and_an_svg_of_the_view_on_show(panel, views, tmp_path, view):
    views.show_view(view)
    shown = views.current_view()
    paths = iter([str(tmp_path / "figure"), str(tmp_path / "figure.svg")])
    views.ask_export_path = lambda fmt: next(paths)
    hints = []
    panel.hint.connect(hints.append)
    try:
        views.png_action.trigger()
        views.svg_action.trigger()
    finally:
        panel.hint.disconnect(hints.append)
        del views.ask_export_path
    image = QImage(str(tmp_path / "figure.png"))
    assert (image.width(), image.height()) == (shown.width() * 2, shown.height() * 2)
    assert hints == ["Exported figure.png", "Exported figure.svg"]
    counts = np.unique(np.array([image.pixel(x, y) for x in range(0, image.width(), 7)
                                 for y in range(0, image.height(), 7)]), return_counts=True)[1]
    assert len(counts) > 20  # lines in several colours and faded, not a blank page
    root = ElementTree.parse(tmp_path / "figure.svg").getroot()
    assert root.tag.endswith("svg")
    drawn = [element for element in root.iter() if element.tag.endswith(("path", "polyline", "line"))]
    assert len(drawn) > len(TOKENS)
    if view == HEAD_VIEW:
        texts = "".join(element.text or "" for element in root.iter() if element.tag.endswith("text"))
        assert "[CLS]" in texts and "mat" in texts


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_an_export_onto_a_full_disk_says_it_failed_and_why(panel, views, tmp_path, monkeypatch, _no_modal_dialogs,
                                                           fmt):
    """write(2) fails with ENOSPC: the name and the reason in the status bar and a message, never "Exported"."""
    def full(handle, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    hints = []
    panel.hint.connect(hints.append)
    try:
        with monkeypatch.context() as patch:
            patch.setattr(views, "ask_export_path", lambda _fmt: str(tmp_path / "figure"))
            patch.setattr(os, "write", full)
            (views.png_action if fmt == "png" else views.svg_action).trigger()
    finally:
        panel.hint.disconnect(hints.append)
    said = f"figure.{fmt} was not exported: the disk is full"
    assert hints == [said]
    assert _no_modal_dialogs[-1] == ("Cannot export", said)
    assert list(tmp_path.iterdir()) == []


def test_in_chinese_the_views_draw_chinese_tokens_at_1280_by_720(window, panel, views, qtbot):
    from attention_explorer.ui.i18n.switcher import language_switcher

    window.actions_by_name["lang_zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: panel.tabs.tabText(0) == "注意力")  # the page is in Chinese (a string on main)
        assert panel.set_sentence("我爱北京")
        head_view = views.head_view
        assert head_view.tokens == ("[CLS]", "我", "爱", "北", "京", "[SEP]")
        assert head_view.height() > 250 and head_view.width() > 600
        centre = head_view.token_center(Hover("key", 2))
        image = head_view.grab().toImage()
        inked = [image.pixelColor(round(centre.x()) + dx, round(centre.y()) + dy) for dx in range(-8, 9)
                 for dy in range(-6, 7)]
        assert any(not is_background(colour) for colour in inked)  # 爱 is drawn where a hover finds it
        bar = panel.tabs.tabBar()
        assert bar.tabRect(panel.tabs.count() - 1).right() <= panel.tabs.width()  # every tab fits
    finally:
        language_switcher().set_language("en")
        panel.set_sentence(SENTENCE)


def test_a_long_sentence_draws_only_the_strongest_lines(qtbot):
    from attention_explorer.ui.labs.transformer.head_view import MAX_LINES, HeadView

    n = 512
    weights = np.random.default_rng(5).dirichlet(np.full(n, 0.3), size=(2, n))
    view = HeadView()
    qtbot.addWidget(view)
    view.resize(900, 500)
    view.show_layer(tuple(f"w{i}" for i in range(n)), weights, np.zeros(n, dtype=bool), 0)
    view.select_only(1)
    lines = view.visible_lines()
    assert len(lines) == MAX_LINES
    weakest_drawn = min(weight for *_, weight in lines)
    assert np.sum(weights[1] > weakest_drawn) < MAX_LINES  # no stronger line was left out
    assert not view.grab().isNull()
