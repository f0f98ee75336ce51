"""The real-transformer page on the tiny Qwen2 (4 query heads on 2 K/V heads, RoPE) and a Chinese-vocabulary BERT, in a
1280×720 window: grouped heads drawn in the head and model views, the KV cache against full multi-head attention, a
pair (q_m, k_n) after RoPE in the explorer and before it in the positions lab, and 我 爱 北京 from the self-attention
page in one click. Both models lie in a Hugging Face cache of the test under the names of the real ones."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.maths.positional import rope_rotate
from attention_explorer.core.pretrained.checkpoint import load_checkpoint
from attention_explorer.core.pretrained.generation import cache_cost
from attention_explorer.ui.labs.registry import page_index
from attention_explorer.ui.style.theme import theme
from tests.helpers.tiny_bert import tiny_bert_dir
from tests.helpers.tiny_llama import tiny_qwen2_dir
from tests.ui.labs.panel_wait import wait_idle
from tests.ui.window.test_presentation_text_fits import cut_texts

assert tiny_bert_dir and tiny_qwen2_dir  # fixtures: pytest finds them through these imports
LEFT = Qt.MouseButton.LeftButton
QWEN, BERT_CHINESE = "Qwen/Qwen2.5-0.5B", "google-bert/bert-base-chinese"


def cached(hub, repo_id, folder):
    """A copy of `folder` as the cache's snapshot of `repo_id`."""
    snapshot = hub / ("models--" + repo_id.replace("/", "--")) / "snapshots" / "1"
    shutil.copytree(folder, snapshot)
    return snapshot


@pytest.fixture(scope="module")
def hub(tmp_path_factory, tiny_bert_dir, tiny_qwen2_dir):
    """A Hugging Face cache holding the tiny BERT (its vocabulary has 我 爱 北 京) and the tiny Qwen2 under the names
    of bert-base-chinese and Qwen2.5-0.5B."""
    home = tmp_path_factory.mktemp("hf-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HOME", str(home))
        patch.delenv("HF_HUB_CACHE", raising=False)
        yield {QWEN: cached(home / "hub", QWEN, tiny_qwen2_dir),
               BERT_CHINESE: cached(home / "hub", BERT_CHINESE, tiny_bert_dir)}


@pytest.fixture(scope="module")
def window(make_module_window, hub):
    window = make_module_window(size=(1280, 720), discard_changes=True)
    return window


@pytest.fixture
def qwen(window, hub):
    """The page on the tiny Qwen2 and "I love Beijing", on layer 0, head 0."""
    window.show_page(page_index("transformer"))
    panel = window.transformer_lab
    if panel.loaded is None or panel.loaded.name != QWEN:
        assert panel.open_model(hub[QWEN])
    assert panel.set_sentence("I love Beijing")
    panel.set_head(0, 0)
    QApplication.processEvents()
    return panel


def show_tab(panel, widget):
    bar = panel.tabs.tabBar()
    QTest.mouseClick(bar, LEFT, pos=bar.tabRect(panel.tabs.indexOf(widget)).center())
    assert panel.tabs.currentWidget() is widget


def ink_in(view, rect) -> int:
    """How many pixels inside `rect` of the view differ from its background: something is drawn there."""
    image = view.grab().toImage()
    background = image.pixelColor(2, image.height() - 2)
    return sum(image.pixelColor(x, y) != background
               for x in range(int(rect.left()), int(rect.right())) for y in range(int(rect.top()), int(rect.bottom())))


def test_the_head_view_and_model_view_group_query_heads_by_their_k_v_head(qwen):
    panel = qwen
    views = panel.attention_views
    show_tab(panel, views)
    QTest.mouseClick(views.head_button, LEFT)
    assert "2 layers × 4 heads sharing 2 K/V heads, d_k = 16" in panel.status_label.text()
    caption = views.groups_label
    assert caption.isVisible() and caption.text() == (
        "Grouped-query attention, 4 query heads on 2 K/V heads: heads 0–1 share K/V head 0, heads 2–3 share K/V "
        "head 1. The heads of a group score the same keys with their own queries.")
    head_view = views.head_view
    labels = head_view.group_labels()
    assert [text for text, _rect in labels] == ["K/V 0", "K/V 1"]
    swatch = head_view.swatch_rect
    inside, between = swatch(1).left() - swatch(0).right(), swatch(2).left() - swatch(1).right()
    assert between >= inside + 10  # the two groups stand apart
    for (_text, rect), first, last in zip(labels, (0, 2), (1, 3)):
        assert rect.top() > swatch(first).bottom()  # under the group's swatches, centred on them
        assert abs(rect.center().x() - (swatch(first).left() + swatch(last).right()) / 2) < 1
        assert ink_in(head_view, rect) > 20  # the label is drawn
        assert head_view.rect().contains(rect.toRect())
    QTest.mouseClick(views.model_button, LEFT)
    model_view = views.model_view
    assert model_view.isVisible()
    labels = model_view.group_labels()
    assert [text for text, _rect in labels] == ["K/V 0", "K/V 1"]
    tile = model_view.tile_rect
    assert tile(0, 2).left() - tile(0, 1).right() >= tile(0, 1).left() - tile(0, 0).right() + 10
    for (_text, rect), first, last in zip(labels, (0, 2), (1, 3)):
        assert rect.left() == tile(0, first).left() and rect.right() == tile(0, last).right()
        assert rect.bottom() < tile(0, first).top()  # above the column of its heads
        assert ink_in(model_view, rect.adjusted(0, 0, 0, 6)) > 20
    assert model_view.tile_at(tile(1, 3).center()) == (1, 3)  # clicks still find the spaced tiles
    QTest.mouseClick(views.head_button, LEFT)


