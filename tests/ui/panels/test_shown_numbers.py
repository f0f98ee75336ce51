"""The numbers the panels show, each checked against a value worked out here by hand or by a plain loop.

Never from the panel's own formula: a panel that sums only the rows it shows, names the selected key as the
largest, or writes K1's length beside K2 must fail here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.files.presets import load_preset
from attention_explorer.core.scenes.query.scene import Scenario
from attention_explorer.ui.panels.output_view import OutputView
from attention_explorer.ui.panels.steps_view import StepsView
from attention_explorer.ui.panels.weights_chart import WeightsChart
from attention_explorer.ui.style.theme import theme
from tests.ui.widget_helpers import show_widget

MINUS = "\u2212"


def shown(value: float, decimals: int = 3) -> str:
    """`value` as the panels write it: fixed decimals, a typographic minus."""
    return f"{value:.{decimals}f}".replace("-", MINUS)


def plain_softmax(scores: list[float]) -> list[float]:
    """softmax by a plain loop, no numpy."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


@pytest.fixture(autouse=True)
def _plain_theme():
    theme().set_zoom(1.0)
    theme().set_mode("light")
    yield


def steps_text(qtbot, model) -> str:
    view = show_widget(qtbot, StepsView(model), (480, 900))
    return view.plain_text().replace("\u00a0", " ")


# ---------------------------------------------------------------- the four steps


def test_the_sum_of_e_x_is_over_every_key_when_only_twelve_rows_are_shown(qtbot, model):
    # d_k = 1, Q = [1], K_i = [0.1·i] for 20 keys, factor 1: x_i = 0.1·i, Σ e^x = Σ_i e^(0.1 i) over all 20.
    n = 20
    model.load_scenario(Scenario(query=[1.0], keys=[[0.1 * i] for i in range(n)],
                                 values=[[float(i)] for i in range(n)], scale=1.0))
    total = sum(math.exp(0.1 * i) for i in range(n))  # 60.751…; the 12 rows on screen add up to 44.6
    text = steps_text(qtbot, model)
    assert "… and 8 more keys" in text
    assert f"Σ = all {n} terms: {shown(total)}" in text
    # The heaviest key's row divides by that same total.
    assert f"/ {shown(total)} = {shown(math.exp(1.9) / total)}" in text


def test_the_sum_lists_its_terms_at_exactly_five_keys(qtbot, model):
    # Scores 0, 1, 2, 3, 4 at factor 1: Σ = 1 + e + e² + e³ + e⁴ = 85.791, each term written out.
    model.load_scenario(Scenario(query=[1.0], keys=[[float(i)] for i in range(5)],
                                 values=[[1.0]] * 5, scale=1.0))
    text = steps_text(qtbot, model)
    assert "Σ = 1.000 + 2.718 + 7.389 + 20.086 + 54.598 = 85.791" in text
    assert "all 5 terms" not in text


def test_the_law_of_cosines_uses_the_selected_keys_length_and_angle(qtbot, model):
    # drag-2d: Q = [1.5, 0.5]; K2 = [−0.6, 1.3], K3 = [0.8, −1.0]; each line worked out from the vectors alone.
    view = show_widget(qtbot, StepsView(model), (480, 900))
    q = (1.5, 0.5)
    for index, k in ((1, (-0.6, 1.3)), (2, (0.8, -1.0))):
        model.select_key(index)
        text = view.plain_text().replace("\u00a0", " ")
        q_norm, k_norm = math.hypot(*q), math.hypot(*k)
        dot = q[0] * k[0] + q[1] * k[1]
        cosine = dot / (q_norm * k_norm)
        distance2 = (q[0] - k[0]) ** 2 + (q[1] - k[1]) ** 2
        cos_text = f"({shown(cosine)})" if cosine < 0 else shown(cosine)
        law = (f"{shown(distance2)} = {shown(q_norm**2)} + {shown(k_norm**2)} {MINUS} 2 × {shown(q_norm)} × "
               f"{shown(k_norm)} × {cos_text}")
        assert law in text, f"K{index + 1}: {law!r} not in\n{text}"
        angle = math.degrees(math.acos(cosine))
        assert f"{shown(dot)} = {shown(q_norm)} × {shown(k_norm)} × {cos_text}  (θ = {angle:.1f}°)" in text


# ---------------------------------------------------------------- the weights chart


def test_largest_weight_names_the_heaviest_key_even_when_another_is_selected(qtbot, model):
    # drag-2d: scores Q·K = 2.25, −0.25, 0.7, divided by √2; K1 is the heaviest, K3 is selected.
    chart = show_widget(qtbot, WeightsChart(model), (480, 400))
    model.set_label(0, "first book")
    model.select_key(2)
    weights = plain_softmax([s / math.sqrt(2) for s in (2.25, -0.25, 0.7)])
    text = chart.stats_label.text()
    assert f"Largest weight <b>{weights[0]:.3f}</b> (first book)" in text
    np.testing.assert_allclose(np.asarray(chart.bars.opts["height"], dtype=float), weights, atol=1e-12)
    # Make K3 the heaviest: the line follows, whichever key is selected.
    model.select_key(0)
    model.set_vector("key", 2, [3.0, 0.0])  # Q·K3 = 4.5
    weights = plain_softmax([s / math.sqrt(2) for s in (2.25, -0.25, 4.5)])
    assert f"Largest weight <b>{weights[2]:.3f}</b> (K3)" in chart.stats_label.text()


# ---------------------------------------------------------------- the output view


def point_opacities(view) -> list[float]:
    """The fill opacity of each drawn V point, in key order."""
    points = sorted(view.value_points.points(), key=lambda point: int(point.data()))
    return [point.brush().color().alphaF() for point in points]


def test_the_v_points_opacity_follows_the_weights(qtbot, library_model):
    view = show_widget(qtbot, OutputView(library_model), (480, 400))
    # library: weights 0.506, 0.186, 0.307 (by hand, see the article): K1 most opaque, then K3, then K2.
    opacities = point_opacities(view)
    assert opacities[0] > opacities[2] > opacities[1]
    # K2 = Q (score 2, like K1) and K1 = −Q (score −2): weights e^1, e^−1, e^0.5 → K2 heaviest, K1 lightest.
    library_model.set_vector("key", 1, [1.0, 0.0, 1.0, 0.0])
    library_model.set_vector("key", 0, [-1.0, 0.0, -1.0, 0.0])
    QApplication.processEvents()
    weights = plain_softmax([-1.0, 1.0, 0.5])
    assert weights[1] > weights[2] > weights[0]
    opacities = point_opacities(view)
    assert opacities[1] > opacities[2] > opacities[0]
    # Nearly all the weight on one key (factor 20): that V fully opaque, the others at the faintest step.
    library_model.set_scale(20.0)
    opacities = point_opacities(view)
    assert opacities[1] == pytest.approx(1.0, abs=0.01)
    assert max(opacities[0], opacities[2]) < 0.5


def test_steps_and_chart_agree_with_the_article_on_the_library_example(qtbot, library_model):
    # The article's numbers: weights 0.506 / 0.186 / 0.307 and Σ e^x = 5.367, shown the same in both panels.
    chart = show_widget(qtbot, WeightsChart(library_model), (480, 400))
    text = steps_text(qtbot, library_model)
    assert [t.toPlainText() for t in chart.value_texts] == ["0.506", "0.186", "0.307"]
    assert "Largest weight <b>0.506</b> (K1)" in chart.stats_label.text()
    for weight in ("0.506", "0.186", "0.307"):
        assert f"/ 5.367 = {weight}" in text
    assert load_preset("library") == library_model.scenario
