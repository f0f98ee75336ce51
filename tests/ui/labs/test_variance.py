"""Variance lab: histograms of q·k and q·k/√d_k, their measured spread against √d_k, seeds, the one-hot share."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attention_explorer.core.maths.variance import D_K_LADDER, example_scores, example_vectors
from attention_explorer.ui.labs.variance.lab import VarianceLab
from attention_explorer.ui.style.theme import theme
from attention_explorer.ui.widgets.d_k_stops import position_from_d_k


@pytest.fixture
def make_lab(qtbot, model):
    def make():
        theme().set_zoom(1.0)
        theme().set_mode("light")
        lab = VarianceLab(model)
        qtbot.addWidget(lab)
        lab.resize(900, 600)
        lab.show()
        qtbot.waitExposed(lab)
        return lab

    return make


def plain(label) -> str:
    document = QTextDocument()
    document.setHtml(label.text())
    return document.toPlainText().replace("\u00a0", " ").replace("\u2212", "-")


def stats(label) -> dict[str, list[str]]:
    """The stats table as {"measured": [mean, variance, std], "theory": [...]}."""
    cells = [line.strip() for line in plain(label).split("\n") if line.strip()]
    assert cells[:3] == ["mean", "variance", "std"]
    return {cells[3]: cells[4:7], cells[7]: cells[8:11]}


def set_d_k(lab, d_k):
    lab.d_k_spin.setFocus()
    lab.d_k_spin.selectAll()
    QTest.keyClicks(lab.d_k_spin, str(d_k))
    QTest.keyClick(lab.d_k_spin, Qt.Key.Key_Return)
    assert lab.d_k == d_k


def histogram(item):
    x, y = item.getData()
    return np.asarray(x, dtype=float).copy(), np.asarray(y, dtype=float).copy()


def test_defaults(make_lab, model):
    lab = make_lab()
    assert lab.objectName() == "varianceLab"
    assert (lab.d_k, lab.samples, lab.seed, lab.n_keys) == (64, 20_000, 0, 8)
    assert lab.d_k_slider.value() == position_from_d_k(64)
    assert model.undo_stack.count() == 0


@pytest.mark.parametrize(("d_k", "theory_std"), [(64, "√64 = 8"), (512, "√512 ≈ 22.6")])
def test_measured_std_is_within_3_percent_of_root_d_k(make_lab, d_k, theory_std):
    lab = make_lab()
    set_d_k(lab, d_k)
    raw, scaled = stats(lab.raw_stats), stats(lab.scaled_stats)
    assert raw["theory"] == ["0", str(d_k), theory_std]
    assert scaled["theory"] == ["0", "1", "1"]
    mean, variance, std = (float(v) for v in raw["measured"])
    assert std == pytest.approx(math.sqrt(d_k), rel=0.03)
    assert variance == pytest.approx(d_k, rel=0.06)
    assert abs(mean) < 0.05 * math.sqrt(d_k)
    assert float(scaled["measured"][2]) == pytest.approx(1.0, rel=0.03)
    # What is plotted is what was measured: the histogram holds every sample (none beyond ±4.5σ here).
    x, counts = histogram(lab.raw_hist)
    assert counts.sum() == pytest.approx(20_000, abs=5)
    assert x[0] == pytest.approx(-4.5 * math.sqrt(d_k)) and x[-1] == pytest.approx(4.5 * math.sqrt(d_k))
    # The normal curve is N(0, d_k) scaled to the histogram: its peak is samples·width/(σ√2π).
    _, curve_y = lab.raw_curve.getData()
    width = x[1] - x[0]
    assert float(np.max(curve_y)) == pytest.approx(20_000 * width / (math.sqrt(d_k) * math.sqrt(2 * math.pi)),
                                                   rel=1e-3)
    assert f"N(0, {d_k})" in lab.titles[lab.raw_plot].text()


def test_a_fixed_seed_gives_identical_histograms_and_another_seed_changes_them(make_lab, qtbot):
    first, second = make_lab(), make_lab()
    assert np.array_equal(histogram(first.raw_hist)[1], histogram(second.raw_hist)[1])
    assert np.array_equal(histogram(first.scaled_hist)[1], histogram(second.scaled_hist)[1])
    before = histogram(first.raw_hist)[1]
    first.seed_spin.setFocus()
    QTest.keyClick(first.seed_spin, Qt.Key.Key_Up)
    assert first.seed == 1
    assert not np.array_equal(histogram(first.raw_hist)[1], before)
    qtbot.mouseClick(second.new_seed_button, Qt.MouseButton.LeftButton)
    assert second.seed != 0
    assert not np.array_equal(histogram(second.raw_hist)[1], before)


def test_sample_count_changes_the_histogram_total(make_lab):
    lab = make_lab()
    lab.samples_spin.setFocus()
    lab.samples_spin.selectAll()
    QTest.keyClicks(lab.samples_spin, "100000")
    QTest.keyClick(lab.samples_spin, Qt.Key.Key_Return)
    assert lab.samples == 100_000
    assert histogram(lab.scaled_hist)[1].sum() == pytest.approx(100_000, abs=10)


def test_d_k_slider_moves_the_spread(make_lab):
    lab = make_lab()
    lab.d_k_slider.setFocus()
    QTest.keyClick(lab.d_k_slider, Qt.Key.Key_End)
    assert lab.d_k == 4096 and lab.d_k_spin.value() == 4096
    assert histogram(lab.raw_hist)[0][-1] == pytest.approx(4.5 * 64)
    assert histogram(lab.scaled_hist)[0][-1] == pytest.approx(4.5)
    assert stats(lab.raw_stats)["theory"][2] == "√4096 = 64"
    assert lab.share_marker.value() == pytest.approx(12.0)  # log2 4096


def test_example_bars_are_one_query_softmax_with_and_without_scaling(make_lab):
    lab = make_lab()
    set_d_k(lab, 512)
    query, keys = example_vectors(0)
    scores = keys[:8, :512] @ query[:512]
    assert np.allclose(scores, example_scores(query, keys, 512, 8))

    def by_hand(x):
        e = np.exp(x - x.max())
        return e / e.sum()

    assert np.allclose(lab.raw_bars.opts["height"], by_hand(scores))
    assert np.allclose(lab.scaled_bars.opts["height"], by_hand(scores / math.sqrt(512)))
    lab.keys_slider.setValue(20)
    assert len(lab.raw_bars.opts["height"]) == 20
    assert plain(lab.keys_value) == "N = 20"


def test_one_hot_share_is_higher_without_scaling_at_large_d_k(make_lab):
    lab = make_lab()
    x, unscaled = lab.share_unscaled.getData()
    _, scaled = lab.share_scaled.getData()
    assert np.allclose(x, np.log2(D_K_LADDER))
    assert unscaled[-1] > 0.7 > 0.05 > scaled[-1]  # d_k = 4096, 8 keys
    assert np.all(unscaled[7:] > scaled[7:])  # from d_k = 128 on
    assert 0.0 <= scaled.min() and unscaled.max() <= 1.0


def test_hints_and_language_change(make_lab):
    lab = make_lab()
    hints = []
    lab.hint.connect(hints.append)
    QApplication.sendEvent(lab.new_seed_button, QEvent(QEvent.Type.Enter))
    QApplication.sendEvent(lab.new_seed_button, QEvent(QEvent.Type.Leave))
    assert hints == [lab.new_seed_button.toolTip(), ""] and hints[0]
    lab.new_seed_button.setText("?")
    QApplication.sendEvent(lab, QEvent(QEvent.Type.LanguageChange))
    assert lab.new_seed_button.text() == "New seed"