def test_the_kv_cache_panel_shows_core_cache_cost_with_and_without_grouping(qwen):
    panel = qwen
    show_tab(panel, panel.generation)
    QTest.mouseClick(panel.generation.next_button, LEFT)
    wait_idle(panel)
    cost = cache_cost(panel.loaded.config, panel.analysis.n)
    assert (cost.cached_heads, cost.heads, cost.grouping_saving) == (2, 4, 2.0)

    def shown(number):
        return f"{number:,}".replace(",", "\u2009")

    generation = panel.generation
    assert generation.cache_label.text() == (
        f"KV cache: 2 layers × 2 (K, V) × 2 K/V heads × {panel.analysis.n} tokens × 16 = {shown(cost.numbers)} "
        f"numbers, {shown(cost.bytes)} bytes (float64)")
    assert generation.grouping_label.isVisible()
    assert (f"Full multi-head attention would hold {shown(cost.numbers_without_grouping)} numbers, "
            f"{shown(cost.numbers_without_grouping * 8)} bytes: 2× as much.") in generation.grouping_label.text()
    # the cache actually held: 2 layers × (K and V) × 2 K/V heads × n × 16 float64 numbers
    held = sum(layer.cached_keys.size + layer.cached_values.size for layer in panel.analysis.output.layers)
    assert held == cost.numbers
    bars = generation.saving.bar_rects()
    assert generation.saving.isVisible() and len(bars) == 2
    assert bars[1].width() / bars[0].width() == pytest.approx(cost.grouping_saving)
    assert [label for label, _size in generation.saving.rows] == [
        f"GQA, 2 K/V heads: {shown(cost.bytes)} bytes", f"full MHA, 4 heads: {shown(2 * cost.bytes)} bytes"]


def test_the_cache_diagram_names_its_rows_readably_in_high_contrast(qwen):
    panel = qwen
    show_tab(panel, panel.generation)
    theme().set_mode("contrast")
    try:
        QApplication.processEvents()
        image = panel.generation.diagram.grab().toImage()
        label_width = panel.generation.diagram.fontMetrics().horizontalAdvance("L00 K")
        lightest = max(image.pixelColor(x, y).lightness() for x in range(2, label_width) for y in range(2, 18))
        assert image.pixelColor(image.width() - 2, 2).lightness() < 30  # the black page
        assert lightest > 200  # "L0 K" in the theme's light text, not dark grey on black
    finally:
        theme().set_mode("light")


def click_cell(panel, row, column):
    heatmap = panel.weights_map
    point = heatmap.mapFromScene(heatmap.view_box.mapViewToScene(QPointF(column + 0.5, row + 0.5)))
    QTest.mouseClick(heatmap.viewport(), LEFT, Qt.KeyboardModifier.NoModifier, point)


def test_explore_this_pair_puts_q_m_and_the_k_n_after_rope_in_the_explorer(qwen, window, hub):
    panel = qwen
    panel.set_head(1, 3)
    show_tab(panel, panel.weights_map)
    m, n = 4, 2
    click_cell(panel, m, n)
    assert (panel.query_token, panel.key_token) == (m, n)
    QTest.mouseClick(panel.send_button, LEFT)
    reference = load_checkpoint(hub[QWEN])
    try:
        head = reference.analyse("I love Beijing").head(1, 3)
    finally:
        reference.tokenizer.close()
    scenario = window.model.scenario
    assert head.kv_head == 1 and scenario.n == m + 1
    # q_m and every k_j turned by RoPE to their own positions, computed here from the vectors before rotation
    theta = panel.loaded.rope_theta
    half = head.head_size // 2

    def rope(vector, position):  # the halves layout: number i pairs with number i + d/2
        angles = position * theta ** (-np.arange(half) * 2 / head.head_size)
        a, b = vector[:half], vector[half:]
        return np.concatenate([a * np.cos(angles) - b * np.sin(angles), b * np.cos(angles) + a * np.sin(angles)])

    np.testing.assert_allclose(scenario.query, rope(head.queries_unrotated[m], m), atol=1e-12)
    for j in range(m + 1):
        np.testing.assert_allclose(scenario.keys[j], rope(head.keys_unrotated[j], j), atol=1e-12)
    np.testing.assert_allclose(window.model.result.weights, head.weights[m, :m + 1], atol=1e-12)
    assert window.model.selected_key == n  # the pair's key
    assert scenario.title.endswith("after RoPE)") and "rotated to its position m = 4" in scenario.description


def test_the_pair_before_rope_opens_in_the_positions_lab_where_q_k_depends_on_m_minus_n(qwen, window):
    panel = qwen
    panel.set_head(0, 1)
    show_tab(panel, panel.weights_map)
    m, n = 5, 1
    click_cell(panel, m, n)
    button = panel.positions_button
    assert button.isVisible() and button.text() == "q₅·k₁ in Positions"
    head = panel.analysis.head(0, 1)
    QTest.mouseClick(button, LEFT)
    lab = window.current_page()
    assert lab.objectName() == "positionalLab"
    positions = lab.positions
    assert (positions.m, positions.n, positions.d, positions.base) == (m, n, 16, panel.loaded.rope_theta)
    assert (lab.sliders["m"].value(), lab.sliders["n"].value()) == (m, n)
    model_score = float(head.queries[m] @ head.keys[n])  # the model's own q_m·k_n (after RoPE)
    assert positions.score["rope"] == pytest.approx(model_score, abs=1e-9)
    shown = re.search(r"R\(m\)q · R\(n\)k = <b>([−\d.]+)</b>", lab.readouts["rope"].text()).group(1)
    assert float(shown.replace("−", "-")) == pytest.approx(model_score, abs=5e-4)
    # the lab's vectors are the head's before RoPE, reordered to its pairs (2i, 2i + 1): rotated, the same score
    for vector, unrotated, position in ((positions.q, head.queries_unrotated[m], m),
                                        (positions.k, head.keys_unrotated[n], n)):
        np.testing.assert_allclose(sorted(vector), sorted(unrotated), atol=0)
        assert np.linalg.norm(rope_rotate(vector, position, positions.base)) == pytest.approx(np.linalg.norm(unrotated))
    curves = positions.curves["rope"]
    assert curves.spread() < 1e-9  # the same q·k at every key position for one m − n
    assert lab.source_label.isVisible() and lab.source_label.text().startswith(
        "Qwen/Qwen2.5-0.5B, layer 0, head 1: “")
    assert lab.source_label.text().endswith(": q and k before RoPE, base θ = 1\u2009000\u2009000")
    assert "Real q and k from Qwen/Qwen2.5-0.5B, layer 0, head 1 (K/V head 0)" in lab.source_label.toolTip()
    assert not lab.intro_label.isVisible()  # the real pair's line stands in its place
    # sliding n keeps what the model's numbers give for the new offset
    lab.sliders["n"].setValue(n + 2)
    expected = float(rope_rotate(positions.q, m, positions.base) @ rope_rotate(positions.k, n + 2, positions.base))
    assert positions.score["rope"] == pytest.approx(expected, abs=1e-12)
    window.actions_by_name["undo"].trigger()  # one step back: the slider
    window.actions_by_name["undo"].trigger()  # and the pair itself goes
    assert not positions.given and not lab.source_label.isVisible() and lab.intro_label.isVisible()


def test_i_love_beijing_from_the_self_attention_page_in_one_click(window, hub, tiny_bert_dir):
    window.show_page(page_index("transformer"))
    assert window.transformer_lab.open_model(tiny_bert_dir)  # open: a model whose name says nothing of Chinese
    window.show_page(page_index("self-attention"))
    lab = window.self_attention_lab
    QTest.mouseClick(lab.chinese_button, LEFT)
    button = lab.real_model_button
    assert button.isVisible() and button.text() == "In a real model…"
    QTest.mouseClick(button, LEFT)
    panel = window.transformer_lab
    assert window.current_page() is panel
    wait_idle(panel)
    assert panel.loaded.name == BERT_CHINESE and panel.sentence_edit.text() == "我爱北京"
    assert panel.analysis.tokens == ("[CLS]", "我", "爱", "北", "京", "[SEP]")
    assert [panel.query_combo.itemText(i) for i in range(6)][1:5] == ["1: 我", "2: 爱", "3: 北", "4: 京"]
    reference = load_checkpoint(hub[BERT_CHINESE])
    try:
        expected = reference.analyse("我爱北京").head(0, 0).weights
    finally:
        reference.tokenizer.close()
    np.testing.assert_allclose(panel.weights_map.image.image, expected, atol=1e-12)


def test_a_qwen2_shown_keeps_the_click_in_its_own_tokenizer(window, hub):
    panel = window.transformer_lab
    window.show_page(page_index("transformer"))
    assert panel.open_model(hub[QWEN])
    window.show_page(page_index("self-attention"))
    QTest.mouseClick(window.self_attention_lab.real_model_button, LEFT)
    wait_idle(panel)
    from tokenizers import Tokenizer

    ids = Tokenizer.from_file(str(hub[QWEN] / "tokenizer.json")).encode("我爱北京").ids
    assert panel.loaded.name == QWEN and panel.analysis.ids == tuple(ids)
    assert "".join(panel.analysis.tokens) == "我爱北京"


def test_without_a_chinese_model_the_page_says_which_to_get(window, hub, monkeypatch, tiny_bert_dir):
    panel = window.transformer_lab
    assert panel.open_model(tiny_bert_dir)
    monkeypatch.setenv("HF_HOME", str(hub[QWEN].parents[4] / "no-such-home"))  # an empty cache
    window.show_page(page_index("self-attention"))
    QTest.mouseClick(window.self_attention_lab.real_model_button, LEFT)
    assert window.current_page() is panel and not panel.busy
    assert panel.status_label.isVisible() and panel.loaded.folder == tiny_bert_dir  # the model shown stays
    assert "No model that reads Chinese is on this computer. File ▸ Get a model… offers bert-base-chinese (412 MB) " \
        "and Qwen2.5-0.5B (995 MB)" in panel.status_label.text()


def test_bert_keeps_its_heads_ungrouped(window, tiny_bert_dir):
    panel = window.transformer_lab
    assert panel.open_model(tiny_bert_dir)
    views = panel.attention_views
    assert not views.groups_label.isVisibleTo(views) and views.head_view.group_labels() == []
    assert views.model_view.group_labels() == []
    swatch = views.head_view.swatch_rect
    assert swatch(2).left() - swatch(1).right() == swatch(1).left() - swatch(0).right()
    assert not panel.positions_button.isVisibleTo(panel)  # no RoPE: no pair for the positions lab



def settle():
    for _ in range(2):
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QApplication.processEvents()


def test_in_chinese_at_the_hall_s_type_size_the_new_texts_are_translated_and_whole(window, hub):
    from attention_explorer.ui.i18n.switcher import language_switcher

    # The hall's type size (presentation's zoom) on the wide pages, which take the whole 1280 × 720 window. (Entering
    # presentation itself fits the window to the offscreen screen, which is not the hall's; the presentation tests
    # check that layout.)
    language_switcher().set_language("zh_CN")
    theme().set_zoom(1.5)
    try:
        window.show_page(page_index("self-attention"))  # a wide page: the docks step aside
        window.resize(1280, 720)
        settle()
        lab = window.self_attention_lab
        assert window.size().toTuple() == (1280, 720)
        lab = window.self_attention_lab
        QTest.mouseClick(lab.chinese_button, LEFT)
        settle()
        assert lab.real_model_button.text() == "在真实模型中…"
        assert [problem for problem in cut_texts(window) if problem.startswith("realModelButton")] == []
        window.show_page(page_index("transformer"))
        panel = window.transformer_lab
        assert panel.open_model(hub[QWEN]) and panel.set_sentence("我爱北京天安门")
        show_tab(panel, panel.attention_views)
        settle()
        views = panel.attention_views
        assert views.groups_label.text().startswith(
            "分组查询注意力，4 个查询头共用 2 个 K/V 头：头 0–1 共用 K/V 头 0，头 2–3 共用 K/V 头 1。")
        assert [text for text, _rect in views.head_view.group_labels()] == ["K/V 0", "K/V 1"]
        assert panel.positions_button.text().endswith("送到位置页")
        assert cut_texts(window) == []
        show_tab(panel, panel.generation)
        QTest.mouseClick(panel.generation.next_button, LEFT)
        wait_idle(panel)
        settle()
        generation = panel.generation
        assert generation.grouping_label.text().startswith("分组查询注意力：4 个查询头共用 2 个 K/V 头")
        assert generation.saving.rows[1][0].startswith("完整 MHA，4 个头：")
        widest = max(generation.saving.fontMetrics().horizontalAdvance(label) for label, _ in generation.saving.rows)
        assert generation.saving.bar_rects()[0].left() >= widest  # the bars start after their labels
        assert cut_texts(window) == [] and window.size().toTuple() == (1280, 720)
        QTest.mouseClick(panel.positions_button, LEFT)
        settle()
        positions = window.current_page()
        assert positions.source_label.isVisible() and "RoPE 之前" in positions.source_label.text()
        assert cut_texts(window) == [] and window.size().toTuple() == (1280, 720)
    finally:
        theme().set_zoom(1.0)
        language_switcher().set_language("en")
